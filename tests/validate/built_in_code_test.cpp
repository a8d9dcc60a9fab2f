// Validation of objects built in C++ rather than read: unsorted maps and versions without their parsed form.
#include "support.hpp"

#include <dra/model/build.hpp>
#include <dra/validate/resource_claim.hpp>
#include <dra/validate/resource_slice.hpp>

#include <gtest/gtest.h>

#include "../support/quantity.hpp"

namespace {

namespace model = dra::model;
using dra::quantity;
using validate_test::dump;

using dra_test::q;

model::resource_slice slice_of(model::device device) {
  model::resource_slice s;
  s.meta.name = "slice-1";
  s.driver = "gpu.example.com";
  s.pool = {"p", 1, 1};
  s.node_name = "node-1";
  s.devices.push_back(std::move(device));
  return s;
}

model::device_attribute string_attribute(model::text value) { return {value}; }

TEST(ValidateBuiltInCode, SortedMapsAreValid) {
  model::device d;
  d.name = "gpu-0";
  d.attributes = {{"a", string_attribute("x")}, {"b", string_attribute("y")}};
  d.capacity = {{"memory", {q("1Gi"), {}}}};
  const auto errors = dra::validate::validate_resource_slice(slice_of(d));
  EXPECT_TRUE(errors.empty()) << dump(errors);
}

TEST(ValidateBuiltInCode, UnsortedAttributesAreNamed) {
  model::device d;
  d.name = "gpu-0";
  d.attributes = {{"model", string_attribute("b")}, {"index", {std::int64_t{1}}}};  // lookups would miss "index"
  const auto errors = dra::validate::validate_resource_slice(slice_of(d));
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceSlice/slice-1");
  EXPECT_EQ(errors[0].path, "spec.devices[0].attributes");
  EXPECT_EQ(errors[0].message.rfind("Invalid value: \"index\": keys must be sorted, and this one comes after \"model\"", 0), 0u)
      << errors[0].message;
  // Sorted, the same device is valid.
  model::sort_by_key(d.attributes);
  EXPECT_TRUE(dra::validate::validate_resource_slice(slice_of(d)).empty());
}

TEST(ValidateBuiltInCode, UnsortedCapacitiesAndCountersAreNamed) {
  model::device d;
  d.name = "gpu-0";
  d.capacity = {{"memory", {q("1Gi"), {}}}, {"cores", {q("8"), {}}}};
  d.consumes_counters.push_back({"set", {{"slices", q("1")}, {"memory", q("1Gi")}}, {}, {}});
  auto errors = dra::validate::validate_resource_slice(slice_of(d));
  EXPECT_TRUE(validate_test::has_error(errors, "spec.devices[0].capacity", "keys must be sorted")) << dump(errors);
  EXPECT_TRUE(validate_test::has_error(errors, "spec.devices[0].consumesCounters[0].counters", "keys must be sorted"))
      << dump(errors);
  EXPECT_EQ(errors.size(), 2u) << dump(errors);
  // Counter sets are published in a slice of their own.
  model::resource_slice counters = slice_of(d);
  counters.devices.clear();
  counters.shared_counters.push_back({"set", {{"slices", q("8")}, {"memory", q("8Gi")}}, {}});
  errors = dra::validate::validate_resource_slice(counters);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].path, "spec.sharedCounters[0].counters");
  EXPECT_EQ(errors[0].message.rfind("Invalid value: \"memory\": keys must be sorted", 0), 0u) << errors[0].message;
}

TEST(ValidateBuiltInCode, RepeatedKeysAreDuplicates) {
  model::device d;
  d.name = "gpu-0";
  d.attributes = {{"model", string_attribute("a")}, {"model", string_attribute("b")}};
  const auto errors = dra::validate::validate_resource_slice(slice_of(d));
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].path, "spec.devices[0].attributes");
  EXPECT_EQ(errors[0].message, "Duplicate value: \"model\"");
}

TEST(ValidateBuiltInCode, VersionWithoutItsParsedFormIsNamed) {
  model::version_value unparsed;
  unparsed.source = "550.54.15";  // set by hand: CEL would fail on it at run time
  model::device d;
  d.name = "gpu-0";
  d.attributes = {{"driverVersion", {unparsed}}};
  auto errors = dra::validate::validate_resource_slice(slice_of(d));
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].path, "spec.devices[0].attributes.driverVersion.version");
  EXPECT_EQ(errors[0].message.rfind("Invalid value: \"550.54.15\": the parsed version is missing", 0), 0u) << errors[0].message;
  // Made from its text, it is parsed and valid; an invalid text keeps upstream's message.
  d.attributes = {{"driverVersion", {model::version_value{"550.54.15"}}}};
  errors = dra::validate::validate_resource_slice(slice_of(d));
  EXPECT_TRUE(errors.empty()) << dump(errors);
  d.attributes = {{"driverVersion", {model::version_value{"550.54"}}}};
  errors = dra::validate::validate_resource_slice(slice_of(d));
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].message, "Invalid value: \"550.54\": must be a string compatible with semver.org spec 2.0.0");
}

TEST(ValidateBuiltInCode, UnsortedCapacityRequestsOfAClaimAreNamed) {
  model::resource_claim claim;
  claim.meta.name = "c";
  claim.meta.namespace_ = "default";
  model::device_request request;
  request.name = "r";
  request.exactly.emplace().device_class_name = "gpu";
  request.exactly->capacity.emplace().requests = {{"memory", q("1Gi")}, {"bandwidth", q("1G")}};
  claim.spec.requests.push_back(request);
  const auto errors = dra::validate::validate_resource_claim(claim);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceClaim/default/c");
  EXPECT_EQ(errors[0].path, "spec.devices.requests[0].exactly.capacity.requests");
}

TEST(ValidateBuiltInCode, BuiltObjectsAreValid) {
  auto slice = model::slice_builder("node-1-gpus", "gpu.example.com")
                   .node_name("node-1")
                   .device(model::device_builder("gpu-0").string("model", "a").version("driverVersion", "550.54.15").capacity("memory", "80Gi"))
                   .build();
  ASSERT_TRUE(slice) << slice.error().to_string();
  auto errors = dra::validate::validate_resource_slice(*slice);
  EXPECT_TRUE(errors.empty()) << dump(errors);
  auto claim = model::claim_builder("default", "c")
                   .request(model::request_builder("r", "gpu").capacity("memory", "1Gi").capacity("bandwidth", "1G"))
                   .build();
  ASSERT_TRUE(claim) << claim.error().to_string();
  errors = dra::validate::validate_resource_claim(*claim);
  EXPECT_TRUE(errors.empty()) << dump(errors);
}

}  // namespace
