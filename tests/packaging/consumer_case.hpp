// The consumers' case (main.cpp, main_compiled.cpp): a scenario as JSON text and the exact output its allocation gives.
#pragma once

#include <string_view>

namespace consumer_case {

// One node with two GPUs of different models, a class for them, and a claim that
// wants the "b" model.
inline constexpr std::string_view scenario_json = R"({"apiVersion": "v1", "kind": "List", "items": [
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

// The claim allocated as kube-scheduler would: gpu-1 on node-1 (dra::json::output_document, indent 0).
inline constexpr std::string_view expected_output =
    R"({"results":[{"claim":"default/want-b","node":"node-1","allocation":{"devices":{"results":[)"
    R"({"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-1"}]},)"
    R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}]})";

}  // namespace consumer_case
