// Nodes and node-local device slices as scenario text, for tests that build small clusters as input documents: one
// JSON object a line, which is a YAML flow mapping too, so JSON streams and "---"-separated YAML both take them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra_test {

using text_pairs = std::vector<std::pair<std::string, std::string>>;  // name, value

// {"a": "1", "b": "2"}
inline std::string json_string_map(const text_pairs& entries) {
  std::string out = "{";
  for (const auto& [name, value] : entries) out += (out.size() > 1 ? ", \"" : "\"") + name + "\": \"" + value + "\"";
  return out + "}";
}

// A Node with its status.allocatable and metadata.labels.
inline std::string node_text(std::string_view name, const text_pairs& allocatable, const text_pairs& labels = {}) {
  std::string meta = R"({"name": ")" + std::string(name) + "\"";
  if (!labels.empty()) meta += ", \"labels\": " + json_string_map(labels);
  return R"({"apiVersion": "v1", "kind": "Node", "metadata": )" + meta + R"(}, "status": {"allocatable": )" +
         json_string_map(allocatable) + "}}\n";
}

// A ResourceSlice `slice` of `driver` on `node`, the whole pool named after the node: devices gpu-0, gpu-1, ...
inline std::string gpu_slice_text(std::string_view slice, std::string_view node, std::string_view driver, int devices) {
  std::string list;
  for (int i = 0; i < devices; ++i)
    list += std::string(i ? ", " : "") + R"({"name": "gpu-)" + std::to_string(i) + "\"}";
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" +
         std::string(slice) + R"("}, "spec": {"driver": ")" + std::string(driver) + R"(", "nodeName": ")" +
         std::string(node) + R"(", "pool": {"name": ")" + std::string(node) +
         R"(", "resourceSliceCount": 1}, "devices": [)" + list + "]}}\n";
}

}  // namespace dra_test
