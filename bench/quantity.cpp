// Benchmarks of dra::quantity: parsing, canonical formatting and comparison.
#include <dra/core/quantity.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <string_view>

namespace {

constexpr std::array<std::string_view, 8> inputs = {"4Gi", "500m", "1.5Gi", "80Gi", "1e3", "100.035k", "7", "0.5"};

void parse(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto q = dra::quantity::parse(inputs[i++ % inputs.size()]);
    benchmark::DoNotOptimize(q);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(parse);

// Inputs that leave Kubernetes' int64 fast path (binary fractions, sub-nano
// rounding, more than 18 digits, out-of-range binary caps).
constexpr std::array<std::string_view, 4> precise_inputs = {"1.0000001Ei", "0.1n", "12345678901234567890", "9Ei"};

void parse_precise(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto q = dra::quantity::parse(precise_inputs[i++ % precise_inputs.size()]);
    benchmark::DoNotOptimize(q);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(parse_precise);

void canonical_string(benchmark::State& state) {
  std::array<dra::quantity, inputs.size()> quantities;
  for (std::size_t i = 0; i < inputs.size(); ++i) quantities[i] = *dra::quantity::parse(inputs[i]);
  std::size_t i = 0;
  for (auto _ : state) {
    std::string s = quantities[i++ % quantities.size()].to_string();
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(canonical_string);

void compare(benchmark::State& state) {
  std::array<dra::quantity, inputs.size()> quantities;
  for (std::size_t i = 0; i < inputs.size(); ++i) quantities[i] = *dra::quantity::parse(inputs[i]);
  std::size_t i = 0;
  for (auto _ : state) {
    bool less = quantities[i % quantities.size()] < quantities[(i + 3) % quantities.size()];
    ++i;
    benchmark::DoNotOptimize(less);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(compare);

void add(benchmark::State& state) {
  const dra::quantity a = *dra::quantity::parse("4Gi");
  const dra::quantity b = *dra::quantity::parse("512Mi");
  for (auto _ : state) {
    auto sum = a.add(b);
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(add);

}  // namespace
