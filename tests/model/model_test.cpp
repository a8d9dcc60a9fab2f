// Tests of the model's own types: optional_box (boxed optional fields) and sorted maps.
#include <dra/model/resource_slice.hpp>

#include <gtest/gtest.h>

#include "../support/quantity.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using dra::quantity;
using dra::model::optional_box;

using dra_test::q;

// Boxing is what keeps every capacity and attribute small.
static_assert(sizeof(dra::model::device_capacity) < sizeof(quantity) + sizeof(dra::model::capacity_request_policy));
static_assert(sizeof(dra::model::version_value) < sizeof(dra::model::text) + sizeof(dra::semver));
static_assert(std::is_nothrow_move_constructible_v<optional_box<dra::semver>>);

TEST(OptionalBox, BehavesLikeAnOptional) {
  optional_box<std::string> box;
  EXPECT_FALSE(box.has_value());
  EXPECT_FALSE(box);
  EXPECT_EQ(box, optional_box<std::string>(std::nullopt));
  box.emplace(3, 'x');
  ASSERT_TRUE(box);
  EXPECT_EQ(*box, "xxx");
  EXPECT_EQ(box->size(), 3u);
  box = std::nullopt;
  EXPECT_FALSE(box.has_value());
  box = std::string("y");
  EXPECT_EQ(*box, "y");
  box.reset();
  EXPECT_FALSE(box);
}

TEST(OptionalBox, CopiesDeeplyAndComparesByContent) {
  optional_box<std::string> a(std::string("value"));
  optional_box<std::string> b = a;
  ASSERT_TRUE(b);
  EXPECT_NE(&*a, &*b);
  EXPECT_EQ(a, b);
  *b += "!";
  EXPECT_EQ(*a, "value");
  EXPECT_NE(a, b);
  b = a;
  EXPECT_EQ(*b, "value");
  const optional_box<std::string>& same = b;
  b = same;  // self-assignment keeps the value
  EXPECT_EQ(*b, "value");
  optional_box<std::string> empty;
  EXPECT_NE(a, empty);
  b = empty;
  EXPECT_FALSE(b);
  optional_box<std::string> moved = std::move(a);
  EXPECT_EQ(*moved, "value");
}

TEST(OptionalBox, HoldsARequestPolicyInACapacity) {
  dra::model::capacity_request_policy policy;
  policy.default_value = q("1G");
  dra::model::device_capacity with{q("10G"), policy};
  dra::model::device_capacity without{q("10G"), {}};
  ASSERT_TRUE(with.request_policy);
  EXPECT_EQ(with.request_policy->default_value, q("1G"));
  EXPECT_FALSE(without.request_policy);
  EXPECT_NE(with, without);
  dra::model::device_capacity copy = with;
  EXPECT_EQ(copy, with);
  copy.request_policy->default_value = q("2G");
  EXPECT_NE(copy, with);
}

TEST(AttributeKind, NamesEachAlternativeAndWhichAreLists) {
  using dra::model::attribute_kind;
  using dra::model::attribute_value;
  struct example {
    attribute_value value;
    attribute_kind kind;
    bool list;
  };
  const std::vector<example> cases = {
      {attribute_value{std::int64_t{1}}, attribute_kind::integer, false},
      {attribute_value{true}, attribute_kind::boolean, false},
      {attribute_value{dra::model::text("a")}, attribute_kind::string, false},
      {attribute_value{dra::model::version_value{}}, attribute_kind::version, false},
      {attribute_value{std::vector<std::int64_t>{1}}, attribute_kind::integers, true},
      {attribute_value{std::vector<bool>{true}}, attribute_kind::booleans, true},
      {attribute_value{std::vector<dra::model::text>{}}, attribute_kind::strings, true},
      {attribute_value{std::vector<dra::model::version_value>{}}, attribute_kind::versions, true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(dra::model::kind_of(c.value), c.kind) << c.value.index();
    EXPECT_EQ(dra::model::is_list(c.kind), c.list) << c.value.index();
  }
}

}  // namespace
