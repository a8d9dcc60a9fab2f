// Must not compile: a request whose subrequests are in first_available() (the API's firstAvailable) where the
// concepts read alternatives() would be allocated as a plain request, so it is rejected, by the concept named after
// the real member (no_near_miss_of_alternatives). Built with -DDRA_CONTROL (the member named alternatives()) it
// compiles, which shows that the name is what fails.
#include <dra/alloc/inventory.hpp>

#include <string_view>
#include <utility>
#include <vector>

struct subrequest {
  std::string_view name() const { return "small"; }
  std::string_view device_class() const { return "c"; }
};
struct request {
  std::string_view name() const { return "r"; }
  std::string_view device_class() const { return "c"; }
#ifdef DRA_CONTROL
  std::vector<subrequest> alternatives() const { return {subrequest{}}; }
#else
  std::vector<subrequest> first_available() const { return {subrequest{}}; }
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
