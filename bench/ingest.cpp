// Ingest throughput (MB/s) and heap use per device on a generated corpus of realistic ResourceSlices.
#include "slice_corpus.hpp"

#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>
#include <optional>
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

struct corpus {
  std::string json;
  std::size_t devices = 0;
};

const corpus& cluster_corpus() {
  static const corpus c = [] {
    corpus built;
    built.json = bench_corpus::cluster_slices(1400, built.devices);  // about 100 MB
    return built;
  }();
  return c;
}

// The same slices as YAML (`kubectl get -o yaml`), for 100 nodes: YAML goes through libyaml, far
// slower than simdjson, so a smaller corpus keeps the run short; the figure is per byte of YAML.
const corpus& yaml_corpus() {
  static const corpus c = [] {
    corpus json;
    json.json = bench_corpus::cluster_slices(100, json.devices);
    auto yaml = dra::json::to_yaml(json.json);
    if (!yaml) std::abort();  // the generator writes valid JSON
    return corpus{std::move(*yaml), json.devices};
  }();
  return c;
}

enum class input {
  copied,  // dra::json::load(text): a fresh loader, the text copied into the document
  copied_reused_loader,  // loader.load(text): one loader for all iterations, its parser buffers allocated once
  padded_reused_loader,  // loader.load_padded(buffer): the text already in a padded buffer (as load_file reads a
                         // file), taken over without a copy
  padded_two_threads,    // the same with load_options{.threads = 2}: the items read on two threads
};

// Time to load (the figure in bytes_per_second), what one load allocates per device, and the time
// to free the document again (free_ms, outside the timed region: not ingest, but a caller pays it).
void ingest(benchmark::State& state, input how) {
  const corpus& c = cluster_corpus();
  dra::json::loader loader(dra::json::load_options{.threads = how == input::padded_two_threads ? 2u : 1u});
  const bool padded_input = how == input::padded_reused_loader || how == input::padded_two_threads;
  double free_ms = 0;
  for (auto _ : state) {
    std::optional<simdjson::padded_string> padded;
    if (padded_input) {
      state.PauseTiming();
      padded.emplace(c.json);
      state.ResumeTiming();
    }
    const std::size_t bytes_before = allocated_bytes.load();
    const std::size_t count_before = allocation_count.load();
    auto doc = how == input::copied                 ? dra::json::load(c.json)
               : how == input::copied_reused_loader ? loader.load(c.json)
                                                    : loader.load_padded(std::move(*padded));
    if (!doc) state.SkipWithError(doc.error().to_string().c_str());
    benchmark::DoNotOptimize(doc);
    state.PauseTiming();
    state.counters["heap_bytes_per_device"] =
        static_cast<double>(allocated_bytes.load() - bytes_before) / static_cast<double>(c.devices);
    state.counters["heap_allocations_per_device"] =
        static_cast<double>(allocation_count.load() - count_before) / static_cast<double>(c.devices);
    const auto free_start = std::chrono::steady_clock::now();
    { auto freed = std::move(doc); }
    free_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - free_start).count();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.json.size()));
  state.counters["corpus_MB"] = static_cast<double>(c.json.size()) / 1e6;
  state.counters["devices"] = static_cast<double>(c.devices);
  state.counters["free_ms"] = free_ms / static_cast<double>(state.iterations());
}
void ingest_cluster_slices(benchmark::State& state) { ingest(state, input::copied); }
void ingest_cluster_slices_reused_loader(benchmark::State& state) { ingest(state, input::copied_reused_loader); }
void ingest_cluster_slices_padded_input(benchmark::State& state) { ingest(state, input::padded_reused_loader); }
void ingest_cluster_slices_two_threads(benchmark::State& state) { ingest(state, input::padded_two_threads); }
// YAML ingest: libyaml's events are written as JSON text, and the JSON reader reads it.
void ingest_cluster_slices_yaml(benchmark::State& state) {
  const corpus& c = yaml_corpus();
  for (auto _ : state) {
    auto doc = dra::json::load(c.json);
    if (!doc) state.SkipWithError(doc.error().to_string().c_str());
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.json.size()));
  state.counters["corpus_MB"] = static_cast<double>(c.json.size()) / 1e6;
  state.counters["devices"] = static_cast<double>(c.devices);
}
// The floor under ingest: simdjson On-Demand visiting every key and value of the same corpus and
// building nothing. Ingest can approach this figure, not pass it.
std::size_t visit(simdjson::ondemand::value value) {
  std::size_t scalars = 0;
  switch (value.type().value_unsafe()) {
    case simdjson::ondemand::json_type::object:
      for (auto field : value.get_object().value_unsafe()) {
        benchmark::DoNotOptimize(field.key().value_unsafe());
        scalars += visit(field.value().value_unsafe());
      }
      break;
    case simdjson::ondemand::json_type::array:
      for (auto element : value.get_array().value_unsafe()) scalars += visit(element.value_unsafe());
      break;
    default:
      benchmark::DoNotOptimize(value.raw_json_token());
      ++scalars;
  }
  return scalars;
}
void simdjson_visit_floor(benchmark::State& state) {
  const corpus& c = cluster_corpus();
  const simdjson::padded_string padded(c.json);
  simdjson::ondemand::parser parser;
  for (auto _ : state) {
    simdjson::ondemand::document doc = parser.iterate(padded).value_unsafe();
    benchmark::DoNotOptimize(visit(doc.get_value().value_unsafe()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.json.size()));
}

BENCHMARK(simdjson_visit_floor)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ingest_cluster_slices)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ingest_cluster_slices_reused_loader)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(ingest_cluster_slices_padded_input)->Unit(benchmark::kMillisecond)->MinTime(2.0);
// Wall time is what matters with threads: the benchmark's CPU time counts the calling thread only.
BENCHMARK(ingest_cluster_slices_two_threads)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();
BENCHMARK(ingest_cluster_slices_yaml)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
