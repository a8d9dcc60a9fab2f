// Lookup cost through mixin-backed device views (0, 2 and 8 includes) against a materialized device.
#include <dra/flatten/mixin_view.hpp>
#include <dra/flatten/plain_view.hpp>

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace {

struct setup {
  std::vector<std::string> names;
  dra::model::resource_slice_mixins mixins;
  dra::model::device device;
  dra::model::device flat;

  // 32 attributes spread over the device and `includes` mixins (4 per mixin, rest on the device).
  explicit setup(int includes) {
    for (int i = 0; i < 32; ++i) names.push_back("attribute" + std::to_string(i));
    std::ranges::sort(names);
    for (int m = 0; m < includes; ++m) {
      auto& mixin = mixins.device.emplace_back();
      mixin.name = names[static_cast<std::size_t>(m)];  // any distinct names
      for (int k = 0; k < 4; ++k)
        mixin.attributes.push_back({names[static_cast<std::size_t>(m * 4 + k)], {std::int64_t{m}}});
      dra::model::sort_by_key(mixin.attributes);
      device.includes.push_back(mixin.name);
    }
    device.name = "dev";
    for (std::size_t i = static_cast<std::size_t>(includes) * 4; i < names.size(); ++i)
      device.attributes.push_back({names[i], {std::int64_t{99}}});
    flat = dra::flatten::materialize(dra::flatten::mixin_device_view(device, &mixins));
  }
};

void lookup_through_view(benchmark::State& state) {
  setup s(static_cast<int>(state.range(0)));
  dra::flatten::mixin_device_view view(s.device, &s.mixins);
  std::size_t i = 0;
  for (auto _ : state) {
    // The first names live in the first includes: the slowest to reach.
    benchmark::DoNotOptimize(view.attribute(s.names[i++ % 4]));
  }
}
BENCHMARK(lookup_through_view)->Arg(0)->Arg(2)->Arg(8);

void lookup_in_materialized_device(benchmark::State& state) {
  setup s(8);
  dra::flatten::plain_device_view view(s.flat);
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(view.attribute(s.names[i++ % 4]));
}
BENCHMARK(lookup_in_materialized_device);

void iterate_through_view(benchmark::State& state) {
  setup s(static_cast<int>(state.range(0)));
  dra::flatten::mixin_device_view view(s.device, &s.mixins);
  for (auto _ : state) {
    std::size_t n = 0;
    for (auto e : view.attributes()) n += e.name.size();
    benchmark::DoNotOptimize(n);
  }
}
BENCHMARK(iterate_through_view)->Arg(0)->Arg(2)->Arg(8);

}  // namespace
