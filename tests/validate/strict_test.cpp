// Tests of strict field validation (unknown fields, v1beta1's shape in v1), DeviceTaintRules and ResourceClaimTemplates.
#include "../support/source_dir.hpp"
#include "support.hpp"

#include <dra/json/ingest.hpp>
#include <dra/validate/scenario.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

dra::error_list validate_text(const std::string& text) {
  auto doc = dra::json::load(text);
  if (!doc) {
    ADD_FAILURE() << doc.error().to_string();
    return {};
  }
  return dra::validate::validate(*doc);
}

TEST(Strict, ReportsEveryUnknownFieldWithItsPath) {
  const auto errors = validate_text(R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"ns","managedFields":[]},
     "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu","selector":[{"cel":{"expression":"true"}}]}}]}},
     "extra":1},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[]}}]})");
  ASSERT_EQ(errors.size(), 2u) << validate_test::dump(errors);
  EXPECT_EQ(errors[0].to_string(),
            "ResourceClaim/ns/c: spec.devices.requests[0].exactly.selector: unknown field "
            "\"spec.devices.requests[0].exactly.selector\"");
  EXPECT_EQ(errors[1].to_string(), "ResourceClaim/ns/c: extra: unknown field \"extra\"");
}

TEST(Strict, AV1SliceInTheV1beta1ShapeIsAnErrorAndAWarning) {
  const std::string slice = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
    "spec":{"driver":"d.example.com","nodeName":"n","pool":{"name":"p","generation":1,"resourceSliceCount":1},
            "devices":[{"name":"gpu-0","basic":{"attributes":{"a":{"int":1}}}}]}})";
  auto doc = dra::json::load(slice);
  ASSERT_TRUE(doc.has_value());
  EXPECT_TRUE(doc->scenario().slices[0].object.devices[0].attributes.empty());
  ASSERT_EQ(doc->scenario().warnings.size(), 1u);
  EXPECT_EQ(doc->scenario().warnings[0],
            "ResourceSlice/s: resource.k8s.io/v1 object written in the v1beta1 shape (`basic` under a device, a request "
            "without `exactly`): those fields are ignored; `dra validate` names them");
  const auto errors = dra::validate::validate(*doc);
  ASSERT_EQ(errors.size(), 1u) << validate_test::dump(errors);
  EXPECT_EQ(errors[0].to_string(), "ResourceSlice/s: spec.devices[0].basic: unknown field \"spec.devices[0].basic\"");
}

TEST(Strict, AV1ClaimRequestWithoutExactlyIsAnError) {
  const auto errors = validate_text(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
    "metadata":{"name":"c","namespace":"ns"},"spec":{"devices":{"requests":[{"name":"r","deviceClassName":"gpu"}]}}})");
  EXPECT_TRUE(validate_test::has_error(errors, "spec.devices.requests[0].deviceClassName",
                                       "unknown field \"spec.devices.requests[0].deviceClassName\""))
      << validate_test::dump(errors);
}

TEST(Strict, KubectlOutputHasNoUnknownFields) {
  auto doc = dra::json::load_file(std::string(dra_test::source_dir()) + "/tests/json/data/kubectl-cluster.json");
  ASSERT_TRUE(doc.has_value());
  EXPECT_TRUE(doc->unknown_fields().empty()) << doc->unknown_fields().front().path;
}

TEST(TaintRules, ValidatesTheSelectorAndTheTaintAsTheApiServer) {
  const auto errors = validate_text(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule",
    "metadata":{"name":"r"},"spec":{"deviceSelector":{"driver":"Not_A_Driver","pool":"p","device":"Gpu 0"},
    "taint":{"key":"example.com/k","effect":"NoRun"}}})");
  EXPECT_TRUE(validate_test::has_error(errors, "spec.taint.effect",
                                       "Unsupported value: \"NoRun\": supported values: \"NoExecute\", \"NoSchedule\", \"None\""))
      << validate_test::dump(errors);
  EXPECT_TRUE(validate_test::has_error(errors, "spec.deviceSelector.driver", "Invalid value: \"Not_A_Driver\""));
  EXPECT_TRUE(validate_test::has_error(errors, "spec.deviceSelector.device", "Invalid value: \"Gpu 0\""));
  EXPECT_EQ(errors.size(), 3u) << validate_test::dump(errors);
  for (const auto& e : errors) EXPECT_EQ(e.object, "DeviceTaintRule/r");
}

TEST(TaintRules, AValidRuleAndAMissingEffect) {
  EXPECT_TRUE(validate_text(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"r"},
    "spec":{"deviceSelector":{"pool":"node-a"},"taint":{"key":"k","value":"v","effect":"None"}}})")
                  .empty());
  const auto errors = validate_text(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"r"},
    "spec":{"taint":{"key":"k"}}})");
  ASSERT_EQ(errors.size(), 1u) << validate_test::dump(errors);
  EXPECT_EQ(errors[0].to_string(), "DeviceTaintRule/r: spec.taint.effect: Required value");
}

TEST(ClaimTemplates, TheSpecIsValidatedAsAClaimSpec) {
  const auto errors = validate_text(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
    "metadata":{"name":"t","namespace":"ns"},"spec":{"spec":{"devices":{"requests":[{"name":"r","exactly":{}}]}}}})");
  ASSERT_EQ(errors.size(), 1u) << validate_test::dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceClaimTemplate/ns/t");
  EXPECT_EQ(errors[0].path, "spec.spec.devices.requests[0].exactly.deviceClassName");
}

}  // namespace
