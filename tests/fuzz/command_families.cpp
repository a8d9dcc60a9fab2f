// The command fuzzers' families in one translation unit: the engine's runs, explanations and analyses they share are
// instantiated once for the four fuzzers, not once each.
#include "command_families.hpp"

#include "family_allocate.hpp"
#include "family_capacity.hpp"
#include "family_explain.hpp"
#include "family_what_if.hpp"

namespace dra_fuzz {

void run_allocate_family(const std::uint8_t* data, std::size_t size) { allocate_family::run(data, size); }
void run_explain_family(const std::uint8_t* data, std::size_t size) { explain_family::run(data, size); }
void run_capacity_family(const std::uint8_t* data, std::size_t size) { capacity_family::run(data, size); }
void run_what_if_family(const std::uint8_t* data, std::size_t size) { what_if_family::run(data, size); }

}  // namespace dra_fuzz
