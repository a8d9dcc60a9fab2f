// `dra allocate` (commands.hpp): the policy chosen by --policy (nodes by --score), run once per command.
#include "allocate_command.hpp"
#include "commands.hpp"

#include <dra/alloc/best_fit.hpp>
#include <dra/compiled_runs.hpp>

namespace dra_cli {

// `dra allocate`. Selectors compile in the environment upstream's allocator uses whatever the
// features: the "stored expressions" one, which declares every field and function of the newest
// version (feature gates only narrow the environment for new API objects). Exit code 2 when
// --features is invalid.
int run_allocate(const invocation& call, const dra::model::scenario& s, dra::json::input_format format,
                        std::ostream& out, std::ostream& err) {
  const auto requested = requested_features(call, err);
  if (!requested) return 2;
  const dra::alloc::features features = *requested;
  const dra::compiled::selector_engine engine;  // the CEL code compiled once, in dra_compiled
  if (call.policy == "sorted") return run_allocate_with<dra::alloc::sorted>(engine, features, call, s, format, out, err);
  if (call.policy == "shared_capacity")
    return run_allocate_with<dra::alloc::shared_capacity>(engine, features, call, s, format, out, err);
  return run_allocate_with(engine, features, call, s, format, out, err);
}

}  // namespace dra_cli
