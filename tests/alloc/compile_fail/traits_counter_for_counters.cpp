// Must not compile: an inventory_traits specialisation (for a type its user cannot edit) whose counter() should be
// counters() is rejected as a member would be, by the concept named after the real member (no_near_miss_of_counters).
// Built with -DDRA_CONTROL (the function named counters()) it compiles, which shows that the name is what fails.
#include <dra/alloc/inventory.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vendor {
struct accelerator {  // data only: read through the traits below
  std::string serial;
  std::map<std::string, std::map<std::string, std::string>> draws;  // counter set -> counter -> quantity
};
}  // namespace vendor

template <>
struct dra::alloc::inventory_traits<vendor::accelerator> {
  static std::string_view name(const vendor::accelerator& a) { return a.serial; }
  static std::vector<std::pair<std::string_view, attribute_value_view>> attributes(const vendor::accelerator&) {
    return {};
  }
#ifdef DRA_CONTROL
  static const auto& counters(const vendor::accelerator& a) { return a.draws; }
#else
  static const auto& counter(const vendor::accelerator& a) { return a.draws; }
#endif
};

struct pool {
  std::string_view driver() const { return "x.example.com"; }
  std::string_view name() const { return "p"; }
  std::string_view node() const { return ""; }
  std::vector<vendor::accelerator> devices() const { return {{"a-0", {}}}; }
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
