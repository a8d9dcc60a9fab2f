// Tests of dra::result and dra::error, the value-or-error type of every input-facing function.
#include <dra/core/result.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace {

dra::result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return dra::error{"not a digit", "spec.value", "Thing/x"};
  return c - '0';
}

TEST(Result, HoldsAValue) {
  auto r = parse_digit('7');
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(*r, 7);
  EXPECT_EQ(r.value(), 7);
  EXPECT_EQ(r.value_or(0), 7);
}

TEST(Result, HoldsAnErrorWithObjectAndPath) {
  auto r = parse_digit('x');
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "not a digit");
  EXPECT_EQ(r.error().to_string(), "Thing/x: spec.value: not a digit");
  EXPECT_EQ(r.value_or(-1), -1);
}

TEST(Result, ErrorTextLeavesOutEmptyParts) {
  EXPECT_EQ((dra::error{"m"}).to_string(), "m");
  EXPECT_EQ((dra::error{"m", "p"}).to_string(), "p: m");
  EXPECT_EQ((dra::error{"m", "", "o"}).to_string(), "o: m");
}

TEST(Result, WithinPrefixesThePath) {
  EXPECT_EQ((dra::error{"m", "name"}).within("spec.devices[2]").path, "spec.devices[2].name");
  EXPECT_EQ((dra::error{"m", "[3]"}).within("items").path, "items[3]");
  EXPECT_EQ((dra::error{"m"}).within("spec").path, "spec");
  EXPECT_EQ((dra::error{"m", "x"}).within("").path, "x");
}

TEST(Result, MovesOutOwnedValues) {
  dra::result<std::unique_ptr<int>> r = std::make_unique<int>(5);
  std::unique_ptr<int> owned = std::move(r).value();
  ASSERT_NE(owned, nullptr);
  EXPECT_EQ(*owned, 5);
  dra::result<std::string> s = std::string("text");
  EXPECT_EQ(s->size(), 4u);
}

TEST(Result, VoidResultCarriesOnlySuccessOrError) {
  dra::status ok;
  EXPECT_TRUE(ok.has_value());
  EXPECT_THROW((void)ok.error(), std::bad_optional_access);  // as result<T>::error() throws on a value
  dra::status failed = dra::error{"broken", "spec"};
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().to_string(), "spec: broken");
}

TEST(ErrorCode, EveryCodeHasItsOwnName) {
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(dra::errc::io); ++c) {
    const std::string_view name = dra::to_string(static_cast<dra::errc>(c));
    EXPECT_NE(name, "unknown") << c;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_EQ(dra::to_string(dra::errc::cel_cost_limit), "cel_cost_limit");
  EXPECT_EQ(dra::to_string(static_cast<dra::errc>(200)), "unknown");
  // An error made without a code is a generic input error, and the code takes part in equality.
  const dra::error plain{"bad"};
  EXPECT_EQ(plain.code, dra::errc::invalid_input);
  EXPECT_NE(plain, (dra::error{"bad", "", "", dra::errc::io}));
}

}  // namespace
