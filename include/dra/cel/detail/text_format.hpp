// How CEL (cel-go) spells numbers, durations and timestamps as text, and parses them back.
#pragma once

#include <dra/core/text.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace dra::cel::detail {

// Go's strconv.FormatFloat(d, 'g', -1, 64) as fmt's %v prints a float64:
// shortest round-trip digits, exponent form when exp < -4 or exp >= 21.
[[nodiscard]] inline std::string format_double(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), d, std::chars_format::scientific);
  std::string_view sci(buf.data(), static_cast<std::size_t>(end - buf.data()));
  const bool negative = sci.front() == '-';
  if (negative) sci.remove_prefix(1);
  const std::size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos))
    if (c != '.') digits.push_back(c);
  int exp = 0;
  std::from_chars(sci.data() + e_pos + 1 + (sci[e_pos + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp);
  std::string out = negative ? "-" : "";
  if (exp < -4 || exp >= 21) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += 'e';
    out += exp < 0 ? '-' : '+';
    const int a = exp < 0 ? -exp : exp;
    if (a < 10) out += '0';
    out += std::to_string(a);
    return out;
  }
  if (exp < 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-exp - 1), '0');
    out += digits;
    return out;
  }
  const auto int_digits = static_cast<std::size_t>(exp + 1);
  if (digits.size() <= int_digits) {
    out += digits;
    out.append(int_digits - digits.size(), '0');
  } else {
    out.append(digits, 0, int_digits);
    out += '.';
    out.append(digits, int_digits);
  }
  return out;
}

// Go's time.ParseDuration: "1h45m47s", "-1.5h", "300ms", "2h45m".
[[nodiscard]] inline std::optional<std::int64_t> parse_duration(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool negative = false;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0;
  if (s.empty()) return std::nullopt;
  long double total = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) ++i;
    if (i == 0) return std::nullopt;
    const std::string number(s.substr(0, i));
    s.remove_prefix(i);
    std::size_t j = 0;
    while (j < s.size() && !((s[j] >= '0' && s[j] <= '9') || s[j] == '.')) ++j;
    const std::string_view unit = s.substr(0, j);
    s.remove_prefix(j);
    long double scale;
    if (unit == "ns") scale = 1;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") scale = 1e3L;
    else if (unit == "ms") scale = 1e6L;
    else if (unit == "s") scale = 1e9L;
    else if (unit == "m") scale = 60e9L;
    else if (unit == "h") scale = 3600e9L;
    else return std::nullopt;
    char* endp = nullptr;
    const long double v = std::strtold(number.c_str(), &endp);
    if (endp != number.c_str() + number.size()) return std::nullopt;
    total += v * scale;
  }
  if (total > 9223372036854775807.0L) return std::nullopt;
  const auto nanos = static_cast<std::int64_t>(std::llround(static_cast<double>(total)));
  return negative ? -nanos : nanos;
}

// cel-go prints a duration as seconds with the fraction it needs: "8747s", "1.5s".
[[nodiscard]] inline std::string format_duration(std::int64_t nanos) {
  std::string out = nanos < 0 ? "-" : "";
  const std::uint64_t a = nanos < 0 ? 0 - static_cast<std::uint64_t>(nanos) : static_cast<std::uint64_t>(nanos);
  out += std::to_string(a / 1000000000ULL);
  std::uint64_t frac = a % 1000000000ULL;
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 9 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    out += '.';
    out += f;
  }
  out += 's';
  return out;
}

// Days from 1970-01-01 to a civil date (proleptic Gregorian), and back.
[[nodiscard]] constexpr std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) noexcept {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}
struct civil {
  std::int64_t year;
  unsigned month, day;
};
[[nodiscard]] constexpr civil civil_from_days(std::int64_t z) noexcept {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {y + (m <= 2), m, d};
}

// The range CEL allows: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
inline constexpr std::int64_t min_timestamp_seconds = -62135596800;
inline constexpr std::int64_t max_timestamp_seconds = 253402300799;

// RFC 3339 with an optional fraction and a Z or ±hh:mm offset.
[[nodiscard]] inline std::optional<std::pair<std::int64_t, std::int32_t>> parse_timestamp(std::string_view s) {
  auto num = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    if (at + n > s.size()) return std::nullopt;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  auto year = num(0, 4), month = num(5, 2), day = num(8, 2), hour = num(11, 2), minute = num(14, 2), second = num(17, 2);
  if (!year || !month || !day || !hour || !minute || !second || s.size() < 20 || s[4] != '-' || s[7] != '-' ||
      (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  if (*month < 1 || *month > 12 || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 59)
    return std::nullopt;
  std::size_t p = 19;
  std::int32_t nanos = 0;
  if (p < s.size() && s[p] == '.') {
    ++p;
    std::size_t digits = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      if (digits < 9) nanos = nanos * 10 + (s[p] - '0');
      ++digits;
      ++p;
    }
    if (digits == 0) return std::nullopt;
    for (std::size_t k = digits; k < 9; ++k) nanos *= 10;
  }
  std::int64_t offset = 0;
  if (p < s.size() && (s[p] == 'Z' || s[p] == 'z')) {
    ++p;
  } else if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    auto oh = num(p + 1, 2), om = num(p + 4, 2);
    if (!oh || !om || p + 6 > s.size() || s[p + 3] != ':') return std::nullopt;
    offset = (*oh * 3600 + *om * 60) * (s[p] == '-' ? -1 : 1);
    p += 6;
  } else {
    return std::nullopt;
  }
  if (p != s.size()) return std::nullopt;
  const std::int64_t seconds = days_from_civil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)) * 86400 +
                               *hour * 3600 + *minute * 60 + *second - offset;
  if (seconds < min_timestamp_seconds || seconds > max_timestamp_seconds) return std::nullopt;
  return std::pair{seconds, nanos};
}

// RFC 3339 in UTC with the shortest fraction, as Go's time.RFC3339Nano prints it.
[[nodiscard]] inline std::string format_timestamp(std::int64_t seconds, std::int32_t nanos) {
  std::int64_t days = seconds / 86400;
  std::int64_t rem = seconds % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  const civil c = civil_from_days(days);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(c.year), c.month,
                c.day, static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60),
                static_cast<long long>(rem % 60));
  std::string out = buf;
  if (nanos != 0) {
    std::string f = std::to_string(nanos);
    f.insert(0, 9 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    out += '.';
    out += f;
  }
  out += 'Z';
  return out;
}

}  // namespace dra::cel::detail
