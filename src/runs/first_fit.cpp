// The scenario run with first fit, compiled once (include/dra/compiled_runs.hpp).
#include <dra/compiled_runs.hpp>

DRA_COMPILED_RUNS_DEFINE(first_fit)
