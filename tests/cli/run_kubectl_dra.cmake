# Runs the dra command as kubectl-dra (a link of that name) with the stand-in kubectl of tests/cli/data first on PATH
# (or, with NO_KUBECTL, with no kubectl at all), checks its exit code, stdout and stderr as run_dra.cmake does, then
# the exact arguments kubectl was called with (KUBECTL_ARGS: a file with one call a line).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(CREATE_LINK ${DRA} ${WORK_DIR}/kubectl-dra SYMBOLIC)
if(NO_KUBECTL)
  set(path ${WORK_DIR})
else()
  set(path "${DATA}:$ENV{PATH}")
endif()
set(DRA ${CMAKE_COMMAND} -E env "PATH=${path}" "KUBECTL_DRA_ARGS=${WORK_DIR}/kubectl-args.txt"
    "KUBECTL_DRA_FIXTURE=${FIXTURE}" "KUBECTL_DRA_FAIL=${FAIL}" ${WORK_DIR}/kubectl-dra)
include(${CMAKE_CURRENT_LIST_DIR}/run_dra.cmake)
if(KUBECTL_ARGS)
  set(called "")
  if(EXISTS ${WORK_DIR}/kubectl-args.txt)
    file(READ ${WORK_DIR}/kubectl-args.txt called)
  endif()
  file(READ ${KUBECTL_ARGS} expected_calls)
  if(NOT called STREQUAL expected_calls)
    message(FATAL_ERROR "kubectl-dra ${ARGS}: kubectl was called with\n${called}\nexpected\n${expected_calls}")
  endif()
endif()
