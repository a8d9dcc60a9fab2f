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
if(NOT TARGET PkgConfig::YAML)
  # YAML is read and written with libyaml, through pkg-config (yaml-0.1) as Debian ships it; package managers whose
  # libyaml ships a CMake package instead (vcpkg: yaml, Conan: yaml::yaml) get the same target name.
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(YAML QUIET IMPORTED_TARGET GLOBAL yaml-0.1)
  endif()
  if(NOT TARGET PkgConfig::YAML)
    find_dependency(yaml CONFIG)
    add_library(PkgConfig::YAML INTERFACE IMPORTED GLOBAL)
    if(TARGET yaml::yaml)
      target_link_libraries(PkgConfig::YAML INTERFACE yaml::yaml)
    else()
      target_link_libraries(PkgConfig::YAML INTERFACE yaml)
    endif()
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
