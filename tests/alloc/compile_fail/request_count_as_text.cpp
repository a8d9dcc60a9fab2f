// Must not compile: a request whose optional count() returns text is rejected, not ignored. Built with
// -DDRA_CONTROL (count() returning a number) it compiles, which shows that the member's shape is what fails.
#include "../inventory_world.hpp"

#include <cstdint>
#include <string_view>

struct request : bare_request {
#ifdef DRA_CONTROL
  std::int64_t count() const { return 2; }
#else
  std::string_view count() const { return "2"; }
#endif
};

int main() { return allocates_bare<bare_device, request>() ? 0 : 1; }
