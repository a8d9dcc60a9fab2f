// Pool-level validation: names unique across the slices of a pool, counter consumption resolved against the pool's counter sets.
#include "support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace validate_test;

// A slice of pool `pool` at `generation`, one of `count`, with `spec` members.
std::string pool_slice(std::string_view name, std::string_view pool, int generation, int count, const std::string& spec) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + std::string(name) +
         R"("},"spec":{"driver":"gpu.example.com","nodeName":"node-1","pool":{"name":")" + std::string(pool) +
         R"(","generation":)" + std::to_string(generation) + R"(,"resourceSliceCount":)" + std::to_string(count) + "}," +
         spec + "}}";
}
std::string list(const std::string& a, const std::string& b) { return "[" + a + "," + b + "]"; }

const std::string counters_slice =
    pool_slice("counters", "p", 1, 2, R"("sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"40Gi"}}}])");
std::string consuming(const std::string& consumption) {
  return pool_slice("devices", "p", 1, 2, R"("devices":[{"name":"mig-0","consumesCounters":[)" + consumption + "]}]");
}

TEST(ValidatePools, ConsumptionResolvesAgainstCounterSetsInOtherSlices) {
  EXPECT_TRUE(errors_of(list(counters_slice, consuming(R"({"counterSet":"gpu-0","counters":{"memory":{"value":"5Gi"}}})")), true)
                  .empty());
  const auto missing_set =
      errors_of(list(counters_slice, consuming(R"({"counterSet":"gpu-1","counters":{"memory":{"value":"5Gi"}}})")), true);
  ASSERT_EQ(missing_set.size(), 1u) << dump(missing_set);
  EXPECT_EQ(missing_set[0].to_string(),
            "ResourceSlice/devices: spec.devices[0].consumesCounters[0].counterSet: Invalid value: \"gpu-1\": no counter "
            "set of this name in pool gpu.example.com/p");
  const auto missing_counter =
      errors_of(list(counters_slice, consuming(R"({"counterSet":"gpu-0","counters":{"cores":{"value":"1"}}})")), true);
  EXPECT_TRUE(has_error(missing_counter, "spec.devices[0].consumesCounters[0].counters",
                        "Invalid value: \"cores\": no counter of this name in counter set \"gpu-0\""))
      << dump(missing_counter);
}

TEST(ValidatePools, IncompletePoolIsNotCheckedForCounterSets) {
  // resourceSliceCount 2 but only the device slice is present.
  EXPECT_TRUE(errors_of("[" + consuming(R"({"counterSet":"gpu-9","counters":{"memory":{"value":"5Gi"}}})") + "]", true).empty());
}

TEST(ValidatePools, DeviceNamesUniqueAcrossSlices) {
  const std::string a = pool_slice("a", "p", 1, 2, R"("devices":[{"name":"gpu-0"}])");
  const std::string b = pool_slice("b", "p", 1, 2, R"("devices":[{"name":"gpu-0"}])");
  const auto errors = errors_of(list(a, b), true);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].to_string(),
            "ResourceSlice/b: spec.devices[0].name: Duplicate value: \"gpu-0\": also published by ResourceSlice/a of pool "
            "gpu.example.com/p");
  // Another pool, or an older generation of the same pool, may reuse the name.
  EXPECT_TRUE(errors_of(list(a, pool_slice("b", "q", 1, 2, R"("devices":[{"name":"gpu-0"}])")), true).empty());
  EXPECT_TRUE(errors_of(list(a, pool_slice("b", "p", 0, 2, R"("devices":[{"name":"gpu-0"}])")), true).empty());
}

TEST(ValidatePools, CounterSetNamesUniqueAcrossSlices) {
  const std::string other =
      pool_slice("counters-2", "p", 1, 2, R"("sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"1"}}}])");
  EXPECT_TRUE(errors_of(list(counters_slice, other)).empty());  // each slice on its own is fine
  const auto errors = errors_of(list(counters_slice, other), true);
  EXPECT_TRUE(has_error(errors, "spec.sharedCounters[0].name", "Duplicate value: \"gpu-0\": also published by ResourceSlice/counters"))
      << dump(errors);
}

TEST(ValidatePools, CounterSetMixinsCountWhenResolving) {
  const std::string counters = pool_slice(
      "counters", "p", 1, 2,
      R"("sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"40Gi"}},"includes":["engines"]}],)"
      R"("mixins":{"counterSet":[{"name":"engines","counters":{"copy-engines":{"value":"7"}}}]})");
  EXPECT_TRUE(errors_of(list(counters, consuming(R"({"counterSet":"gpu-0","counters":{"copy-engines":{"value":"1"}}})")), true)
                  .empty());
}

}  // namespace

namespace {

using namespace validate_test;

TEST(ValidateScenario, ObjectNamesAreUniquePerKind) {
  const auto errors = errors_of("[" + slice("", "s") + "," + device_class("") + "," + slice("", "s") + "]", true);
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].to_string(),
            "ResourceSlice/s: metadata.name: Duplicate value: \"s\": another ResourceSlice of this name comes at [0] in the input");
  // The same name in another kind, or a claim of the same name in another namespace, is fine.
  std::string other_namespace = claim(R"("requests":[)" + exact_request("r") + "]");
  other_namespace.replace(other_namespace.find("\"default\""), 9, "\"team-b\"");
  EXPECT_TRUE(errors_of("[" + slice("", "gpu.example.com") + "," + device_class("") + "," +
                            claim(R"("requests":[)" + exact_request("r") + "]") + "," + other_namespace + "]",
                        true)
                  .empty());
}

}  // namespace
