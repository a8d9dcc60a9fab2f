// The ingest benchmark corpus: ResourceSlices of a GPU cluster as an NVIDIA-like DRA driver
// publishes them, as one Kubernetes List. Plain C++20, no dra headers: bench/ingest.cpp loads it
// in memory, bench/cluster_scenarios.cpp writes it for whole-process timing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

namespace bench_corpus {

// One node of a GPU cluster as a DRA driver publishes it: 8 A100s, each a
// full device plus every MIG placement consuming a per-GPU counter set
// (KEP-4815), in three slices of one pool. Map keys are sorted, as the API
// server writes them (Go marshals maps in key order).
inline void append_node(std::string& out, int node, std::size_t& devices) {
  const std::string name = "node-" + std::to_string(node);
  const std::string pool = R"("driver":"gpu.nvidia.com","pool":{"name":")" + name +
                           R"(","generation":1,"resourceSliceCount":3},"nodeName":")" + name + "\"";
  out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name +
         R"(-counters"},"spec":{)" + pool + R"(,"sharedCounters":[)";
  for (int g = 0; g < 8; ++g) {
    if (g) out += ',';
    out += R"({"name":"gpu-)" + std::to_string(g) +
           R"(","counters":{"copy-engines":{"value":"7"},"decoders":{"value":"5"},"jpeg-engines":{"value":"1"},)"
           R"("memory":{"value":"40Gi"})";
    for (int s = 0; s < 8; ++s) out += R"(,"memory-slice-)" + std::to_string(s) + R"(":{"value":"1"})";
    out += R"(,"multiprocessors":{"value":"98"},"ofa-engines":{"value":"1"}}})";
  }
  out += "]}},";
  struct profile {
    const char* name;
    const char* memory;
    int multiprocessors;
    int slices;
    int placements;
  };
  static constexpr profile profiles[] = {{"1g.5gb", "4864Mi", 14, 1, 7},   {"2g.10gb", "9856Mi", 28, 2, 3},
                                         {"3g.20gb", "19968Mi", 42, 4, 2}, {"4g.20gb", "19968Mi", 56, 4, 1},
                                         {"7g.40gb", "40192Mi", 98, 8, 1}, {"gpu", "40Gi", 98, 8, 1}};
  for (int half = 0; half < 2; ++half) {
    out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name + "-gpus-" +
           std::to_string(half) + R"("},"spec":{)" + pool + R"(,"devices":[)";
    bool first = true;
    for (int g = half * 4; g < half * 4 + 4; ++g) {
      for (const profile& p : profiles) {
        for (int placement = 0; placement < p.placements; ++placement) {
          if (!first) out += ',';
          first = false;
          ++devices;
          const std::string gpu = std::to_string(g);
          const int start = placement * p.slices;
          std::string label = p.name;  // device names are DNS labels: "1g.5gb" becomes "1g-5gb"
          std::replace(label.begin(), label.end(), '.', '-');
          out += R"({"name":"gpu-)" + gpu + "-" + label + "-" + std::to_string(start) +
                 R"(","attributes":{"cudaComputeCapability":{"version":"8.0.0"},)"
                 R"("driverVersion":{"version":"550.54.15"},"index":{"int":)" +
                 gpu + R"(},"parentUUID":{"string":"GPU-)" + name + "-" + gpu +
                 R"("},"productName":{"string":"NVIDIA A100-SXM4-40GB"},"profile":{"string":")" + p.name +
                 R"("},"type":{"string":")" + (std::string(p.name) == "gpu" ? "gpu" : "mig") +
                 R"("},"uuid":{"string":"GPU-)" + name + "-" + gpu + "-" + std::to_string(start) +
                 R"("}},"capacity":{"memory":{"value":")" + p.memory +
                 R"("}},"consumesCounters":[{"counterSet":"gpu-)" + gpu + R"(","counters":{"memory":{"value":")" +
                 p.memory + "\"}";
          for (int s = start; s < start + p.slices; ++s)
            out += R"(,"memory-slice-)" + std::to_string(s) + R"(":{"value":"1"})";
          out += R"(,"multiprocessors":{"value":")" + std::to_string(p.multiprocessors) + "\"}";
          out += "}}]}";
        }
      }
    }
    out += "]}}";
    out += ',';
  }
}

// `nodes` nodes of the above as one List (1,400 nodes: about 100 MB, 168,000 devices).
inline std::string cluster_slices(int nodes, std::size_t& devices) {
  std::string json = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (int node = 0; node < nodes; ++node) append_node(json, node, devices);
  if (nodes > 0) json.pop_back();  // the last comma
  json += "]}";
  return json;
}

}  // namespace bench_corpus
