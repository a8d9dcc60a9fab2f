// The scenario run with shared_capacity (packing shared devices), compiled once (include/dra/compiled_runs.hpp).
#include <dra/compiled_runs.hpp>

DRA_COMPILED_RUNS_DEFINE(shared_capacity)
