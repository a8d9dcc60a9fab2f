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
