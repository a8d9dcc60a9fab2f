// ResourceClaim and DeviceClass validation: requests, allocation modes, firstAvailable, constraints, configuration, selectors.
#include "support.hpp"

#include <dra/validate/device_class.hpp>
#include <dra/validate/resource_claim.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace validate_test;

std::string requests(const std::string& list) { return R"("requests":[)" + list + "]"; }

TEST(ValidateClaim, ValidClaimHasNoErrors) {
  EXPECT_VALID(claim(requests(exact_request("gpu", R"("count":2)") + "," +
                              R"({"name":"nic","firstAvailable":[{"name":"fast","deviceClassName":"nic.example.com"},)"
                              R"({"name":"slow","deviceClassName":"nic.example.com","allocationMode":"All"}]})") +
                     R"(,"constraints":[{"requests":["gpu","nic/fast"],"matchAttribute":"example.com/numa"}])"
                     R"(,"config":[{"requests":["gpu"],"opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}])"));
}

TEST(ValidateClaim, ObjectLabelHasNamespace) {
  const auto errors = errors_of(claim(requests(exact_request("Bad"))));
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceClaim/default/claim-1");
  EXPECT_EQ(errors[0].path, "spec.devices.requests[0].name");
}

TEST(ValidateClaim, ClaimNameAndNamespace) {
  EXPECT_PROBLEM(claim(requests(exact_request("r")), "Claim_1"), "metadata.name", "RFC 1123 subdomain");
  std::string bad_namespace = claim(requests(exact_request("r")));
  bad_namespace.replace(bad_namespace.find("\"default\""), 9, "\"a.b\"");
  EXPECT_PROBLEM(bad_namespace, "metadata.namespace", "must not contain dots");
}

TEST(ValidateClaim, RequestNamesAreUniqueLabels) {
  EXPECT_PROBLEM(claim(requests(exact_request("r") + "," + exact_request("r"))), "spec.devices.requests[1]",
                 "Duplicate value: \"r\"");
  EXPECT_PROBLEM(claim(requests(exact_request("gpu.0"))), "spec.devices.requests[0].name", "must not contain dots");
  EXPECT_PROBLEM(claim(requests(exact_request(""))), "spec.devices.requests[0].name", "Required value");
}

TEST(ValidateClaim, AtMost32Requests) {
  auto many = [](int n) { return list_of(n, [](int i) { return exact_request("r" + std::to_string(i)); }); };
  EXPECT_VALID(claim(R"("requests":)" + many(32)));
  EXPECT_PROBLEM(claim(R"("requests":)" + many(33)), "spec.devices.requests", "Too many: 33: must have at most 32 items");
}

TEST(ValidateClaim, ExactlyXorFirstAvailable) {
  EXPECT_PROBLEM(claim(requests(R"({"name":"r"})")), "spec.devices.requests[0]",
                 "Required value: exactly one of `exactly` or `firstAvailable` is required");
  EXPECT_PROBLEM(claim(requests(R"({"name":"r","exactly":{"deviceClassName":"c"},"firstAvailable":[{"name":"a","deviceClassName":"c"}]})")),
                 "spec.devices.requests[0]", "but multiple fields are set");
}

TEST(ValidateClaim, DeviceClassName) {
  EXPECT_PROBLEM(claim(requests(R"({"name":"r","exactly":{}})")), "spec.devices.requests[0].exactly.deviceClassName",
                 "Required value");
  EXPECT_PROBLEM(claim(requests(R"({"name":"r","exactly":{"deviceClassName":"GPU"}})")),
                 "spec.devices.requests[0].exactly.deviceClassName", "RFC 1123 subdomain");
}

TEST(ValidateClaim, CountOnlyWithExactCountAndPositive) {
  EXPECT_VALID(claim(requests(exact_request("r", R"("allocationMode":"ExactCount","count":1)"))));
  EXPECT_VALID(claim(requests(exact_request("r", R"("allocationMode":"All")"))));
  EXPECT_PROBLEM(claim(requests(exact_request("r", R"("count":0)"))), "spec.devices.requests[0].exactly.count",
                 "Invalid value: 0: must be greater than zero");
  EXPECT_PROBLEM(claim(requests(exact_request("r", R"("count":-1)"))), "spec.devices.requests[0].exactly.count",
                 "must be greater than zero");
  EXPECT_PROBLEM(claim(requests(exact_request("r", R"("allocationMode":"All","count":2)"))),
                 "spec.devices.requests[0].exactly.count", "Invalid value: 2: must not be specified when allocationMode is 'All'");
  EXPECT_PROBLEM(claim(requests(exact_request("r", R"("allocationMode":"Some")"))),
                 "spec.devices.requests[0].exactly.allocationMode",
                 "Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\"");
}

TEST(ValidateClaim, AtMost8Subrequests) {
  auto with = [](int n) {
    return claim(requests(R"({"name":"r","firstAvailable":)" +
                          list_of(n, [](int i) { return R"({"name":"s)" + std::to_string(i) + R"(","deviceClassName":"c"})"; }) + "}"));
  };
  EXPECT_VALID(with(8));
  EXPECT_PROBLEM(with(9), "spec.devices.requests[0].firstAvailable", "Too many: 9: must have at most 8 items");
}

TEST(ValidateClaim, SubrequestsAreValidatedLikeRequests) {
  const std::string at = "spec.devices.requests[0].firstAvailable[1]";
  EXPECT_PROBLEM(claim(requests(R"({"name":"r","firstAvailable":[{"name":"a","deviceClassName":"c"},{"name":"a","deviceClassName":"c"}]})")),
                 at, "Duplicate value: \"a\"");
  EXPECT_PROBLEM(claim(requests(R"({"name":"r","firstAvailable":[{"name":"a","deviceClassName":"c"},{"name":"B","deviceClassName":"c"}]})")),
                 at + ".name", "RFC 1123 label");
  EXPECT_PROBLEM(claim(requests(R"({"name":"r","firstAvailable":[{"name":"a","deviceClassName":"c"},{"name":"b","deviceClassName":"c","count":0}]})")),
                 at + ".count", "must be greater than zero");
}

TEST(ValidateClaim, SelectorExpressionAtMost10KiB) {
  auto with = [](std::size_t n) {
    // "true" padded with spaces up to n bytes.
    return claim(requests(exact_request("r", R"("selectors":[{"cel":{"expression":"true)" + std::string(n - 4, ' ') + "\"}}]")));
  };
  EXPECT_VALID(with(10 * 1024));
  EXPECT_PROBLEM(with(10 * 1024 + 1), "spec.devices.requests[0].exactly.selectors[0].cel.expression",
                 "Too long: may not be more than 10240 bytes");
  EXPECT_PROBLEM(claim(requests(exact_request("r", R"("selectors":[{"cel":{"expression":""}}])"))),
                 "spec.devices.requests[0].exactly.selectors[0].cel.expression", "Required value");
}

TEST(ValidateClaim, AtMost32Selectors) {
  auto with = [](int n) {
    return claim(requests(exact_request("r", R"("selectors":)" + list_of(n, [](int) { return std::string(R"({"cel":{"expression":"true"}})"); }))));
  };
  EXPECT_VALID(with(32));
  EXPECT_PROBLEM(with(33), "spec.devices.requests[0].exactly.selectors", "Too many: 33: must have at most 32 items");
}

TEST(ValidateClaim, Tolerations) {
  auto with = [](const std::string& t) { return claim(requests(exact_request("r", R"("tolerations":[)" + t + "]"))); };
  const std::string at = "spec.devices.requests[0].exactly.tolerations[0]";
  EXPECT_VALID(with(R"({"key":"example.com/maintenance","operator":"Exists","effect":"NoSchedule"})"));
  EXPECT_PROBLEM(with(R"({"key":"k","operator":"Exists","value":"v"})"), at + ".value", "must be empty for operator `Exists`");
  EXPECT_PROBLEM(with(R"({"key":"k","operator":"Equal","value":"not valid"})"), at + ".value", "a valid label");
  EXPECT_PROBLEM(with(R"({"key":"k","effect":"PreferNoSchedule"})"), at + ".effect", "Unsupported value");
  EXPECT_PROBLEM(with(R"({"key":"bad key"})"), at + ".key", "Invalid value: \"bad key\"");
}

TEST(ValidateClaim, ConstraintsReferToRequestsAndSubrequests) {
  const std::string base = requests(exact_request("gpu") + R"(,{"name":"nic","firstAvailable":[{"name":"fast","deviceClassName":"c"}]})");
  auto with = [&](const std::string& refs) {
    return claim(base + R"(,"constraints":[{"requests":)" + refs + R"(,"matchAttribute":"example.com/numa"}])");
  };
  EXPECT_VALID(with(R"(["gpu","nic","nic/fast"])"));
  const std::string rule = "must be the name of a request in the claim or the name of a request and a subrequest";
  EXPECT_PROBLEM(with(R"(["tpu"])"), "spec.devices.constraints[0].requests[0]", rule);
  EXPECT_PROBLEM(with(R"(["nic/slow"])"), "spec.devices.constraints[0].requests[0]", rule);
  EXPECT_PROBLEM(with(R"(["gpu/fast"])"), "spec.devices.constraints[0].requests[0]", rule);
  EXPECT_PROBLEM(with(R"(["a/b/c"])"), "spec.devices.constraints[0].requests[0]", rule);
  EXPECT_PROBLEM(with(R"(["gpu","gpu"])"), "spec.devices.constraints[0].requests[1]", "Duplicate value: \"gpu\"");
}

TEST(ValidateClaim, ConstraintAttributes) {
  auto with = [](const std::string& constraint) {
    return claim(requests(exact_request("r")) + R"(,"constraints":[)" + constraint + "]");
  };
  EXPECT_VALID(with(R"({"distinctAttribute":"example.com/uuid"})"));
  EXPECT_PROBLEM(with(R"({"matchAttribute":"numa"})"), "spec.devices.constraints[0].matchAttribute", "must include a domain");
  EXPECT_PROBLEM(with(R"({"requests":["r"]})"), "spec.devices.constraints[0]",
                 "Required value: exactly one of `matchAttribute` or `distinctAttribute` is required");
  EXPECT_PROBLEM(with(R"({"matchAttribute":"example.com/a","distinctAttribute":"example.com/b"})"),
                 "spec.devices.constraints[0]", "but multiple fields are set");
}

TEST(ValidateClaim, AtMost32Constraints) {
  auto with = [](int n) {
    return claim(requests(exact_request("r")) + R"(,"constraints":)" +
                 list_of(n, [](int) { return std::string(R"({"matchAttribute":"example.com/numa"})"); }));
  };
  EXPECT_VALID(with(32));
  EXPECT_PROBLEM(with(33), "spec.devices.constraints", "Too many: 33: must have at most 32 items");
}

TEST(ValidateClaim, Configuration) {
  auto with = [](const std::string& config) { return claim(requests(exact_request("r")) + R"(,"config":[)" + config + "]"); };
  EXPECT_PROBLEM(with(R"({"opaque":{"parameters":{}}})"), "spec.devices.config[0].opaque.driver", "Required value");
  EXPECT_PROBLEM(with(R"({"opaque":{"driver":"d.example.com"}})"), "spec.devices.config[0].opaque.parameters", "Required value");
  EXPECT_PROBLEM(with(R"({"opaque":{"driver":"d.example.com","parameters":[1]}})"), "spec.devices.config[0].opaque.parameters",
                 "must be a valid JSON object");
  EXPECT_PROBLEM(with(R"({"requests":["x"],"opaque":{"driver":"d.example.com","parameters":{}}})"),
                 "spec.devices.config[0].requests[0]", "must be the name of a request");
  const std::string big = R"({"opaque":{"driver":"d.example.com","parameters":{"k":")";
  EXPECT_VALID(with(big + std::string(10 * 1024 - 8, 'x') + "\"}}}"));  // {"k":"…"} is exactly 10240 bytes
  EXPECT_PROBLEM(with(big + std::string(10 * 1024 - 7, 'x') + "\"}}}"), "spec.devices.config[0].opaque.parameters",
                 "Too long: may not be more than 10240 bytes");
}

TEST(ValidateClaim, AllocationResult) {
  const std::string status =
      R"(,"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"gpu.example.com","pool":"p","device":"gpu-0"}]}}})";
  std::string c = claim(requests(exact_request("r")));
  EXPECT_VALID(c.substr(0, c.size() - 1) + status + "}");
  std::string bad = status;
  bad.replace(bad.find("\"request\":\"r\""), 13, "\"request\":\"q\"");
  EXPECT_PROBLEM(c.substr(0, c.size() - 1) + bad + "}", "status.allocation.devices.results[0].request",
                 "must be the name of a request");
}

// ---- DeviceClass

TEST(ValidateClass, ValidClass) {
  EXPECT_VALID(device_class(R"("selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}],)"
                            R"("config":[{"opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}],)"
                            R"("extendedResourceName":"example.com/gpu")"));
}

TEST(ValidateClass, Name) {
  EXPECT_PROBLEM(device_class("", "GPU"), "metadata.name", "RFC 1123 subdomain");
  EXPECT_EQ(errors_of(device_class("", "GPU"))[0].object, "DeviceClass/GPU");
}

TEST(ValidateClass, Selectors) {
  auto with = [](int n) {
    return device_class(R"("selectors":)" + list_of(n, [](int) { return std::string(R"({"cel":{"expression":"true"}})"); }));
  };
  EXPECT_VALID(with(32));
  EXPECT_PROBLEM(with(33), "spec.selectors", "Too many: 33: must have at most 32 items");
  EXPECT_PROBLEM(device_class(R"("selectors":[{"cel":{"expression":")" + std::string(10 * 1024 + 1, 'x') + "\"}}]"),
                 "spec.selectors[0].cel.expression", "Too long");
}

TEST(ValidateClass, Configuration) {
  auto with = [](int n) {
    return device_class(R"("config":)" + list_of(n, [](int) {
                          return std::string(R"({"opaque":{"driver":"gpu.example.com","parameters":{}}})");
                        }));
  };
  EXPECT_VALID(with(32));
  EXPECT_PROBLEM(with(33), "spec.config", "Too many: 33: must have at most 32 items");
  EXPECT_PROBLEM(device_class(R"("config":[{"opaque":{"driver":"Bad_Driver","parameters":{}}}])"),
                 "spec.config[0].opaque.driver", "RFC 1123 subdomain");
}

TEST(ValidateClass, ExtendedResourceName) {
  EXPECT_PROBLEM(device_class(R"("extendedResourceName":"gpu")"), "spec.extendedResourceName",
                 "Invalid value: \"gpu\": must be a valid extended resource name");
  EXPECT_PROBLEM(device_class(R"("extendedResourceName":"kubernetes.io/gpu")"), "spec.extendedResourceName",
                 "must be a valid extended resource name");
  EXPECT_PROBLEM(device_class(R"("extendedResourceName":"example.com/bad name")"), "spec.extendedResourceName",
                 "must be a valid extended resource name");
  EXPECT_VALID(device_class(R"("extendedResourceName":"example.com/gpu-1")"));
}

TEST(ValidateClass, PerObjectFunctionOnModelBuiltInCpp) {
  dra::model::device_class c;
  c.meta.name = "gpu";
  c.selectors.push_back({""});
  const auto errors = dra::validate::validate_device_class(c);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].to_string(), "DeviceClass/gpu: spec.selectors[0].cel.expression: Required value");
}

}  // namespace

namespace {

using namespace validate_test;

// v1beta1 input is reported with v1 paths, as upstream's normalization prints them.
TEST(ValidateV1beta1, PathsAreV1Paths) {
  const std::string slice_json =
      R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","metadata":{"name":"old"},"spec":{"driver":"gpu.example.com",)"
      R"("pool":{"name":"p","generation":1,"resourceSliceCount":1},"nodeName":"n","devices":[{"name":"d","basic":{"attributes":{"v":{"version":"1"}}}}]}})";
  EXPECT_PROBLEM(slice_json, "spec.devices[0].attributes.v.version", "semver.org");
  const std::string claim_json =
      R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"n"},)"
      R"("spec":{"devices":{"requests":[{"name":"r","deviceClassName":"gpu","count":0}]}}})";
  EXPECT_PROBLEM(claim_json, "spec.devices.requests[0].exactly.count", "must be greater than zero");
}

}  // namespace

namespace {

using namespace validate_test;

TEST(ValidateClaim, RequestNameLength) {
  EXPECT_VALID(claim(requests(exact_request(std::string(63, 'r')))));
  EXPECT_PROBLEM(claim(requests(exact_request(std::string(64, 'r')))), "spec.devices.requests[0].name",
                 "must be no more than 63 characters");
}

TEST(ValidateClaim, PerObjectFunctionOnModelBuiltInCpp) {
  dra::model::resource_claim c;
  c.meta.name = "c";
  c.meta.namespace_ = "ns";
  dra::model::device_request r;
  r.name = "gpu";
  r.exactly.emplace().device_class_name = "gpu.example.com";
  c.spec.requests.push_back(r);
  EXPECT_TRUE(dra::validate::validate_resource_claim(c).empty());
  c.spec.requests[0].exactly->count = 0;
  const auto errors = dra::validate::validate_resource_claim(c);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].to_string(),
            "ResourceClaim/ns/c: spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero");
}

}  // namespace

namespace {

using namespace validate_test;

std::string allocated_claim(const std::string& result_members, const std::string& allocation_members = {}) {
  std::string c = claim(R"("requests":[)" + exact_request("r") + "]");
  c.pop_back();  // reopen the claim object
  return c + R"(,"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"gpu.example.com","pool":"p","device":"gpu-0")" +
         result_members + "}]" + allocation_members + "}}}}";
}

TEST(ValidateAllocation, ShareIdIsANormalizedUid) {
  EXPECT_VALID(allocated_claim(R"(,"shareID":"3f2a8c1e-5b7d-4e9f-a0b1-c2d3e4f5a6b7")"));
  EXPECT_PROBLEM(allocated_claim(R"(,"shareID":"3F2A8C1E-5B7D-4E9F-A0B1-C2D3E4F5A6B7")"),
                 "status.allocation.devices.results[0].shareID", "RFC 4122 normalized form");
  EXPECT_PROBLEM(allocated_claim(R"(,"shareID":"share-1")"), "status.allocation.devices.results[0].shareID", "uid must be");
}

TEST(ValidateAllocation, ResultBindingConditions) {
  EXPECT_VALID(allocated_claim(R"(,"bindingConditions":["ready"],"bindingFailureConditions":["failed"])"));
  EXPECT_PROBLEM(allocated_claim(R"(,"bindingConditions":["ready"])"), "status.allocation.devices.results[0].bindingFailureConditions",
                 "bindingFailureConditions are required to use bindingConditions");
}

TEST(ValidateAllocation, ResultNamesAndConfig) {
  EXPECT_PROBLEM(allocated_claim(R"(,"tolerations":[{"key":"k","operator":"Exists","value":"v"}])"),
                 "status.allocation.devices.results[0].tolerations[0].value", "must be empty for operator `Exists`");
  EXPECT_VALID(allocated_claim("", R"(,"config":[{"source":"FromClass","requests":["r"],"opaque":{"driver":"gpu.example.com","parameters":{}}}])"));
  EXPECT_PROBLEM(allocated_claim("", R"(,"config":[{"source":"FromClaim","requests":["x"],"opaque":{"driver":"gpu.example.com","parameters":{}}}])"),
                 "status.allocation.devices.config[0].requests[0]", "must be the name of a request");
  std::string bad_device = allocated_claim("");
  bad_device.replace(bad_device.find("\"gpu-0\""), 7, "\"GPU_0\"");
  EXPECT_PROBLEM(bad_device, "status.allocation.devices.results[0].device", "RFC 1123 label");
}

}  // namespace

namespace {

TEST(ValidateSelectors, CelExpressionsMustCompileInTheDraEnvironment) {
  using namespace validate_test;
  const std::string bad_claim = claim(
      R"("requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","selectors":[)"
      R"({"cel":{"expression":"device.driver == \"x\""}},{"cel":{"expression":"device.driver == 1"}}]}},)"
      R"({"name":"nic","firstAvailable":[{"name":"a","deviceClassName":"nic.example.com","selectors":[)"
      R"({"cel":{"expression":"device.nosuch"}}]}]}])");
  const auto errors = errors_of(bad_claim, /*pools=*/true);
  EXPECT_TRUE(has_error(errors, "spec.devices.requests[0].exactly.selectors[1].cel.expression",
                        "found no matching overload for '_==_' applied to '(string, int)'"))
      << dump(errors);
  EXPECT_TRUE(has_error(errors, "spec.devices.requests[1].firstAvailable[0].selectors[0].cel.expression",
                        "undefined field 'nosuch'"))
      << dump(errors);
  EXPECT_FALSE(has_error(errors, "spec.devices.requests[0].exactly.selectors[0].cel.expression", "")) << dump(errors);
  EXPECT_EQ(errors.size(), 2u) << dump(errors);
}

TEST(ValidateSelectors, ClassSelectorsToo) {
  using namespace validate_test;
  const std::string klass = R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"c"},)"
                            R"("spec":{"selectors":[{"cel":{"expression":"device.attributes[\"a\"].b &&"}}]}})";
  const auto errors = errors_of(klass, /*pools=*/true);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "DeviceClass/c");
  EXPECT_EQ(errors[0].path, "spec.selectors[0].cel.expression");
  EXPECT_NE(errors[0].message.find("Syntax error"), std::string::npos) << errors[0].message;
}

}  // namespace

// KEP-6080 derived attributes, as upstream's claim validation checks them.
namespace derived_test {

using namespace validate_test;

std::string derived(const std::string& list) { return R"("derivedAttributes":[)" + list + "]"; }
std::string attr(std::string_view name, std::string_view expression = "1") {
  return std::string(R"({"name":")") + std::string(name) + R"(","expression":")" + std::string(expression) + "\"}";
}

TEST(ValidateClaim, DerivedAttributesNamesAndExpressions) {
  EXPECT_VALID(claim(requests(exact_request("gpu", derived(attr("numa") + "," + attr("example.com/socket"))))));
  const std::string at = "spec.devices.requests[0].exactly.derivedAttributes";
  EXPECT_PROBLEM(claim(requests(exact_request("gpu", derived(attr(""))))), at + "[0].name", "Required value");
  EXPECT_PROBLEM(claim(requests(exact_request("gpu", derived(attr("bad-name"))))), at + "[0].name",
                 "a valid C identifier");
  EXPECT_PROBLEM(claim(requests(exact_request("gpu", derived(attr("a/b/c"))))), at + "[0].name",
                 "must be either a C identifier or a domain followed by a slash and a C identifier");
  EXPECT_PROBLEM(claim(requests(exact_request("gpu", derived(attr("numa") + "," + attr("numa", "2"))))),
                 at + "[1].name", "Duplicate value: \"numa\"");
  EXPECT_PROBLEM(claim(requests(exact_request("gpu", derived(attr("numa", ""))))), at + "[0].expression",
                 "Required value");
  EXPECT_PROBLEM(claim(requests(exact_request("gpu", derived(attr("numa", std::string(10 * 1024 + 1, 'x')))))),
                 at + "[0].expression", "Too long");
  // Subrequests have them too.
  EXPECT_PROBLEM(claim(requests(R"({"name":"nic","firstAvailable":[{"name":"a","deviceClassName":"nic",)" +
                                derived(attr("")) + "}]}")),
                 "spec.devices.requests[0].firstAvailable[0].derivedAttributes[0].name", "Required value");
}

TEST(ValidateClaim, ConstraintsNameDerivedAttributesWithoutADomain) {
  const std::string gpu = exact_request("gpu", derived(attr("numa")));
  const std::string nic = exact_request("nic", derived(attr("numa")));
  const std::string plain = exact_request("plain");
  auto constraint = [](std::string_view requests_json, std::string_view field) {
    std::string c = R"(,"constraints":[{)";
    if (!requests_json.empty()) c += R"("requests":)" + std::string(requests_json) + ",";
    return c + "\"" + std::string(field) + R"(":"numa"}])";
  };
  for (std::string_view field : {"matchAttribute", "distinctAttribute"}) {
    // Every request (none named: all of them) defines `numa`.
    EXPECT_VALID(claim(requests(gpu + "," + nic) + constraint("", field)));
    EXPECT_VALID(claim(requests(gpu + "," + plain) + constraint(R"(["gpu"])", field)));
    const std::string path = "spec.devices.constraints[0]." + std::string(field);
    // One bound request does not.
    EXPECT_PROBLEM(claim(requests(gpu + "," + plain) + constraint("", field)), path, "must include a domain");
    EXPECT_PROBLEM(claim(requests(gpu + "," + plain) + constraint(R"(["gpu","plain"])", field)), path,
                   "must include a domain");
    // A request named without a subrequest binds all of its subrequests.
    const std::string subs = R"({"name":"nic","firstAvailable":[{"name":"a","deviceClassName":"nic",)" +
                             derived(attr("numa")) + R"(},{"name":"b","deviceClassName":"nic"}]})";
    EXPECT_PROBLEM(claim(requests(subs) + constraint(R"(["nic"])", field)), path, "must include a domain");
    EXPECT_VALID(claim(requests(subs) + constraint(R"(["nic/a"])", field)));
  }
  // A domain still makes any attribute name valid.
  EXPECT_VALID(claim(requests(plain) + R"(,"constraints":[{"matchAttribute":"example.com/numa"}])"));
}

TEST(ValidateClaim, DerivedExpressionsMustCompile) {
  auto with = [](std::string_view expression) {
    return claim(requests(exact_request("gpu", derived(attr("numa", expression)))));
  };
  EXPECT_TRUE(errors_of(with("device.attributes['gpu.example.com'].numa"), true).empty());
  const auto bad_type = errors_of(with("1.5"), true);
  EXPECT_TRUE(has_error(bad_type, "spec.devices.requests[0].exactly.derivedAttributes[0].expression",
                        "must evaluate to a string, int, bool or semver"))
      << dump(bad_type);
  const auto syntax = errors_of(with("device.attributes["), true);
  EXPECT_TRUE(has_error(syntax, "spec.devices.requests[0].exactly.derivedAttributes[0].expression", "Syntax error"))
      << dump(syntax);
}

}  // namespace derived_test
