// The compiled component's definitions (include/dra/compiled.hpp): the header-only engine, instantiated once here.
#include <dra/compiled.hpp>
#include <dra/compiled_runs.hpp>
#include <dra/dra.hpp>

namespace dra::compiled {

struct scenario_document::impl {
  json::document document;
};

scenario_document::scenario_document(std::unique_ptr<impl> loaded) : impl_(std::move(loaded)) {}
scenario_document::scenario_document(scenario_document&&) noexcept = default;
scenario_document& scenario_document::operator=(scenario_document&&) noexcept = default;
scenario_document::~scenario_document() = default;

result<scenario_document> scenario_document::load(std::string_view text) { return from(json::load(text)); }

result<scenario_document> scenario_document::load_file(const std::string& path) { return from(json::load_file(path)); }

result<scenario_document> scenario_document::from(result<json::document> loaded) {
  if (!loaded) return std::move(loaded).error();
  return scenario_document(std::make_unique<impl>(impl{std::move(*loaded)}));
}

const model::scenario& scenario_document::scenario() const noexcept { return impl_->document.scenario(); }

error_list scenario_document::validate() const { return validate::validate(impl_->document); }

namespace {
template <class Policy>
allocation_report run(const model::scenario& s, Policy policy, alloc::features features) {
  const selector_engine engine;  // its runs are compiled once, in src/runs/
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
