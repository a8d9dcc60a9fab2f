// IP addresses and CIDR prefixes as Go's net/netip parses, classifies and prints them (for CEL's IP and CIDR libraries
// and for validating the CIDRs a claim's status lists).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dra {

struct ip_address {
  std::array<std::uint8_t, 16> bytes{};  // IPv4 in the first four bytes
  bool v4 = true;
  friend bool operator==(const ip_address&, const ip_address&) = default;

  [[nodiscard]] std::size_t bit_length() const noexcept { return v4 ? 32 : 128; }
  [[nodiscard]] std::uint16_t group(std::size_t i) const noexcept {
    return static_cast<std::uint16_t>(bytes[2 * i] << 8 | bytes[2 * i + 1]);
  }
};

struct ip_prefix {
  ip_address address;  // as written (not masked)
  int bits = 0;
  friend bool operator==(const ip_prefix&, const ip_prefix&) = default;
};

namespace detail::ip_parse {

[[nodiscard]] inline std::optional<ip_address> v4(std::string_view s) {
  ip_address a;
  std::size_t field = 0;
  std::size_t i = 0;
  while (true) {
    if (field == 4) return std::nullopt;
    std::size_t start = i;
    int value = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      value = value * 10 + (s[i] - '0');
      if (value > 255) return std::nullopt;
      ++i;
    }
    const std::size_t digits = i - start;
    if (digits == 0 || (digits > 1 && s[start] == '0')) return std::nullopt;  // Go rejects leading zeros
    a.bytes[field++] = static_cast<std::uint8_t>(value);
    if (i == s.size()) break;
    if (s[i] != '.') return std::nullopt;
    ++i;
  }
  if (field != 4) return std::nullopt;
  return a;
}

[[nodiscard]] inline std::optional<ip_address> v6(std::string_view s) {
  ip_address a;
  a.v4 = false;
  std::array<std::uint16_t, 8> groups{};
  int count = 0, ellipsis = -1;
  std::size_t i = 0;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    i = 2;
    if (i == s.size()) return a;
  }
  while (i < s.size()) {
    // An embedded IPv4 address ends the text.
    std::size_t j = i;
    while (j < s.size() && s[j] != ':' && s[j] != '.') ++j;
    if (j < s.size() && s[j] == '.') {
      if (count > 6) return std::nullopt;
      auto four = v4(s.substr(i));
      if (!four) return std::nullopt;
      groups[static_cast<std::size_t>(count++)] = static_cast<std::uint16_t>(four->bytes[0] << 8 | four->bytes[1]);
      groups[static_cast<std::size_t>(count++)] = static_cast<std::uint16_t>(four->bytes[2] << 8 | four->bytes[3]);
      i = s.size();
      break;
    }
    std::uint32_t value = 0;
    std::size_t digits = 0;
    while (i < s.size()) {
      const char c = s[i];
      int d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
      else break;
      value = value * 16 + static_cast<std::uint32_t>(d);
      ++digits;
      ++i;
    }
    if (digits == 0 || digits > 4 || count == 8) return std::nullopt;
    groups[static_cast<std::size_t>(count++)] = static_cast<std::uint16_t>(value);
    if (i == s.size()) break;
    if (s[i] != ':') return std::nullopt;
    ++i;
    if (i < s.size() && s[i] == ':') {
      if (ellipsis >= 0) return std::nullopt;
      ellipsis = count;
      ++i;
      if (i == s.size()) break;
    } else if (i == s.size()) {
      return std::nullopt;  // trailing single colon
    }
  }
  if (ellipsis < 0 && count != 8) return std::nullopt;
  if (ellipsis >= 0) {
    if (count == 8) return std::nullopt;
    const int missing = 8 - count;
    for (int k = count - 1; k >= ellipsis; --k) groups[static_cast<std::size_t>(k + missing)] = groups[static_cast<std::size_t>(k)];
    for (int k = ellipsis; k < ellipsis + missing; ++k) groups[static_cast<std::size_t>(k)] = 0;
  }
  for (std::size_t k = 0; k < 8; ++k) {
    a.bytes[2 * k] = static_cast<std::uint8_t>(groups[k] >> 8);
    a.bytes[2 * k + 1] = static_cast<std::uint8_t>(groups[k] & 0xFF);
  }
  return a;
}

}  // namespace detail::ip_parse

// Why a text is not an address Kubernetes accepts (empty when it is one); fills `out`.
[[nodiscard]] inline std::string parse_ip(std::string_view s, ip_address& out) {
  if (s.find('%') != std::string_view::npos) return "with zone value is not allowed";
  std::optional<ip_address> a = s.find(':') != std::string_view::npos ? detail::ip_parse::v6(s) : detail::ip_parse::v4(s);
  if (!a) return "parse error";
  if (!a->v4) {
    bool mapped = a->bytes[10] == 0xFF && a->bytes[11] == 0xFF;
    for (std::size_t k = 0; k < 10 && mapped; ++k) mapped = a->bytes[k] == 0;
    if (mapped) return "IPv4-mapped IPv6 address is not allowed";
  }
  out = *a;
  return {};
}

[[nodiscard]] inline std::string format_ip(const ip_address& a) {
  std::string out;
  if (a.v4) {
    for (std::size_t k = 0; k < 4; ++k) {
      if (k) out += '.';
      out += std::to_string(a.bytes[k]);
    }
    return out;
  }
  // RFC 5952: the longest run (first on ties) of two or more zero groups becomes "::".
  int best_start = -1, best_len = 0;
  for (int k = 0; k < 8;) {
    if (a.group(static_cast<std::size_t>(k)) != 0) {
      ++k;
      continue;
    }
    int e = k;
    while (e < 8 && a.group(static_cast<std::size_t>(e)) == 0) ++e;
    if (e - k > best_len && e - k >= 2) {
      best_start = k;
      best_len = e - k;
    }
    k = e;
  }
  static constexpr char hex[] = "0123456789abcdef";
  for (int k = 0; k < 8; ++k) {
    if (k == best_start) {
      out += "::";
      k += best_len - 1;
      continue;
    }
    if (k > 0 && k != best_start + best_len) out += ':';
    const std::uint16_t g = a.group(static_cast<std::size_t>(k));
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const int d = (g >> shift) & 0xF;
      if (d != 0 || started || shift == 0) {
        out += hex[d];
        started = true;
      }
    }
  }
  return out;
}

// "address/bits", with the address as written.
[[nodiscard]] inline std::string format_prefix(const ip_prefix& p) {
  return format_ip(p.address) + "/" + std::to_string(p.bits);
}

[[nodiscard]] inline bool is_unspecified(const ip_address& a) {
  for (std::size_t k = 0; k < (a.v4 ? 4 : 16); ++k)
    if (a.bytes[k] != 0) return false;
  return true;
}
[[nodiscard]] inline bool is_loopback(const ip_address& a) {
  if (a.v4) return a.bytes[0] == 127;
  for (std::size_t k = 0; k < 15; ++k)
    if (a.bytes[k] != 0) return false;
  return a.bytes[15] == 1;
}
[[nodiscard]] inline bool is_multicast(const ip_address& a) {
  return a.v4 ? (a.bytes[0] & 0xF0) == 0xE0 : a.bytes[0] == 0xFF;
}
[[nodiscard]] inline bool is_link_local_unicast(const ip_address& a) {
  return a.v4 ? (a.bytes[0] == 169 && a.bytes[1] == 254) : (a.bytes[0] == 0xFE && (a.bytes[1] & 0xC0) == 0x80);
}
[[nodiscard]] inline bool is_link_local_multicast(const ip_address& a) {
  return a.v4 ? (a.bytes[0] == 224 && a.bytes[1] == 0 && a.bytes[2] == 0) : (a.bytes[0] == 0xFF && (a.bytes[1] & 0x0F) == 0x02);
}
[[nodiscard]] inline bool is_global_unicast(const ip_address& a) {
  if (a.v4 && a.bytes[0] == 255 && a.bytes[1] == 255 && a.bytes[2] == 255 && a.bytes[3] == 255) return false;
  return !is_unspecified(a) && !is_loopback(a) && !is_multicast(a) && !is_link_local_unicast(a);
}

// Why a text is not a prefix Kubernetes accepts (empty when it is one); fills `out`.
[[nodiscard]] inline std::string parse_prefix(std::string_view s, ip_prefix& out) {
  const auto slash = s.rfind('/');
  if (slash == std::string_view::npos) return "no '/'";
  ip_address a;
  if (std::string why = parse_ip(s.substr(0, slash), a); !why.empty()) return why;
  const std::string_view bits = s.substr(slash + 1);
  if (bits.empty() || bits.size() > 3 || (bits.size() > 1 && bits[0] == '0')) return "bad bits after slash";
  int n = 0;
  for (char c : bits) {
    if (c < '0' || c > '9') return "bad bits after slash";
    n = n * 10 + (c - '0');
  }
  if (n > static_cast<int>(a.bit_length())) return "prefix length out of range";
  out = {a, n};
  return {};
}

// The address with every bit after the first `bits` cleared.
[[nodiscard]] inline ip_address masked(ip_address a, int bits) {
  const std::size_t total = a.v4 ? 4 : 16;
  for (std::size_t k = 0; k < total; ++k) {
    const int keep = bits - static_cast<int>(k) * 8;
    if (keep >= 8) continue;
    a.bytes[k] = keep <= 0 ? 0 : static_cast<std::uint8_t>(a.bytes[k] & (0xFF << (8 - keep)));
  }
  return a;
}

[[nodiscard]] inline bool prefix_contains(const ip_prefix& p, const ip_address& a) {
  return p.address.v4 == a.v4 && masked(p.address, p.bits) == masked(a, p.bits);
}

}  // namespace dra
