// Must not compile: a request whose optional count() returns text is rejected, not ignored. Built with
// -DDRA_CONTROL (count() returning a number) it compiles, which shows that the member's shape is what fails.
#include <dra/alloc/inventory.hpp>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

struct request {
  std::string_view name() const { return "r"; }
  std::string_view device_class() const { return "c"; }
#ifdef DRA_CONTROL
  std::int64_t count() const { return 2; }
#else
  std::string_view count() const { return "2"; }
#endif
};
struct claim {
  std::string_view name() const { return "claim"; }
  std::vector<request> requests() const { return {request{}}; }
};
struct device {
  std::string_view name() const { return "d"; }
  std::vector<std::pair<std::string_view, dra::alloc::attribute_value_view>> attributes() const { return {}; }
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
  if (!allocator) return 1;
  auto outcome = allocator->allocate("node-1", std::vector<claim>{claim{}});
  return outcome ? 0 : 1;
}
