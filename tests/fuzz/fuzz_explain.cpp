// libFuzzer's entry for the explain family of the command fuzzers (family_explain.hpp says what it checks; the families
// are compiled together once, in command_families.cpp).
#include "command_families.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::run_explain_family(data, size);
  return 0;
}
