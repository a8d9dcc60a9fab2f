// Kubernetes' IP and CIDR libraries: ip, isIP, ip.isCanonical, family, is* tests; cidr, isCIDR, containsIP, containsCIDR, ip, prefixLength, masked; string().
#pragma once

#include <dra/cel/detail/library_support.hpp>
#include <dra/core/ip.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace dra::cel {

namespace lib {

inline value ip_of(std::string_view text) {
  dra::ip_address a;
  if (std::string why = dra::parse_ip(text, a); !why.empty()) {
    if (why == "parse error")
      return value::error(dra::concat("IP Address ", dra::quoted(text), " parse error during conversion from string"));
    return value::error(dra::concat("IP address ", dra::quoted(text), " ", why));
  }
  return ip_value{a};
}

inline value cidr_of(std::string_view text) {
  dra::ip_prefix p;
  if (std::string why = dra::parse_prefix(text, p); !why.empty())
    return value::error(dra::concat("network address parse error during conversion from string: ", dra::quoted(text), ": ", why));
  return cidr_value{p};
}

}  // namespace lib

// Kubernetes' IP and CIDR libraries.
inline void add_ip_and_cidr_libraries(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  const type T_ip = type::opaque("net.IP"), T_cidr = type::opaque("net.CIDR");
  r.global("ip", "string_to_ip", {T_string()}, T_ip, [](args_t a, call_context&) -> value { return ip_of(a[0].as_text()); });
  r.global("isIP", "is_ip", {T_string()}, T_bool(), [](args_t a, call_context&) -> value { return !ip_of(a[0].as_text()).is_error(); });
  r.global("ip.isCanonical", "ip_is_canonical", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    value ip = ip_of(a[0].as_text());
    if (ip.is_error()) return ip;
    return dra::format_ip(ip.as<ip_value>().address) == a[0].as_text();
  });
  r.global("string", "ip_to_string", {T_ip}, T_string(), [](args_t a, call_context&) -> value { return value::string(display(a[0])); });
  r.member("family", "ip_family", {T_ip}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<ip_value>().address.v4 ? 4 : 6}; });
  r.member("isUnspecified", "ip_is_unspecified", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return dra::is_unspecified(a[0].as<ip_value>().address); });
  r.member("isLoopback", "ip_is_loopback", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return dra::is_loopback(a[0].as<ip_value>().address); });
  r.member("isLinkLocalMulticast", "ip_is_link_local_multicast", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return dra::is_link_local_multicast(a[0].as<ip_value>().address); });
  r.member("isLinkLocalUnicast", "ip_is_link_local_unicast", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return dra::is_link_local_unicast(a[0].as<ip_value>().address); });
  r.member("isGlobalUnicast", "ip_is_global_unicast", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return dra::is_global_unicast(a[0].as<ip_value>().address); });
  r.global("cidr", "string_to_cidr", {T_string()}, T_cidr, [](args_t a, call_context&) -> value { return cidr_of(a[0].as_text()); });
  r.global("isCIDR", "is_cidr", {T_string()}, T_bool(), [](args_t a, call_context&) -> value { return !cidr_of(a[0].as_text()).is_error(); });
  r.global("string", "cidr_to_string", {T_cidr}, T_string(), [](args_t a, call_context&) -> value { return value::string(display(a[0])); });
  auto contains_ip = [](args_t a, call_context&) -> value {
    value ip = a[1].is(value_kind::string) ? ip_of(a[1].as_text()) : a[1];
    if (ip.is_error()) return ip;
    return dra::prefix_contains(a[0].as<cidr_value>().prefix, ip.as<ip_value>().address);
  };
  r.member("containsIP", "cidr_contains_ip_string", {T_cidr, T_string()}, T_bool(), contains_ip);
  r.member("containsIP", "cidr_contains_ip_ip", {T_cidr, T_ip}, T_bool(), contains_ip);
  auto contains_cidr = [](args_t a, call_context&) -> value {
    value other = a[1].is(value_kind::string) ? cidr_of(a[1].as_text()) : a[1];
    if (other.is_error()) return other;
    const auto& p = a[0].as<cidr_value>().prefix;
    const auto& q = other.as<cidr_value>().prefix;
    return p.bits <= q.bits && dra::prefix_contains(p, q.address);
  };
  r.member("containsCIDR", "cidr_contains_cidr_string", {T_cidr, T_string()}, T_bool(), contains_cidr);
  r.member("containsCIDR", "cidr_contains_cidr", {T_cidr, T_cidr}, T_bool(), contains_cidr);
  r.member("ip", "cidr_ip", {T_cidr}, T_ip, [](args_t a, call_context&) -> value { return ip_value{a[0].as<cidr_value>().prefix.address}; });
  r.member("prefixLength", "cidr_prefix_length", {T_cidr}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<cidr_value>().prefix.bits}; });
  r.member("masked", "cidr_masked", {T_cidr}, T_cidr, [](args_t a, call_context&) -> value {
    const auto& p = a[0].as<cidr_value>().prefix;
    return cidr_value{{dra::masked(p.address, p.bits), p.bits}};
  });
}

}  // namespace dra::cel
