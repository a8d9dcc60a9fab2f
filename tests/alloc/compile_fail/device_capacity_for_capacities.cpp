// Must not compile: a device with capacity() where the concepts read capacities() would have its capacities
// silently ignored, so it is rejected, by the concept named after the real member (no_near_miss_of_capacities).
// Built with -DDRA_CONTROL (the member named capacities()) it compiles, which shows that the name is what fails.
#include "../inventory_world.hpp"

struct device : bare_device {
#ifdef DRA_CONTROL
  quantities capacities() const {
    return {{ "memory", "80Gi" }};
  }
#else
  quantities capacity() const { return {{"memory", "80Gi"}}; }
#endif
};

int main() { return allocates_bare<device>() ? 0 : 1; }
