// The fuzzers' reading of their input as a stream of small numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace dra_fuzz {

// Reads the input as small numbers; past its end every number is 0.
class byte_reader {
 public:
  explicit byte_reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  int next(int bound) { return pos_ < bytes_.size() ? bytes_[pos_++] % bound : 0; }
  bool chance(int one_in) { return next(one_in) == 0; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace dra_fuzz
