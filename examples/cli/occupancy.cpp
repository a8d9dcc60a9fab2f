// `dra occupancy` (commands.hpp): a run with the chosen policy, then what each claim holds.
#include "commands.hpp"
#include "occupancy_command.hpp"

#include <dra/alloc/best_fit.hpp>
#include <dra/compiled_runs.hpp>

namespace dra_cli {

// `dra occupancy`: --features and --policy as for `dra allocate`. Exit code 2 when --features is invalid.
int run_occupancy(const invocation& call, const dra::json::document& doc, std::ostream& out, std::ostream& err) {
  const auto requested = requested_features(call, err);
  if (!requested) return 2;
  const dra::alloc::features features = *requested;
  const dra::compiled::selector_engine engine;  // the CEL code compiled once, in dra_compiled
  if (call.policy == "sorted") return run_occupancy_with<dra::alloc::sorted>(engine, features, call, doc, out, err);
  if (call.policy == "shared_capacity")
    return run_occupancy_with<dra::alloc::shared_capacity>(engine, features, call, doc, out, err);
  return run_occupancy_with(engine, features, call, doc, out, err);
}

}  // namespace dra_cli
