// The scenario run with kube-scheduler's node scoring (--score kube), compiled once (include/dra/sim/runs.hpp).
#include <dra/sim/runs.hpp>

DRA_SIM_RUN_DEFINE(kube_score)
