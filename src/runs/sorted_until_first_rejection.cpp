// The scenario run with best fit until the queue's first rejection and first fit after it (best fit's guard),
// compiled once (include/dra/sim/runs.hpp).
#include <dra/sim/runs.hpp>

DRA_SIM_RUN_DEFINE(sorted_until_first_rejection)
