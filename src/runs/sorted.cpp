// The scenario run with best fit (--policy sorted), compiled once (include/dra/sim/runs.hpp); its guard's other runs
// are first_fit.cpp's and sorted_until_first_rejection.cpp's.
#include <dra/sim/runs.hpp>

DRA_SIM_RUN_DEFINE(sorted)
