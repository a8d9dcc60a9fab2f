// The optional compiled component: loading, validating and allocating a scenario as ordinary functions defined once
// in the dra_compiled library (target dra::compiled), so that a program's own files include only the model's types
// and compile in seconds instead of a minute at -O2.
//
// Header-only use (dra/dra.hpp, target dra::dra) stays the default and offers everything; this header offers the
// common path with the library's selector engine and policies:
//
//   auto doc = dra::compiled::scenario_document::load_file("scenario.json");  // dra::result<...>
//   for (const dra::error& problem : doc->validate()) std::cerr << problem.to_string() << '\n';
//   auto report = dra::compiled::allocate(doc->scenario(), dra::alloc::first_fit{});
//   std::cout << dra::compiled::output_document(report.outcomes);
#pragma once

#include <dra/alloc/best_fit.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/core/result.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::json {
class document;
}  // namespace dra::json

namespace dra::compiled {

// A scenario read from JSON or YAML (as dra::json::load reads it), with the text its objects borrow from.
class scenario_document {
 public:
  [[nodiscard]] static result<scenario_document> load(std::string_view text);
  [[nodiscard]] static result<scenario_document> load_file(const std::string& path);

  [[nodiscard]] const model::scenario& scenario() const noexcept;
  // Every problem dra::validate::validate finds (empty when the scenario is valid).
  [[nodiscard]] error_list validate() const;

  scenario_document(scenario_document&&) noexcept;
  scenario_document& operator=(scenario_document&&) noexcept;
  ~scenario_document();

 private:
  struct impl;
  explicit scenario_document(std::unique_ptr<impl> loaded);
  [[nodiscard]] static result<scenario_document> from(result<json::document> loaded);
  std::unique_ptr<impl> impl_;
};

// What dra::sim::run_scenario reports, for the common uses. The outcomes borrow from the scenario.
struct allocation_report {
  std::vector<model::claim_outcome> outcomes;  // one per pending claim, in processing order
  std::string document;                        // the dra command's output document: results, and pods when pending
  std::vector<std::string> warnings;           // claims that do not exist, ...
  std::uint64_t search_steps = 0;
};

// dra::sim::run_scenario with Kubernetes' CEL environment and one of the library's policies.
[[nodiscard]] allocation_report allocate(const model::scenario& s, alloc::first_fit policy,
                                         alloc::features features = alloc::features::all());
[[nodiscard]] allocation_report allocate(const model::scenario& s, alloc::sorted policy,
                                         alloc::features features = alloc::features::all());
[[nodiscard]] allocation_report allocate(const model::scenario& s, alloc::shared_capacity policy,
                                         alloc::features features = alloc::features::all());

// dra::json::output_document: {"results": [...]} alone (allocation_report::document adds the pods).
[[nodiscard]] std::string output_document(std::span<const model::claim_outcome> outcomes, int indent = 2);

}  // namespace dra::compiled
