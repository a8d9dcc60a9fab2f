// Tests of dra::semver against blang/semver v4 as Kubernetes uses it.
#include <dra/core/semver.hpp>

#include <gtest/gtest.h>

#include <concepts>
#include <string_view>
#include <vector>

namespace {

using dra::semver;

static_assert(std::totally_ordered<semver>);

semver parsed_version(std::string_view text) {
  auto v = semver::parse(text);
  EXPECT_TRUE(v.has_value()) << text << ": " << (v ? "" : v.error().to_string());
  return v ? *v : semver{};
}

TEST(Semver, ParsesValidVersions) {
  struct valid_case {
    std::string_view text;
    std::uint64_t major, minor, patch;
    std::string_view prerelease, build;
  };
  constexpr valid_case cases[] = {
      {"0.0.0", 0, 0, 0, "", ""},
      {"1.2.3", 1, 2, 3, "", ""},
      {"10.20.30", 10, 20, 30, "", ""},
      {"1.0.0-alpha", 1, 0, 0, "alpha", ""},
      {"1.0.0-alpha.1", 1, 0, 0, "alpha.1", ""},
      {"1.0.0-0.3.7", 1, 0, 0, "0.3.7", ""},
      {"1.0.0-x.7.z.92", 1, 0, 0, "x.7.z.92", ""},
      {"1.0.0-x-y-z.--", 1, 0, 0, "x-y-z.--", ""},
      {"1.0.0+20130313144700", 1, 0, 0, "", "20130313144700"},
      {"1.0.0-beta+exp.sha.5114f85", 1, 0, 0, "beta", "exp.sha.5114f85"},
      {"1.0.0+21AF26D3----117B344092BD", 1, 0, 0, "", "21AF26D3----117B344092BD"},
      {"1.2.3+build-1", 1, 2, 3, "", "build-1"},
      {"1.2.3-rc.1+build.5", 1, 2, 3, "rc.1", "build.5"},
      {"1.0.0+0.build.1-rc.10000aaa-kk-0.1", 1, 0, 0, "", "0.build.1-rc.10000aaa-kk-0.1"},
      {"1.0.0-0A.is.legal", 1, 0, 0, "0A.is.legal", ""},
      {"18446744073709551615.0.0", 18446744073709551615ULL, 0, 0, "", ""},
      {"1.2.3-00a", 1, 2, 3, "00a", ""},
      {"1.2.3+001", 1, 2, 3, "", "001"},
  };
  for (const valid_case& c : cases) {
    auto v = semver::parse(c.text);
    ASSERT_TRUE(v.has_value()) << c.text << ": " << v.error().to_string();
    EXPECT_EQ(v->major(), c.major) << c.text;
    EXPECT_EQ(v->minor(), c.minor) << c.text;
    EXPECT_EQ(v->patch(), c.patch) << c.text;
    EXPECT_EQ(v->prerelease(), c.prerelease) << c.text;
    EXPECT_EQ(v->build(), c.build) << c.text;
    EXPECT_EQ(v->to_string(), c.text);
  }
}

TEST(Semver, RejectsWhatBlangRejectsWithItsMessage) {
  struct invalid_case {
    std::string_view text;
    std::string_view message;
  };
  constexpr invalid_case cases[] = {
      {"", "Version string empty"},
      {"1", "No Major.Minor.Patch elements found"},
      {"1.2", "No Major.Minor.Patch elements found"},
      {"v1.2.3", "Invalid character(s) found in major number \"v1\""},
      {"1.x.3", "Invalid character(s) found in minor number \"x\""},
      {"1.2.x", "Invalid character(s) found in patch number \"x\""},
      {"01.2.3", "Major number must not contain leading zeroes \"01\""},
      {"1.02.3", "Minor number must not contain leading zeroes \"02\""},
      {"1.2.03", "Patch number must not contain leading zeroes \"03\""},
      {"1.2.3.4", "Invalid character(s) found in patch number \"3.4\""},
      {"1..3", "strconv.ParseUint: parsing \"\": invalid syntax"},
      {"1.2.", "strconv.ParseUint: parsing \"\": invalid syntax"},
      {"1.2.3-", "Prerelease is empty"},
      {"1.2.3-a..b", "Prerelease is empty"},
      {"1.2.3+", "Build meta data is empty"},
      {"1.2.3+a..b", "Build meta data is empty"},
      {"1.2.3-01", "Numeric PreRelease version must not contain leading zeroes \"01\""},
      {"1.2.3-a_b", "Invalid character(s) found in prerelease \"a_b\""},
      {"1.2.3+a_b", "Invalid character(s) found in build meta data \"a_b\""},
      {" 1.2.3", "Invalid character(s) found in major number \" 1\""},
      {"1.2.3 ", "Invalid character(s) found in patch number \"3 \""},
      {"18446744073709551616.0.0", "value out of range"},
      {"1.2.3-18446744073709551616", "value out of range"},
      {"-1.2.3", "Invalid character(s) found in major number \"-1\""},
  };
  for (const invalid_case& c : cases) {
    auto v = semver::parse(c.text);
    ASSERT_FALSE(v.has_value()) << "parsed unexpectedly: " << c.text;
    EXPECT_NE(v.error().message.find(c.message), std::string::npos) << c.text << ": " << v.error().message;
  }
}

TEST(Semver, OrdersByPrecedence) {
  // semver.org section 11, then numeric parts.
  const std::vector<std::string_view> ascending = {
      "0.9.9",      "1.0.0-alpha",  "1.0.0-alpha.1", "1.0.0-alpha.beta",
      "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1",
      "1.0.0",      "1.0.1",        "1.1.0",         "1.10.0",
      "2.0.0",      "10.0.0",
  };
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      auto expected = i <=> j;
      EXPECT_EQ(parsed_version(ascending[i]) <=> parsed_version(ascending[j]), expected)
          << ascending[i] << " vs " << ascending[j];
    }
  }
}

TEST(Semver, IgnoresBuildMetadataInComparisons) {
  EXPECT_EQ(parsed_version("1.0.0+a"), parsed_version("1.0.0+b"));
  EXPECT_EQ(parsed_version("1.0.0-rc.1+x"), parsed_version("1.0.0-rc.1"));
  EXPECT_LT(parsed_version("1.0.0-rc.1+zzz"), parsed_version("1.0.0+aaa"));
  EXPECT_EQ(parsed_version("1.0.0+a").build(), "a");
}

TEST(Semver, ComparesNumericIdentifiersByValueAndBelowAlphanumerics) {
  EXPECT_LT(parsed_version("1.0.0-2"), parsed_version("1.0.0-10"));
  EXPECT_LT(parsed_version("1.0.0-999"), parsed_version("1.0.0-a"));
  EXPECT_LT(parsed_version("1.0.0-A"), parsed_version("1.0.0-a"));  // byte order
  EXPECT_LT(parsed_version("1.0.0-a"), parsed_version("1.0.0-a.0"));
}

}  // namespace
