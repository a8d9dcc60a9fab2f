// The command fuzzers' families, each a function of the fuzzer's bytes that aborts on a finding (family_*.hpp); they
// are compiled once, together (command_families.cpp), and each fuzz_<family>.cpp is a fuzzer's entry to one of them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dra_fuzz {

void run_allocate_family(const std::uint8_t* data, std::size_t size);
void run_explain_family(const std::uint8_t* data, std::size_t size);
void run_capacity_family(const std::uint8_t* data, std::size_t size);
void run_what_if_family(const std::uint8_t* data, std::size_t size);

}  // namespace dra_fuzz
