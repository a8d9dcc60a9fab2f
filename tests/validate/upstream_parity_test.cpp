// Cases of upstream Kubernetes' validation tables (pkg/apis/resource/validation/*_test.go), restated as inputs and expected errors.
#include "support.hpp"

#include <dra/validate/device_class.hpp>
#include <dra/validate/resource_claim.hpp>
#include <dra/validate/resource_slice.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace validate_test;

constexpr std::string_view label_value_rule =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
    "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
constexpr std::string_view name_part_rule =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// Every error of `errors`, as "path: message", in order.
std::vector<std::string> lines(const dra::error_list& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.path + ": " + e.message);
  return out;
}

std::string with_metadata(std::string object, const std::string& members) {
  const std::string marker = R"("metadata":{)";
  object.insert(object.find(marker) + marker.size(), members + ",");
  return object;
}

// ---- ObjectMeta (the "bad-labels", "bad-annotations", "missing-namespace" rows of every table)

TEST(UpstreamObjectMeta, LabelValuesAndKeys) {
  const std::string good = R"("labels":{"apps.kubernetes.io/name":"test"})";
  EXPECT_VALID(with_metadata(slice(""), good));
  EXPECT_VALID(with_metadata(claim(R"("requests":[])"), good));
  EXPECT_VALID(with_metadata(device_class(""), good));
  const std::string bad = R"("labels":{"hello-world":"spaces not allowed"})";
  for (const std::string& object : {with_metadata(slice(""), bad), with_metadata(claim(R"("requests":[])"), bad),
                                    with_metadata(device_class(""), bad)})
    EXPECT_EQ(lines(errors_of(object)),
              std::vector<std::string>{"metadata.labels: Invalid value: \"spaces not allowed\": " +
                                       std::string(label_value_rule)});
  EXPECT_PROBLEM(with_metadata(slice(""), R"("labels":{"!@#$%^":"v"})"), "metadata.labels",
                 "Invalid value: \"!@#$%^\": " + std::string(name_part_rule));
}

TEST(UpstreamObjectMeta, AnnotationKeysAndTotalSize) {
  dra::model::device_class c;
  c.meta.name = "gpu.example.com";
  c.meta.annotations = {{"foo", "bar"}};
  EXPECT_TRUE(dra::validate::validate_device_class(c).empty());
  c.meta.annotations = {{"!@#$%^", "hello world"}};
  EXPECT_EQ(lines(dra::validate::validate_device_class(c)),
            std::vector<std::string>{"metadata.annotations: Invalid value: \"!@#$%^\": " + std::string(name_part_rule)});
  // Keys are checked in lower case, as the API server does.
  c.meta.annotations = {{"Example.COM/Key", "x"}};
  EXPECT_TRUE(dra::validate::validate_device_class(c).empty());
  const std::string big(256 * 1024 - 1, 'x');
  c.meta.annotations = {{"a", big}};
  EXPECT_TRUE(dra::validate::validate_device_class(c).empty());
  c.meta.annotations = {{"ab", big}};
  EXPECT_EQ(lines(dra::validate::validate_device_class(c)),
            std::vector<std::string>{"metadata.annotations: Too long: may not be more than 262144 bytes"});
}

TEST(UpstreamObjectMeta, ClaimNamespaceIsRequiredClusterObjectsHaveNone) {
  std::string no_namespace = claim(R"("requests":[])");
  no_namespace.erase(no_namespace.find(R"(,"namespace":"default")"), 22);
  EXPECT_EQ(lines(errors_of(no_namespace)), std::vector<std::string>{"metadata.namespace: Required value"});
  EXPECT_EQ(lines(errors_of(with_metadata(slice(""), R"("namespace":"default")"))),
            std::vector<std::string>{"metadata.namespace: Forbidden: not allowed on this type"});
}

// ---- ResourceSlice (validation_resourceslice_test.go)

TEST(UpstreamSlice, NodeSelectorValuesAreLabelValues) {
  // invalid-node-selecor-label-value
  const auto errors = errors_of(slice(
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"foo","operator":"In","values":["-1"]}]}]})"));
  EXPECT_EQ(lines(errors),
            std::vector<std::string>{"spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid "
                                     "value: \"-1\": " +
                                     std::string(label_value_rule)});
}

TEST(UpstreamSlice, UnknownNodeSelectorOperatorKeepsTheOtherErrors) {
  const auto errors = errors_of(slice(
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"foo","operator":"Near","values":["a"]},)"
      R"({"key":"foo","values":["b"]}]}]},"driver":"Bad_Driver")"));
  const std::string at = "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions";
  EXPECT_TRUE(has_error(errors, at + "[0].operator", "Invalid value: \"Near\": not a valid selector operator"))
      << dump(errors);
  EXPECT_TRUE(has_error(errors, at + "[1].operator", "Invalid value: \"\": not a valid selector operator"))
      << dump(errors);
  EXPECT_TRUE(has_error(errors, "spec.driver", "RFC 1123 subdomain")) << dump(errors);
}

// `n` string-list attributes list_attr_0 … of one value each, the first with `first` values.
std::string list_attributes(int n, int first, const std::string& extra = {}) {
  std::string out = "{";
  for (int i = 0; i < n; ++i) {
    out += (i ? "," : "") + std::string("\"list_attr_") + std::to_string(i) + R"(":{"strings":[)";
    for (int v = 0; v < (i == 0 ? first : 1); ++v) out += v ? ",\"x\"" : "\"x\"";
    out += "]}";
  }
  if (!extra.empty()) out += R"(,"extra_attr":)" + extra;
  return out + "}";
}

TEST(UpstreamSlice, AttributeValuesPerDevice) {
  // max-attribute-values-with-list: 31 list attributes holding 48 values are fine; one more value is not.
  const std::string full = list_attributes(31, 18);
  const std::string one_short = list_attributes(31, 17);
  const std::vector<std::string> devices_json = {
      device("d0", R"("attributes":)" + full),
      device("d1", R"("attributes":)" + list_attributes(31, 18, R"({"int":1})")),
      device("d2", R"("attributes":)" + list_attributes(31, 18, R"({"bool":true})")),
      device("d3", R"("attributes":)" + list_attributes(31, 18, R"({"string":"x"})")),
      device("d4", R"("attributes":)" + list_attributes(31, 18, R"({"version":"1.0.0"})")),
      device("d5", R"("attributes":)" + list_attributes(31, 18, R"({"ints":[1]})")),
      device("d6", R"("attributes":)" + list_attributes(31, 18, R"({"bools":[true]})")),
      device("d7", R"("attributes":)" + list_attributes(31, 18, R"({"strings":["extra"]})")),
      device("d8", R"("attributes":)" + list_attributes(31, 18, R"({"versions":["1.0.0"]})")),
      device("d10", R"("attributes":)" + list_attributes(31, 17, R"({"bools":[true,false]})")),
      device("d11", R"("attributes":)" + list_attributes(31, 17, R"({"ints":[1,2]})")),
      device("d12", R"("attributes":)" + list_attributes(31, 17, R"({"strings":["a","b"]})")),
      device("d13", R"("attributes":)" + list_attributes(31, 17, R"({"versions":["1.0.0","1.0.1"]})")),
      device("d14", R"("attributes":)" + one_short)};
  std::string joined;
  for (const auto& d : devices_json) joined += (joined.empty() ? "" : ",") + d;
  std::vector<std::string> expected;
  for (int i = 1; i <= 12; ++i)
    expected.push_back("spec.devices[" + std::to_string(i) +
                       "]: Invalid value: 49: the total number of attribute values must not exceed 48");
  EXPECT_EQ(lines(errors_of(slice_with_devices(joined))), expected);
}

std::string shared_device(std::string_view name, const std::string& capacity) {
  return device(name, R"("allowMultipleAllocations":true,"capacity":{"a":)" + capacity + "}");
}

TEST(UpstreamSlice, ConsumableCapacityWithFractionalRanges) {
  // consumable-capacity-fractional: devices start as value 100, default 10, validValues [5, 10, 100].
  const std::string base_values = R"("validValues":["5","10","100"])";
  const std::vector<std::string> capacities = {
      R"({"value":"100","requestPolicy":{"default":"10",)" + base_values + "}}",
      R"({"value":"-1","requestPolicy":{"default":"10",)" + base_values + "}}",
      R"({"value":"100","requestPolicy":{"default":"-1",)" + base_values + "}}",
      R"({"value":"100","requestPolicy":{"default":"10"}})",
      R"({"value":"100","requestPolicy":{"default":"10",)" + base_values + R"(,"validRange":{"min":"10"}}})",
      R"({"value":"100","requestPolicy":{"default":"10","validRange":{"min":"1"}}})",
      R"({"value":"100","requestPolicy":{"default":"10.1","validValues":["5.1","10.1","100"]}})",
      R"({"value":"100","requestPolicy":{"default":"1.05","validRange":{"min":"1.1"}}})",
      R"({"value":"100","requestPolicy":{"default":"10","validValues":["9.9","10","100"]}})",
      R"({"value":"9223372036854775807","requestPolicy":{"default":"9223372036854775807",)"
      R"("validRange":{"min":"0","step":"1","max":"9223372036854775807"}}})",
      R"({"value":"9223372036854775807m","requestPolicy":{"default":"9223372036854775807m",)"
      R"("validRange":{"min":"0","step":"1m","max":"9223372036854775807m"}}})",
      R"({"value":"9223372036854775807","requestPolicy":{"default":"9223372036854775807",)"
      R"("validRange":{"min":"0","step":"1m","max":"9223372036854775807"}}})",
  };
  std::string joined;
  for (std::size_t i = 0; i < capacities.size(); ++i)
    joined += (i ? "," : "") + shared_device("device-" + std::to_string(i), capacities[i]);
  const auto at = [](int i) { return "spec.devices[" + std::to_string(i) + "].capacity.a.requestPolicy"; };
  EXPECT_EQ(lines(errors_of(slice_with_devices(joined))),
            (std::vector<std::string>{
                at(1) + ".validValues[0]: Invalid value: \"5\": option is larger than capacity value: -1",
                at(1) + ".validValues[1]: Invalid value: \"10\": option is larger than capacity value: -1",
                at(1) + ".validValues[2]: Invalid value: \"100\": option is larger than capacity value: -1",
                at(2) + ".validValues: Invalid value: \"-1\": default value is not valid according to the requestPolicy",
                at(4) + ": Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and "
                        "\"validRange\" at the same time",
                at(7) + ".validRange.default: Invalid value: \"1050m\": default is less than min: 1100m",
                at(11) + ".validRange.default: Invalid value: \"9223372036854775807\": value cannot be represented as "
                         "a milli value",
                at(11) + ".validRange.max: Invalid value: \"9223372036854775807\": value cannot be represented as a "
                         "milli value",
            }));
}

// validation_device_capacity_test.go: one capacity and its request policy, with DRAFractionalCapacityRange.
struct capacity_case {
  const char* name;
  const char* capacity;
  const char* policy;
  std::vector<std::string> errors;  // "<path below requestPolicy>: <message>"
};

const capacity_case capacity_cases[] = {
    {"no-policy", "1Gi", nullptr, {}},
    {"policy-without-default", "1Gi", "{}", {}},
    {"policy-with-valid-values-without-default", "1Gi", R"({"validValues":["1Gi"]})",
     {".default: Required value: required when validValues is defined"}},
    {"policy-with-valid-range-without-default", "1Gi", R"({"validRange":{"min":"1Gi"}})",
     {".default: Required value: required when validRange is defined"}},
    {"policy-with-valid-range-without-min", "1Gi", R"({"default":"1Gi","validRange":{}})",
     {".validRange.min: Required value: required when validRange is defined"}},
    {"valid-simple-range", "10Gi", R"({"default":"1Gi","validRange":{"min":"1Gi"}})", {}},
    {"valid-range-with-max", "10Gi", R"({"default":"1Gi","validRange":{"min":"1Gi","max":"10Gi"}})", {}},
    {"valid-range-with-step", "10Gi", R"({"default":"1Gi","validRange":{"min":"1Gi","step":"1Gi"}})", {}},
    {"valid-range-with-max-and-step", "10Gi",
     R"({"default":"1Gi","validRange":{"min":"1Gi","max":"10Gi","step":"1Gi"}})", {}},
    {"valid-single-option", "10Gi", R"({"default":"1Gi","validValues":["1Gi"]})", {}},
    {"valid-two-options", "10Gi", R"({"default":"1Gi","validValues":["1Gi","10Gi"]})", {}},
    {"default-without-policy", "10Gi", R"({"default":"1Gi"})", {}},
    {"more-than-one-policy", "10Gi", R"({"default":"1Gi","validValues":["1Gi"],"validRange":{"min":"1Gi"}})",
     {": Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the "
      "same time"}},
    {"invalid-options", "10Gi", R"({"default":"1Gi","validValues":["20Gi"]})",
     {".validValues[0]: Invalid value: \"20Gi\": option is larger than capacity value: 10Gi",
      ".validValues: Invalid value: \"1Gi\": default value is not valid according to the requestPolicy"}},
    {"valid-fractional-values", "10Gi", R"({"default":"100m","validValues":["100m","200m","1"]})", {}},
    {"invalid-options-duplicate", "10Gi", R"({"default":"1Gi","validValues":["1Gi","1Gi"]})",
     {".validValues[1]: Duplicate value: \"1073741824\""}},
    {"invalid-options-duplicate-normalized", "10Gi", R"({"default":"1Ki","validValues":["1Ki","1024"]})",
     {".validValues[1]: Duplicate value: \"1024\""}},
    {"invalid-options-unsort", "10Gi", R"({"default":"1Gi","validValues":["2Gi","1Gi"]})",
     {".validValues[1]: Invalid value: \"1Gi\": values must be sorted in ascending order"}},
    {"invalid-range-large-min-small-max", "10Gi", R"({"default":"2Gi","validRange":{"min":"20Gi","max":"1Gi"}})",
     {".validRange.min: Invalid value: \"20Gi\": min is larger than capacity value: 10Gi",
      ".validRange.default: Invalid value: \"2Gi\": default is less than min: 20Gi",
      ".validRange.max: Invalid value: \"20Gi\": min is larger than max: 1Gi",
      ".validRange.default: Invalid value: \"2Gi\": default is more than max: 1Gi"}},
    {"invalid-range-large-max", "10Gi", R"({"default":"1Gi","validRange":{"min":"1Gi","max":"20Gi"}})",
     {".validRange.max: Invalid value: \"20Gi\": max is larger than capacity value: 10Gi"}},
    {"invalid-range-multiple-of-step", "10Gi",
     R"({"default":"2Gi","validRange":{"min":"1Gi","max":"10Gi","step":"2Gi"}})",
     {".validRange.step: Invalid value: \"2Gi\": value is not a multiple of a given step (2Gi) from (1Gi)",
      ".validRange.step: Invalid value: \"10Gi\": value is not a multiple of a given step (2Gi) from (1Gi)"}},
    {"valid-range-fractional-step", "1", R"({"default":"200m","validRange":{"min":"200m","max":"1","step":"100m"}})",
     {}},
    {"invalid-range-fractional-step-not-aligned", "1",
     R"({"default":"250m","validRange":{"min":"200m","max":"1","step":"100m"}})",
     {".validRange.step: Invalid value: \"250m\": value is not a multiple of a given step (100m) from (200m)"}},
    {"invalid-range-large-step", "10Gi", R"({"default":"1Gi","validRange":{"min":"1Gi","step":"10Gi"}})",
     {".validRange.step: Invalid value: \"10Gi\": one step 11Gi is larger than capacity value: 10Gi"}},
    {"fractional-range-overflow-min", "100P", R"({"default":"20P","validRange":{"min":"10P","step":"100m"}})",
     {".validRange.default: Invalid value: \"20P\": value cannot be represented as a milli value",
      ".validRange.min: Invalid value: \"10P\": value cannot be represented as a milli value"}},
    {"fractional-too-fine-precision", "1", R"({"default":"20u","validRange":{"min":"10u"}})",
     {".validRange.default: Invalid value: \"20u\": value cannot be represented as a milli value",
      ".validRange.min: Invalid value: \"10u\": value cannot be represented as a milli value"}},
    // invalid-request-policy-zero-step and -negative-step of the slice table.
    {"zero-step", "1Gi", R"({"default":"10Mi","validRange":{"min":"1Mi","max":"100Mi","step":"0"}})",
     {".validRange.step: Invalid value: \"0\": must be greater than zero"}},
    {"negative-step", "1Gi", R"({"default":"10Mi","validRange":{"min":"1Mi","max":"100Mi","step":"-1Mi"}})",
     {".validRange.step: Invalid value: \"-1Mi\": must be greater than zero"}},
    // Whole-unit step arithmetic only on values in [0, MaxInt64].
    {"step-beyond-int64", "10E", R"({"default":"9300P","validRange":{"min":"0","step":"100P"}})",
     {".validRange.default: Invalid value: \"9300P\": must not be larger than 9223372036854775807"}},
    {"negative-min-with-step", "10", R"({"default":"1","validRange":{"min":"-1","step":"2"}})",
     {".validRange.min: Invalid value: \"-1\": must be greater than or equal to 0"}},
};

TEST(UpstreamSlice, DeviceCapacityTable) {
  for (const capacity_case& c : capacity_cases) {
    std::string capacity = std::string(R"({"value":")") + c.capacity + "\"";
    if (c.policy != nullptr) capacity += std::string(R"(,"requestPolicy":)") + c.policy;
    capacity += "}";
    std::vector<std::string> expected;
    for (const std::string& e : c.errors) expected.push_back("spec.devices[0].capacity.a.requestPolicy" + e);
    EXPECT_EQ(lines(errors_of(slice_with_devices(shared_device("d", capacity)))), expected) << c.name;
  }
}

// ---- ResourceClaim (validation_resourceclaim_test.go)

TEST(UpstreamClaim, InvalidEnumsDoNotHideOtherErrors) {
  const auto errors = errors_of(claim(
      R"("requests":[{"name":"Bad","exactly":{"deviceClassName":"c","allocationMode":"other",)"
      R"("tolerations":[{"key":"!k","operator":"Maybe","effect":"Sometimes"}]}}])"));
  EXPECT_EQ(lines(errors),
            (std::vector<std::string>{
                "spec.devices.requests[0].name: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of "
                "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character "
                "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"other\": supported values: "
                "\"All\", \"ExactCount\"",
                "spec.devices.requests[0].exactly.tolerations[0].key: Invalid value: \"!k\": " +
                    std::string(name_part_rule),
                "spec.devices.requests[0].exactly.tolerations[0].operator: Unsupported value: \"Maybe\": supported "
                "values: \"Equal\", \"Exists\"",
                "spec.devices.requests[0].exactly.tolerations[0].effect: Unsupported value: \"Sometimes\": supported "
                "values: \"NoExecute\", \"NoSchedule\", \"None\"",
            }));
}

TEST(UpstreamClaim, MissingSubObjectsAtTheirOwnPath) {
  const auto errors = errors_of(claim(
      R"("requests":[{"name":"r","exactly":{"deviceClassName":"c","selectors":[{"cel":{"expression":"true"}},{}]}}],)"
      R"("config":[{"requests":["r"]}])"));
  EXPECT_EQ(lines(errors), (std::vector<std::string>{"spec.devices.requests[0].exactly.selectors[1].cel: Required value",
                                                     "spec.devices.config[0].opaque: Required value"}));
}

std::string claim_allocated_as(const std::string& allocation) {
  std::string c = claim(R"("requests":[{"name":"foo","exactly":{"deviceClassName":"foo"}}])");
  c.insert(c.size() - 1, R"(,"status":{"allocation":)" + allocation + "}");
  return c;
}

TEST(UpstreamClaim, StatusAllocationConfiguration) {
  // "configuration" of TestValidateClaimStatusUpdate.
  const std::string opaque = R"("opaque":{"driver":"dra.example.com","parameters":{"kind":"foo"}})";
  const std::string long_parameters = R"({"str": ")" + std::string(10 * 1024 - 9 - 2 + 1, 'x') + "\"}";
  const auto errors = errors_of(claim_allocated_as(
      R"({"devices":{"results":[{"request":"foo","driver":"foo","pool":"foo","device":"foo"}],"config":[)"
      R"({"source":"FromClaim",)" + opaque + "}," + R"({"source":"",)" + opaque + "}," +
      R"({"source":"no-such-source",)" + opaque + "}," + R"({"source":"FromClaim"},)" +
      R"({"source":"FromClaim","opaque":{}},)" + R"({"source":"FromClaim","opaque":{"driver":"foo","parameters":)" +
      long_parameters + "}}," + R"({)" + opaque + "}]}}"));
  const std::string at = "status.allocation.devices.config";
  EXPECT_EQ(lines(errors),
            (std::vector<std::string>{
                at + "[1].source: Required value",
                at + "[2].source: Unsupported value: \"no-such-source\": supported values: \"FromClaim\", \"FromClass\"",
                at + "[3].opaque: Required value",
                at + "[4].opaque.driver: Required value",
                at + "[4].opaque.driver: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case "
                     "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
                     "'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                at + "[4].opaque.parameters: Required value",
                at + "[5].opaque.parameters: Too long: may not be more than 10240 bytes",
                at + "[6].source: Required value",
            }));
}

TEST(UpstreamClaim, StatusNodeSelector) {
  // invalid-node-selector and invalid-update-invalid-label-value.
  EXPECT_EQ(lines(errors_of(claim_allocated_as(R"({"nodeSelector":{}})"))),
            std::vector<std::string>{
                "status.allocation.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector "
                "term"});
  EXPECT_EQ(
      lines(errors_of(claim_allocated_as(
          R"({"nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"foo","operator":"In","values":["-1"]}]}]}})"))),
      std::vector<std::string>{
          "status.allocation.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"-1\": " +
          std::string(label_value_rule)});
}

// The claim of TestValidateClaimStatusUpdate, built in C++ (reservedFor is not read from JSON yet).
dra::model::resource_claim reserved_claim(std::size_t consumers, bool allocated = true) {
  static std::vector<std::string> names, uids;
  names.clear();
  uids.clear();
  names.reserve(consumers);
  uids.reserve(consumers);
  dra::model::resource_claim c;
  c.meta.name = "foo";
  c.meta.namespace_ = "ns";
  dra::model::device_request r;
  r.name = "foo";
  r.exactly.emplace().device_class_name = "foo";
  c.spec.requests.push_back(r);
  if (allocated) {
    auto& result = c.allocation.emplace().results.emplace_back();
    result.request = "foo";
    result.driver = result.pool = result.device = "foo";
  }
  for (std::size_t i = 0; i < consumers; ++i) {
    names.push_back("foo-" + std::to_string(i));
    uids.push_back(std::to_string(i));
    c.reserved_for.push_back({"", "pods", names.back(), uids.back()});
  }
  return c;
}

TEST(UpstreamClaim, ReservedFor) {
  EXPECT_TRUE(dra::validate::validate_resource_claim(reserved_claim(256)).empty());  // add-reservation
  EXPECT_EQ(lines(dra::validate::validate_resource_claim(reserved_claim(257))),
            std::vector<std::string>{"status.reservedFor: Too many: 257: must have at most 256 items"});
  EXPECT_EQ(lines(dra::validate::validate_resource_claim(reserved_claim(1, false))),
            std::vector<std::string>{"status.reservedFor: Forbidden: may not be specified when `allocated` is not set"});
  auto c = reserved_claim(2);
  c.reserved_for[1].uid = c.reserved_for[0].uid;
  EXPECT_EQ(lines(dra::validate::validate_resource_claim(c)),
            std::vector<std::string>{"status.reservedFor[1]: Duplicate value: \"0\""});
  c = reserved_claim(1);
  c.reserved_for[0] = {};
  EXPECT_EQ(lines(dra::validate::validate_resource_claim(c)),
            (std::vector<std::string>{"status.reservedFor[0].resource: Required value",
                                      "status.reservedFor[0].name: Required value",
                                      "status.reservedFor[0].uid: Required value"}));
}

TEST(UpstreamClaim, ReservedForAndAnnotationsFromJson) {
  std::string c = with_metadata(claim_allocated_as(R"({"devices":{"results":[]}})"), R"("annotations":{"!@#$%^":"x"})");
  c.insert(c.rfind('}', c.size() - 2),
           R"(,"reservedFor":[{"resource":"pods","name":"a","uid":"1"},{"resource":"pods","name":"b","uid":"1"},{"name":"c"}])");
  EXPECT_EQ(lines(errors_of(c)),
            (std::vector<std::string>{"metadata.annotations: Invalid value: \"!@#$%^\": " + std::string(name_part_rule),
                                      "status.reservedFor[1]: Duplicate value: \"1\"",
                                      "status.reservedFor[2].resource: Required value",
                                      "status.reservedFor[2].uid: Required value"}));
}

// A claim allocated foo/foo/foo with these status.devices.
std::string claim_with_device_status(const std::string& devices) {
  std::string c =
      claim_allocated_as(R"({"devices":{"results":[{"request":"foo","driver":"foo","pool":"foo","device":"foo"}]}})");
  c.insert(c.rfind('}', c.size() - 2), R"(,"devices":)" + devices);
  return c;
}

TEST(UpstreamClaim, DeviceStatus) {
  // valid-network-device-status
  std::string conditions = "[";
  for (int i = 0; i < 9; ++i)
    conditions += std::string(i ? "," : "") + R"({"type":"test-)" + std::to_string(i) +
                  R"(","status":"True","reason":"test_reason","lastTransitionTime":"2026-01-01T00:00:00Z"})";
  std::string eight = conditions.substr(0, conditions.rfind(",{")) + "]";
  conditions += "]";
  EXPECT_VALID(claim_with_device_status(
      R"([{"driver":"foo","pool":"foo","device":"foo","conditions":)" + eight +
      R"(,"data":{"kind":"foo","apiVersion":"dra.example.com/v1"},"networkData":{"interfaceName":")" +
      std::string(256, 'x') + R"(","hardwareAddress":")" + std::string(128, 'x') +
      R"(","ips":["10.9.8.0/24","2001:db8::/64","10.9.8.1/24","2001:db8::1/64"]}}])"));
  const std::string at = "status.devices[0]";
  // invalid-device-status-duplicate
  EXPECT_EQ(lines(errors_of(claim_with_device_status(
                R"([{"driver":"foo","pool":"foo","device":"foo","networkData":{"ips":["2001:db8::1/64","2001:db8::1/64"]}},)"
                R"({"driver":"foo","pool":"foo","device":"foo"}])"))),
            (std::vector<std::string>{at + ".networkData.ips[1]: Duplicate value: \"2001:db8::1/64\"",
                                      "status.devices[1]: Duplicate value: foo/foo/foo"}));
  // invalid-network-device-status (leading zeros are not an address to Go's netip, which dra follows)
  EXPECT_EQ(lines(errors_of(claim_with_device_status(
                R"([{"driver":"foo","pool":"foo","device":"foo","networkData":{"interfaceName":")" + std::string(257, 'x') +
                R"(","hardwareAddress":")" + std::string(129, 'x') +
                R"(","ips":["300.9.8.0/24","2001:0db8::1/64"]}}])"))),
            (std::vector<std::string>{
                at + ".networkData.interfaceName: Too long: may not be more than 256 bytes",
                at + ".networkData.hardwareAddress: Too long: may not be more than 128 bytes",
                at + ".networkData.ips[0]: Invalid value: \"300.9.8.0/24\": must be a valid CIDR value, (e.g. "
                     "10.9.8.0/24 or 2001:db8::/64)",
                at + ".networkData.ips[1]: Invalid value: \"2001:0db8::1/64\": must be in canonical form "
                     "(2001:db8::1/64)"}));
  // invalid-data-device-status and invalid-data-device-status-limits
  EXPECT_EQ(lines(errors_of(claim_with_device_status(
                R"([{"driver":"foo","pool":"foo","device":"foo","data":"foo"}])"))),
            std::vector<std::string>{at + ".data: Invalid value: <value omitted>: must be a valid JSON object"});
  std::string ips = "[";
  for (int i = 0; i < 17; ++i) ips += std::string(i ? "," : "") + "\"10.9.8." + std::to_string(i) + "/24\"";
  ips += "]";
  EXPECT_EQ(lines(errors_of(claim_with_device_status(
                R"([{"driver":"foo","pool":"foo","device":"foo","conditions":)" + conditions + R"(,"data":{"str": ")" +
                std::string(10 * 1024 - 9 - 2 + 1, 'x') + R"("},"networkData":{"ips":)" + ips + "}}]"))),
            (std::vector<std::string>{at + ".conditions: Too many: 9: must have at most 8 items",
                                      at + ".data: Too long: may not be more than 10240 bytes",
                                      at + ".networkData.ips: Too many: 17: must have at most 16 items"}));
  // invalid-device-status-no-device
  EXPECT_EQ(lines(errors_of(claim_with_device_status(R"([{"driver":"b","pool":"a","device":"r"}])"))),
            std::vector<std::string>{at + ": Invalid value: b/a/r: must be an allocated device in the claim"});
}

// ---- DeviceClass (validation_deviceclass_test.go)

TEST(UpstreamClass, MissingSubObjectsAndEnums) {
  EXPECT_EQ(lines(errors_of(device_class(R"("selectors":[{"cel":{"expression":"true"}},{"cel":null}],)"
                                         R"("config":[{"opaque":{"driver":"dra.example.com","parameters":{}}},{}])"))),
            (std::vector<std::string>{"spec.selectors[1].cel: Required value", "spec.config[1].opaque: Required value"}));
}

}  // namespace
