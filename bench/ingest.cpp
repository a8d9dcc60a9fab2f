// Ingest throughput (MB/s) and heap use per device on a generated corpus of realistic ResourceSlices.
#include <dra/json/ingest.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#if defined(__GNUC__) && !defined(__clang__)
// The replacement operator new below uses malloc, so delete must use free;
// GCC cannot see that the two are paired.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {
std::atomic<std::size_t> allocated_bytes{0};
std::atomic<std::size_t> allocation_count{0};
}  // namespace

// Counting allocator for this program only: how much ingest allocates per device.
void* operator new(std::size_t size) {
  allocated_bytes.fetch_add(size, std::memory_order_relaxed);
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

// One node of a GPU cluster as a DRA driver publishes it: 8 A100s, each a
// full device plus every MIG placement consuming a per-GPU counter set
// (KEP-4815), in three slices of one pool.
void append_node(std::string& out, int node, std::size_t& devices) {
  const std::string name = "node-" + std::to_string(node);
  const std::string pool = R"("driver":"gpu.nvidia.com","pool":{"name":")" + name +
                           R"(","generation":1,"resourceSliceCount":3},"nodeName":")" + name + "\"";
  out += R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name +
         R"(-counters"},"spec":{)" + pool + R"(,"sharedCounters":[)";
  for (int g = 0; g < 8; ++g) {
    if (g) out += ',';
    out += R"({"name":"gpu-)" + std::to_string(g) +
           R"(","counters":{"memory":{"value":"40Gi"},"multiprocessors":{"value":"98"},"copy-engines":{"value":"7"},)"
           R"("decoders":{"value":"5"},"jpeg-engines":{"value":"1"},"ofa-engines":{"value":"1"})";
    for (int s = 0; s < 8; ++s) out += R"(,"memory-slice-)" + std::to_string(s) + R"(":{"value":"1"})";
    out += "}}";
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
                 R"(","attributes":{"type":{"string":")" + (std::string(p.name) == "gpu" ? "gpu" : "mig") +
                 R"("},"profile":{"string":")" + p.name + R"("},"uuid":{"string":"GPU-)" + name + "-" + gpu + "-" +
                 std::to_string(start) + R"("},"parentUUID":{"string":"GPU-)" + name + "-" + gpu +
                 R"("},"index":{"int":)" + gpu +
                 R"(},"productName":{"string":"NVIDIA A100-SXM4-40GB"},)"
                 R"("driverVersion":{"version":"550.54.15"},"cudaComputeCapability":{"version":"8.0.0"}},)"
                 R"("capacity":{"memory":{"value":")" +
                 p.memory + R"("}},"consumesCounters":[{"counterSet":"gpu-)" + gpu +
                 R"(","counters":{"memory":{"value":")" + p.memory + R"("},"multiprocessors":{"value":")" +
                 std::to_string(p.multiprocessors) + "\"}";
          for (int s = start; s < start + p.slices; ++s)
            out += R"(,"memory-slice-)" + std::to_string(s) + R"(":{"value":"1"})";
          out += "}}]}";
        }
      }
    }
    out += "]}}";
    out += ',';
  }
}

struct corpus {
  std::string json;
  std::size_t devices = 0;
};

const corpus& cluster_corpus() {
  static const corpus c = [] {
    corpus built;
    built.json = R"({"apiVersion":"v1","kind":"List","items":[)";
    constexpr int nodes = 1400;  // about 100 MB
    for (int node = 0; node < nodes; ++node) append_node(built.json, node, built.devices);
    built.json.pop_back();  // the last comma
    built.json += "]}";
    return built;
  }();
  return c;
}

// `reuse`: one dra::json::loader for all iterations (its parser buffers are allocated once),
// as a long-running simulator or scheduler would load; otherwise a fresh dra::json::load each time.
void ingest(benchmark::State& state, bool reuse) {
  const corpus& c = cluster_corpus();
  dra::json::loader loader;
  std::size_t bytes_before = 0;
  std::size_t count_before = 0;
  for (auto _ : state) {
    bytes_before = allocated_bytes.load();
    count_before = allocation_count.load();
    auto doc = reuse ? loader.load(c.json) : dra::json::load(c.json);
    if (!doc) state.SkipWithError(doc.error().to_string().c_str());
    benchmark::DoNotOptimize(doc);
    state.PauseTiming();
    state.counters["heap_bytes_per_device"] =
        static_cast<double>(allocated_bytes.load() - bytes_before) / static_cast<double>(c.devices);
    state.counters["heap_allocations_per_device"] =
        static_cast<double>(allocation_count.load() - count_before) / static_cast<double>(c.devices);
    state.ResumeTiming();  // the document is freed inside the timed region, as a caller would
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.json.size()));
  state.counters["corpus_MB"] = static_cast<double>(c.json.size()) / 1e6;
  state.counters["devices"] = static_cast<double>(c.devices);
}
void ingest_cluster_slices(benchmark::State& state) { ingest(state, false); }
void ingest_cluster_slices_reused_loader(benchmark::State& state) { ingest(state, true); }
BENCHMARK(ingest_cluster_slices)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ingest_cluster_slices_reused_loader)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
