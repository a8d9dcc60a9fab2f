// Kubernetes' semver library (version 1): semver, isSemver (with normalization), major, minor, patch, isLessThan, isGreaterThan, compareTo.
#pragma once

#include <dra/cel/detail/library_support.hpp>
#include <dra/core/semver.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

namespace lib {

// The semver library's normalization (version 1): one leading "v" dropped, leading zeros removed
// from the major and minor numbers and from the rest, a missing minor or patch filled with 0
// (a short version with a pre-release or build part is an error).
inline std::optional<std::string> normalized_semver(std::string_view s, std::string& error) {
  if (!s.empty() && s.front() == 'v') s.remove_prefix(1);
  std::vector<std::string> parts;
  for (int i = 0; i < 2; ++i) {
    const auto dot = s.find('.');
    if (dot == std::string_view::npos) break;
    parts.emplace_back(s.substr(0, dot));
    s.remove_prefix(dot + 1);
  }
  parts.emplace_back(s);
  for (auto& p : parts) {
    if (p.size() <= 1) continue;
    p.erase(0, p.find_first_not_of('0') == std::string::npos ? p.size() : p.find_first_not_of('0'));
    if (p.empty() || p.front() < '0' || p.front() > '9') p.insert(0, "0");
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      error = "short version cannot contain PreRelease/Build meta data";
      return std::nullopt;
    }
    parts.resize(3, "0");
  }
  return dra::concat(parts[0], ".", parts[1], ".", parts[2]);
}

// Errors carry blang/semver's message as upstream returns it.
inline value semver_of(std::string_view text, bool normalize) {
  std::string normalized(text);
  if (normalize) {
    std::string error;
    auto n = normalized_semver(text, error);
    if (!n) return value::error(error);
    normalized = std::move(*n);
  }
  auto parsed = dra::semver::parse(normalized);
  if (!parsed) {
    // dra::semver names the input first; blang's message is the part after it.
    std::string_view message = parsed.error().message;
    constexpr std::string_view marker = " is not a semantic version: ";
    if (const auto at = message.find(marker); at != std::string_view::npos) message.remove_prefix(at + marker.size());
    return value::error(std::string(message));
  }
  auto owned = std::make_shared<const dra::semver>(std::move(parsed).value());
  return semver_value{owned.get(), owned};
}

}  // namespace lib

// Kubernetes' semver library at version 1 (library.SemverVersion(1)).
inline void add_semver_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.global("semver", "string_to_semver", {T_string()}, T_semver(), [](args_t a, call_context&) -> value { return semver_of(a[0].as_text(), false); });
  r.global("semver", "string_bool_to_semver", {T_string(), T_bool()}, T_semver(), [](args_t a, call_context&) -> value {
    return semver_of(a[0].as_text(), a[1].as_bool());
  });
  r.global("isSemver", "is_semver_string", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    return !semver_of(a[0].as_text(), false).is_error();
  });
  r.global("isSemver", "is_semver_string_bool", {T_string(), T_bool()}, T_bool(), [](args_t a, call_context&) -> value {
    return !semver_of(a[0].as_text(), a[1].as_bool()).is_error();
  });
  r.member("major", "semver_major", {T_semver()}, T_int(), [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as<semver_value>().get().major()); });
  r.member("minor", "semver_minor", {T_semver()}, T_int(), [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as<semver_value>().get().minor()); });
  r.member("patch", "semver_patch", {T_semver()}, T_int(), [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as<semver_value>().get().patch()); });
  r.member("isLessThan", "semver_is_less_than", {T_semver(), T_semver()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<semver_value>().get() < a[1].as<semver_value>().get();
  });
  r.member("isGreaterThan", "semver_is_greater_than", {T_semver(), T_semver()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<semver_value>().get() > a[1].as<semver_value>().get();
  });
  r.member("compareTo", "semver_compare_to", {T_semver(), T_semver()}, T_int(), [](args_t a, call_context&) -> value {
    const auto o = a[0].as<semver_value>().get() <=> a[1].as<semver_value>().get();
    return std::int64_t{o < 0 ? -1 : (o > 0 ? 1 : 0)};
  });
}

}  // namespace dra::cel
