// A consumer of dra, as a user's project builds it: loads a scenario from JSON text,
// compiles a CEL selector, allocates a claim, and checks the exact results.
#include <dra/dra.hpp>

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

// One node with two GPUs of different models, a class for them, and a claim that
// wants the "b" model.
constexpr std::string_view scenario_json = R"({"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-1-gpus"},
   "spec": {"driver": "gpu.example.com", "nodeName": "node-1",
            "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
            "devices": [
              {"name": "gpu-0", "attributes": {"model": {"string": "a"}}},
              {"name": "gpu-1", "attributes": {"model": {"string": "b"}}}]}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
   "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "want-b", "namespace": "default"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu",
     "selectors": [{"cel": {"expression": "device.attributes[\"gpu.example.com\"].model == \"b\""}}]}}]}}}
]})";

int fail(std::string_view what, std::string_view detail) {
  std::cerr << "dra consumer failed: " << what << ": " << detail << '\n';
  return 1;
}

}  // namespace

int main() {
  auto doc = dra::json::load(scenario_json);
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
  const std::string expected =
      R"({"results":[{"claim":"default/want-b","node":"node-1","allocation":{"devices":{"results":[)"
      R"({"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-1"}]},)"
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}]})";
  if (output != expected) return fail("allocate", output);

  std::cout << "dra consumer ok\n";
  return 0;
}
