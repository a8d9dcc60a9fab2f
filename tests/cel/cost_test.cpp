// The static cost estimate (cel-go's EstimateCost with Kubernetes' DRA sizes): upstream's own expected values, the
// expression upstream's validation refuses, and estimates worked out by hand from cel-go's rules.
#include <dra/cel/program.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace {

using dra::cel::cost_estimate;

cost_estimate estimate(std::string_view expression) {
  static const auto env = dra::cel::make_dra_environment();
  auto compiled = dra::cel::compile(env, expression);
  EXPECT_TRUE(compiled) << expression << ": " << compiled.error().message;
  return compiled ? compiled.value().estimated_cost() : cost_estimate{};
}

constexpr std::uint64_t unbounded = UINT64_MAX;

// dynamic-resource-allocation's cel/compile_test.go checks each selector's MaxCost (the estimate, which upstream's
// validation compares with the limit); these are its expressions and values.
struct upstream_case {
  std::uint64_t max;
  std::string_view expression;
};
constexpr upstream_case upstream_estimates[] = {
    {6, R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))"},
    {6, R"(device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0")))"},
    {3, R"("no-such-domain" in device.attributes)"},
    {2, R"(device.driver == "")"},
    {4, R"(device.driver == "dra.example.com")"},
    {4, R"(device.attributes["dra.example.com"].name)"},
    {4, R"(device.attributes["dra.example.com"]["name"])"},
    {15, R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))"},
    {5, R"(device.attributes["dra.example.com"].name > 0)"},
    {5, R"(device.attributes["dra.example.com"].name == "fish")"},
    // A loop over an attribute: 64 iterations (the larger of a value's length and a list's values).
    {5 + (3 + 3) * 64, R"(device.attributes["dra.example.com"].name.exists(x, x > 0))"},
    {5 + (3 + 3) * 64, R"(device.attributes["dra.example.com"].name.exists(x, x == "fish"))"},
    {6, R"(device.attributes["dra.example.com"].names.size() == 2)"},
    {5 + (2 + 2) * 64, R"(device.attributes["dra.example.com"].names.all(x, x != ""))"},
    {5 + (2 + 4) * 64, R"(device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1"))))"},
    {5 + (3 + 4) * 64, R"(device.attributes["dra.example.com"].name.exists(x, x.isGreaterThan(semver("0.0.1"))))"},
    // includes() is linear in the 48 values a list attribute may hold, `in` in the attribute's declared size.
    {4 + 48, R"(device.attributes["dra.example.com"].name.includes("fish"))"},
    {4 + 48 + 1, R"(device.attributes["dra.example.com"].name.includes(semver("1.0.0")))"},
    {4 + 64, R"(1 in device.attributes["dra.example.com"].names)"},
    {6, R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))"},
    {7,
     R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))"},
    {6, R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))"},
    {10,
     R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))"},
    {11,
     R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))"},
    {52, R"(device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1")))"},
    {12,
     R"(device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c)"},
    // Domains are at most 63 characters, names 32, and a device has at most 32 of either.
    {164, R"(device.attributes.exists_one(x, x == "dra.example.com"))"},
    {133, R"(device.attributes["dra.example.com"].exists_one(x, x == "services"))"},
    {164, R"(device.capacity.exists_one(x, x == "dra.example.com"))"},
    {133, R"(device.capacity["dra.example.com"].exists_one(x, x == "memory"))"},
    {19, R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)"},
    {18, R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))"},
    {3, R"(device.allowMultipleAllocations == true)"},
};

TEST(CostEstimate, MatchesUpstreamsEstimates) {
  for (const auto& c : upstream_estimates) EXPECT_EQ(estimate(c.expression).max, c.max) << c.expression;
}

// Upstream's validation tests refuse this selector (seven nested loops of ten); compile_test.go gives its estimate.
constexpr std::string_view nested_loops =
    "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, "
    "10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, "
    "8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))";

TEST(CostEstimate, NestedLoopsExceedTheSelectorLimit) {
  const cost_estimate c = estimate(nested_loops);
  EXPECT_EQ(c.max, 85555551U);
  EXPECT_GT(c.max, dra::cel::selector_max_cost);
}

// Worked out by hand. A loop costs its range (a list literal: 10), its accumulator's init, its result (1), and per
// element the condition (not_strictly_false(@result): 2) and the step (@result && body: 1 + body).
TEST(CostEstimate, LoopsMultiplyTheirBodyByTheRange) {
  // body x > 0: 2. max 11 + 3 × (2 + 3); min takes the short circuit: 11 + 3 × (2 + 1).
  EXPECT_EQ(estimate("[1, 2, 3].all(x, x > 0)"), (cost_estimate{20, 26}));
  // The inner loop (11 + 3 × 6 = 29) runs twice: 11 + 2 × (2 + 1 + 29).
  EXPECT_EQ(estimate("[1, 2].all(x, [1, 2, 3].all(y, x < y))").max, 75U);
  // exists_one: no condition, step `body ? @result + 1 : @result` (2 + {1, 2}), result `@result == 1` (2).
  EXPECT_EQ(estimate("[1, 2, 3].exists_one(x, x == 2)"), (cost_estimate{21, 24}));
}

TEST(CostEstimate, ElementSizesFlowThroughMacros) {
  // map() builds lists of two: the inner loop runs twice per element, not an unknown number of times.
  // map: 20 + 1 + 2 × (1 + 1 + 22); all: 1 + 2 × (2 + 1 + 12); inner all: 2 + 2 × (2 + 1 + 2).
  EXPECT_EQ(estimate("[1, 2].map(x, [x, x]).all(l, l.all(y, y > 0))").max, 100U);
  // A list attribute's elements have no declared size: a loop over one is unbounded.
  EXPECT_EQ(estimate(R"(device.attributes["d"].l.all(x, x.all(y, true)))").max, unbounded);
}

TEST(CostEstimate, TextCostsATenthPerCharacter) {
  // 63 + 63 characters joined: ceil(12.6) + 4; compared with up to 63: ceil(6.3) + 2.
  EXPECT_EQ(estimate("device.driver + device.driver == device.driver"), (cost_estimate{7, 26}));
  // matches(): (64 + 1) × 0.1 → 7, times the pattern's 5 × 0.25 → 2, plus the receiver's 4.
  EXPECT_EQ(estimate(R"(device.attributes["d"].s.matches("^a.*$"))"), (cost_estimate{6, 18}));
}

TEST(CostEstimate, LiteralsHaveTheirSizes) {
  // in on a list of three: 3, plus the list (10) and device.driver (2).
  EXPECT_EQ(estimate(R"(device.driver in ["a", "b", "c"])").max, 15U);
  // A map literal costs 30.
  EXPECT_EQ(estimate(R"({"a": 1}["a"] == 1)").max, 32U);
  // cel.bind: the empty range (10), the bound list (10), x.size() == 2 (3).
  EXPECT_EQ(estimate("cel.bind(x, [1, 2], x.size() == 2)").max, 23U);
}

TEST(CostEstimate, ExtensionLibrariesEstimateBySize) {
  // lists.range(10): 10 + 1 + 10, sized 10; distinct(): 2 × 10² + 11; size() and == one each.
  EXPECT_EQ(estimate("lists.range(10).distinct().size() == 10").max, 234U);
  // sets.contains: 2 × 1 + 1, with both lists (20).
  EXPECT_EQ(estimate("sets.contains([1, 2], [1])").max, 23U);
}

// Kubernetes compiles selectors with PresenceTestHasCost(false): has() adds nothing to its operand.
TEST(CostEstimate, PresenceTestsAreFreeInTheDraEnvironment) {
  EXPECT_EQ(estimate(R"(has(device.attributes["d"].a))").max, 3U);
  auto charged = dra::cel::make_dra_environment();
  charged->presence_test_has_cost = true;
  auto compiled = dra::cel::compile(charged, R"(has(device.attributes["d"].a))");
  ASSERT_TRUE(compiled);
  EXPECT_EQ(compiled.value().estimated_cost().max, 4U);
}

// Kubernetes' estimator answers `_==_` between two values of one of its types before cel-go sizes the operands
// (which have no size: unbounded): a quantity, semver, IP or CIDR costs 1, a named format up to 64 characters, a URL
// the right operand's length. It does not answer `_!=_`, nor `==` with a `dyn` operand: cel-go's estimate stays.
TEST(CostEstimate, KubernetesTypesHaveTheirOwnEquality) {
  // device.capacity["d"].mem 4, quantity() 1, == 1; indexing by name as much (its declared size 0 does not count).
  EXPECT_EQ(estimate(R"(device.capacity["d"].mem == quantity("1Gi"))"), (cost_estimate{6, 6}));
  EXPECT_EQ(estimate(R"(device.capacity["d"]["mem"] == quantity("1Gi"))"), (cost_estimate{6, 6}));
  EXPECT_EQ(estimate(R"(semver("1.0.0") == semver("1.0.0"))"), (cost_estimate{3, 3}));
  EXPECT_EQ(estimate(R"(ip("10.0.0.1") == ip("10.0.0.2"))"), (cost_estimate{3, 3}));
  EXPECT_EQ(estimate(R"(cidr("10.0.0.0/8") == cidr("10.0.0.0/16"))"), (cost_estimate{3, 3}));
  // Up to 64 characters a tenth each: {1, 7}.
  EXPECT_EQ(estimate("format.dns1123Label() == format.dns1123Label()"), (cost_estimate{3, 9}));
  // url() costs a tenth of its text's length and is as long as it; == reads the right operand's length only.
  EXPECT_EQ(estimate(R"(url("https://a.example") == url("https://example.com/x"))"), (cost_estimate{6, 8}));
  EXPECT_EQ(estimate(R"(url("https://example.com/x") == url("https://a.example"))"), (cost_estimate{6, 7}));

  // cel-go's estimate: the shorter operand's size, unknown for a quantity selected by field, 0 by ["name"].
  EXPECT_GT(estimate(R"(device.capacity["d"].mem != quantity("1Gi"))").max, dra::cel::selector_max_cost);
  EXPECT_EQ(estimate(R"(device.capacity["d"]["mem"] != quantity("1Gi"))"), (cost_estimate{5, 5}));
  EXPECT_GT(estimate(R"(semver("1.0.0") != semver("1.0.0"))").max, dra::cel::selector_max_cost);
  // An attribute is `dyn` (up to 64 long): not of the quantity's type, so sized: 64 × 0.1.
  EXPECT_EQ(estimate(R"(quantity("1Gi") == device.attributes["d"].a)"), (cost_estimate{6, 12}));
  EXPECT_EQ(estimate(R"(device.capacity["d"].mem.compareTo(quantity("1Gi")) == 0)").max, 7U);
}

// <format>.validate(text): the text's length a tenth each (64 → 7), times a 128-character pattern a quarter each
// (32): 224, plus the format (1), the attribute (4) and hasValue() (1).
TEST(CostEstimate, FormatValidationMatchesALongPattern) {
  EXPECT_EQ(estimate(R"(format.dns1123Label().validate(device.attributes["d"].s).hasValue())"),
            (cost_estimate{6, 230}));
}

// The estimate is of the expression as written: folding `int('1'.find(...))` to a constant does not lower it.
TEST(CostEstimate, IsTakenBeforeConstantsAreFolded) { EXPECT_EQ(estimate("int('1'.find('[0-9]*')) < 100").max, 4U); }

TEST(CostEstimate, UncheckedProgramsAreUnbounded) {
  auto compiled = dra::cel::compile(dra::cel::make_dra_environment(), "true", /*type_check=*/false);
  ASSERT_TRUE(compiled);
  EXPECT_EQ(compiled.value().estimated_cost().max, unbounded);
}

}  // namespace
