// A consumer of the optional compiled component (dra::compiled): the scenario of main.cpp, loaded, validated and
// allocated through dra/compiled.hpp alone, with the same exact result.
#include <dra/compiled.hpp>

#include <iostream>
#include <string>
#include <string_view>

namespace {

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
  std::cerr << "dra compiled consumer failed: " << what << ": " << detail << '\n';
  return 1;
}

}  // namespace

int main() {
  auto doc = dra::compiled::scenario_document::load(scenario_json);
  if (!doc) return fail("load", doc.error().to_string());
  if (auto problems = doc->validate(); !problems.empty()) return fail("validate", problems.front().to_string());
  const auto report = dra::compiled::allocate(doc->scenario(), dra::alloc::first_fit{});
  const std::string output = dra::compiled::output_document(report.outcomes, 0);
  const std::string expected =
      R"({"results":[{"claim":"default/want-b","node":"node-1","allocation":{"devices":{"results":[)"
      R"({"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-1"}]},)"
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}]})";
  if (output != expected) return fail("allocate", output);
  std::cout << "dra compiled consumer ok\n";
  return 0;
}
