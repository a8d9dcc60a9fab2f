// libFuzzer's entry for the capacity family of the command fuzzers (family_capacity.hpp says what it checks; the
// families are compiled together once, in command_families.cpp).
#include "command_families.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::run_capacity_family(data, size);
  return 0;
}
