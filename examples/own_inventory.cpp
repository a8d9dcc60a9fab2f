// Example: a scheduler that keeps its own inventory and job types allocates them with dra, without model:: objects.
//   own_inventory
// The types only need the members the concepts in dra/alloc/inventory_concepts.hpp ask for.
#include <dra/alloc/inventory.hpp>

#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace my_scheduler {

struct gpu {
  std::string id;
  std::map<std::string, dra::alloc::attribute_value_view> labels;
  std::map<std::string, std::string> sizes;  // capacity texts, parsed by dra ("80Gi")

  const std::string& name() const { return id; }
  const auto& attributes() const { return labels; }
  const auto& capacities() const { return sizes; }
};

struct machine {
  std::string hostname;
  std::vector<gpu> gpus;

  std::string_view driver() const { return "gpu.example.com"; }
  const std::string& name() const { return hostname; }  // one pool per machine
  const std::string& node() const { return hostname; }
  const std::vector<gpu>& devices() const { return gpus; }
};

struct gpu_kind {
  std::string_view name() const { return "gpu.example.com"; }
  std::vector<std::string_view> selectors() const { return {R"(device.driver == "gpu.example.com")"}; }
};

struct job_request {
  std::string id;
  int gpus = 1;
  std::vector<std::string> cel;

  const std::string& name() const { return id; }
  std::string_view device_class() const { return "gpu.example.com"; }
  int count() const { return gpus; }
  const std::vector<std::string>& selectors() const { return cel; }
};

struct job {
  std::string id;
  std::vector<job_request> needs;

  const std::string& name() const { return id; }
  const std::vector<job_request>& requests() const { return needs; }
};

}  // namespace my_scheduler

int main() {
  using namespace my_scheduler;
  const auto a100 = [](std::string id, std::string_view memory) {
    return gpu{std::move(id), {{"model", std::string_view("A100")}}, {{"memory", std::string(memory)}}};
  };
  const std::vector<machine> cluster{{"node-1", {a100("gpu-0", "40Gi"), a100("gpu-1", "80Gi")}},
                                     {"node-2", {a100("gpu-0", "80Gi"), a100("gpu-1", "80Gi")}}};
  const std::vector<gpu_kind> classes{gpu_kind{}};
  const std::vector<job> queue{
      {"train", {{"gpus", 2, {R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0)"}}}},
      {"serve", {{"gpu", 1, {}}}},
      {"tune", {{"gpus", 2, {}}}}};

  const dra::cel::selector_engine engine;
  auto allocator = dra::alloc::inventory_allocator<>::make(cluster, classes, engine);
  if (!allocator) {
    std::cerr << allocator.error().to_string() << '\n';
    return 1;
  }
  // Each job goes to the first machine that can take it; its devices stay taken (commit).
  for (const job& j : queue) {
    std::cout << j.id << ":";
    bool placed = false;
    for (const machine& m : cluster) {
      auto outcome = allocator->allocate(m.hostname, std::vector<job>{j});
      if (!outcome) {
        std::cout << " error: " << outcome.error().to_string();
        break;
      }
      if (const auto* fit = outcome->fit()) {
        std::cout << " on " << fit->node;
        for (const auto& device : fit->claims[0]) std::cout << ' ' << device.request << '=' << device.device;
        allocator->commit(*fit);
        placed = true;
        break;
      }
    }
    std::cout << (placed ? "" : " waits (no machine has room)") << '\n';
  }
}
