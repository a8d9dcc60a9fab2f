# Configures, builds and runs a small consumer project; fails on any error.
# Inputs: SOURCE_DIR, BINARY_DIR, CONFIGURE_ARGS, CXX_COMPILER.
# Debug: the program loads, compiles CEL and allocates, which takes a minute to compile at -O2 and seconds at -O0.
file(REMOVE_RECURSE ${BINARY_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Debug ${CONFIGURE_ARGS}
  COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${BINARY_DIR}/app OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
if(NOT out MATCHES "dra consumer ok")
  message(FATAL_ERROR "consumer printed unexpected output: ${out}")
endif()
if(EXISTS ${BINARY_DIR}/app_compiled)
  execute_process(COMMAND ${BINARY_DIR}/app_compiled OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
  if(NOT out MATCHES "dra compiled consumer ok")
    message(FATAL_ERROR "app_compiled printed unexpected output: ${out}")
  endif()
endif()
