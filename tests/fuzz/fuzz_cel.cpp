// Fuzz target: any text as a CEL selector, compiled in the DRA environment (checked) and in an unchecked one,
// and evaluated against a device with attributes, lists, versions and capacities.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace {

constexpr std::string_view slice_json = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
  "spec": {"driver": "gpu.example.com", "nodeName": "n", "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
    "devices": [{"name": "d", "allowMultipleAllocations": true,
      "attributes": {"model": {"string": "A100"}, "index": {"int": 3}, "ok": {"bool": true},
                     "v": {"version": "1.2.3-rc.1+b"}, "numa": {"ints": [0, 1]}, "tags": {"strings": ["a", "b"]},
                     "other.example.com/zone": {"string": "z"}},
      "capacity": {"memory": {"value": "40Gi"}, "cores": {"value": "1500m"}}}]}})";

struct world {
  dra::json::document doc;
  dra::cel::selector_engine engine;
  std::shared_ptr<dra::cel::environment> unchecked = [] {
    auto env = std::make_shared<dra::cel::environment>();
    dra::cel::add_dra_library(env->functions);
    env->cost_limit = dra::cel::selector_max_cost;
    return env;
  }();
};

const world& the_world() {
  static const world w{*dra::json::load(slice_json), dra::cel::selector_engine()};
  return w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view expression(reinterpret_cast<const char*>(data), size);
  const world& w = the_world();
  const auto& slice = w.doc.scenario().slices.at(0).object;
  const dra::flatten::mixin_device_view device(slice.devices.at(0), nullptr);
  if (auto program = w.engine.compile(expression)) {
    auto m = w.engine.matches(program.value(), device, slice.driver);
    // A compiled selector yields true, false or an error with a message; never anything else.
    if (!m && m.error().message.empty()) std::abort();
  }
  // Unchecked programs reach the interpreter with any mix of types.
  if (auto program = dra::cel::compile(w.unchecked, expression, /*type_check=*/false)) {
    dra::cel::activation vars;
    dra::cel::device_binding<dra::flatten::mixin_device_view> binding(device, slice.driver, true);
    vars.bind("device", binding.as_value());
    const dra::cel::value v = program.value().evaluate(vars);
    if (v.is_error() && v.error_message().empty()) std::abort();
  }
  return 0;
}
