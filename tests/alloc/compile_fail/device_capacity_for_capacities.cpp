// Must not compile: a device with capacity() where the concepts read capacities() would have its capacities
// silently ignored, so it is rejected, by the concept named after the real member (no_near_miss_of_capacities).
// Built with -DDRA_CONTROL (the member named capacities()) it compiles, which shows that the name is what fails.
#include <dra/alloc/inventory.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct device {
  std::string_view name() const { return "d"; }
  std::vector<std::pair<std::string_view, dra::alloc::attribute_value_view>> attributes() const { return {}; }
#ifdef DRA_CONTROL
  std::map<std::string, std::string> capacities() const { return {{"memory", "80Gi"}}; }
#else
  std::map<std::string, std::string> capacity() const { return {{"memory", "80Gi"}}; }
#endif
};
struct pool {
  std::string_view driver() const { return "x.example.com"; }
  std::string_view name() const { return "p"; }
  std::string_view node() const { return ""; }
  std::vector<device> devices() const { return {device{}}; }
};
struct device_class {
  std::string_view name() const { return "c"; }
  std::vector<std::string_view> selectors() const { return {}; }
};

int main() {
  const dra::cel::selector_engine engine;
  auto allocator =
      dra::alloc::inventory_allocator<>::make(std::vector<pool>{pool{}}, std::vector<device_class>{}, engine);
  return allocator ? 0 : 1;
}
