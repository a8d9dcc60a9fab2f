// Example: build a ResourceSlice, a DeviceClass and a ResourceClaim in C++ (no JSON) and allocate the claim.
//   build_in_code
// The builders of dra/model/build.hpp parse versions and quantities and sort maps as they go;
// a bad value is a dra::error naming the object and the field.
#include <dra/dra.hpp>

#include <iostream>

int main() {
  namespace model = dra::model;
  const auto gpu = [](model::text name, model::text driver_version, model::text memory) {
    return model::device_builder(name)
        .string("model", "A100")
        .version("driverVersion", driver_version)  // parsed here: CEL compares it as a semver
        .capacity("memory", memory);                // parsed here: "80Gi" is a quantity
  };
  auto scenario =
      model::scenario_builder()
          .add(model::slice_builder("node-1-gpus", "gpu.example.com")
                   .node_name("node-1")
                   .device(gpu("gpu-0", "535.104.5", "80Gi"))
                   .device(gpu("gpu-1", "550.54.15", "40Gi"))
                   .device(gpu("gpu-2", "550.54.15", "80Gi"))
                   .build())
          .add(model::class_builder("gpu.example.com").selector(R"(device.driver == "gpu.example.com")").build())
          .add(model::claim_builder("default", "big-new-gpu")
                   .request(model::request_builder("gpu", "gpu.example.com")
                                .selector(R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("550.0.0")))")
                                .selector(R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0)"))
                   .build())
          .build();
  if (!scenario) {
    std::cerr << scenario.error().to_string() << '\n';
    return 1;
  }
  // Objects built in code get the same checks as objects read from JSON (CEL included).
  for (const dra::error& problem : dra::validate::validate_scenario(*scenario)) std::cerr << "invalid: " << problem.to_string() << '\n';

  const dra::cel::selector_engine engine;
  const auto report = dra::sim::run_scenario(*scenario, engine);  // first_fit: upstream's results
  std::cout << dra::json::output_document(report.outcomes);
}
