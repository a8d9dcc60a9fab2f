// Semantic versions (semver 2.0.0) as Kubernetes' DRA parses them with blang/semver v4.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <charconv>
#include <compare>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace dra {

// A semantic version such as "1.2.3-rc.1+build.5".
//
// Parsing accepts exactly what blang/semver v4's Parse accepts (strict
// semver 2.0.0: no "v" prefix, no leading zeros in numbers or numeric
// pre-release identifiers, no empty identifiers) and rejects the rest with
// blang's messages. Ordering is semver precedence: build metadata is
// ignored, so == compares precedence too ("1.0.0+a" == "1.0.0+b"), as
// blang's Compare and Kubernetes' CEL semver library do.
class semver {
 public:
  semver() = default;  // 0.0.0

  [[nodiscard]] static result<semver> parse(std::string_view text);

  [[nodiscard]] constexpr std::uint64_t major() const noexcept { return major_; }
  [[nodiscard]] constexpr std::uint64_t minor() const noexcept { return minor_; }
  [[nodiscard]] constexpr std::uint64_t patch() const noexcept { return patch_; }
  // Dot-separated identifiers after '-' and after '+', without those signs.
  [[nodiscard]] std::string_view prerelease() const noexcept { return prerelease_; }
  [[nodiscard]] std::string_view build() const noexcept { return build_; }

  [[nodiscard]] std::string to_string() const {
    return concat(std::to_string(major_), ".", std::to_string(minor_), ".", std::to_string(patch_),
                          prerelease_.empty() ? "" : "-", prerelease_, build_.empty() ? "" : "+", build_);
  }

  friend std::strong_ordering operator<=>(const semver& a, const semver& b) noexcept { return compare(a, b); }
  friend bool operator==(const semver& a, const semver& b) noexcept { return compare(a, b) == 0; }

 private:
  static std::strong_ordering compare(const semver& a, const semver& b) noexcept;

  std::uint64_t major_ = 0;
  std::uint64_t minor_ = 0;
  std::uint64_t patch_ = 0;
  std::string prerelease_;
  std::string build_;
};

inline std::ostream& operator<<(std::ostream& out, const semver& v) { return out << v.to_string(); }

namespace detail::semver_rules {


[[nodiscard]] constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
[[nodiscard]] constexpr bool is_alphanumeric(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}
[[nodiscard]] constexpr bool only_digits(std::string_view s) noexcept {
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}
[[nodiscard]] constexpr bool only_alphanumerics(std::string_view s) noexcept {
  for (char c : s)
    if (!is_alphanumeric(c)) return false;
  return true;
}
[[nodiscard]] constexpr bool has_leading_zero(std::string_view s) noexcept { return s.size() > 1 && s[0] == '0'; }

// A version number part, as blang checks it before strconv.ParseUint.
[[nodiscard]] inline result<std::uint64_t> number(std::string_view part, std::string_view what) {
  if (!only_digits(part)) return dra::error{concat("Invalid character(s) found in ", what, " number ", quoted(part))};
  if (has_leading_zero(part)) {
    std::string capitalised(what);
    capitalised[0] = static_cast<char>(capitalised[0] - 'a' + 'A');
    return dra::error{concat(capitalised, " number must not contain leading zeroes ", quoted(part))};
  }
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
  if (ec != std::errc{} || end != part.data() + part.size() || part.empty())
    return dra::error{
        concat("strconv.ParseUint: parsing ", quoted(part),
               part.empty() || ec == std::errc::invalid_argument ? ": invalid syntax" : ": value out of range")};
  return value;
}

// Calls `each` for every '.'-separated identifier of `list` (empty ones included).
template <class F>
constexpr void for_each_identifier(std::string_view list, F&& each) {
  std::size_t start = 0;
  while (true) {
    std::size_t dot = list.find('.', start);
    each(list.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return;
    start = dot + 1;
  }
}

// Precedence of two pre-release identifiers: numeric < alphanumeric,
// numbers by value, others byte-wise.
[[nodiscard]] inline std::strong_ordering compare_identifiers(std::string_view a, std::string_view b) noexcept {
  const bool a_numeric = only_digits(a);
  const bool b_numeric = only_digits(b);
  if (a_numeric && b_numeric) {
    // No leading zeros: the longer number is the larger one.
    if (a.size() != b.size()) return a.size() <=> b.size();
    return a <=> b;
  }
  if (a_numeric != b_numeric) return a_numeric ? std::strong_ordering::less : std::strong_ordering::greater;
  return a <=> b;
}

}  // namespace detail::semver_rules

inline result<semver> semver::parse(std::string_view text) {
  namespace rules = detail::semver_rules;
  auto fail = [&](std::string message) {
    return dra::error{concat(dra::quoted(text), " is not a semantic version: ", message)};
  };
  if (text.empty()) return fail("Version string empty");
  const std::size_t first_dot = text.find('.');
  const std::size_t second_dot = first_dot == std::string_view::npos ? first_dot : text.find('.', first_dot + 1);
  if (second_dot == std::string_view::npos) return fail("No Major.Minor.Patch elements found");

  semver version;
  auto major = rules::number(text.substr(0, first_dot), "major");
  if (!major) return fail(major.error().message);
  auto minor = rules::number(text.substr(first_dot + 1, second_dot - first_dot - 1), "minor");
  if (!minor) return fail(minor.error().message);

  std::string_view rest = text.substr(second_dot + 1);
  std::string_view patch = rest;
  std::string_view build;
  std::string_view prerelease;
  bool has_build = false;
  bool has_prerelease = false;
  // As blang: '+' first (build may contain '-'), then '-' in what is left.
  if (std::size_t plus = patch.find('+'); plus != std::string_view::npos) {
    build = patch.substr(plus + 1);
    patch = patch.substr(0, plus);
    has_build = true;
  }
  if (std::size_t minus = patch.find('-'); minus != std::string_view::npos) {
    prerelease = patch.substr(minus + 1);
    patch = patch.substr(0, minus);
    has_prerelease = true;
  }
  auto patch_number = rules::number(patch, "patch");
  if (!patch_number) return fail(patch_number.error().message);

  std::string problem;
  if (has_prerelease) {
    rules::for_each_identifier(prerelease, [&](std::string_view id) {
      if (!problem.empty()) return;
      if (id.empty())
        problem = "Prerelease is empty";
      else if (rules::only_digits(id)) {
        if (rules::has_leading_zero(id))
          problem = concat("Numeric PreRelease version must not contain leading zeroes ", dra::quoted(id));
        else if (auto n = rules::number(id, "prerelease"); !n)
          problem = n.error().message;
      } else if (!rules::only_alphanumerics(id)) {
        problem = concat("Invalid character(s) found in prerelease ", dra::quoted(id));
      }
    });
  }
  if (problem.empty() && has_build) {
    rules::for_each_identifier(build, [&](std::string_view id) {
      if (!problem.empty()) return;
      if (id.empty())
        problem = "Build meta data is empty";
      else if (!rules::only_alphanumerics(id))
        problem = concat("Invalid character(s) found in build meta data ", dra::quoted(id));
    });
  }
  if (!problem.empty()) return fail(std::move(problem));

  version.major_ = *major;
  version.minor_ = *minor;
  version.patch_ = *patch_number;
  version.prerelease_ = std::string(prerelease);
  version.build_ = std::string(build);
  return version;
}

inline std::strong_ordering semver::compare(const semver& a, const semver& b) noexcept {
  if (auto c = a.major_ <=> b.major_; c != 0) return c;
  if (auto c = a.minor_ <=> b.minor_; c != 0) return c;
  if (auto c = a.patch_ <=> b.patch_; c != 0) return c;
  // A version without pre-release identifiers ranks above one with them.
  if (a.prerelease_.empty() != b.prerelease_.empty())
    return a.prerelease_.empty() ? std::strong_ordering::greater : std::strong_ordering::less;
  if (a.prerelease_.empty()) return std::strong_ordering::equal;
  std::string_view rest_a = a.prerelease_;
  std::string_view rest_b = b.prerelease_;
  while (!rest_a.empty() && !rest_b.empty()) {
    std::size_t dot_a = rest_a.find('.');
    std::size_t dot_b = rest_b.find('.');
    std::string_view id_a = rest_a.substr(0, dot_a);
    std::string_view id_b = rest_b.substr(0, dot_b);
    if (auto c = detail::semver_rules::compare_identifiers(id_a, id_b); c != 0) return c;
    rest_a = dot_a == std::string_view::npos ? std::string_view{} : rest_a.substr(dot_a + 1);
    rest_b = dot_b == std::string_view::npos ? std::string_view{} : rest_b.substr(dot_b + 1);
  }
  // All shared identifiers equal: the one with more identifiers is greater.
  return !rest_a.empty() <=> !rest_b.empty();
}

}  // namespace dra
