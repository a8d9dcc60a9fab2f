// The scenario run with shared_capacity (packing shared devices), compiled once (include/dra/sim/runs.hpp).
#include <dra/sim/runs.hpp>

DRA_SIM_RUN_DEFINE(shared_capacity)
