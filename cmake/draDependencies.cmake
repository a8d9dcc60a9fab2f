# Finds dra's dependencies the same way for the build tree and for an
# installed draConfig.cmake.
include(CMakeFindDependencyMacro)
if(NOT TARGET Threads::Threads)
  # json::loader reads large inputs on several threads when asked.
  find_dependency(Threads)
endif()
if(NOT TARGET range-v3::range-v3)
  find_dependency(range-v3)
endif()
if(NOT TARGET simdjson::simdjson)
  find_dependency(simdjson)
endif()
if(NOT TARGET yaml-cpp::yaml-cpp)
  # YAML input is read with yaml-cpp. Debian 12's 0.7 names its target yaml-cpp;
  # 0.8 (vcpkg, Conan) names it yaml-cpp::yaml-cpp: dra links the latter name.
  if(NOT TARGET yaml-cpp)
    find_dependency(yaml-cpp)
  endif()
  if(NOT TARGET yaml-cpp::yaml-cpp)
    add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED GLOBAL)
    target_link_libraries(yaml-cpp::yaml-cpp INTERFACE yaml-cpp)
  endif()
endif()
if(NOT TARGET PkgConfig::RE2)
  # Debian's RE2 has no CMake package, only pkg-config: that is the primary
  # way. Package managers whose RE2 ships a CMake package instead (vcpkg,
  # Conan) get the same target name through re2::re2.
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(RE2 QUIET IMPORTED_TARGET GLOBAL re2)
  endif()
  if(NOT TARGET PkgConfig::RE2)
    find_dependency(re2 CONFIG)
    add_library(PkgConfig::RE2 INTERFACE IMPORTED GLOBAL)
    target_link_libraries(PkgConfig::RE2 INTERFACE re2::re2)
  endif()
endif()
