// Must not compile: a request whose subrequests are in first_available() (the API's firstAvailable) where the
// concepts read alternatives() would be allocated as a plain request, so it is rejected, by the concept named after
// the real member (no_near_miss_of_alternatives). Built with -DDRA_CONTROL (the member named alternatives()) it
// compiles, which shows that the name is what fails.
#include "../inventory_world.hpp"

#include <vector>

struct request : bare_request {
#ifdef DRA_CONTROL
  std::vector<bare_request> alternatives() const {
    return {bare_request {}};
  }
#else
  std::vector<bare_request> first_available() const { return {bare_request{}}; }
#endif
};

int main() { return allocates_bare<bare_device, request>() ? 0 : 1; }
