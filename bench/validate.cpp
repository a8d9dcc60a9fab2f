// Validation throughput (devices per second) over a generated cluster of ResourceSlices with counter sets, mixins and claims.
#include <dra/json/ingest.hpp>
#include <dra/validate/scenario.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

// One node of a GPU cluster: a slice of 8 counter sets, two slices of A100
// devices with MIG partitions that consume them (KEP-4815), and a slice of
// NICs whose shared attributes come from a device mixin (KEP-5234).
void append_node(std::string& out, int node, std::size_t& devices) {
  const std::string name = "node-" + std::to_string(node);
  const std::string pool = R"("driver":"gpu.example.com","pool":{"name":")" + name +
                           R"(","generation":1,"resourceSliceCount":3},"nodeName":")" + name + "\"";
  out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name +
         R"(-counters"},"spec":{)" + pool + R"(,"sharedCounters":[)";
  for (int g = 0; g < 8; ++g) {
    if (g) out += ',';
    out += R"({"name":"gpu-)" + std::to_string(g) +
           R"(","counters":{"memory":{"value":"40Gi"},"multiprocessors":{"value":"98"})";
    for (int s = 0; s < 8; ++s) out += R"(,"memory-slice-)" + std::to_string(s) + R"(":{"value":"1"})";
    out += "}}";
  }
  out += "]}},";
  struct profile {
    const char* name;
    const char* slug;  // device names are DNS labels: no dots
    const char* memory;
    int slices;
    int placements;
  };
  static constexpr profile profiles[] = {
      {"1g.5gb", "1g-5gb", "4864Mi", 1, 7},
      {"2g.10gb", "2g-10gb", "9856Mi", 2, 3},
      {"3g.20gb", "3g-20gb", "19968Mi", 4, 2},
      {"7g.40gb", "7g-40gb", "40192Mi", 8, 1}};
  for (int half = 0; half < 2; ++half) {
    out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name + "-gpus-" +
           std::to_string(half) + R"("},"spec":{)" + pool + R"(,"devices":[)";
    bool first = true;
    for (int g = half * 4; g < half * 4 + 4; ++g)
      for (const profile& p : profiles)
        for (int placement = 0; placement < p.placements; ++placement) {
          if (!first) out += ',';
          first = false;
          ++devices;
          const std::string gpu = std::to_string(g);
          const int start = placement * p.slices;
          out += R"({"name":"gpu-)" + gpu + "-" + p.slug + "-" + std::to_string(start) +
                 R"(","attributes":{"profile":{"string":")" + p.name + R"("},"uuid":{"string":"GPU-)" + name + "-" +
                 gpu + "-" + std::to_string(start) + R"("},"index":{"int":)" + gpu +
                 R"(},"productName":{"string":"NVIDIA A100-SXM4-40GB"},"driverVersion":{"version":"550.54.15"}},)"
                 R"("capacity":{"memory":{"value":")" + p.memory + R"("}},"consumesCounters":[{"counterSet":"gpu-)" +
                 gpu + R"(","counters":{"memory":{"value":")" + p.memory + "\"}";
          for (int s = start; s < start + p.slices; ++s) out += R"(,"memory-slice-)" + std::to_string(s) + R"(":{"value":"1"})";
          out += "}}]}";
        }
    out += "]}},";
  }
  out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name +
         R"(-nics"},"spec":{"driver":"nic.example.com","pool":{"name":")" + name +
         R"(","generation":1,"resourceSliceCount":1},"nodeName":")" + name +
         R"(","mixins":{"device":[{"name":"cx7","attributes":{"model":{"string":"CX-7"},"firmware":{"version":"28.39.1002"},)"
         R"("rdma":{"bool":true}},"capacity":{"bandwidth":{"value":"400G"}}}]},"devices":[)";
  for (int n = 0; n < 8; ++n) {
    if (n) out += ',';
    ++devices;
    out += R"({"name":"nic-)" + std::to_string(n) + R"(","includes":["cx7"],"allowMultipleAllocations":true,)"
           R"("attributes":{"numa":{"int":)" + std::to_string(n / 4) +
           R"(}},"capacity":{"queues":{"value":"64","requestPolicy":{"default":"8","validValues":["8","16","32","64"]}}}})";
  }
  out += "]}},";
  out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"train-)" + name +
         R"(","namespace":"ml"},"spec":{"devices":{"requests":[{"name":"gpu","firstAvailable":[)"
         R"({"name":"full","deviceClassName":"gpu.example.com","selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].profile == '7g.40gb'"}}]},)"
         R"({"name":"half","deviceClassName":"gpu.example.com","count":2}]},)"
         R"({"name":"nic","exactly":{"deviceClassName":"nic.example.com"}}],)"
         R"("constraints":[{"requests":["gpu","nic"],"matchAttribute":"example.com/numa"}]}}},)";
}

struct corpus {
  std::string json;
  std::size_t devices = 0;
};

const corpus& cluster_corpus() {
  static const corpus c = [] {
    corpus built;
    built.json = R"({"apiVersion":"v1","kind":"List","items":[)";
    built.json += R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.example.com"},)"
                  R"("spec":{"selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}]}},)";
    constexpr int nodes = 500;
    for (int node = 0; node < nodes; ++node) append_node(built.json, node, built.devices);
    built.json.pop_back();  // the last comma
    built.json += "]}";
    return built;
  }();
  return c;
}

// Validation alone: the document is loaded once, outside the timed loop.
void validate_cluster(benchmark::State& state) {
  const corpus& c = cluster_corpus();
  auto doc = dra::json::load(c.json);
  if (!doc) {
    state.SkipWithError(doc.error().to_string().c_str());
    return;
  }
  std::size_t problems = 0;
  for (auto _ : state) {
    dra::error_list errors = dra::validate::validate(*doc);
    problems = errors.size();
    benchmark::DoNotOptimize(errors);
  }
  if (problems != 0) state.SkipWithError("the generated corpus should be valid");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * c.devices));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.json.size()));
  state.counters["devices"] = static_cast<double>(c.devices);
  state.counters["objects"] = static_cast<double>(doc->scenario().slices.size() + doc->scenario().claims.size() +
                                                  doc->scenario().classes.size());
}
BENCHMARK(validate_cluster)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
