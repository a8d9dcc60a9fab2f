// Kubernetes resource.Quantity: exact parsing, canonical strings, comparison and arithmetic, as k8s.io/apimachinery
// does them.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace dra {

namespace detail::quantity_math {

// GCC and Clang; 38 significant digits, enough for every real quantity.
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

inline constexpr int max_digits = 38;  // |mantissa| < 10^38 always holds

inline constexpr auto powers_of_ten = [] {
  std::array<uint128, max_digits + 2> table{};
  uint128 p = 1;
  for (auto& entry : table) {
    entry = p;
    p *= 10;
  }
  return table;
}();

[[nodiscard]] constexpr int128 pow10(int exponent) noexcept { return static_cast<int128>(powers_of_ten[exponent]); }

[[nodiscard]] constexpr uint128 magnitude(int128 v) noexcept {
  return v < 0 ? static_cast<uint128>(-(v + 1)) + 1 : static_cast<uint128>(v);
}

[[nodiscard]] constexpr int digit_count(int128 v) noexcept {
  const uint128 m = magnitude(v);
  int digits = 0;
  while (digits <= max_digits && m >= powers_of_ten[digits]) ++digits;
  return digits;
}

// a * 10^shift, if the result keeps fewer than max_digits + 1 digits.
[[nodiscard]] constexpr std::optional<int128> scale_up(int128 a, std::int64_t shift) noexcept {
  if (a == 0) return int128{0};
  if (shift < 0 || digit_count(a) + shift > max_digits) return std::nullopt;
  return a * pow10(static_cast<int>(shift));
}

// a / 10^shift rounded away from zero (inf.RoundUp), and whether that was exact.
[[nodiscard]] constexpr std::pair<int128, bool> scale_down_away_from_zero(int128 a, std::int64_t shift) noexcept {
  if (shift <= 0 || a == 0) return {a, true};
  if (shift > max_digits) return {a > 0 ? 1 : -1, false};
  int128 divisor = pow10(static_cast<int>(shift));
  int128 quotient = a / divisor;
  bool exact = a % divisor == 0;
  if (!exact) quotient += a > 0 ? 1 : -1;
  return {quotient, exact};
}

[[nodiscard]] constexpr bool fits_int64(int128 v) noexcept {
  return v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max();
}

[[nodiscard]] inline std::string digits_of(int128 v) {
  char buffer[40];
  char* end = buffer + sizeof buffer;
  char* begin = end;
  uint128 m = magnitude(v);
  do {
    *--begin = static_cast<char>('0' + static_cast<int>(m % 10));
    m /= 10;
  } while (m != 0);
  return std::string(begin, end);
}

}  // namespace detail::quantity_math

// A 128-bit signed integer (a GCC and Clang extension): wide enough for sums and differences of 64-bit quantity
// values, which other rooms' checks compute too.
using int128 = detail::quantity_math::int128;

// A Kubernetes resource quantity ("4Gi", "500m", "1.5e3").
//
// The value is mantissa * 10^scale, held exactly (no floating point on any
// path that decides an allocation). Besides the value, a quantity carries
// what Kubernetes carries and what changes its behaviour: the format (which
// suffix family its canonical string uses) and whether Kubernetes would hold
// it as an int64 amount or as an arbitrary-precision decimal (that decides
// AsInt64, and so CEL's isInteger/asInteger).
//
// Limit: dra keeps up to 38 significant digits; Kubernetes has no limit.
// Inputs with more significant digits are rejected with an error, and
// arithmetic that would need more returns an error.
class quantity {
 public:
  enum class format : std::uint8_t { decimal_exponent, binary_si, decimal_si };

  quantity() = default;  // zero, decimal_si

  // Like resource.ParseQuantity.
  [[nodiscard]] static result<quantity> parse(std::string_view text);

  // Like resource.NewQuantity / NewMilliQuantity / NewScaledQuantity.
  [[nodiscard]] static constexpr quantity from_int(std::int64_t units, format f = format::decimal_si) noexcept {
    return quantity(units, 0, f, false);
  }
  [[nodiscard]] static constexpr quantity from_milli(std::int64_t milli, format f = format::decimal_si) noexcept {
    return quantity(milli, -3, f, false);
  }
  [[nodiscard]] static constexpr quantity from_scaled(std::int64_t value, std::int32_t scale) noexcept {
    return quantity(value, scale, format::decimal_si, false);
  }

  // The canonical string, byte-identical to Quantity.String() of a
  // quantity that holds no cached input text.
  [[nodiscard]] std::string to_string() const;

  [[nodiscard]] constexpr format fmt() const noexcept { return format_; }
  [[nodiscard]] constexpr int sign() const noexcept { return mantissa_ > 0 ? 1 : (mantissa_ < 0 ? -1 : 0); }
  [[nodiscard]] constexpr bool is_zero() const noexcept { return mantissa_ == 0; }

  // Like Quantity.Value(): whole units, rounded away from zero; saturates
  // at the int64 limits where Kubernetes would overflow. (Kubernetes returns
  // garbage there: 0 for an int64 amount such as "10E", the low 64 bits for a
  // big decimal; and for a negative, non-whole decimal-backed value such as
  // "-1e-10" it rounds toward +infinity and past it (1). dra rounds away from
  // zero throughout, as Kubernetes does for every int64 amount.)
  [[nodiscard]] std::int64_t value() const noexcept { return scaled_value(0); }
  // Like Quantity.MilliValue(): thousandths, rounded away from zero; saturates.
  [[nodiscard]] std::int64_t milli_value() const noexcept { return scaled_value(-3); }

  // Like Quantity.AsInt64(): the value as an int64 only when Kubernetes
  // holds it as an int64 amount with a non-negative scale that fits
  // ("1k" yes; "1000m" and "1.5Gi" no, though both are whole numbers).
  [[nodiscard]] std::optional<std::int64_t> as_int64() const noexcept;
  // CEL's isInteger: as_int64() succeeds.
  [[nodiscard]] bool is_integer() const noexcept { return as_int64().has_value(); }
  // Like AsApproximateFloat64; for CEL only, never for allocation.
  [[nodiscard]] double approximate_double() const noexcept;

  // Exact arithmetic with Kubernetes' format rules: the result keeps this
  // quantity's format, except that a zero receiver takes the argument's.
  [[nodiscard]] result<quantity> add(const quantity& other) const;
  [[nodiscard]] result<quantity> sub(const quantity& other) const;
  [[nodiscard]] result<quantity> mul(std::int64_t factor) const;
  // The exact product held as a decimal in this quantity's format, as
  // NewDecimalQuantity(a.AsDec() * b.AsDec(), a.Format) makes it.
  [[nodiscard]] result<quantity> mul(const quantity& factor) const;

  // The consumable-capacity rounding of a requested amount to a
  // requestPolicy validRange (KEP-5075), computed as upstream computes it:
  // in whole units (value()), min + step * ceil((value - min) / step), as a
  // binary_si quantity; a value below min gives min unchanged (k >= 0).
  // A step of zero or less is an error (upstream would divide by zero).
  [[nodiscard]] static result<quantity> round_up_to_step(const quantity& value, const quantity& min,
                                                         const quantity& step);

  friend std::strong_ordering operator<=>(const quantity& a, const quantity& b) noexcept { return compare(a, b); }
  friend bool operator==(const quantity& a, const quantity& b) noexcept { return compare(a, b) == 0; }

  // Same value, format and representation (for tests; == compares values).
  [[nodiscard]] constexpr bool identical(const quantity& other) const noexcept {
    return mantissa_ == other.mantissa_ && scale_ == other.scale_ && format_ == other.format_ &&
           decimal_backed_ == other.decimal_backed_;
  }

 private:
  using int128 = detail::quantity_math::int128;

  constexpr quantity(int128 mantissa, std::int64_t scale, format f, bool decimal_backed) noexcept
      : mantissa_(mantissa), scale_(scale), format_(f), decimal_backed_(decimal_backed) {}

  static std::strong_ordering compare(const quantity& a, const quantity& b) noexcept;
  [[nodiscard]] std::int64_t scaled_value(std::int64_t target_scale) const noexcept;
  // The sum as Kubernetes' int64Amount.Add computes it, or nothing when it overflows there.
  static std::optional<quantity> add_as_int64_amounts(const quantity& a, const quantity& b) noexcept;
  static result<quantity> add_exact(const quantity& a, const quantity& b, format f);

  int128 mantissa_ = 0;
  std::int64_t scale_ = 0;
  format format_ = format::decimal_si;
  bool decimal_backed_ = false;  // Kubernetes would hold an inf.Dec
};

inline std::ostream& operator<<(std::ostream& out, const quantity& q) { return out << q.to_string(); }

// ---------------------------------------------------------------------------
// Implementation

namespace detail::quantity_parse {

inline constexpr std::string_view format_error =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
inline constexpr std::string_view suffix_error = "unable to parse quantity's suffix";
inline constexpr std::string_view numeric_error = "unable to parse numeric part of quantity";

[[nodiscard]] constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
[[nodiscard]] constexpr bool is_suffix_char(char c) noexcept {
  return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos;
}

// The pieces of a quantity string, split the way Kubernetes' scanner splits
// them (including its leniencies: "1.", ".5", "+" and "." are numbers).
struct pieces {
  bool positive = true;
  bool has_digits = false;  // the numeric part has a digit (inf.Dec needs one)
  std::string_view num;     // integer digits without leading zeros; "" means 0
  std::string_view denom;   // fraction digits
  std::string_view suffix;
};

[[nodiscard]] inline std::optional<pieces> split(std::string_view s) noexcept {
  pieces p;
  std::size_t pos = 0;
  const std::size_t end = s.size();
  if (pos < end && (s[0] == '-' || s[0] == '+')) {
    p.positive = s[0] == '+';
    ++pos;
  }
  while (pos < end && s[pos] == '0') {
    ++pos;
    p.has_digits = true;
  }
  if (pos >= end) return p;
  std::size_t num_start = pos;
  while (pos < end && is_digit(s[pos])) ++pos;
  p.num = s.substr(num_start, pos - num_start);
  p.has_digits = p.has_digits || !p.num.empty();
  if (pos >= end) return p;
  if (s[pos] == '.') {
    ++pos;
    std::size_t denom_start = pos;
    while (pos < end && is_digit(s[pos])) ++pos;
    p.denom = s.substr(denom_start, pos - denom_start);
    p.has_digits = p.has_digits || !p.denom.empty();
    if (pos >= end) return p;
  }
  std::size_t suffix_start = pos;
  while (pos < end && is_suffix_char(s[pos])) ++pos;
  if (pos < end && (s[pos] == '-' || s[pos] == '+')) ++pos;
  while (pos < end && is_digit(s[pos])) ++pos;
  if (pos < end) return std::nullopt;
  p.suffix = s.substr(suffix_start);
  return p;
}

struct suffix_meaning {
  int base;
  std::int32_t exponent;
  quantity::format format;
};

[[nodiscard]] inline std::optional<suffix_meaning> interpret(std::string_view suffix) noexcept {
  using f = quantity::format;
  // By position, not by a table of strings: comparing each entry as a string cost more than
  // the rest of parsing a quantity.
  if (suffix.empty()) return suffix_meaning{10, 0, f::decimal_si};
  if (suffix.size() == 2 && suffix[1] == 'i') {  // Ki Mi Gi Ti Pi Ei: 2^10 .. 2^60
    constexpr std::string_view binary = "KMGTPE";
    if (const std::size_t at = binary.find(suffix[0]); at != std::string_view::npos)
      return suffix_meaning{2, static_cast<std::int32_t>(10 * (at + 1)), f::binary_si};
  }
  if (suffix.size() == 1) {  // n u m k M G T P E: 10^-9 .. 10^18
    constexpr std::string_view decimal = "numkMGTPE";
    constexpr std::array<std::int32_t, 9> exponents = {-9, -6, -3, 3, 6, 9, 12, 15, 18};
    if (const std::size_t at = decimal.find(suffix[0]); at != std::string_view::npos)
      return suffix_meaning{10, exponents[at], f::decimal_si};
  }
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    // strconv.ParseInt(suffix[1:], 10, 64), then Kubernetes truncates to int32.
    std::string_view digits = suffix.substr(1);
    bool negative = false;
    if (digits.front() == '-' || digits.front() == '+') {
      negative = digits.front() == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty()) return std::nullopt;
    detail::quantity_math::int128 value = 0;
    for (char c : digits) {
      if (!is_digit(c)) return std::nullopt;  // "1ee5", "1Ei5": ParseInt fails
      value = value * 10 + (c - '0');
      if (value > static_cast<detail::quantity_math::int128>(std::numeric_limits<std::int64_t>::max()) + 1)
        return std::nullopt;
    }
    if (negative) value = -value;
    if (!detail::quantity_math::fits_int64(value)) return std::nullopt;
    return suffix_meaning{10, static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(value))),
                          f::decimal_exponent};
  }
  return std::nullopt;
}

// The error for `text`. A function, not a lambda capturing `text`: a capture by reference makes
// the compiler keep `text` in memory, and reading it back whole right after storing its halves
// stalled every parse (a failed store-to-load forwarding, a third of parse's time on ingest).
[[nodiscard]] inline dra::error not_a_quantity(std::string_view text, std::string_view why) {
  return dra::error{dra::concat(dra::quoted(text), " is not a quantity: ", why)};
}

// A value as parse works it out: mantissa * 10^scale.
struct scaled {
  detail::quantity_math::int128 mantissa = 0;
  std::int64_t scale = 0;
};

// Kubernetes' fast path: a small value is an int64 amount, unrounded (its magnitude; the sign is the caller's).
// Nothing when the value does not fit one.
[[nodiscard]] inline std::optional<scaled> int64_amount(std::string_view num, std::string_view denom,
                                                        const suffix_meaning& meaning) {
  namespace qm = detail::quantity_math;
  std::int64_t precision = 0;
  std::int64_t scale = 0;
  std::int64_t multiplier = 1;
  // Kubernetes counts an all-zero integer part as the one digit "0".
  const auto num_len = static_cast<std::int64_t>(num.empty() ? 1 : num.size());
  if (meaning.base == 10) {
    scale = meaning.exponent;
    precision = 18 - num_len - static_cast<std::int64_t>(denom.size());
  } else if (meaning.exponent >= 0 && denom.empty()) {
    multiplier = std::int64_t{1} << meaning.exponent;
    precision = 15 - num_len - static_cast<std::int64_t>(static_cast<float>(meaning.exponent) * 3 / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision < 0) return std::nullopt;
  scale -= static_cast<std::int64_t>(denom.size());
  if (scale < -9) return std::nullopt;
  qm::int128 digits = 0;
  for (char c : num) digits = digits * 10 + (c - '0');
  for (char c : denom) digits = digits * 10 + (c - '0');
  qm::int128 product = digits * multiplier;
  if (!qm::fits_int64(product)) return std::nullopt;
  return scaled{product, scale};
}

// The exact magnitude of the digits, trailing zeros moved into the scale; nothing past 38 significant digits.
[[nodiscard]] inline std::optional<scaled> exact_digits(std::string_view num, std::string_view denom) {
  namespace qm = detail::quantity_math;
  std::string_view fraction = denom;
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  std::string_view integer = num;
  std::int64_t scale = -static_cast<std::int64_t>(fraction.size());
  if (fraction.empty()) {
    while (!integer.empty() && integer.back() == '0') {
      integer.remove_suffix(1);
      ++scale;
    }
  }
  std::string_view fraction_digits = fraction;
  if (integer.empty())  // the fraction's leading zeros are not significant
    while (!fraction_digits.empty() && fraction_digits.front() == '0') fraction_digits.remove_prefix(1);
  if (integer.size() + fraction_digits.size() > static_cast<std::size_t>(qm::max_digits)) return std::nullopt;
  qm::int128 mantissa = 0;
  for (char c : integer) mantissa = mantissa * 10 + (c - '0');
  for (char c : fraction_digits) mantissa = mantissa * 10 + (c - '0');
  return scaled{mantissa, scale};
}

// Applies the suffix to the exact value: a decimal one moves the scale, a binary one multiplies by its power of two.
// Whether the value is then past the binary cap for certain; nothing when it needs more than 38 significant digits.
[[nodiscard]] inline std::optional<bool> apply_suffix(scaled& v, const suffix_meaning& meaning) {
  namespace qm = detail::quantity_math;
  if (meaning.base == 10) {
    v.scale += meaning.exponent;
    return false;
  }
  // mantissa * 2^exponent * 10^scale with scale <= 0.
  for (int i = 0; i < meaning.exponent && v.mantissa != 0; ++i) {
    v.mantissa *= 2;
    if (qm::digit_count(v.mantissa) > qm::max_digits) {
      // Past 10^38 * 10^scale: if that is beyond the cap, the cap is the value.
      if (-v.scale <= qm::max_digits - 19) return true;
      return std::nullopt;
    }
  }
  return false;
}

// Rounds the exact value up to 1n, caps a binary one at 2^63-1, and writes a binary one between 0 and 1 in decimal.
inline void round_and_cap(scaled& v, quantity::format& fmt, bool capped) {
  namespace qm = detail::quantity_math;
  using format = quantity::format;
  constexpr qm::int128 binary_cap = std::numeric_limits<std::int64_t>::max();
  if (v.mantissa != 0 && v.scale < -9) {
    v.mantissa = qm::scale_down_away_from_zero(v.mantissa, -9 - v.scale).first;
    v.scale = -9;
  }
  if (fmt == format::binary_si && !capped) {  // is the value above 2^63-1?
    if (v.scale >= 0) {
      std::optional<qm::int128> whole = qm::scale_up(v.mantissa, v.scale);
      capped = !whole || *whole > binary_cap;
    } else if (-v.scale <= 19) {  // else the value is below 10^38 / 10^20, under the cap
      capped = v.mantissa > binary_cap * qm::pow10(static_cast<int>(-v.scale));
    }
  }
  if (capped) {
    v.mantissa = binary_cap;
    v.scale = 0;
  }
  if (fmt == format::binary_si && v.mantissa != 0 && v.scale < 0 && v.mantissa < qm::pow10(static_cast<int>(-v.scale)))
    fmt = format::decimal_si;  // 0 < value < 1
}

}  // namespace detail::quantity_parse

inline result<quantity> quantity::parse(std::string_view text) {
  namespace qp = detail::quantity_parse;
  if (text.empty()) return qp::not_a_quantity(text, qp::format_error);
  if (text.size() == 1 && text[0] == '0') return quantity{};  // not text == "0": GCC calls compare out of line there
  if (text.size() <= 18 && std::all_of(text.begin(), text.end(), qp::is_digit)) {
    // The common case (counters, counts): plain digits are an int64 amount with Kubernetes' fast path.
    std::int64_t units = 0;
    for (char c : text) units = units * 10 + (c - '0');
    return quantity(units, 0, format::decimal_si, false);
  }

  std::optional<qp::pieces> pieces = qp::split(text);
  if (!pieces) return qp::not_a_quantity(text, qp::format_error);
  std::optional<qp::suffix_meaning> meaning = qp::interpret(pieces->suffix);
  if (!meaning) return qp::not_a_quantity(text, qp::suffix_error);
  format fmt = meaning->format;
  const std::string_view num = pieces->num;
  const std::string_view denom = pieces->denom;
  const int sign = pieces->positive ? 1 : -1;

  // Kubernetes' fast path: small values become an int64 amount, unrounded.
  if (const std::optional<qp::scaled> amount = qp::int64_amount(num, denom, *meaning))
    return quantity(sign * amount->mantissa, amount->scale, fmt, false);

  // The arbitrary-precision path: exact value, rounded up to 1n, binary capped.
  if (!pieces->has_digits) return qp::not_a_quantity(text, qp::numeric_error);
  std::optional<qp::scaled> exact = qp::exact_digits(num, denom);
  if (!exact) return qp::not_a_quantity(text, "more than 38 significant digits");
  const std::optional<bool> capped = qp::apply_suffix(*exact, *meaning);
  if (!capped) return qp::not_a_quantity(text, "more than 38 significant digits");
  qp::round_and_cap(*exact, fmt, *capped);
  return quantity(sign * exact->mantissa, exact->mantissa == 0 ? 0 : exact->scale, fmt, true);
}

inline std::strong_ordering quantity::compare(const quantity& a, const quantity& b) noexcept {
  namespace qm = detail::quantity_math;
  if (a.sign() != b.sign()) return a.sign() <=> b.sign();
  if (a.sign() == 0) return std::strong_ordering::equal;
  if (a.scale_ == b.scale_) return a.mantissa_ <=> b.mantissa_;
  // Same sign: compare magnitudes by the position of the leading digit first.
  const std::int64_t lead_a = qm::digit_count(a.mantissa_) + a.scale_;
  const std::int64_t lead_b = qm::digit_count(b.mantissa_) + b.scale_;
  std::strong_ordering by_magnitude = std::strong_ordering::equal;
  if (lead_a != lead_b) {
    by_magnitude = lead_a <=> lead_b;
  } else {
    // Equal leading positions: both align into at most max_digits digits.
    const std::int64_t common = std::min(a.scale_, b.scale_);
    const qm::uint128 ma = qm::magnitude(a.mantissa_) * qm::powers_of_ten[a.scale_ - common];
    const qm::uint128 mb = qm::magnitude(b.mantissa_) * qm::powers_of_ten[b.scale_ - common];
    by_magnitude = ma <=> mb;
  }
  if (a.sign() > 0) return by_magnitude;
  return 0 <=> by_magnitude;
}

inline std::int64_t quantity::scaled_value(std::int64_t target_scale) const noexcept {
  namespace qm = detail::quantity_math;
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  if (mantissa_ == 0) return 0;
  if (scale_ >= target_scale) {
    std::optional<qm::int128> v = qm::scale_up(mantissa_, scale_ - target_scale);
    if (!v || !qm::fits_int64(*v)) return mantissa_ > 0 ? hi : lo;
    return static_cast<std::int64_t>(*v);
  }
  qm::int128 v = qm::scale_down_away_from_zero(mantissa_, target_scale - scale_).first;
  if (!qm::fits_int64(v)) return v > 0 ? hi : lo;
  return static_cast<std::int64_t>(v);
}

inline std::optional<std::int64_t> quantity::as_int64() const noexcept {
  namespace qm = detail::quantity_math;
  if (decimal_backed_ || scale_ < 0) return std::nullopt;
  std::optional<qm::int128> v = qm::scale_up(mantissa_, scale_);
  if (!v || !qm::fits_int64(*v)) return std::nullopt;
  return static_cast<std::int64_t>(*v);
}

namespace detail::quantity_math {
// 10^n as Go's math.Pow10 computes it (two table lookups), so that
// approximate_double() rounds exactly like AsApproximateFloat64.
[[nodiscard]] inline double go_pow10(std::int64_t n) noexcept {
  static constexpr double small[32] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10,
                                       1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
                                       1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31};
  static constexpr double big[10] = {1e0, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288};
  static constexpr double negative_big[11] = {1e-0,   1e-32,  1e-64,  1e-96,  1e-128, 1e-160,
                                              1e-192, 1e-224, 1e-256, 1e-288, 1e-320};
  if (n >= 0 && n <= 308) return big[n / 32] * small[n % 32];
  if (n < 0 && n >= -323) return negative_big[-n / 32] / small[-n % 32];
  return n > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}
}  // namespace detail::quantity_math

inline double quantity::approximate_double() const noexcept {
  const auto base = static_cast<double>(mantissa_);
  if (scale_ == 0) return base;
  return base * detail::quantity_math::go_pow10(scale_);
}

inline std::optional<quantity> quantity::add_as_int64_amounts(const quantity& a, const quantity& b) noexcept {
  namespace qm = detail::quantity_math;
  if (b.mantissa_ == 0) return a;
  if (a.mantissa_ == 0) return quantity(b.mantissa_, b.scale_, a.format_, false);
  auto int64_sum = [](qm::int128 x, qm::int128 y) -> std::optional<qm::int128> {
    qm::int128 s = x + y;
    if (!qm::fits_int64(s)) return std::nullopt;
    return s;
  };
  auto scaled = [](qm::int128 v, std::int64_t shift) -> std::optional<qm::int128> {
    std::optional<qm::int128> r = qm::scale_up(v, shift);
    if (!r || !qm::fits_int64(*r)) return std::nullopt;
    return r;
  };
  if (a.scale_ == b.scale_) {
    auto s = int64_sum(a.mantissa_, b.mantissa_);
    if (!s) return std::nullopt;
    return quantity(*s, a.scale_, a.format_, false);
  }
  if (a.scale_ > b.scale_) {
    auto c = scaled(a.mantissa_, a.scale_ - b.scale_);
    if (!c) return std::nullopt;
    auto s = int64_sum(*c, b.mantissa_);
    if (!s) return std::nullopt;
    return quantity(*s, b.scale_, a.format_, false);
  }
  auto c = scaled(b.mantissa_, b.scale_ - a.scale_);
  if (!c) return std::nullopt;
  auto s = int64_sum(a.mantissa_, *c);
  if (!s) return std::nullopt;
  return quantity(*s, a.scale_, a.format_, false);
}

inline result<quantity> quantity::add_exact(const quantity& a, const quantity& b, format f) {
  namespace qm = detail::quantity_math;
  const std::int64_t common = std::min(a.scale_, b.scale_);
  std::optional<qm::int128> ma = qm::scale_up(a.mantissa_, a.scale_ - common);
  std::optional<qm::int128> mb = qm::scale_up(b.mantissa_, b.scale_ - common);
  if (!ma || !mb) return dra::error{"quantity arithmetic needs more than 38 significant digits"};
  qm::int128 sum = *ma + *mb;
  if (qm::digit_count(sum) > qm::max_digits)
    return dra::error{"quantity arithmetic needs more than 38 significant digits"};
  return quantity(sum, sum == 0 ? 0 : common, f, true);
}

inline result<quantity> quantity::add(const quantity& other) const {
  const bool either_decimal = decimal_backed_ || other.decimal_backed_;
  format f = format_;
  if (is_zero()) f = other.format_;
  if (!either_decimal) {
    quantity receiver = *this;
    receiver.format_ = f;
    if (std::optional<quantity> sum = add_as_int64_amounts(receiver, other)) return *sum;
  }
  return add_exact(*this, other, f);
}

inline result<quantity> quantity::sub(const quantity& other) const {
  quantity negated = other;
  negated.mantissa_ = -negated.mantissa_;
  format f = is_zero() ? other.format_ : format_;
  if (!decimal_backed_ && !other.decimal_backed_) {
    // int64Amount.Sub adds the negation, keeping the receiver's format.
    quantity receiver = *this;
    receiver.format_ = f;
    if (std::optional<quantity> sum = add_as_int64_amounts(receiver, negated)) return *sum;
  }
  return add_exact(*this, negated, f);
}

inline result<quantity> quantity::mul(std::int64_t factor) const {
  namespace qm = detail::quantity_math;
  if (!decimal_backed_) {
    if (mantissa_ == 0) return *this;
    if (factor == 0) return quantity(0, 0, format_, false);
    qm::int128 product = mantissa_ * factor;
    bool fits = qm::fits_int64(product);
    if (fits && scale_ > 0) {
      auto whole = qm::scale_up(product, scale_);
      fits = whole && qm::fits_int64(*whole);
    }
    // int64Amount.Mul keeps a negative scale only when the product is a
    // whole number of units (negativeScaleInt64 exact); else it turns decimal.
    if (fits && scale_ < 0) fits = -scale_ <= 19 && product % qm::pow10(static_cast<int>(-scale_)) == 0;
    if (fits) return quantity(product, scale_, format_, false);
  }
  if (qm::digit_count(mantissa_) + qm::digit_count(factor) > qm::max_digits + 1)
    return dra::error{"quantity arithmetic needs more than 38 significant digits"};
  qm::int128 product = mantissa_ * factor;
  if (qm::digit_count(product) > qm::max_digits)
    return dra::error{"quantity arithmetic needs more than 38 significant digits"};
  return quantity(product, product == 0 ? 0 : scale_, format_, true);
}

inline result<quantity> quantity::mul(const quantity& factor) const {
  namespace qm = detail::quantity_math;
  // At most 38 digits in all: the product then fits in 128 bits.
  if (qm::digit_count(mantissa_) + qm::digit_count(factor.mantissa_) > qm::max_digits)
    return dra::error{"quantity arithmetic needs more than 38 significant digits"};
  const qm::int128 product = mantissa_ * factor.mantissa_;
  return quantity(product, product == 0 ? 0 : scale_ + factor.scale_, format_, true);
}

inline result<quantity> quantity::round_up_to_step(const quantity& value, const quantity& min, const quantity& step) {
  if (value < min) return min;  // roundUpRange: below the range, the minimum itself (k >= 0)
  const std::int64_t requested = value.value();
  const std::int64_t step_units = step.value();
  const std::int64_t min_units = min.value();
  if (step_units <= 0) return dra::error{dra::concat("step ", step.to_string(), " must be positive")};
  detail::quantity_math::int128 added = static_cast<detail::quantity_math::int128>(requested) - min_units;
  detail::quantity_math::int128 n = added / step_units;
  if (added % step_units != 0) n += 1;
  detail::quantity_math::int128 rounded = min_units + step_units * n;
  if (!detail::quantity_math::fits_int64(rounded))
    return dra::error{
        dra::concat("rounding ", value.to_string(), " up to a step of ", step.to_string(), " overflows")};
  return from_int(static_cast<std::int64_t>(rounded), format::binary_si);
}

inline std::string quantity::to_string() const {
  namespace qm = detail::quantity_math;
  if (mantissa_ == 0) return "0";
  format f = format_;
  qm::int128 whole = 0;
  if (f == format::binary_si) {
    const quantity limit = from_int(1024);
    const quantity negative_limit = from_int(-1024);
    if (compare(*this, negative_limit) > 0 && compare(*this, limit) < 0) {
      f = format::decimal_si;
    } else if (scale_ >= 0) {
      std::optional<qm::int128> v = qm::scale_up(mantissa_, scale_);
      if (v)
        whole = *v;
      else
        f = format::decimal_si;  // beyond 10^38: shown in decimal
    } else {
      auto [v, exact] = qm::scale_down_away_from_zero(mantissa_, -scale_);
      if (exact)
        whole = v;
      else
        f = format::decimal_si;  // don't lose precision
    }
  }
  std::string out = mantissa_ < 0 ? "-" : "";
  if (f == format::binary_si) {
    int exponent = 0;
    qm::uint128 m = qm::magnitude(whole);
    while (m >= 1024 && m % 1024 == 0) {
      m /= 1024;
      ++exponent;
    }
    out += qm::digits_of(static_cast<qm::int128>(m));
    static constexpr std::string_view binary_suffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    if (exponent < 7) out += binary_suffixes[exponent];  // Kubernetes has no suffix past Ei either
    return out;
  }
  // Decimal: move factors of ten into the exponent, then lower the exponent
  // to a multiple of three.
  qm::int128 m = mantissa_;
  std::int64_t exponent = scale_;
  while (m % 10 == 0) {
    m /= 10;
    ++exponent;
  }
  std::string digits = qm::digits_of(m);
  std::int64_t adjust = ((exponent % 3) + 3) % 3;
  digits.append(static_cast<std::size_t>(adjust), '0');
  exponent -= adjust;
  out += digits;
  if (f == format::decimal_exponent) {
    if (exponent != 0) {
      out += 'e';
      out += std::to_string(exponent);
    }
    return out;
  }
  // Kubernetes looks the exponent up in its decimal suffix table and writes
  // no suffix when there is none (so 1000E prints as "1"): kept as it is.
  static constexpr std::string_view decimal_suffixes[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  if (exponent >= -9 && exponent <= 18) out += decimal_suffixes[(exponent + 9) / 3];
  return out;
}

}  // namespace dra
