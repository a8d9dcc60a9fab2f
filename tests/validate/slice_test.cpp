// ResourceSlice validation: one test per rule, both sides, limits at the boundary and one past it.
#include "support.hpp"

#include <dra/validate/resource_slice.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace validate_test;

const std::string gpu = device("gpu-0", R"("attributes":{"model":{"string":"A100"}})");

TEST(ValidateSlice, ValidSliceHasNoErrors) { EXPECT_VALID(slice_with_devices(gpu)); }

TEST(ValidateSlice, ErrorsNameObjectAndJsonPath) {
  const auto errors = errors_of(slice_with_devices(
      device("a") + "," + device("b") + "," + device("c", R"("attributes":{"model":{"string":")" + std::string(65, 'x') + "\"}}")));
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceSlice/slice-1");
  EXPECT_EQ(errors[0].path, "spec.devices[2].attributes.model.string");
  EXPECT_EQ(errors[0].message, "Too long: may not be more than 64 bytes");
  EXPECT_EQ(errors[0].to_string(),
            "ResourceSlice/slice-1: spec.devices[2].attributes.model.string: Too long: may not be more than 64 bytes");
}

TEST(ValidateSlice, ReportsEveryProblemNotJustTheFirst) {
  const auto errors = errors_of(slice(R"("driver":"Bad_Driver!","devices":[{"name":"A"},{"name":"b_"}])", "Bad"));
  EXPECT_TRUE(has_error(errors, "metadata.name", "RFC 1123 subdomain")) << dump(errors);
  EXPECT_TRUE(has_error(errors, "spec.devices[0].name", "RFC 1123 label")) << dump(errors);
  EXPECT_TRUE(has_error(errors, "spec.devices[1].name", "RFC 1123 label")) << dump(errors);
}

TEST(ValidateSlice, ObjectName) {
  EXPECT_VALID(slice("", "gpu-node-1.example"));
  EXPECT_PROBLEM(slice("", "Node_1"), "metadata.name", "Invalid value: \"Node_1\"");
  EXPECT_PROBLEM(slice("", ""), "metadata.name", "Required value");
}

TEST(ValidateSlice, DriverName) {
  EXPECT_PROBLEM(slice(R"("driver":"")"), "spec.driver", "Required value");
  EXPECT_PROBLEM(slice(R"("driver":"gpu_example")"), "spec.driver", "RFC 1123 subdomain");
  EXPECT_PROBLEM(slice(R"("driver":")" + std::string(64, 'a') + "\""), "spec.driver", "must be no more than 63 characters");
  EXPECT_VALID(slice(R"("driver":")" + std::string(63, 'a') + "\""));
}

TEST(ValidateSlice, Pool) {
  auto with_pool = [](const std::string& pool) {
    std::string s = slice("");
    const auto at = s.find(R"("pool":{"name":"p","generation":1,"resourceSliceCount":1})");
    return s.replace(at, std::string(R"("pool":{"name":"p","generation":1,"resourceSliceCount":1})").size(), pool);
  };
  EXPECT_VALID(with_pool(R"("pool":{"name":"a.b/c-d","generation":0,"resourceSliceCount":3})"));
  EXPECT_PROBLEM(with_pool(R"("pool":{"name":"","resourceSliceCount":1})"), "spec.pool.name", "Required value");
  EXPECT_PROBLEM(with_pool(R"("pool":{"name":"a//b","resourceSliceCount":1})"), "spec.pool.name", "RFC 1123 subdomain");
  EXPECT_PROBLEM(with_pool(R"("pool":{"name":")" + std::string(254, 'a') + R"(","resourceSliceCount":1})"),
                 "spec.pool.name", "Too long: may not be more than 253 bytes");
  EXPECT_PROBLEM(with_pool(R"("pool":{"name":"p","resourceSliceCount":0})"), "spec.pool.resourceSliceCount",
                 "Invalid value: 0: must be greater than zero");
  EXPECT_PROBLEM(with_pool(R"("pool":{"name":"p","generation":-1,"resourceSliceCount":1})"), "spec.pool.generation",
                 "must be greater than or equal to zero");
}

TEST(ValidateSlice, ExactlyOneNodeSelection) {
  EXPECT_VALID(slice(R"("allNodes":true)"));
  EXPECT_VALID(slice(R"("nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]})"));
  EXPECT_VALID(slice(R"("perDeviceNodeSelection":true,"devices":[{"name":"d","allNodes":true}])"));
  EXPECT_PROBLEM(slice(R"("allNodes":false)"), "spec", "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
  EXPECT_PROBLEM(slice(R"("allNodes":false)"), "spec.allNodes", "must be either unset or set to true");
  EXPECT_PROBLEM(slice(R"("nodeName":"node-1","allNodes":true)"), "spec",
                 "Invalid value: {`nodeName`, `allNodes`}: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                 "`perDeviceNodeSelection` is required, but multiple fields are set");
  EXPECT_PROBLEM(slice(R"("nodeName":"")"), "spec.nodeName", "must be either unset or set to a non-empty string");
  EXPECT_PROBLEM(slice(R"("nodeName":"Node_1")"), "spec.nodeName", "RFC 1123 subdomain");
  EXPECT_PROBLEM(slice(R"("perDeviceNodeSelection":false,"nodeName":"n")"), "spec.perDeviceNodeSelection",
                 "must be either unset or set to true");
}

TEST(ValidateSlice, NodeSelectorHasExactlyOneTerm) {
  const std::string term = R"({"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]})";
  EXPECT_PROBLEM(slice(R"("nodeSelector":{"nodeSelectorTerms":[)" + term + "," + term + "]}"),
                 "spec.nodeSelector.nodeSelectorTerms", "must have exactly one node selector term");
  EXPECT_PROBLEM(slice(R"("nodeSelector":{"nodeSelectorTerms":[]})"), "spec.nodeSelector.nodeSelectorTerms",
                 "must have at least one node selector term");
}

TEST(ValidateSlice, NodeSelectorRequirements) {
  auto with = [](const std::string& requirement) {
    return slice(R"("nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[)" + requirement + "]}]}");
  };
  const std::string at = "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0]";
  EXPECT_VALID(with(R"({"key":"cores","operator":"Gt","values":["8"]})"));
  EXPECT_PROBLEM(with(R"({"key":"zone","operator":"In"})"), at + ".values", "must be specified when `operator` is 'In' or 'NotIn'");
  EXPECT_PROBLEM(with(R"({"key":"zone","operator":"Exists","values":["a"]})"), at + ".values", "may not be specified");
  EXPECT_PROBLEM(with(R"({"key":"cores","operator":"Lt","values":["1","2"]})"), at + ".values", "single value");
  EXPECT_PROBLEM(with(R"({"key":"cores","operator":"Gt","values":["eight"]})"), at + ".values[0]", "must be an integer");
  EXPECT_PROBLEM(with(R"({"key":"bad key","operator":"Exists"})"), at + ".key", "Invalid value: \"bad key\"");
  EXPECT_PROBLEM(
      slice(R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.uid","operator":"In","values":["x"]}]}]})"),
      "spec.nodeSelector.nodeSelectorTerms[0].matchFields[0].key", "supported values: \"metadata.name\"");
}

TEST(ValidateSlice, PerDeviceNodeSelection) {
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("nodeName":"node-1")")), "spec.devices[0]",
                 "can only be set if `perDeviceNodeSelection` is set to true");
  const std::string per_device = R"("perDeviceNodeSelection":true,"devices":[)";
  EXPECT_VALID(slice(per_device + device("d", R"("nodeName":"node-1")") + "]"));
  EXPECT_PROBLEM(slice(per_device + device("d") + "]"), "spec.devices[0]",
                 "Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required");
  EXPECT_PROBLEM(slice(per_device + device("d", R"("nodeName":"n","allNodes":true)") + "]"), "spec.devices[0]",
                 "Invalid value: {`nodeName`, `allNodes`}");
  EXPECT_PROBLEM(slice(per_device + device("d", R"("nodeName":"")") + "]"), "spec.devices[0].nodeName", "must not be empty");
  EXPECT_PROBLEM(slice(per_device + device("d", R"("allNodes":false)") + "]"), "spec.devices[0].allNodes",
                 "must be either unset or set to true");
  const std::string term = R"({"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]})";
  EXPECT_PROBLEM(slice(per_device + device("d", R"("nodeSelector":{"nodeSelectorTerms":[)" + term + "," + term + "]}") + "]"),
                 "spec.devices[0].nodeSelector.nodeSelectorTerms", "must have exactly one node selector term");
}

TEST(ValidateSlice, DevicesXorSharedCounters) {
  EXPECT_VALID(slice(R"("sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"40Gi"}}}])"));
  EXPECT_PROBLEM(slice(R"("devices":[{"name":"d"}],"sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"1"}}}])"),
                 "spec", "only one of `sharedCounters` or `devices` is allowed");
}

TEST(ValidateSlice, DeviceNamesAreUniqueLabels) {
  EXPECT_PROBLEM(slice_with_devices(device("d") + "," + device("d")), "spec.devices[1]", "Duplicate value: \"d\"");
  EXPECT_PROBLEM(slice_with_devices(device("gpu.0")), "spec.devices[0].name", "must not contain dots");
  EXPECT_PROBLEM(slice_with_devices(device("")), "spec.devices[0].name", "Required value");
}

TEST(ValidateSlice, AtMost128Devices) {
  EXPECT_VALID(slice_with_devices(devices(128)));
  EXPECT_PROBLEM(slice_with_devices(devices(129)), "spec.devices", "Too many: 129: must have at most 128 items");
}

TEST(ValidateSlice, AtMost64DevicesWithTaints) {
  const std::string taint = R"("taints":[{"key":"k","effect":"NoSchedule"}])";
  EXPECT_VALID(slice_with_devices(devices(63) + "," + device("tainted", taint)));
  EXPECT_PROBLEM(slice_with_devices(devices(64) + "," + device("tainted", taint)), "spec.devices",
                 "Too many: 65: must have at most 64 items");
}

TEST(ValidateSlice, AtMost64DevicesWithCounterConsumption) {
  const std::string consumes = R"("consumesCounters":[{"counterSet":"gpu-0","counters":{"memory":{"value":"1Gi"}}}])";
  EXPECT_VALID(slice_with_devices(devices(64, consumes)));
  EXPECT_PROBLEM(slice_with_devices(devices(65, consumes)), "spec.devices", "Too many: 65: must have at most 64 items");
}

TEST(ValidateSlice, AtMost64DevicesWithListAttributes) {
  const std::string lists = R"("attributes":{"lanes":{"ints":[1,2]}})";
  EXPECT_VALID(slice_with_devices(devices(64, lists)));
  EXPECT_PROBLEM(slice_with_devices(devices(65, lists)), "spec.devices", "Too many: 65: must have at most 64 items");
}

TEST(ValidateSlice, AtMost32AttributesAndCapacitiesPerDevice) {
  const std::string attrs20 = R"("attributes":)" + map_of(20, "a", R"({"int":1})");
  EXPECT_VALID(slice_with_devices(device("d", attrs20 + R"(,"capacity":)" + map_of(12, "c", R"({"value":"1"})"))));
  EXPECT_PROBLEM(slice_with_devices(device("d", attrs20 + R"(,"capacity":)" + map_of(13, "c", R"({"value":"1"})"))),
                 "spec.devices[0]", "Invalid value: 33: the total number of attributes and capacities must not exceed 32");
}

TEST(ValidateSlice, AttributeHasExactlyOneValue) {
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"x":{}})")), "spec.devices[0].attributes.x",
                 "exactly one value must be specified");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"x":{"int":1,"bool":true}})")),
                 "spec.devices[0].attributes.x", "exactly one value must be specified");
  EXPECT_VALID(slice_with_devices(device("d", R"("attributes":{"x":{"bool":false}})")));
}

TEST(ValidateSlice, StringAttributesAtMost64Bytes) {
  auto with = [](std::size_t n) {
    return slice_with_devices(device("d", R"("attributes":{"s":{"string":")" + std::string(n, 'x') + "\"}}"));
  };
  EXPECT_VALID(with(64));
  EXPECT_PROBLEM(with(65), "spec.devices[0].attributes.s.string", "Too long: may not be more than 64 bytes");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"s":{"strings":["ok",")" + std::string(65, 'x') + "\"]}}")),
                 "spec.devices[0].attributes.s.strings[1]", "Too long");
}

TEST(ValidateSlice, VersionAttributesAreSemver) {
  EXPECT_VALID(slice_with_devices(device("d", R"("attributes":{"v":{"version":"1.2.3-rc.1+build.5"}})")));
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"v":{"version":"1.2"}})")),
                 "spec.devices[0].attributes.v.version", "must be a string compatible with semver.org spec 2.0.0");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"v":{"version":"01.2.3"}})")),
                 "spec.devices[0].attributes.v.version", "semver.org");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"v":{"versions":["1.0.0","x"]}})")),
                 "spec.devices[0].attributes.v.versions[1]", "semver.org");
  const std::string long_version = "1.0.0-" + std::string(59, 'a');  // 65 bytes
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"v":{"version":")" + long_version + "\"}}")),
                 "spec.devices[0].attributes.v.version", "Too long");
  EXPECT_VALID(slice_with_devices(device("d", R"("attributes":{"v":{"version":")" + long_version.substr(0, 64) + "\"}}")));
}

TEST(ValidateSlice, ListAttributesMustNotBeEmpty) {
  for (const char* kind : {"ints", "bools", "strings", "versions"})
    EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"l":{")" + std::string(kind) + R"(":[]}})")),
                   "spec.devices[0].attributes.l." + std::string(kind), "must not be empty if specified");
}

TEST(ValidateSlice, AttributeAndCapacityNamesAreQualified) {
  EXPECT_VALID(slice_with_devices(device("d", R"("attributes":{"example.com/model":{"string":"x"},"_id2":{"int":1}})")));
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"2bad":{"int":1}})")), "spec.devices[0].attributes",
                 "Invalid value: \"2bad\": a valid C identifier");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{"Example_com/model":{"int":1}})")),
                 "spec.devices[0].attributes", "RFC 1123 subdomain");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("attributes":{")" + std::string(33, 'a') + R"(":{"int":1}})")),
                 "spec.devices[0].attributes", "must be no more than 32 characters");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("capacity":{"a/b/c":{"value":"1"}})")), "spec.devices[0].capacity",
                 "Invalid value: \"a/b/c\"");
}

// ---- requestPolicy (KEP-5075)

std::string shared_capacity(const std::string& value, const std::string& policy) {
  return slice_with_devices(device("d", R"("allowMultipleAllocations":true,"capacity":{"mem":{"value":")" + value +
                                            R"(","requestPolicy":)" + policy + "}}"));
}
const std::string policy_path = "spec.devices[0].capacity.mem.requestPolicy";

TEST(ValidateRequestPolicy, NeedsAllowMultipleAllocations) {
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("capacity":{"mem":{"value":"8Gi","requestPolicy":{"default":"1Gi"}}})")),
                 policy_path, "Forbidden: allowMultipleAllocations must be true");
  EXPECT_VALID(shared_capacity("8Gi", R"({"default":"1Gi"})"));
}

TEST(ValidateRequestPolicy, ValidValues) {
  EXPECT_VALID(shared_capacity("64", R"({"default":"8","validValues":["8","16","64"]})"));
  EXPECT_PROBLEM(shared_capacity("64", R"({"validValues":["8"]})"), policy_path + ".default",
                 "Required value: required when validValues is defined");
  EXPECT_PROBLEM(shared_capacity("64", R"({"default":"4","validValues":["8","16"]})"), policy_path + ".validValues",
                 "Invalid value: \"4\": default value is not valid according to the requestPolicy");
  EXPECT_PROBLEM(shared_capacity("64", R"({"default":"8","validValues":["16","8"]})"), policy_path + ".validValues[1]",
                 "values must be sorted in ascending order");
  EXPECT_PROBLEM(shared_capacity("64", R"({"default":"8","validValues":["8","8"]})"), policy_path + ".validValues[1]",
                 "Duplicate value: \"8\"");
  EXPECT_PROBLEM(shared_capacity("64", R"({"default":"8","validValues":["8","128"]})"), policy_path + ".validValues[1]",
                 "option is larger than capacity value: 64");
}

TEST(ValidateRequestPolicy, AtMost10ValidValues) {
  auto values = [](int n) { return list_of(n, [](int i) { return "\"" + std::to_string(i + 1) + "\""; }); };
  EXPECT_VALID(shared_capacity("64", R"({"default":"1","validValues":)" + values(10) + "}"));
  EXPECT_PROBLEM(shared_capacity("64", R"({"default":"1","validValues":)" + values(11) + "}"), policy_path + ".validValues",
                 "Too many: 11: must have at most 10 items");
}

TEST(ValidateRequestPolicy, ValidValuesXorValidRange) {
  EXPECT_PROBLEM(shared_capacity("64", R"({"default":"8","validValues":["8"],"validRange":{"min":"1"}})"), policy_path,
                 "Forbidden: exactly one policy can be specified");
}

TEST(ValidateRequestPolicy, ValidRange) {
  EXPECT_VALID(shared_capacity("100G", R"({"default":"10G","validRange":{"min":"1G","max":"100G","step":"1G"}})"));
  EXPECT_VALID(shared_capacity("100G", R"({"default":"100G","validRange":{"min":"0"}})"));
  EXPECT_PROBLEM(shared_capacity("100G", R"({"validRange":{"min":"1G"}})"), policy_path + ".default",
                 "required when validRange is defined");
  const std::string range = policy_path + ".validRange";
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"11","validRange":{"min":"11"}})"), range + ".min",
                 "min is larger than capacity value: 10");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"1","validRange":{"min":"2"}})"), range + ".default",
                 "Invalid value: \"1\": default is less than min: 2");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"5","validRange":{"min":"6","max":"5"}})"), range + ".max",
                 "min is larger than max: 5");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"5","validRange":{"min":"1","max":"11"}})"), range + ".max",
                 "max is larger than capacity value: 10");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"9","validRange":{"min":"1","max":"8"}})"), range + ".default",
                 "default is more than max: 8");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"11","validRange":{"min":"1"}})"), range + ".default",
                 "default is larger than capacity value: 10");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"0","validRange":{"min":"-1"}})"), range + ".min",
                 "must be greater than or equal to 0");
  // The boundaries themselves: min = default = max = capacity.
  EXPECT_VALID(shared_capacity("10", R"({"default":"10","validRange":{"min":"10","max":"10"}})"));
}

TEST(ValidateRequestPolicy, Step) {
  const std::string step = policy_path + ".validRange.step";
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"2","validRange":{"min":"2","step":"0"}})"), step,
                 "Invalid value: \"0\": must be greater than zero");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"6","validRange":{"min":"6","step":"5"}})"), step,
                 "one step 11 is larger than capacity value: 10");
  EXPECT_VALID(shared_capacity("10", R"({"default":"6","validRange":{"min":"6","step":"4"}})"));  // min + step = capacity
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"4","validRange":{"min":"1","step":"2"}})"), step,
                 "Invalid value: \"4\": value is not a multiple of a given step (2) from (1)");
  EXPECT_PROBLEM(shared_capacity("10", R"({"default":"3","validRange":{"min":"1","max":"8","step":"2"}})"), step,
                 "Invalid value: \"8\": value is not a multiple of a given step (2) from (1)");
  EXPECT_VALID(shared_capacity("10", R"({"default":"3","validRange":{"min":"1","max":"9","step":"2"}})"));
  EXPECT_VALID(shared_capacity("2", R"({"default":"1500m","validRange":{"min":"500m","step":"500m"}})"));
  EXPECT_PROBLEM(shared_capacity("2", R"({"default":"1200m","validRange":{"min":"500m","step":"500m"}})"), step,
                 "not a multiple");
  EXPECT_VALID(shared_capacity("80Gi", R"({"default":"4Gi","validRange":{"min":"1Gi","max":"80Gi","step":"1Gi"}})"));
}

// ---- counters

std::string counter_set(std::string_view name, const std::string& counters) {
  return R"({"name":")" + std::string(name) + R"(","counters":)" + counters + "}";
}

TEST(ValidateCounters, AtMost8CounterSets) {
  auto sets = [](int n) { return list_of(n, [](int i) { return counter_set("set-" + std::to_string(i), counters(1)); }); };
  EXPECT_VALID(slice(R"("sharedCounters":)" + sets(8)));
  EXPECT_PROBLEM(slice(R"("sharedCounters":)" + sets(9)), "spec.sharedCounters", "Too many: 9: must have at most 8 items");
}

TEST(ValidateCounters, AtMost32CountersPerSet) {
  EXPECT_VALID(slice(R"("sharedCounters":[)" + counter_set("s", counters(32)) + "]"));
  EXPECT_PROBLEM(slice(R"("sharedCounters":[)" + counter_set("s", counters(33)) + "]"), "spec.sharedCounters[0].counters",
                 "Too many: 33: must have at most 32 items");
}

TEST(ValidateCounters, CounterSetNamesAndCounters) {
  EXPECT_PROBLEM(slice(R"("sharedCounters":[)" + counter_set("s", counters(1)) + "," + counter_set("s", counters(1)) + "]"),
                 "spec.sharedCounters[1]", "Duplicate value: \"s\"");
  EXPECT_PROBLEM(slice(R"("sharedCounters":[)" + counter_set("S", counters(1)) + "]"), "spec.sharedCounters[0].name",
                 "RFC 1123 label");
  EXPECT_PROBLEM(slice(R"("sharedCounters":[)" + counter_set("s", "{}") + "]"), "spec.sharedCounters[0].counters",
                 "Required value");
  EXPECT_PROBLEM(slice(R"("sharedCounters":[)" + counter_set("s", R"({"Mem":{"value":"1"}})") + "]"),
                 "spec.sharedCounters[0].counters", "Invalid value: \"Mem\"");
}

std::string consumption(std::string_view set, const std::string& counters_json) {
  return R"({"counterSet":")" + std::string(set) + R"(","counters":)" + counters_json + "}";
}

TEST(ValidateCounters, AtMost2CounterConsumptionsPerDevice) {
  auto with = [](int n) {
    return slice_with_devices(device("d", R"("consumesCounters":)" +
                                              list_of(n, [](int i) { return consumption("set-" + std::to_string(i), counters(1)); })));
  };
  EXPECT_VALID(with(2));
  EXPECT_PROBLEM(with(3), "spec.devices[0].consumesCounters", "Too many: 3: must have at most 2 items");
}

TEST(ValidateCounters, OneConsumptionPerCounterSet) {
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("consumesCounters":[)" + consumption("s", counters(1)) + "," +
                                                    consumption("s", counters(1)) + "]")),
                 "spec.devices[0].consumesCounters[1]", "Duplicate value: \"s\"");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("consumesCounters":[)" + consumption("", counters(1)) + "]")),
                 "spec.devices[0].consumesCounters[0].counterSet", "Required value");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("consumesCounters":[)" + consumption("s", "{}") + "]")),
                 "spec.devices[0].consumesCounters[0].counters", "Required value");
}

TEST(ValidateCounters, CompatibilityGroupsAreAtMostTwoUniqueLabels) {
  auto with = [](const std::string& groups) {
    return slice_with_devices(device("d", R"("consumesCounters":[{"counterSet":"s","counters":{"c":{"value":"1"}},)"
                                          R"("compatibilityGroups":)" +
                                              groups + "}]"));
  };
  const std::string at = "spec.devices[0].consumesCounters[0].compatibilityGroups";
  EXPECT_VALID(with(R"(["mig","mps"])"));
  EXPECT_VALID(with("[]"));
  EXPECT_PROBLEM(with(R"(["a","b","c"])"), at, "Too many: 3: must have at most 2 items");
  EXPECT_PROBLEM(with(R"(["mig","mig"])"), at + "[1]", "Duplicate value: \"mig\"");
  EXPECT_PROBLEM(with(R"(["Mig"])"), at + "[0]", "Invalid value: \"Mig\"");
  EXPECT_PROBLEM(with(R"([""])"), at + "[0]", "Required value");
}

TEST(ValidateCounters, AtMost32CountersPerConsumption) {
  EXPECT_VALID(slice_with_devices(device("d", R"("consumesCounters":[)" + consumption("s", counters(32)) + "]")));
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("consumesCounters":[)" + consumption("s", counters(33)) + "]")),
                 "spec.devices[0].consumesCounters[0].counters", "Too many: 33: must have at most 32 items");
}

TEST(ValidateCounters, AtMost2048ConsumedCountersPerSlice) {
  // 64 devices (the limit with counters) consuming 32 counters is exactly 2048.
  const std::string at_limit = R"("consumesCounters":[)" + consumption("a", counters(32)) + "]";
  EXPECT_VALID(slice_with_devices(devices(64, at_limit)));
  const std::string past = R"("consumesCounters":[)" + consumption("a", counters(32)) + "," + consumption("b", counters(1)) + "]";
  EXPECT_PROBLEM(slice_with_devices(devices(63, at_limit) + "," + device("last", past)), "spec",
                 "Invalid value: 2049: the total number of counters consumed by devices and device counter consumption "
                 "mixins must not exceed 2048");
}

// ---- taints and binding conditions

TEST(ValidateTaints, AtMost16PerDevice) {
  auto taints = [](int n) {
    return R"("taints":)" + list_of(n, [](int i) { return R"({"key":"k)" + std::to_string(i) + R"(","effect":"NoSchedule"})"; });
  };
  EXPECT_VALID(slice_with_devices(device("d", taints(16))));
  EXPECT_PROBLEM(slice_with_devices(device("d", taints(17))), "spec.devices[0].taints", "Too many: 17: must have at most 16 items");
}

TEST(ValidateTaints, KeyValueAndEffect) {
  auto with = [](const std::string& taint) { return slice_with_devices(device("d", R"("taints":[)" + taint + "]")); };
  EXPECT_VALID(with(R"({"key":"example.com/maintenance","value":"planned","effect":"NoExecute"})"));
  EXPECT_PROBLEM(with(R"({"key":"k","effect":"PreferNoSchedule"})"), "spec.devices[0].taints[0].effect",
                 "Unsupported value: \"PreferNoSchedule\": supported values: \"NoExecute\", \"NoSchedule\", \"None\"");
  EXPECT_PROBLEM(with(R"({"key":"k"})"), "spec.devices[0].taints[0].effect", "Required value");
  EXPECT_PROBLEM(with(R"({"key":"","effect":"None"})"), "spec.devices[0].taints[0].key", "name part must be non-empty");
  EXPECT_PROBLEM(with(R"({"key":"k","value":"not valid","effect":"None"})"), "spec.devices[0].taints[0].value",
                 "a valid label must be an empty string");
}

TEST(ValidateBindingConditions, AtMost4Each) {
  auto conditions = [](int n, std::string_view prefix) {
    return list_of(n, [prefix](int i) { return "\"" + std::string(prefix) + std::to_string(i) + "\""; });
  };
  auto with = [&](int ok, int failed) {
    return slice_with_devices(device("d", R"("bindsToNode":true,"bindingConditions":)" + conditions(ok, "ready-") +
                                              R"(,"bindingFailureConditions":)" + conditions(failed, "failed-")));
  };
  EXPECT_VALID(with(4, 4));
  EXPECT_PROBLEM(with(5, 1), "spec.devices[0].bindingConditions", "Too many: 5: must have at most 4 items");
  EXPECT_PROBLEM(with(1, 5), "spec.devices[0].bindingFailureConditions", "Too many: 5: must have at most 4 items");
}

TEST(ValidateBindingConditions, PairedDistinctAndValid) {
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("bindingConditions":["ready"])")),
                 "spec.devices[0].bindingFailureConditions", "bindingFailureConditions are required to use bindingConditions");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("bindingFailureConditions":["failed"])")),
                 "spec.devices[0].bindingConditions", "bindingConditions are required to use bindingFailureConditions");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("bindingConditions":["x"],"bindingFailureConditions":["x"])")),
                 "spec.devices[0].bindingFailureConditions[0]", "must not overlap with bindingConditions");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("bindingConditions":["x","x"],"bindingFailureConditions":["y"])")),
                 "spec.devices[0].bindingConditions[1]", "Duplicate value: \"x\"");
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("bindingConditions":["not valid"],"bindingFailureConditions":["y"])")),
                 "spec.devices[0].bindingConditions[0]", "Invalid value: \"not valid\"");
}

// ---- node allocatable resources (KEP-5517)

TEST(ValidateNodeAllocatable, NodeResourceNamesOnly) {
  auto with = [](const std::string& name) {
    return slice_with_devices(device("d", R"("nodeAllocatableResources":{")" + name + R"(":{"mapping":{"deviceMultiplier":"1"}}})"));
  };
  EXPECT_VALID(with("cpu"));
  EXPECT_VALID(with("memory"));
  EXPECT_VALID(with("ephemeral-storage"));
  EXPECT_VALID(with("hugepages-2Mi"));
  EXPECT_PROBLEM(with("nvidia.com/gpu"), "spec.devices[0].nodeAllocatableResources",
                 "Invalid value: \"nvidia.com/gpu\": must be a node allocatable resource");
  EXPECT_PROBLEM(with("pods"), "spec.devices[0].nodeAllocatableResources", "Invalid value: \"pods\"");
  EXPECT_PROBLEM(with("hugepages-"), "spec.devices[0].nodeAllocatableResources", "Invalid value: \"hugepages-\"");
}

TEST(ValidateNodeAllocatable, MappingOrOverhead) {
  auto with = [](const std::string& entry) {
    return slice_with_devices(device("d", R"("capacity":{"mem":{"value":"8Gi"}},"nodeAllocatableResources":{"memory":)" + entry + "}"));
  };
  EXPECT_VALID(with(R"({"mapping":{"capacityKey":"mem","capacityMultiplier":"2"},"overhead":{"perPod":"1Gi"}})"));
  EXPECT_VALID(with(R"({"overhead":{"perContainer":"100Mi"}})"));
  EXPECT_PROBLEM(with("{}"), "spec.devices[0].nodeAllocatableResources.memory",
                 "Required value: at least one of `mapping`, `overhead` is required");
  EXPECT_PROBLEM(with(R"({"overhead":{}})"), "spec.devices[0].nodeAllocatableResources.memory.overhead",
                 "Required value: at least one of `perPod`, `perContainer` is required");
  EXPECT_PROBLEM(with(R"({"overhead":{"perPod":"-1"}})"), "spec.devices[0].nodeAllocatableResources.memory.overhead.perPod",
                 "Invalid value: \"-1\": must be greater than or equal to 0");
}

TEST(ValidateNodeAllocatable, MappingByDeviceXorByCapacity) {
  auto with = [](const std::string& mapping) {
    return slice_with_devices(device("d", R"("nodeAllocatableResources":{"cpu":{"mapping":)" + mapping + "}}"));
  };
  const std::string path = "spec.devices[0].nodeAllocatableResources.cpu.mapping";
  EXPECT_PROBLEM(with(R"({"capacityKey":"cores","capacityMultiplier":"1","deviceMultiplier":"1"})"), path,
                 "exactly one of `capacityKey`, `deviceMultiplier` is required, but multiple fields are set");
  EXPECT_PROBLEM(with("{}"), path, "Required value: exactly one of `capacityKey`, `deviceMultiplier` is required");
  EXPECT_PROBLEM(with(R"({"capacityKey":"cores"})"), path + ".capacityMultiplier", "Required value");
  EXPECT_PROBLEM(with(R"({"capacityMultiplier":"2","deviceMultiplier":"1"})"), path + ".capacityKey", "Required value");
  EXPECT_PROBLEM(with(R"({"capacityKey":"Bad Key!","capacityMultiplier":"1"})"), path + ".capacityKey", "Invalid value");
  EXPECT_PROBLEM(with(R"({"deviceMultiplier":"-2"})"), path + ".deviceMultiplier", "must be greater than or equal to 0");
  const auto errors = errors_of(with(R"({"capacityKey":"example.com/cores","capacityMultiplier":"500m"})"));
  EXPECT_TRUE(errors.empty()) << dump(errors);
  for (const auto& e : errors_of(with("{}"))) EXPECT_EQ(e.code, dra::errc::invalid_object) << e.to_string();
}

TEST(ValidateSlice, PerObjectFunctionOnModelBuiltInCpp) {
  dra::model::resource_slice s;
  s.meta.name = "built";
  s.driver = "gpu.example.com";
  s.pool = {"p", 1, 1};
  s.all_nodes = true;
  dra::model::device d;
  d.name = "d";
  s.devices.push_back(d);
  EXPECT_TRUE(dra::validate::validate_resource_slice(s).empty());
  s.devices.push_back(d);
  const auto errors = dra::validate::validate_resource_slice(s);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceSlice/built");
  EXPECT_EQ(errors[0].path, "spec.devices[1]");
}

}  // namespace

namespace {

using namespace validate_test;

TEST(ValidateSlice, NameLengthBoundaries) {
  EXPECT_VALID(slice_with_devices(device(std::string(63, 'd'))));
  EXPECT_PROBLEM(slice_with_devices(device(std::string(64, 'd'))), "spec.devices[0].name", "must be no more than 63 characters");
  EXPECT_VALID(slice("", std::string(253, 's')));
  EXPECT_PROBLEM(slice("", std::string(254, 's')), "metadata.name", "must be no more than 253 characters");
}

TEST(ValidateSlice, NodeSelectorOverFields) {
  auto with = [](const std::string& requirement) {
    return slice(R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[)" + requirement + "]}]}");
  };
  const std::string at = "spec.nodeSelector.nodeSelectorTerms[0].matchFields[0]";
  EXPECT_VALID(with(R"({"key":"metadata.name","operator":"In","values":["node-1"]})"));
  EXPECT_PROBLEM(with(R"({"key":"metadata.name","operator":"Exists"})"), at + ".operator", "not a valid selector operator");
  EXPECT_PROBLEM(with(R"({"key":"metadata.name","operator":"In","values":["a","b"]})"), at + ".values", "must be only one value");
}

TEST(ValidateRequestPolicy, DuplicateValidValuesCompareByValue) {
  const std::string policy = "spec.devices[0].capacity.mem.requestPolicy.validValues[1]";
  auto with = [](const std::string& values) {
    return slice_with_devices(device("d", R"("allowMultipleAllocations":true,"capacity":{"mem":{"value":"4Ki","requestPolicy":{"default":"1Ki","validValues":)" +
                                              values + "}}}"));
  };
  EXPECT_PROBLEM(with(R"(["1Ki","1024"])"), policy, "Duplicate value: \"1024\"");
  EXPECT_VALID(with(R"(["1Ki","2Ki"])"));
}

TEST(ValidateCounters, ConsumptionLimitCountsMixinCounters) {
  const std::string mixins = R"("mixins":{"deviceCounterConsumption":[{"name":"m","counters":)" +
                             map_of(3, "m", R"({"value":"1"})") + "}]}";
  auto with = [&](int own) {
    return slice(R"("devices":[{"name":"d","consumesCounters":[{"counterSet":"s","includes":["m"],"counters":)" +
                 map_of(own, "c", R"({"value":"1"})") + "}]}]," + mixins);
  };
  EXPECT_VALID(with(29));
  EXPECT_PROBLEM(with(30), "spec.devices[0].consumesCounters[0].counters", "Too many: 33: must have at most 32 items");
}

}  // namespace
