// The scenario runs with best fit (--policy sorted), compiled once (include/dra/compiled_runs.hpp); its guard's
// other runs are first_fit.cpp's and sorted_until_first_rejection.cpp's.
#include <dra/compiled_runs.hpp>

DRA_COMPILED_RUNS_DEFINE(sorted)
