# Finds dra's dependencies the same way for the build tree and for draConfig.cmake.
include(CMakeFindDependencyMacro)
if(NOT TARGET range-v3::range-v3)
  find_dependency(range-v3)
endif()
if(NOT TARGET simdjson::simdjson)
  find_dependency(simdjson)
endif()
if(NOT TARGET PkgConfig::RE2)
  # Debian 12's RE2 has no CMake package, only pkg-config.
  find_dependency(PkgConfig)
  pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET GLOBAL re2)
endif()
