// Kubernetes name rules (DNS labels and subdomains, C identifiers, label keys and values, DRA qualified names) with
// Kubernetes' messages.
#pragma once

#include <dra/core/text.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace dra::names {

// Each check returns the problems with a name as Kubernetes words them
// (k8s.io/apimachinery/pkg/util/validation); an empty list means valid.
using problems = std::vector<std::string>;

inline constexpr std::size_t dns1123_label_max_length = 63;
inline constexpr std::size_t dns1123_subdomain_max_length = 253;
inline constexpr std::size_t label_value_max_length = 63;
inline constexpr std::size_t label_key_name_max_length = 63;
// resource.k8s.io limits.
inline constexpr std::size_t driver_name_max_length = 63;    // DriverNameMaxLength
inline constexpr std::size_t device_max_domain_length = 63;  // DeviceMaxDomainLength
inline constexpr std::size_t device_max_id_length = 32;      // DeviceMaxIDLength

namespace detail {

[[nodiscard]] constexpr bool is_lower_alnum(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
[[nodiscard]] constexpr bool is_alnum(char c) noexcept { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
[[nodiscard]] constexpr bool matches_label(std::string_view s) noexcept {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  for (char c : s)
    if (!is_lower_alnum(c) && c != '-') return false;
  return true;
}

// label(\.label)*
[[nodiscard]] constexpr bool matches_subdomain(std::string_view s) noexcept {
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    if (!matches_label(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
[[nodiscard]] constexpr bool matches_label_key_name(std::string_view s) noexcept {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s)
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

[[nodiscard]] inline std::string max_length(std::size_t n) {
  return dra::concat("must be no more than ", std::to_string(n), " characters");
}

[[nodiscard]] inline std::string regex_error(std::string_view message, std::string_view regex,
                                             std::initializer_list<std::string_view> examples) {
  std::string out(message);
  out += examples.size() == 0 ? " (" : " (e.g. ";
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out += " or ";
    first = false;
    out += dra::concat("'", e, "', ");
  }
  out += dra::concat("regex used for validation is '", regex, "')");
  return out;
}

inline constexpr std::string_view label_regex = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
inline constexpr std::string_view subdomain_regex = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
inline constexpr std::string_view c_identifier_regex = "[A-Za-z_][A-Za-z0-9_]*";
inline constexpr std::string_view label_key_regex = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
inline constexpr std::string_view label_value_regex = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

}  // namespace detail

// IsDNS1123Label: device names, request names, mixin names, counter names.
[[nodiscard]] inline problems dns1123_label(std::string_view value) {
  problems out;
  if (value.size() > dns1123_label_max_length) out.push_back(detail::max_length(dns1123_label_max_length));
  if (!detail::matches_label(value)) {
    if (detail::matches_subdomain(value))
      out.emplace_back("must not contain dots");
    else
      out.push_back(detail::regex_error(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
          "end with an alphanumeric character",
          detail::label_regex, {"my-name", "123-abc"}));
  }
  return out;
}

// IsDNS1123Subdomain: object names, driver names, attribute domains.
[[nodiscard]] inline problems dns1123_subdomain(std::string_view value) {
  problems out;
  if (value.size() > dns1123_subdomain_max_length) out.push_back(detail::max_length(dns1123_subdomain_max_length));
  if (!detail::matches_subdomain(value))
    out.push_back(detail::regex_error(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
        "start and end with an alphanumeric character",
        detail::subdomain_regex, {"example.com"}));
  return out;
}

// IsCIdentifier: the ID part of attribute and capacity names.
[[nodiscard]] inline problems c_identifier(std::string_view value) {
  bool ok = !value.empty() && !(value.front() >= '0' && value.front() <= '9');
  for (char c : value)
    if (!detail::is_alnum(c) && c != '_') ok = false;
  if (ok) return {};
  return {detail::regex_error(
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
      "characters or '_'",
      detail::c_identifier_regex, {"my_name", "MY_NAME", "MyName"})};
}

// IsQualifiedName: label keys and node selector keys ("prefix/name" or "name").
[[nodiscard]] inline problems label_key(std::string_view value) {
  problems out;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos && value.find('/', slash + 1) != std::string_view::npos)
    return {dra::concat(
        "a valid label key ",
        detail::regex_error("must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                            "with an alphanumeric character",
                            detail::label_key_regex, {"MyName", "my.name", "123-abc"}),
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")};
  std::string_view name = value;
  if (slash != std::string_view::npos) {
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty())
      out.emplace_back("prefix part must be non-empty");
    else
      for (std::string& problem : dns1123_subdomain(prefix))
        out.push_back(dra::concat("prefix part ", problem));
  }
  if (name.empty()) {
    out.emplace_back("name part must be non-empty");
  } else {
    if (name.size() > label_key_name_max_length)
      out.push_back(dra::concat("name part ", detail::max_length(label_key_name_max_length)));
  }
  if (!detail::matches_label_key_name(name))
    out.push_back(dra::concat(
        "name part ", detail::regex_error("must consist of alphanumeric characters, '-', '_' or '.', and "
                                          "must start and end with an alphanumeric character",
                                          detail::label_key_regex, {"MyName", "my.name", "123-abc"})));
  return out;
}

// IsValidLabelValue.
[[nodiscard]] inline problems label_value(std::string_view value) {
  problems out;
  if (value.size() > label_value_max_length) out.push_back(detail::max_length(label_value_max_length));
  if (!value.empty() && !detail::matches_label_key_name(value))
    out.push_back(detail::regex_error(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
        "start and end with an alphanumeric character",
        detail::label_value_regex, {"MyValue", "my_value", "12345"}));
  return out;
}

// A DRA driver name: a DNS subdomain of at most 63 characters (checked in
// lower case, as Kubernetes does).
[[nodiscard]] inline problems driver_name(std::string_view value) {
  if (value.empty()) return {"Required value"};
  problems out;
  if (value.size() > driver_name_max_length) out.push_back(detail::max_length(driver_name_max_length));
  std::string lower(value);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (std::string& problem : dns1123_subdomain(lower)) out.push_back(std::move(problem));
  return out;
}

// The ID of an attribute or capacity name: a C identifier of at most 32 characters.
[[nodiscard]] inline problems device_id(std::string_view value) {
  problems out;
  if (value.size() > device_max_id_length) out.push_back(detail::max_length(device_max_id_length));
  for (std::string& problem : c_identifier(value)) out.push_back(std::move(problem));
  return out;
}

// QualifiedName of an attribute or capacity: "ID" (the driver's own domain)
// or "domain/ID", the domain a DNS subdomain of at most 63 characters.
[[nodiscard]] inline problems qualified_name(std::string_view value) {
  if (value.empty()) return {"name required"};
  const std::size_t slash = value.find('/');
  if (slash == std::string_view::npos) return device_id(value);
  if (value.find('/', slash + 1) != std::string_view::npos)
    return {"must be either a C identifier or a domain followed by a slash and a C identifier"};
  problems out;
  std::string_view domain = value.substr(0, slash);
  std::string_view id = value.substr(slash + 1);
  if (domain.empty())
    out.emplace_back("the domain must not be empty");
  else
    for (std::string& problem : driver_name(domain)) out.push_back(std::move(problem));
  if (id.empty())
    out.emplace_back("the name must not be empty");
  else
    for (std::string& problem : device_id(id)) out.push_back(std::move(problem));
  return out;
}

// FullyQualifiedName (matchAttribute, distinctAttribute): "domain/ID", the domain required.
[[nodiscard]] inline problems fully_qualified_name(std::string_view value) {
  problems out = qualified_name(value);
  if (out.empty() && value.find('/') == std::string_view::npos) out.emplace_back("must include a domain");
  return out;
}

// Splits a qualified name into domain and ID; the domain is empty for an
// unqualified name (which belongs to the driver's own domain).
struct qualified_parts {
  std::string_view domain;
  std::string_view id;
};
[[nodiscard]] constexpr qualified_parts split_qualified(std::string_view name) noexcept {
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return {{}, name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}

}  // namespace dra::names
