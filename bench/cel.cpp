// CEL selector evaluation per device (target: a simple selector under 100 ns), over plain and mixin-backed devices.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <memory>

namespace {

// gpu-0 carries its attributes itself; gpu-1 takes them from two mixins.
constexpr std::string_view slice_json = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
  "spec": {
    "driver": "gpu.example.com", "nodeName": "n1",
    "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
    "mixins": {"device": [
      {"name": "base", "attributes": {"model": {"string": "A100"}, "driverVersion": {"version": "550.54.15"},
                                      "numa": {"ints": [0, 1, 2, 3]}, "uuid": {"string": "GPU-1"}},
       "capacity": {"memory": {"value": "40Gi"}}},
      {"name": "extra", "attributes": {"index": {"int": 1}, "brand": {"string": "Nvidia"}}}]},
    "devices": [
      {"name": "gpu-0",
       "attributes": {"model": {"string": "A100"}, "driverVersion": {"version": "550.54.15"}, "numa": {"ints": [0, 1, 2, 3]},
                      "uuid": {"string": "GPU-0"}, "index": {"int": 0}, "brand": {"string": "Nvidia"}},
       "capacity": {"memory": {"value": "40Gi"}}},
      {"name": "gpu-1", "includes": ["base", "extra"]}
    ]
  }
})";

struct fixture {
  dra::json::document doc;
  dra::cel::selector_engine engine;
  static const fixture& get() {
    static const fixture f{[] {
      auto loaded = dra::json::load(slice_json);
      if (!loaded) {
        std::cerr << loaded.error().to_string() << "\n";
        std::abort();
      }
      return std::move(loaded).value();
    }(), dra::cel::selector_engine{}};
    return f;
  }
  [[nodiscard]] dra::flatten::mixin_device_view device(std::size_t i) const {
    const auto& slice = doc.scenario().slices.at(0).object;
    return {slice.devices.at(i), slice.mixins ? &*slice.mixins : nullptr};
  }
};

void evaluate(benchmark::State& state, std::string_view expression) {
  const fixture& f = fixture::get();
  auto program = f.engine.compile(expression);
  if (!program) {
    state.SkipWithError(program.error().message.c_str());
    return;
  }
  const auto device = f.device(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto m = f.engine.matches(program.value(), device, "gpu.example.com");
    if (!m || !m.value()) {
      state.SkipWithError("selector did not match");
      return;
    }
    benchmark::DoNotOptimize(m);
  }
  state.SetLabel(state.range(0) == 0 ? "plain device" : "device with 2 mixins");
}

void BM_DriverEquals(benchmark::State& s) { evaluate(s, R"(device.driver == "gpu.example.com")"); }
void BM_AttributeStringEquals(benchmark::State& s) { evaluate(s, R"(device.attributes["gpu.example.com"].model == "A100")"); }
void BM_QuantityCompareTo(benchmark::State& s) {
  evaluate(s, R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0)");
}
void BM_SemverIsGreaterThan(benchmark::State& s) {
  evaluate(s, R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0")))");
}
void BM_StringIn(benchmark::State& s) { evaluate(s, R"(device.attributes["gpu.example.com"].model in ["A100", "H100"])"); }
void BM_MacroOverListAttribute(benchmark::State& s) {
  evaluate(s, R"(device.attributes["gpu.example.com"].numa.exists(n, n == 3))");
}
void BM_Compile(benchmark::State& state) {
  const auto env = dra::cel::make_dra_environment();
  for (auto _ : state) {
    auto p = dra::cel::compile(env, R"(device.attributes["gpu.example.com"].model == "A100" && device.driver == "gpu.example.com")");
    benchmark::DoNotOptimize(p);
  }
}

BENCHMARK(BM_DriverEquals)->Arg(0)->Arg(1);
BENCHMARK(BM_AttributeStringEquals)->Arg(0)->Arg(1);
BENCHMARK(BM_QuantityCompareTo)->Arg(0)->Arg(1);
BENCHMARK(BM_SemverIsGreaterThan)->Arg(0)->Arg(1);
BENCHMARK(BM_StringIn)->Arg(0)->Arg(1);
BENCHMARK(BM_MacroOverListAttribute)->Arg(0)->Arg(1);
BENCHMARK(BM_Compile);

}  // namespace
