// YAML scalars as Kubernetes reads them (YAML 1.2's core schema) and as JSON writes them, both ways.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dra::json::detail {

enum class yaml_scalar : std::uint8_t { null, boolean, integer, floating, string };

[[nodiscard]] constexpr bool all_of_digits(std::string_view s, bool hex = false) noexcept {
  if (s.empty()) return false;
  for (char c : s) {
    const bool digit = c >= '0' && c <= '9';
    const bool hex_digit = hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
    if (!digit && !hex_digit) return false;
  }
  return true;
}

// The type YAML 1.2's core schema gives a plain scalar.
[[nodiscard]] constexpr yaml_scalar resolve_plain(std::string_view s) noexcept {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return yaml_scalar::null;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE")
    return yaml_scalar::boolean;
  if (s.starts_with("0x") && all_of_digits(s.substr(2), /*hex=*/true)) return yaml_scalar::integer;
  if (s.starts_with("0o") && all_of_digits(s.substr(2))) return yaml_scalar::integer;
  std::string_view unsigned_part = s;
  if (s.front() == '-' || s.front() == '+') unsigned_part.remove_prefix(1);
  if (all_of_digits(unsigned_part)) return yaml_scalar::integer;
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF" || s == ".nan" || s == ".NaN" ||
      s == ".NAN")
    return yaml_scalar::floating;
  // [0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)? with a digit before or after the point
  const std::size_t exponent = unsigned_part.find_first_of("eE");
  std::string_view mantissa = unsigned_part.substr(0, exponent);
  if (exponent != std::string_view::npos) {
    std::string_view power = unsigned_part.substr(exponent + 1);
    if (!power.empty() && (power.front() == '-' || power.front() == '+')) power.remove_prefix(1);
    if (!all_of_digits(power)) return yaml_scalar::string;
  }
  const std::size_t point = mantissa.find('.');
  std::string_view whole = mantissa.substr(0, point);
  std::string_view fraction = point == std::string_view::npos ? std::string_view() : mantissa.substr(point + 1);
  if (whole.empty() && fraction.empty()) return yaml_scalar::string;
  if ((!whole.empty() && !all_of_digits(whole)) || (!fraction.empty() && !all_of_digits(fraction)))
    return yaml_scalar::string;
  return yaml_scalar::floating;
}

inline void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// A JSON number for a scalar the core schema reads as a number; nothing for one JSON cannot
// write (.inf, .nan, an integer beyond 64 bits in hexadecimal or octal): it stays a string.
[[nodiscard]] inline std::optional<std::string> json_number(std::string_view s, yaml_scalar type) {
  if (type == yaml_scalar::integer && (s.starts_with("0x") || s.starts_with("0o"))) {
    std::uint64_t value = 0;
    const std::string_view digits = s.substr(2);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, s[1] == 'x' ? 16 : 8);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return std::to_string(value);
  }
  if (s.find_first_of("nN") != std::string_view::npos) return std::nullopt;  // .inf, .nan
  std::string out;
  if (s.front() == '-') out += '-';
  if (s.front() == '-' || s.front() == '+') s.remove_prefix(1);
  // JSON wants no leading zeros, a digit before a point and one after it.
  std::size_t zeros = 0;
  while (zeros + 1 < s.size() && s[zeros] == '0' && s[zeros + 1] >= '0' && s[zeros + 1] <= '9') ++zeros;
  s.remove_prefix(zeros);
  if (s.front() == '.') out += '0';
  for (std::size_t k = 0; k < s.size(); ++k) {
    out += s[k];
    if (s[k] == '.' && (k + 1 == s.size() || s[k + 1] < '0' || s[k + 1] > '9')) out += '0';
  }
  return out;
}

// Whether a string must be quoted to be read back as a string: by the core schema, and by YAML 1.1
// readers (Kubernetes' own YAML library among them), which also read yes, no, on, off as booleans.
[[nodiscard]] constexpr bool needs_quotes(std::string_view text) noexcept {
  if (resolve_plain(text) != yaml_scalar::string) return true;
  for (std::string_view word : {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"})
    if (text == word) return true;
  return false;
}

}  // namespace dra::json::detail
