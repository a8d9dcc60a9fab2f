// Must not compile: a pool whose devices have no name() is not an inventory. Built with -DDRA_CONTROL (the
// device given a name) it compiles, which shows that the missing member is what fails.
#include <dra/alloc/inventory.hpp>

#include <string_view>
#include <utility>
#include <vector>

struct device {
#ifdef DRA_CONTROL
  std::string_view name() const { return "d"; }
#endif
  std::vector<std::pair<std::string_view, dra::alloc::attribute_value_view>> attributes() const { return {}; }
};
struct pool {
  std::string_view driver() const { return "x.example.com"; }
  std::string_view name() const { return "p"; }
  std::string_view node() const { return ""; }
  std::vector<device> devices() const { return {}; }
};
struct device_class {
  std::string_view name() const { return "c"; }
  std::vector<std::string_view> selectors() const { return {}; }
};

int main() {
  const dra::cel::selector_engine engine;
  auto allocator = dra::alloc::inventory_allocator<>::make(std::vector<pool>{}, std::vector<device_class>{}, engine);
  return allocator ? 0 : 1;
}
