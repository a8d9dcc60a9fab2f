// Fuzz target: any text through quantity parsing, formatting, comparison and arithmetic.
#include <dra/core/quantity.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t split = text.find('\n');
  auto a = dra::quantity::parse(text.substr(0, split));
  if (!a) return 0;
  // The canonical string is always a quantity again.
  auto again = dra::quantity::parse(a->to_string());
  if (!again) std::abort();
  if (split == std::string_view::npos) return 0;
  auto b = dra::quantity::parse(text.substr(split + 1));
  if (!b) return 0;
  // Ordering is antisymmetric; exact arithmetic round-trips when it succeeds.
  if ((*a < *b) && (*b < *a)) std::abort();
  if (auto sum = a->add(*b)) {
    auto back = sum->sub(*b);
    if (back && !(*back == *a)) std::abort();
  }
  (void)a->mul(static_cast<std::int64_t>(size));
  (void)a->value();
  (void)a->milli_value();
  (void)a->approximate_double();
  return 0;
}
