// The scenario run with first fit, compiled once (include/dra/sim/runs.hpp).
#include <dra/sim/runs.hpp>

DRA_SIM_RUN_DEFINE(first_fit)
