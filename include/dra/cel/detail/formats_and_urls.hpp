// Kubernetes' named string formats (format.dns1123Label() …) and URL parsing for CEL, as Kubernetes and Go's net/url decide them.
#pragma once

#include <dra/cel/detail/text_format.hpp>
#include <dra/core/names.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel::detail {

using format_problems = std::vector<std::string>;

// A generateName prefix is validated with a trailing dash masked, as Kubernetes does.
[[nodiscard]] inline std::string mask_trailing_dash(std::string_view s) {
  std::string out(s);
  if (out.size() > 1 && out.back() == '-') out.back() = 'a';
  return out;
}

[[nodiscard]] inline format_problems dns1035_label(std::string_view s) {
  format_problems out;
  if (s.size() > names::dns1123_label_max_length) out.push_back(names::detail::max_length(names::dns1123_label_max_length));
  bool ok = !s.empty() && s.front() >= 'a' && s.front() <= 'z' && s.back() != '-';
  for (char c : s) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!ok)
    out.push_back(names::detail::regex_error(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
        "character, and end with an alphanumeric character",
        "[a-z]([-a-z0-9]*[a-z0-9])?", {"my-name", "abc-123"}));
  return out;
}

// Go's url.ParseRequestURI, in the parts that decide acceptance: an absolute URI or an absolute path,
// no control characters, valid percent escapes.
[[nodiscard]] inline format_problems request_uri(std::string_view s) {
  auto fail = [&](std::string_view why) { return format_problems{dra::concat("parse ", dra::quoted(s), ": ", why)}; };
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return fail("net/url: invalid control character in URL");
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') continue;
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    if (i + 2 >= s.size() || !hex(s[i + 1]) || !hex(s[i + 2]))
      return fail(dra::concat("invalid URL escape ", dra::quoted(s.substr(i, std::min<std::size_t>(3, s.size() - i)))));
  }
  if (!s.empty() && s.front() == '/') return {};
  std::size_t colon = s.find(':');
  bool scheme = colon != std::string_view::npos && colon > 0 &&
                ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
  for (std::size_t i = 1; scheme && i < colon; ++i) {
    const char c = s[i];
    scheme = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
  }
  if (!scheme) return fail(colon == 0 ? "missing protocol scheme" : "invalid URI for request");
  return {};
}

[[nodiscard]] inline bool valid_base64(std::string_view s) {
  if (s.size() % 4 != 0) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    if (alpha) continue;
    if (c == '=' && i >= s.size() - 2 && (i == s.size() - 1 || s[s.size() - 1] == '=')) continue;
    return false;
  }
  return true;
}

[[nodiscard]] inline bool valid_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  const int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  const int m = (s[5] - '0') * 10 + (s[6] - '0');
  const int d = (s[8] - '0') * 10 + (s[9] - '0');
  if (m < 1 || m > 12 || d < 1) return false;
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= days[m - 1] + (m == 2 && leap ? 1 : 0);
}

// strfmt's UUID: 32 hex digits, each of the four usual dashes optional.
[[nodiscard]] inline bool valid_uuid(std::string_view s) {
  std::size_t digits = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '-' && (digits == 8 || digits == 12 || digits == 16 || digits == 20) && i > 0 && s[i - 1] != '-') continue;
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    ++digits;
  }
  return digits == 32;
}

[[nodiscard]] inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Go's url.QueryUnescape: "+" is a space, %XX a byte; nullopt on a bad escape.
[[nodiscard]] inline std::optional<std::string> query_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%') {
      if (i + 2 >= s.size() || hex_digit(s[i + 1]) < 0 || hex_digit(s[i + 2]) < 0)
        return std::nullopt;
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The parts of a URL as Go's url.Parse splits them (after ParseRequestURI accepted it).
struct parsed_url {
  std::string scheme, host, path, raw_query;
};
[[nodiscard]] inline parsed_url split_url(std::string_view s) {
  parsed_url u;
  if (const auto hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
  if (!s.empty() && s.front() != '/') {
    const auto colon = s.find(':');
    for (char c : s.substr(0, colon)) u.scheme += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    s.remove_prefix(colon + 1);
  }
  if (const auto q = s.find('?'); q != std::string_view::npos) {
    u.raw_query = std::string(s.substr(q + 1));
    s = s.substr(0, q);
  }
  if (s.substr(0, 2) == "//") {
    s.remove_prefix(2);
    const auto slash = s.find('/');
    std::string_view authority = s.substr(0, slash);
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
    u.host = std::string(authority);
    s = slash == std::string_view::npos ? std::string_view{} : s.substr(slash);
  }
  u.path = std::string(s);
  return u;
}

struct named_format {
  std::string_view key;   // format.<key>() and format.named("<key>")
  format_problems (*validate)(std::string_view);
};

inline constexpr std::array<named_format, 13> named_formats{{
    {"dns1123Label", [](std::string_view s) { return names::dns1123_label(s); }},
    {"dns1123Subdomain", [](std::string_view s) { return names::dns1123_subdomain(s); }},
    {"dns1035Label", [](std::string_view s) { return dns1035_label(s); }},
    {"qualifiedName", [](std::string_view s) { return names::label_key(s); }},
    {"dns1123LabelPrefix", [](std::string_view s) { return names::dns1123_label(mask_trailing_dash(s)); }},
    {"dns1123SubdomainPrefix", [](std::string_view s) { return names::dns1123_subdomain(mask_trailing_dash(s)); }},
    {"dns1035LabelPrefix", [](std::string_view s) { return dns1035_label(mask_trailing_dash(s)); }},
    {"labelValue", [](std::string_view s) { return names::label_value(s); }},
    {"uri", [](std::string_view s) { return request_uri(s); }},
    {"uuid", [](std::string_view s) { return valid_uuid(s) ? format_problems{} : format_problems{"does not match the UUID format"}; }},
    {"byte", [](std::string_view s) { return valid_base64(s) ? format_problems{} : format_problems{"invalid base64"}; }},
    {"date", [](std::string_view s) { return valid_date(s) ? format_problems{} : format_problems{"invalid date"}; }},
    {"datetime",
     [](std::string_view s) {
       return parse_timestamp(s) ? format_problems{} : format_problems{"invalid datetime"};
     }},
}};

}  // namespace dra::cel::detail
