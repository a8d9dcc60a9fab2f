// Must not compile: an inventory_traits specialisation (for a type its user cannot edit) whose counter() should be
// counters() is rejected as a member would be, by the concept named after the real member (no_near_miss_of_counters).
// Built with -DDRA_CONTROL (the function named counters()) it compiles, which shows that the name is what fails.
#include "../inventory_world.hpp"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vendor {
struct accelerator {  // data only: read through the traits below
  std::string serial = "a-0";
  std::map<std::string, quantities> draws;  // counter set -> counters drawn
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

int main() { return allocates_bare<vendor::accelerator>() ? 0 : 1; }
