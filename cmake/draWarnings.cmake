# Warning flags for dra's own programs (tests, examples, benchmarks, fuzzers).
# DRA_WARNINGS_AS_ERRORS turns them into errors; CI sets it.
include_guard(GLOBAL)
option(DRA_WARNINGS_AS_ERRORS "Treat warnings in dra's own code as errors" OFF)
add_library(dra_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(dra_warnings INTERFACE -Wall -Wextra -Wpedantic
    $<$<BOOL:${DRA_WARNINGS_AS_ERRORS}>:-Werror>)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports std::optional<std::vector> members moved by std::stable_sort
    # as maybe-uninitialized at -O1 and above (a known false positive).
    target_compile_options(dra_warnings INTERFACE -Wno-maybe-uninitialized)
  endif()
elseif(MSVC)
  target_compile_options(dra_warnings INTERFACE /W4 $<$<BOOL:${DRA_WARNINGS_AS_ERRORS}>:/WX>)
endif()
