// Tests of dra::quantity against Kubernetes' resource.Quantity behaviour.
#include <dra/core/quantity.hpp>

#include <gtest/gtest.h>

#include <concepts>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace {

using dra::quantity;
using fmt = quantity::format;

static_assert(std::totally_ordered<quantity>);
static_assert(std::regular<quantity>);
static_assert(quantity::from_int(3).sign() == 1);
static_assert(quantity::from_milli(-5).sign() == -1);
static_assert(quantity{}.is_zero());

quantity parsed(std::string_view text) {
  auto q = quantity::parse(text);
  EXPECT_TRUE(q.has_value()) << text << ": " << (q ? "" : q.error().to_string());
  return q ? *q : quantity{};
}

struct canonical_case {
  std::string_view input;
  std::string_view canonical;
  fmt format;
};

// Inputs from apimachinery's own parse tables and more; the canonical
// strings follow Quantity.String().
constexpr canonical_case canonical_cases[] = {
    {"0", "0", fmt::decimal_si},
    {"0n", "0", fmt::decimal_si},
    {"0u", "0", fmt::decimal_si},
    {"0m", "0", fmt::decimal_si},
    {"0Ki", "0", fmt::binary_si},
    {"0k", "0", fmt::decimal_si},
    {"0Mi", "0", fmt::binary_si},
    {"0M", "0", fmt::decimal_si},
    {"0Gi", "0", fmt::binary_si},
    {"0G", "0", fmt::decimal_si},
    {"0Ti", "0", fmt::binary_si},
    {"0T", "0", fmt::decimal_si},
    {"00", "0", fmt::decimal_si},
    {"1", "1", fmt::decimal_si},
    {"1Ki", "1Ki", fmt::binary_si},
    {"8Ki", "8Ki", fmt::binary_si},
    {"7Mi", "7Mi", fmt::binary_si},
    {"6Gi", "6Gi", fmt::binary_si},
    {"5Ti", "5Ti", fmt::binary_si},
    {"4Pi", "4Pi", fmt::binary_si},
    {"3Ei", "3Ei", fmt::binary_si},
    {"10Ti", "10Ti", fmt::binary_si},
    {"100Ti", "100Ti", fmt::binary_si},
    {"5n", "5n", fmt::decimal_si},
    {"4u", "4u", fmt::decimal_si},
    {"3m", "3m", fmt::decimal_si},
    {"9", "9", fmt::decimal_si},
    {"8k", "8k", fmt::decimal_si},
    {"50k", "50k", fmt::decimal_si},
    {"7M", "7M", fmt::decimal_si},
    {"6G", "6G", fmt::decimal_si},
    {"5T", "5T", fmt::decimal_si},
    {"40T", "40T", fmt::decimal_si},
    {"300T", "300T", fmt::decimal_si},
    {"2P", "2P", fmt::decimal_si},
    {"1E", "1E", fmt::decimal_si},
    {"1E-3", "1e-3", fmt::decimal_exponent},
    {"1e3", "1e3", fmt::decimal_exponent},
    {"1E6", "1e6", fmt::decimal_exponent},
    {"1e9", "1e9", fmt::decimal_exponent},
    {"1E12", "1e12", fmt::decimal_exponent},
    {"1e15", "1e15", fmt::decimal_exponent},
    {"1E18", "1e18", fmt::decimal_exponent},
    {"1e14", "100e12", fmt::decimal_exponent},
    {"1e13", "10e12", fmt::decimal_exponent},
    {"100.035k", "100035", fmt::decimal_si},
    {"0.001", "1m", fmt::decimal_si},
    {"0.0005k", "500m", fmt::decimal_si},
    {"0.005", "5m", fmt::decimal_si},
    {"0.05", "50m", fmt::decimal_si},
    {"0.5", "500m", fmt::decimal_si},
    {"0.00050k", "500m", fmt::decimal_si},
    {"0.00500", "5m", fmt::decimal_si},
    {"0.05000", "50m", fmt::decimal_si},
    {"0.50000", "500m", fmt::decimal_si},
    {"0.5e0", "500e-3", fmt::decimal_exponent},
    {"0.5e-1", "50e-3", fmt::decimal_exponent},
    {"0.5e-2", "5e-3", fmt::decimal_exponent},
    {"10.035M", "10035k", fmt::decimal_si},
    {"1.2e3", "1200", fmt::decimal_exponent},
    {"1.3E+6", "1300e3", fmt::decimal_exponent},
    {"1.40e9", "1400e6", fmt::decimal_exponent},
    {"1.53E12", "1530e9", fmt::decimal_exponent},
    {"1.6e15", "1600e12", fmt::decimal_exponent},
    {"1.7E18", "1700e15", fmt::decimal_exponent},
    {"9.01", "9010m", fmt::decimal_si},
    {"8.1k", "8100", fmt::decimal_si},
    {"7.123456M", "7123456", fmt::decimal_si},
    {"6.987654321G", "6987654321", fmt::decimal_si},
    {"5.444T", "5444G", fmt::decimal_si},
    {"40.1T", "40100G", fmt::decimal_si},
    {"300.2T", "300200G", fmt::decimal_si},
    {"2.5P", "2500T", fmt::decimal_si},
    {"1.01E", "1010P", fmt::decimal_si},
    // Values below 1n round up, away from zero.
    {"3.001n", "4n", fmt::decimal_si},
    {"1.1E-9", "2e-9", fmt::decimal_exponent},
    {"0.0000000001", "1n", fmt::decimal_si},
    {"0.0000000005", "1n", fmt::decimal_si},
    {"0.00000000050", "1n", fmt::decimal_si},
    {"0.5e-9", "1e-9", fmt::decimal_exponent},
    {"0.9n", "1n", fmt::decimal_si},
    {"0.00000012345", "124n", fmt::decimal_si},
    {"0.00000012354", "124n", fmt::decimal_si},
    {"1e-10", "1e-9", fmt::decimal_exponent},
    {"1E-12", "1e-9", fmt::decimal_exponent},
    {"0.0000001m", "1n", fmt::decimal_si},
    {"1.000000000000000000001", "1000000001n", fmt::decimal_si},
    // Binary values are capped at 2^63-1.
    {"9Ei", "9223372036854775807", fmt::binary_si},
    {"9223372036854775807Ki", "9223372036854775807", fmt::binary_si},
    {"8Ei", "9223372036854775807", fmt::binary_si},
    {"8192Pi", "9223372036854775807", fmt::binary_si},
    {"7Ei", "7Ei", fmt::binary_si},
    {"1024Pi", "1Ei", fmt::binary_si},
    {"12E", "12E", fmt::decimal_si},
    // Fractional binary values: integers stay binary, others show decimal.
    {"100.035Ki", "102435840m", fmt::binary_si},
    {"0.5Mi", "512Ki", fmt::binary_si},
    {"0.05Gi", "53687091200m", fmt::binary_si},
    {"0.025Ti", "27487790694400m", fmt::binary_si},
    {"0.000000000001Ki", "2n", fmt::decimal_si},
    {".001Ki", "1024m", fmt::binary_si},
    {".000001Ki", "1024u", fmt::decimal_si},  // below 1: shown and kept as decimal
    {".000000001Ki", "1024n", fmt::decimal_si},
    {"1.5Gi", "1536Mi", fmt::binary_si},
    {"1.25Gi", "1280Mi", fmt::binary_si},
    {"0.5Gi", "512Mi", fmt::binary_si},
    {"0.5Ki", "512", fmt::binary_si},
    {"1.1Ki", "1126400m", fmt::binary_si},
    // Lenient forms Kubernetes accepts.
    {".001", "1m", fmt::decimal_si},
    {".0001k", "100m", fmt::decimal_si},
    {"1.", "1", fmt::decimal_si},
    {"1.G", "1G", fmt::decimal_si},
    {".", "0", fmt::decimal_si},
    {"+", "0", fmt::decimal_si},
    {"Mi", "0", fmt::binary_si},
    {"k", "0", fmt::decimal_si},
    {"e3", "0", fmt::decimal_exponent},
    {"0e3", "0", fmt::decimal_exponent},
    // Canonicalisation across suffixes.
    {"1024Mi", "1Gi", fmt::binary_si},
    {"1024Ki", "1Mi", fmt::binary_si},
    {"1048576Ki", "1Gi", fmt::binary_si},
    {"2048Ki", "2Mi", fmt::binary_si},
    {"1025Ki", "1025Ki", fmt::binary_si},
    {"4096Mi", "4Gi", fmt::binary_si},
    {"1024Gi", "1Ti", fmt::binary_si},
    {"1001Gi", "1001Gi", fmt::binary_si},
    {"300Mi", "300Mi", fmt::binary_si},
    {"40Gi", "40Gi", fmt::binary_si},
    {"1000M", "1G", fmt::decimal_si},
    {"1000", "1k", fmt::decimal_si},
    {"1000000", "1M", fmt::decimal_si},
    {"1500000", "1500k", fmt::decimal_si},
    {"1000n", "1u", fmt::decimal_si},
    {"1000000n", "1m", fmt::decimal_si},
    {"1000u", "1m", fmt::decimal_si},
    {"1000m", "1", fmt::decimal_si},
    {"1080m", "1080m", fmt::decimal_si},
    {"1.08", "1080m", fmt::decimal_si},
    {"1000k", "1M", fmt::decimal_si},
    {"1000G", "1T", fmt::decimal_si},
    {"1000T", "1P", fmt::decimal_si},
    {"1000P", "1E", fmt::decimal_si},
    {"10E", "10E", fmt::decimal_si},
    {"999E", "999E", fmt::decimal_si},
    // Kubernetes has no decimal suffix past E and then writes none at all.
    {"1000E", "1", fmt::decimal_si},
    {"0.001m", "1u", fmt::decimal_si},
    {"0.000001m", "1n", fmt::decimal_si},
    {"1.5", "1500m", fmt::decimal_si},
    {"0.1", "100m", fmt::decimal_si},
    {"1536", "1536", fmt::decimal_si},
    {"123456789", "123456789", fmt::decimal_si},
    {"1234567M", "1234567M", fmt::decimal_si},
    {"9223372036854775807", "9223372036854775807", fmt::decimal_si},
    {"9223372036854775808", "9223372036854775808", fmt::decimal_si},
    {"12345678901234567890", "12345678901234567890", fmt::decimal_si},
    {"123456789012345678901234567890", "123456789012345678901234567890", fmt::decimal_si},
    {"1e0", "1", fmt::decimal_exponent},
    {"10e0", "10", fmt::decimal_exponent},
    {"1000e0", "1e3", fmt::decimal_exponent},
    {"1e+3", "1e3", fmt::decimal_exponent},
    {"1E+3", "1e3", fmt::decimal_exponent},
    {"1e-0", "1", fmt::decimal_exponent},
    {"1.5e1", "15", fmt::decimal_exponent},
    {"15e-1", "1500e-3", fmt::decimal_exponent},
    {"1.1e-3", "1100e-6", fmt::decimal_exponent},
    {"80e-3", "80e-3", fmt::decimal_exponent},
    {"300e6", "300e6", fmt::decimal_exponent},
    {"1e21", "1e21", fmt::decimal_exponent},
    {"1e30", "1e30", fmt::decimal_exponent},
    // Kubernetes truncates the exponent to 32 bits.
    {"1e4294967296", "1", fmt::decimal_exponent},
    {"01", "1", fmt::decimal_si},
    {"0001.5000", "1500m", fmt::decimal_si},
};

TEST(Quantity, ParsesToKubernetesCanonicalString) {
  static_assert(std::size(canonical_cases) >= 170);
  for (const canonical_case& c : canonical_cases) {
    auto q = quantity::parse(c.input);
    ASSERT_TRUE(q.has_value()) << c.input << ": " << q.error().to_string();
    EXPECT_EQ(q->to_string(), c.canonical) << "input " << c.input;
    EXPECT_EQ(q->fmt(), c.format) << "input " << c.input;
  }
}

TEST(Quantity, NegativeAndExplicitlyPositiveFormsMirrorThePlainOne) {
  for (const canonical_case& c : canonical_cases) {
    if (c.input == "+" || c.input == ".") continue;  // "-+"/"-." are different strings
    quantity plain = parsed(c.input);
    quantity negative = parsed("-" + std::string(c.input));
    quantity positive = parsed("+" + std::string(c.input));
    std::string expected_negative = c.canonical == "0" ? "0" : "-" + std::string(c.canonical);
    EXPECT_EQ(negative.to_string(), expected_negative) << "input -" << c.input;
    EXPECT_EQ(positive.to_string(), c.canonical) << "input +" << c.input;
    EXPECT_EQ(negative.fmt(), c.format) << "input -" << c.input;
    EXPECT_EQ(-plain.sign(), negative.sign()) << c.input;
    EXPECT_EQ(plain, positive) << c.input;
  }
}

// Plain digits take a shortcut past the general parser; "+digits" does not, and must come out
// the same in value, format and representation.
TEST(Quantity, PlainDigitsParseAsTheGeneralParserReadsThem) {
  for (std::string digits : {"1", "7", "98", "007", "000000000000000000", "123456789012345678",
                             "999999999999999999", "9223372036854775807", "99999999999999999999"}) {
    quantity fast = parsed(digits);
    quantity general = parsed("+" + digits);
    EXPECT_TRUE(fast.identical(general)) << digits << ": " << fast.to_string() << " vs " << general.to_string();
    EXPECT_EQ(fast.to_string(), general.to_string()) << digits;
    EXPECT_EQ(fast.as_int64(), general.as_int64()) << digits;
  }
}

TEST(Quantity, CanonicalStringParsesBackToTheSameValueAndString) {
  for (const canonical_case& c : canonical_cases) {
    quantity q = parsed(c.input);
    if (c.input == "1000E" || c.input == "1e4294967296") continue;  // Kubernetes' lossy strings
    quantity again = parsed(q.to_string());
    EXPECT_EQ(again, q) << c.input << " -> " << q.to_string();
    EXPECT_EQ(again.to_string(), q.to_string()) << c.input;
  }
}

struct invalid_case {
  std::string_view input;
  std::string_view reason;
};

constexpr std::string_view format_reason = "must match the regular expression";
constexpr std::string_view suffix_reason = "unable to parse quantity's suffix";
constexpr std::string_view numeric_reason = "unable to parse numeric part";

constexpr invalid_case invalid_cases[] = {
    {"", format_reason},
    {" 1", format_reason},
    {"1 ", format_reason},
    {"1 Gi", format_reason},
    {"1.1.M", format_reason},
    {"1+1.0M", format_reason},
    {"aoeu", format_reason},
    {"1,000", format_reason},
    {"0x10", format_reason},
    {"1e1.5", format_reason},
    {"1e1e1x", format_reason},
    {"1.5.5", format_reason},
    {"1Gi ", format_reason},
    {"\xc2\xbd", format_reason},
    {"1\n", format_reason},
    {"0.1mi", suffix_reason},
    {"0.1am", format_reason},
    {".5i", suffix_reason},
    {"1i", suffix_reason},
    {"-3.01i", suffix_reason},
    {"-3.01e-", suffix_reason},
    {"1Gb", format_reason},
    {"1GiB", format_reason},
    {"1kk", suffix_reason},
    {"1KI", format_reason},
    {"1Kib", format_reason},
    {"1e", suffix_reason},
    {"1E+", suffix_reason},
    {"1e99999999999999999999", suffix_reason},
    {"1mm", suffix_reason},
    {"1Mk", suffix_reason},
    {"--1", suffix_reason},
    {"Ei", numeric_reason},
    {".e-20", numeric_reason},
    // The exponent after e/E must be a whole (signed) decimal number.
    {"1ee5", suffix_reason},
    {"1eE5", suffix_reason},
    {"1Ei5", suffix_reason},
    {"1Ki1", suffix_reason},
    {"1e5e", format_reason},
    {"1e-+5", format_reason},
};

TEST(Quantity, RejectsMalformedInputWithTheReason) {
  for (const invalid_case& c : invalid_cases) {
    auto q = quantity::parse(c.input);
    ASSERT_FALSE(q.has_value()) << "parsed unexpectedly: \"" << c.input << "\" as " << q->to_string();
    EXPECT_NE(q.error().message.find(c.reason), std::string::npos)
        << "input \"" << c.input << "\": " << q.error().message;
    EXPECT_NE(q.error().message.find("is not a quantity"), std::string::npos) << q.error().message;
  }
}

TEST(Quantity, RejectsMoreSignificantDigitsThanItCanHoldExactly) {
  auto q = quantity::parse("1234567890123456789012345678901234567891");
  ASSERT_FALSE(q.has_value());
  EXPECT_NE(q.error().message.find("38 significant digits"), std::string::npos);
  // Trailing zeros are not significant. (Kubernetes writes 10^43 as "10":
  // it has no decimal suffix for 10^42 and then writes none.)
  EXPECT_EQ(parsed("10000000000000000000000000000000000000000000"), parsed("1e43"));
  EXPECT_EQ(parsed("10000000000000000000000000000000000000000000").to_string(), "10");
}

struct comparison_case {
  std::string_view a;
  std::string_view b;
  int expected;
};

constexpr comparison_case comparison_cases[] = {
    {"0", "0", 0},          {"100m", "50m", 1},      {"50m", "100m", -1},     {"10000T", "100Gi", 1},
    {"1Gi", "1024Mi", 0},   {"1G", "1Gi", -1},       {"1000m", "1", 0},       {"0.5", "500m", 0},
    {"-1", "0", -1},        {"1e3", "1k", 0},        {"1n", "0", 1},          {"1e30", "9Ei", 1},
    {"1e-9", "1n", 0},      {"12E", "9Ei", 1},       {"-1Gi", "-1G", -1},     {"-1m", "-1n", -1},
    {"1.5Gi", "1536Mi", 0}, {"1e21", "999E", 1},     {"0", "-0", 0},          {"4Gi", "4294967296", 0},
    {"1u", "1000n", 0},     {"999999999n", "1", -1}, {"1.000000001", "1", 1}, {"-5", "-50", 1},
};

TEST(Quantity, ComparesByValueAcrossFormats) {
  for (const comparison_case& c : comparison_cases) {
    quantity a = parsed(c.a);
    quantity b = parsed(c.b);
    auto ordering = a <=> b;
    int got = ordering < 0 ? -1 : (ordering > 0 ? 1 : 0);
    EXPECT_EQ(got, c.expected) << c.a << " vs " << c.b;
    EXPECT_EQ(a == b, c.expected == 0) << c.a << " == " << c.b;
    auto reverse = b <=> a;
    EXPECT_EQ(reverse < 0 ? -1 : (reverse > 0 ? 1 : 0), -c.expected) << c.b << " vs " << c.a;
  }
}

struct arithmetic_case {
  std::string_view a;
  char op;
  std::string_view b;
  std::string_view expected;
};

constexpr arithmetic_case arithmetic_cases[] = {
    {"1Gi", '+', "512Mi", "1536Mi"},
    {"100m", '+', "0", "100m"},
    {"0", '+', "100m", "100m"},
    {"0", '+', "1Gi", "1Gi"},
    {"1Gi", '+', "0", "1Gi"},
    {"1", '+', "1Ki", "1025"},
    {"1Ki", '+', "1", "1025"},
    {"1Ki", '+', "1Ki", "2Ki"},
    {"1Ki", '+', "1023", "2047"},
    {"1Ki", '+', "1024", "2Ki"},
    {"1.5Gi", '+', "512Mi", "2Gi"},
    {"10", '+', "1e1", "20"},
    {"500m", '+', "500m", "1"},
    {"9223372036854775807", '+', "1", "9223372036854775808"},
    {"9Ei", '+', "9Ei", "18446744073709551614"},
    {"1G", '-', "1Gi", "-73741824"},
    {"10", '-', "1", "9"},
    {"10", '-', "1e1", "0"},
    {"0", '-', "50", "-50"},
    {"1Gi", '-', "0", "1Gi"},
    {"0", '-', "1Gi", "-1Gi"},
    {"0", '-', "100m", "-100m"},
    {"4Gi", '-', "1Gi", "3Gi"},
    {"8Gi", '-', "8Gi", "0"},
    {"1", '-', "1n", "999999999n"},
};

TEST(Quantity, AddsAndSubtractsExactlyWithKubernetesFormats) {
  for (const arithmetic_case& c : arithmetic_cases) {
    quantity a = parsed(c.a);
    quantity b = parsed(c.b);
    auto sum = c.op == '+' ? a.add(b) : a.sub(b);
    ASSERT_TRUE(sum.has_value()) << c.a << c.op << c.b;
    EXPECT_EQ(sum->to_string(), c.expected) << c.a << ' ' << c.op << ' ' << c.b;
  }
}

TEST(Quantity, AddSubRoundTripsAcrossScales) {
  for (std::string_view base : {"1", "1Ki", "100m", "1.5Gi", "3e9", "1n"}) {
    for (std::string_view other : {"1", "7m", "1Mi", "1e12", "0.000000001"}) {
      quantity a = parsed(base);
      quantity b = parsed(other);
      auto there = a.add(b);
      ASSERT_TRUE(there.has_value());
      auto back = there->sub(b);
      ASSERT_TRUE(back.has_value());
      EXPECT_EQ(*back, a) << base << " + " << other << " - " << other;
    }
  }
}

TEST(Quantity, MultipliesByIntegers) {
  struct mul_case {
    std::string_view a;
    std::int64_t factor;
    std::string_view expected;
  };
  constexpr mul_case cases[] = {
      {"10", 10, "100"},
      {"10", 1, "10"},
      {"1Gi", 4, "4Gi"},
      {"500m", 3, "1500m"},
      {"0", 50, "0"},
      {"50", 0, "0"},
      {"10", -10, "-100"},
      {"-50", -50, "2500"},
      {"9223372036854775807", 1, "9223372036854775807"},
      {"9223372036854775807", 2, "18446744073709551614"},
      {"9223372036854775807", -1, "-9223372036854775807"},
      {"1Ki", 1024, "1Mi"},
      {"1.5", 2, "3"},
  };
  for (const mul_case& c : cases) {
    auto product = parsed(c.a).mul(c.factor);
    ASSERT_TRUE(product.has_value()) << c.a << " * " << c.factor;
    EXPECT_EQ(product->to_string(), c.expected) << c.a << " * " << c.factor;
  }
}

// int64Amount.Mul with a negative scale stays an int64 amount only when the
// product is whole; otherwise Kubernetes continues with an inf.Dec, which
// later shows in AsInt64 (a decimal never answers it).
TEST(Quantity, MultiplicationKeepsKubernetesRepresentation) {
  auto whole = parsed("500m").mul(2);  // 1000m: int64Amount
  auto fractional = parsed("500m").mul(3);  // 1500m: inf.Dec
  ASSERT_TRUE(whole.has_value());
  ASSERT_TRUE(fractional.has_value());
  auto whole_then_one = whole->sub(*whole)->add(parsed("1"));
  auto fractional_then_one = fractional->sub(*fractional)->add(parsed("1"));
  ASSERT_TRUE(whole_then_one.has_value());
  ASSERT_TRUE(fractional_then_one.has_value());
  EXPECT_EQ(whole_then_one->as_int64(), std::optional<std::int64_t>(1));
  EXPECT_EQ(fractional_then_one->as_int64(), std::nullopt);
  EXPECT_EQ(fractional_then_one->to_string(), "1");
}

TEST(Quantity, ArithmeticBeyondItsPrecisionIsAnErrorNotGarbage) {
  auto huge = parsed("99999999999999999999999999999999999999");  // 38 nines
  auto sum = huge.add(parsed("1"));
  ASSERT_FALSE(sum.has_value());
  EXPECT_NE(sum.error().message.find("38 significant digits"), std::string::npos);
  EXPECT_FALSE(huge.mul(10).has_value());
  EXPECT_FALSE(parsed("1e30").add(parsed("1n")).has_value());
}

TEST(Quantity, ValueAndMilliValueRoundAwayFromZero) {
  struct value_case {
    std::string_view input;
    std::int64_t value;
    std::int64_t milli;
  };
  constexpr value_case cases[] = {
      {"1.5", 2, 1500},
      {"-1.5", -2, -1500},
      {"100m", 1, 100},
      {"1n", 1, 1},
      {"1Ki", 1024, 1024000},
      {"0", 0, 0},
      {"1.1m", 1, 2},
      {"-1n", -1, -1},
      {"1k", 1000, 1000000},
      {"1e-3", 1, 1},
      {"3Gi", 3221225472, 3221225472000},
      {"12E", INT64_MAX, INT64_MAX},
      {"-12E", INT64_MIN, INT64_MIN},
  };
  for (const value_case& c : cases) {
    quantity q = parsed(c.input);
    EXPECT_EQ(q.value(), c.value) << c.input;
    EXPECT_EQ(q.milli_value(), c.milli) << c.input;
  }
}

TEST(Quantity, AsInt64FollowsKubernetesRepresentation) {
  struct int_case {
    std::string_view input;
    std::optional<std::int64_t> expected;
  };
  const int_case cases[] = {
      {"1", 1},
      {"1k", 1000},
      {"1.5k", 1500},
      {"1Ki", 1024},
      {"1e3", 1000},
      {"1000m", std::nullopt},
      {"1.5Gi", std::nullopt},
      {"0.5", std::nullopt},
      {"9223372036854775807", std::nullopt},
      {"12E", std::nullopt},
      {"-8", -8},
      {"0", 0},
      {"50000000G", 50000000000000000},
  };
  for (const int_case& c : cases) {
    quantity q = parsed(c.input);
    EXPECT_EQ(q.as_int64(), c.expected) << c.input;
    EXPECT_EQ(q.is_integer(), c.expected.has_value()) << c.input;
  }
}

TEST(Quantity, ConstructsLikeNewQuantity) {
  EXPECT_EQ(quantity::from_int(5, fmt::binary_si).to_string(), "5");
  EXPECT_EQ(quantity::from_int(1024 * 1024, fmt::binary_si).to_string(), "1Mi");
  EXPECT_EQ(quantity::from_int(1000, fmt::decimal_si).to_string(), "1k");
  EXPECT_EQ(quantity::from_int(1000, fmt::decimal_exponent).to_string(), "1e3");
  EXPECT_EQ(quantity::from_milli(500, fmt::binary_si).to_string(), "500m");
  EXPECT_EQ(quantity::from_milli(1234567, fmt::binary_si).to_string(), "1234567m");
  EXPECT_EQ(quantity::from_milli(-1500).to_string(), "-1500m");
  EXPECT_EQ(quantity::from_scaled(3, 3).to_string(), "3k");
  EXPECT_EQ(quantity::from_scaled(108, -2).to_string(), "1080m");
  EXPECT_EQ(quantity::from_int(1025, fmt::binary_si).to_string(), "1025");
  EXPECT_EQ(quantity::from_int(-1024, fmt::binary_si).to_string(), "-1Ki");
  EXPECT_EQ(quantity::from_int(-1023, fmt::binary_si).to_string(), "-1023");
}

TEST(Quantity, RoundsUpToARequestPolicyStepAsUpstreamDoes) {
  struct step_case {
    std::string_view value, min, step, expected;
  };
  constexpr step_case cases[] = {
      {"5Gi", "1Gi", "2Gi", "5Gi"},   {"6Gi", "1Gi", "2Gi", "7Gi"}, {"1Gi", "1Gi", "2Gi", "1Gi"},
      {"1.5Gi", "1Gi", "1Gi", "2Gi"}, {"10", "0", "3", "12"},       {"1", "0", "1", "1"},
      {"100m", "0", "1", "1"},        {"1500M", "1G", "1G", "2G"},
  };
  for (const step_case& c : cases) {
    auto rounded = quantity::round_up_to_step(parsed(c.value), parsed(c.min), parsed(c.step));
    ASSERT_TRUE(rounded.has_value()) << c.value;
    EXPECT_EQ(*rounded, parsed(c.expected)) << c.value << " step " << c.step;
    EXPECT_EQ(rounded->fmt(), fmt::binary_si);
  }
  // Upstream makes the rounded value a BinarySI quantity, whatever the input's format.
  EXPECT_EQ(quantity::round_up_to_step(parsed("1500M"), parsed("1G"), parsed("1G"))->to_string(), "1953125Ki");
  // Below the minimum: the minimum itself, in its own format (roundUpRange's first branch).
  auto below = quantity::round_up_to_step(parsed("500M"), parsed("1G"), parsed("1Gi"));
  ASSERT_TRUE(below.has_value());
  EXPECT_TRUE(below->identical(parsed("1G")));
  EXPECT_EQ(below->to_string(), "1G");
  auto zero_step = quantity::round_up_to_step(parsed("1"), parsed("0"), parsed("0"));
  ASSERT_FALSE(zero_step.has_value());
  EXPECT_NE(zero_step.error().message.find("must be positive"), std::string::npos);
}

TEST(Quantity, ApproximateDoubleMatchesKubernetes) {
  EXPECT_DOUBLE_EQ(parsed("1.5Gi").approximate_double(), 1610612736.0);
  EXPECT_DOUBLE_EQ(parsed("100m").approximate_double(), 0.1);
  EXPECT_DOUBLE_EQ(parsed("1k").approximate_double(), 1000.0);
  EXPECT_DOUBLE_EQ(parsed("-2.5").approximate_double(), -2.5);
  EXPECT_EQ(parsed("1e400").approximate_double(), std::numeric_limits<double>::infinity());
}

TEST(Quantity, IdenticalDistinguishesWhatEqualityDoesNot) {
  EXPECT_EQ(parsed("1Gi"), parsed("1024Mi"));
  EXPECT_TRUE(parsed("1Gi").identical(parsed("1Gi")));
  EXPECT_FALSE(parsed("1k").identical(parsed("1000")));
  EXPECT_EQ(parsed("1k"), parsed("1000"));
}

}  // namespace
