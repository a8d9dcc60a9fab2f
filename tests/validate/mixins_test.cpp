// KEP-5234 mixin validation: includes limits and resolution, mixin limits, slice-wide totals, and the per-device limit after flattening.
#include "support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace validate_test;

std::string names_list(int n, std::string_view prefix) {
  return list_of(n, [prefix](int i) { return "\"" + std::string(prefix) + std::to_string(i) + "\""; });
}
std::string named_mixins(int n, std::string_view prefix, const std::string& body) {
  return list_of(n, [&](int i) { return R"({"name":")" + std::string(prefix) + std::to_string(i) + "\"," + body + "}"; });
}

// A slice whose devices are `devices_json` and whose mixins are `mixins_json` (members of spec.mixins).
std::string with_mixins(const std::string& devices_json, const std::string& mixins_json) {
  return slice(R"("devices":[)" + devices_json + R"(],"mixins":{)" + mixins_json + "}");
}

TEST(ValidateMixins, FixtureShapeIsValid) {
  EXPECT_VALID(with_mixins(device("d", R"("includes":["m0","m1"])"),
                           R"("device":)" + named_mixins(2, "m", R"("attributes":{"model":{"string":"x"}})")));
}

TEST(ValidateMixins, AtMost8DeviceIncludes) {
  const std::string mixins = R"("device":)" + named_mixins(9, "m", R"("attributes":{"a":{"int":1}})");
  EXPECT_VALID(with_mixins(device("d", R"("includes":)" + names_list(8, "m")), mixins));
  EXPECT_PROBLEM(with_mixins(device("d", R"("includes":)" + names_list(9, "m")), mixins), "spec.devices[0].includes",
                 "Too many: 9: must have at most 8 items");
}

TEST(ValidateMixins, IncludesResolveToMixinsOfTheirKind) {
  const std::string mixins = R"("device":)" + named_mixins(1, "m", R"("attributes":{"a":{"int":1}})") +
                             R"(,"counterSet":)" + named_mixins(1, "cs", R"("counters":)" + counters(1));
  EXPECT_PROBLEM(with_mixins(device("d", R"("includes":["missing"])"), mixins), "spec.devices[0].includes[0]",
                 "Invalid value: \"missing\": must be the name of a device mixin in this ResourceSlice");
  // A counter set mixin's name does not satisfy a device's include.
  EXPECT_PROBLEM(with_mixins(device("d", R"("includes":["cs0"])"), mixins), "spec.devices[0].includes[0]",
                 "must be the name of a device mixin");
  // No mixins at all.
  EXPECT_PROBLEM(slice_with_devices(device("d", R"("includes":["m0"])")), "spec.devices[0].includes[0]",
                 "must be the name of a device mixin");
}

TEST(ValidateMixins, AtMost8CounterSetIncludes) {
  auto with = [](int n) {
    return slice(R"("sharedCounters":[{"name":"s","counters":{"own":{"value":"1"}},"includes":)" + names_list(n, "m") +
                 R"(}],"mixins":{"counterSet":)" + named_mixins(9, "m", R"("counters":{"x":{"value":"1"}})") + "}");
  };
  EXPECT_VALID(with(8));
  EXPECT_PROBLEM(with(9), "spec.sharedCounters[0].includes", "Too many: 9: must have at most 8 items");
  EXPECT_PROBLEM(slice(R"("sharedCounters":[{"name":"s","counters":{"own":{"value":"1"}},"includes":["nope"]}])"),
                 "spec.sharedCounters[0].includes[0]", "must be the name of a counter set mixin");
}

TEST(ValidateMixins, AtMost4CounterConsumptionIncludes) {
  auto with = [](int n) {
    return with_mixins(device("d", R"("consumesCounters":[{"counterSet":"s","counters":{"own":{"value":"1"}},"includes":)" +
                                       names_list(n, "m") + "}]"),
                       R"("deviceCounterConsumption":)" + named_mixins(5, "m", R"("counters":{"x":{"value":"1"}})"));
  };
  EXPECT_VALID(with(4));
  EXPECT_PROBLEM(with(5), "spec.devices[0].consumesCounters[0].includes", "Too many: 5: must have at most 4 items");
}

TEST(ValidateMixins, CountersMayComeFromIncludesOnly) {
  EXPECT_VALID(with_mixins(device("d", R"("consumesCounters":[{"counterSet":"s","includes":["m0"]}])"),
                           R"("deviceCounterConsumption":)" + named_mixins(1, "m", R"("counters":{"x":{"value":"1"}})")));
  EXPECT_VALID(slice(R"("sharedCounters":[{"name":"s","includes":["m0"]}],"mixins":{"counterSet":)" +
                     named_mixins(1, "m", R"("counters":{"x":{"value":"1"}})") + "}"));
}

TEST(ValidateMixins, AtMost32AttributesAndCapacitiesAfterFlattening) {
  // 16 own + 16 from the mixin = 32; one more distinct name from a second mixin = 33.
  const std::string own = R"("attributes":)" + map_of(16, "own", R"({"int":1})");
  const std::string mixins = R"("device":[{"name":"m0","attributes":)" + map_of(16, "mix", R"({"int":1})") +
                             R"(},{"name":"m1","capacity":{"extra":{"value":"1"}}},{"name":"m2","attributes":)" +
                             map_of(16, "own", R"({"int":2})") + "}]";
  EXPECT_VALID(with_mixins(device("d", own + R"(,"includes":["m0"])"), mixins));
  EXPECT_PROBLEM(with_mixins(device("d", own + R"(,"includes":["m0","m1"])"), mixins), "spec.devices[0]",
                 "Invalid value: 33: the total number of attributes and capacities must not exceed 32");
  // Names the device overrides count once.
  EXPECT_VALID(with_mixins(device("d", own + R"(,"includes":["m0","m2"])"), mixins));
}

TEST(ValidateMixins, MixinLimitsPerSlice) {
  const std::string device_body = R"("attributes":{"a":{"int":1}})";
  EXPECT_VALID(with_mixins(device("d"), R"("device":)" + named_mixins(128, "m", device_body)));
  EXPECT_PROBLEM(with_mixins(device("d"), R"("device":)" + named_mixins(129, "m", device_body)), "spec.mixins.device",
                 "Too many: 129: must have at most 128 items");
  const std::string counter_body = R"("counters":{"x":{"value":"1"}})";
  EXPECT_VALID(with_mixins(device("d"), R"("deviceCounterConsumption":)" + named_mixins(128, "m", counter_body)));
  EXPECT_PROBLEM(with_mixins(device("d"), R"("deviceCounterConsumption":)" + named_mixins(129, "m", counter_body)),
                 "spec.mixins.deviceCounterConsumption", "Too many: 129: must have at most 128 items");
  EXPECT_VALID(with_mixins(device("d"), R"("counterSet":)" + named_mixins(32, "m", counter_body)));
  EXPECT_PROBLEM(with_mixins(device("d"), R"("counterSet":)" + named_mixins(33, "m", counter_body)),
                 "spec.mixins.counterSet", "Too many: 33: must have at most 32 items");
}

TEST(ValidateMixins, MixinNamesAndContents) {
  const std::string body = R"("attributes":{"a":{"int":1}})";
  EXPECT_PROBLEM(with_mixins(device("d"), R"("device":[{"name":"m",)" + body + R"(},{"name":"m",)" + body + "}]"),
                 "spec.mixins.device[1]", "Duplicate value: \"m\"");
  EXPECT_PROBLEM(with_mixins(device("d"), R"("device":[{"name":"M",)" + body + "}]"), "spec.mixins.device[0].name",
                 "RFC 1123 label");
  EXPECT_PROBLEM(with_mixins(device("d"), R"("device":[{"name":"m","attributes":{"v":{"version":"x"}}}])"),
                 "spec.mixins.device[0].attributes.v.version", "semver.org");
  EXPECT_PROBLEM(with_mixins(device("d"), R"("counterSet":[{"name":"m","counters":{}}])"), "spec.mixins.counterSet[0].counters",
                 "Required value");
  EXPECT_PROBLEM(with_mixins(device("d"), R"("counterSet":[{"name":"m","counters":)" + counters(33) + "}]"),
                 "spec.mixins.counterSet[0].counters", "Too many: 33");
  EXPECT_PROBLEM(with_mixins(device("d"), R"("deviceCounterConsumption":[{"name":"m","counters":{"Bad":{"value":"1"}}}])"),
                 "spec.mixins.deviceCounterConsumption[0].counters", "Invalid value: \"Bad\"");
}

TEST(ValidateMixins, RequestPolicyFromMixinNeedsSharedDevice) {
  const std::string mixins =
      R"("device":[{"name":"m","capacity":{"mem":{"value":"8","requestPolicy":{"default":"1","validValues":["1","2"]}}}}])";
  EXPECT_VALID(with_mixins(device("d", R"("allowMultipleAllocations":true,"includes":["m"])"), mixins));
  EXPECT_PROBLEM(with_mixins(device("d", R"("includes":["m"])"), mixins), "spec.devices[0].includes",
                 "Forbidden: capacity \"mem\" from a mixin has a requestPolicy: allowMultipleAllocations must be true");
  // The mixin's own policy is checked where it is written.
  EXPECT_PROBLEM(with_mixins(device("d", R"("allowMultipleAllocations":true,"includes":["m"])"),
                             R"("device":[{"name":"m","capacity":{"mem":{"value":"8","requestPolicy":{"default":"3","validValues":["1","2"]}}}}])"),
                 "spec.mixins.device[0].capacity.mem.requestPolicy.validValues", "default value is not valid");
}

TEST(ValidateMixins, AtMost4096AttributesAndCapacitiesPerSlice) {
  // 128 mixins of 32 attributes: exactly 4096; one device attribute more is 4097.
  const std::string mixins = R"("device":)" + named_mixins(128, "m", R"("attributes":)" + map_of(32, "a", R"({"int":1})"));
  EXPECT_VALID(with_mixins(device("d"), mixins));
  EXPECT_PROBLEM(with_mixins(device("d", R"("attributes":{"x":{"int":1}})"), mixins), "spec",
                 "Invalid value: 4097: the total number of attributes and capacities of devices and device mixins must not "
                 "exceed 4096");
}

TEST(ValidateMixins, AtMost256CountersPerSlice) {
  const std::string sets = list_of(8, [](int i) { return R"({"name":"s)" + std::to_string(i) + R"(","counters":)" + counters(32) + "}"; });
  EXPECT_VALID(slice(R"("sharedCounters":)" + sets));
  EXPECT_PROBLEM(slice(R"("sharedCounters":)" + sets + R"(,"mixins":{"counterSet":[{"name":"m","counters":{"x":{"value":"1"}}}]})"),
                 "spec",
                 "Invalid value: 257: the total number of counters in counter sets and counter set mixins must not exceed 256");
}

TEST(ValidateMixins, ConsumedCountersInMixinsCountTowards2048) {
  const std::string consumes = R"("consumesCounters":[{"counterSet":"a","counters":)" + counters(32) + "}]";
  EXPECT_PROBLEM(with_mixins(devices(64, consumes), R"("deviceCounterConsumption":[{"name":"m","counters":{"x":{"value":"1"}}}])"),
                 "spec", "Invalid value: 2049");
}

}  // namespace
