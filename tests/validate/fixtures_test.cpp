// Every scenario the project ships validates clean (one deliberately unusual fixture is checked for its one problem).
#include "support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

using namespace validate_test;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Fixtures written to exercise ingest, not to be valid objects, with the
// problems they are known to have.
const std::map<std::string, std::string> known_invalid = {
    // The API reference requires exactly one term in a device's node selector; the fixture has two.
    {"full-slice.json",
     "ResourceSlice/node-1-nics: spec.devices[1].nodeSelector.nodeSelectorTerms: Invalid value: 2 terms: must have "
     "exactly one node selector term"},
};

TEST(ValidateFixtures, EveryShippedScenarioValidatesClean) {
  int checked = 0;
  for (const char* dir : {"tests/json/data", "examples/scenarios"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(DRA_SOURCE_DIR) / dir)) {
      if (entry.path().extension() != ".json") continue;
      ++checked;
      const auto errors = errors_of(read(entry.path()));
      const std::string name = entry.path().filename().string();
      if (auto known = known_invalid.find(name); known != known_invalid.end()) {
        ASSERT_EQ(errors.size(), 1u) << name << "\n" << dump(errors);
        EXPECT_EQ(errors[0].to_string(), known->second);
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
