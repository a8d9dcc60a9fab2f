// Example: load a scenario and list the devices a CEL selector matches, with evaluation errors.
//   select_devices SCENARIO.json 'device.attributes["gpu.nvidia.com"].profile == "1g.5gb"'
#include <dra/cel.hpp>   // the selector engine and the flatten views it reads
#include <dra/json.hpp>  // load_file

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: select_devices SCENARIO.json CEL-EXPRESSION\n";
    return 2;
  }
  auto doc = dra::json::load_file(argv[1]);
  if (!doc) {
    std::cerr << doc.error().to_string() << '\n';
    return 1;
  }
  const dra::cel::selector_engine engine;  // Kubernetes' DRA environment; compiles each expression once
  auto selector = engine.compile(argv[2]);
  if (!selector) {
    std::cerr << selector.error().message << '\n';  // "compilation failed: ERROR: <input>:1:…"
    return 1;
  }
  for (const auto& [slice, source] : doc->scenario().slices) {
    const auto* mixins = slice.mixins ? &*slice.mixins : nullptr;
    for (const auto& device : slice.devices) {
      // A view applies KEP-5234 mixins without copying the device.
      const dra::flatten::mixin_device_view view(device, mixins);
      auto match = engine.matches(*selector, view, slice.driver);
      if (!match)
        std::cout << device.name << ": error: " << match.error().message << '\n';
      else if (*match)
        std::cout << device.name << '\n';
    }
  }
}
