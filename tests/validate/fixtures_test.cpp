// Every scenario the project ships validates clean (fixtures made for ingest are checked for their known problems).
#include "../support/source_dir.hpp"
#include "../support/files.hpp"
#include "support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace validate_test;

// Fixtures written to exercise ingest and flattening, not to be valid
// clusters, with the problems they are known to have.
const std::map<std::string, std::vector<std::string>> known_invalid = {
    {"full-slice.json",
     {// A field of a newer API version that ingest skips; strict validation reports it.
      "ResourceSlice/node-1-nics: spec.devices[0].partitionTypeAttribute: unknown field "
      "\"spec.devices[0].partitionTypeAttribute\"",
      // The API reference requires exactly one term in a device's node selector; the fixture has two.
      "ResourceSlice/node-1-nics: spec.devices[1].nodeSelector.nodeSelectorTerms: Invalid value: 2 terms: must have "
      "exactly one node selector term",
      // Its only slice consumes a counter set that no slice of the pool publishes.
      "ResourceSlice/node-1-nics: spec.devices[1].consumesCounters[0].counterSet: Invalid value: \"nic-counters\": no "
      "counter set of this name in pool nic.example.com/node-1"}},
    // The KEP examples leave out the claims' namespace, which the API server requires.
    {"kep-4815-current-tpu-multihost.json",
     {"ResourceClaim/tpu-device: metadata.namespace: Required value",
      "ResourceClaim/tpu-consumer-resource-claim: metadata.namespace: Required value"}},
    {"kep-5075-sharing-limit.json", {"ResourceClaim/net1-limited-sharing: metadata.namespace: Required value"}},
    {"kep-5075-guaranteed-bandwidth.json", {"ResourceClaim/net1-guaranteed-1gi: metadata.namespace: Required value"}},
    {"kep-5075-minimum-bandwidth.json", {"ResourceClaim/net1-at-least-1gi: metadata.namespace: Required value"}},
    {"kep-5075-shared-network.json",
     {"ResourceClaim/macvlan: metadata.namespace: Required value",
      "ResourceClaim/macvlan-two: metadata.namespace: Required value",
      "ResourceClaim/macvlan-distinct: metadata.namespace: Required value",
      "ResourceClaim/net1-by-name: metadata.namespace: Required value"}},
    {"kep-4815-mig-claim.json", {"ResourceClaim/mig-devices: metadata.namespace: Required value"}},
    {"kep-5234-mixins.json",
     {// The KEP-4815 DGX example in KEP-5234 shape, without the slice that publishes its counter sets.
      "ResourceSlice/dgx-mixins: spec.devices[0].consumesCounters[0].counterSet: Invalid value: \"gpu-0-counter-set\": "
      "no counter set of this name in pool gpu.nvidia.com/dgx-a100-1"}},
};

TEST(ValidateFixtures, EveryShippedScenarioValidatesClean) {
  int checked = 0;
  for (const char* dir : {"tests/json/data", "examples/scenarios"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(dra_test::source_dir()) / dir)) {
      if (entry.path().extension() != ".json") continue;
      ++checked;
      const auto errors = errors_of(dra_test::read_file(entry.path()), true);
      const std::string name = entry.path().filename().string();
      if (auto known = known_invalid.find(name); known != known_invalid.end()) {
        ASSERT_EQ(errors.size(), known->second.size()) << name << "\n" << dump(errors);
        for (std::size_t i = 0; i < errors.size(); ++i) EXPECT_EQ(errors[i].to_string(), known->second[i]);
      } else {
        EXPECT_TRUE(errors.empty()) << name << "\n" << dump(errors);
      }
    }
  }
  EXPECT_GE(checked, 8);
}

TEST(ValidateFixtures, ObjectsAreReportedInInputOrder) {
  const std::string list = "[" + claim(R"("requests":[{"name":"R"}])") + "," + slice("", "Slice_A") + "," +
                           device_class("", "Class_B") + "]";
  const auto errors = errors_of(list);
  ASSERT_GE(errors.size(), 3u) << dump(errors);
  EXPECT_EQ(errors.front().object, "ResourceClaim/default/claim-1");
  EXPECT_EQ(errors.back().object, "DeviceClass/Class_B");
  EXPECT_TRUE(has_error(errors, "metadata.name", "Invalid value: \"Slice_A\"")) << dump(errors);
}

TEST(ValidateFixtures, UnnamedObjectIsLabelledByPosition) {
  const auto errors = errors_of("[" + slice("", "ok") + "," + slice("", "") + "]");
  ASSERT_EQ(errors.size(), 1u) << dump(errors);
  EXPECT_EQ(errors[0].object, "ResourceSlice [1]");
}

}  // namespace
