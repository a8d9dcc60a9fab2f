// The compiled component's allocation (include/dra/compiled.hpp): the scenario runs compiled in src/runs/ with the
// compiled selector engine, and the output documents.
#include <dra/compiled.hpp>
#include <dra/compiled_engine.hpp>
#include <dra/compiled_runs.hpp>
#include <dra/json/emit.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/runner.hpp>

namespace dra::compiled {

namespace {
template <class Policy>
allocation_report run(const model::scenario& s, Policy policy, alloc::features features) {
  const selector_engine engine;
  sim::run_report report = sim::run_scenario(s, engine, features, std::move(policy));
  std::string document = sim::output_document(s, report);
  return {std::move(report.outcomes), std::move(document), std::move(report.warnings), report.search_steps};
}
}  // namespace

allocation_report allocate(const model::scenario& s, alloc::first_fit policy, alloc::features features) {
  return run(s, policy, features);
}
allocation_report allocate(const model::scenario& s, alloc::sorted policy, alloc::features features) {
  return run(s, policy, features);
}
allocation_report allocate(const model::scenario& s, alloc::shared_capacity policy, alloc::features features) {
  return run(s, policy, features);
}

std::string output_document(std::span<const model::claim_outcome> outcomes, int indent) {
  return json::output_document(outcomes, indent);
}

}  // namespace dra::compiled
