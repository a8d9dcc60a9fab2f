// Must not compile: a pool whose devices have no name() is not an inventory. Built with -DDRA_CONTROL (the
// device given a name) it compiles, which shows that the missing member is what fails.
#include "../inventory_world.hpp"

#include <string_view>
#include <utility>
#include <vector>

struct device {
#ifdef DRA_CONTROL
  std::string_view name() const { return "d"; }
#endif
  std::vector<std::pair<std::string_view, dra::alloc::attribute_value_view>> attributes() const { return {}; }
};

int main() { return allocates_bare<device>() ? 0 : 1; }
