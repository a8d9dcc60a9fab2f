# Builds and runs the consumer program with nothing but the compiler and the flags
# `pkg-config --cflags --libs dra` gives; fails on any error.
# Inputs: PKG_CONFIG, PKG_CONFIG_DIR (where the installed dra.pc is), SOURCE, BINARY_DIR, CXX_COMPILER.
file(REMOVE_RECURSE ${BINARY_DIR})
file(MAKE_DIRECTORY ${BINARY_DIR})
if(NOT EXISTS ${PKG_CONFIG_DIR}/dra.pc)
  message(FATAL_ERROR "dra.pc is not installed in ${PKG_CONFIG_DIR}")
endif()
set(ENV{PKG_CONFIG_PATH} "${PKG_CONFIG_DIR}")
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs dra
  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(flags UNIX_COMMAND "${flags}")
message(STATUS "pkg-config --cflags --libs dra: ${flags}")
execute_process(COMMAND ${CXX_COMPILER} ${SOURCE} -o ${BINARY_DIR}/app ${flags} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${BINARY_DIR}/app OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
if(NOT out MATCHES "dra consumer ok")
  message(FATAL_ERROR "consumer printed unexpected output: ${out}")
endif()
