// A consumer of dra, as a user's project builds it: loads a scenario from JSON text,
// compiles a CEL selector, allocates a claim, and checks the exact results.
#include <dra/dra.hpp>

#include "consumer_case.hpp"

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

int fail(std::string_view what, std::string_view detail) {
  std::cerr << "dra consumer failed: " << what << ": " << detail << '\n';
  return 1;
}

}  // namespace

int main() {
  auto doc = dra::json::load(consumer_case::scenario_json);
  if (!doc) return fail("load", doc.error().to_string());
  const dra::model::scenario& scenario = doc->scenario();
  if (scenario.slices.size() != 1 || scenario.classes.size() != 1 || scenario.claims.size() != 1)
    return fail("load", "expected one slice, one class and one claim");
  if (auto problems = dra::validate::validate(*doc); !problems.empty()) return fail("validate", problems.front().to_string());

  // A selector compiled once and matched against each device.
  const dra::cel::selector_engine engine;
  auto selector = engine.compile(R"(device.attributes["gpu.example.com"].model == "b")");
  if (!selector) return fail("compile", selector.error().message);
  std::vector<std::string> matching;
  const auto& slice = scenario.slices.front().object;
  for (const auto& device : slice.devices) {
    auto match = engine.matches(*selector, dra::flatten::mixin_device_view(device, nullptr), slice.driver);
    if (!match) return fail("match", match.error().message);
    if (*match) matching.emplace_back(device.name);
  }
  if (matching != std::vector<std::string>{"gpu-1"}) return fail("match", "expected exactly gpu-1 to match");

  // The claim allocated as kube-scheduler would: gpu-1 on node-1.
  const auto report = dra::sim::run_scenario(scenario, engine);
  const std::string output = dra::json::output_document(report.outcomes, 0);
  if (output != consumer_case::expected_output) return fail("allocate", output);

  std::cout << "dra consumer ok\n";
  return 0;
}
