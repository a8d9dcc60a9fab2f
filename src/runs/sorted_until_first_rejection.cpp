// The scenario run with best fit until the queue's first rejection and first fit after it (best fit's guard),
// compiled once (include/dra/compiled_runs.hpp).
#include <dra/compiled_runs.hpp>

DRA_COMPILED_RUNS_DEFINE(sorted_until_first_rejection)
