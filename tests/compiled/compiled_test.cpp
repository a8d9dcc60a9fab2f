// The compiled component (include/dra/compiled.hpp): the same documents, problems and allocations as the header-only
// engine gives (the dra command's golden files), from a file that includes no engine header.
#include "../support/source_dir.hpp"
#include <dra/compiled.hpp>

#include <gtest/gtest.h>

#include "../support/files.hpp"

#include <string>

namespace {

const std::string source = dra_test::source_dir();

TEST(Compiled, AllocatesAsTheDraCommandDoes) {
  for (const auto& [scenario, golden] :
       {std::pair{"/examples/scenarios/dgx-a100.json", "/tests/cli/golden/allocate-default.json"},
        std::pair{"/tests/cli/data/cluster.json", "/tests/cli/golden/allocate-cluster.json"}}) {
    auto doc = dra::compiled::scenario_document::load_file(source + scenario);
    ASSERT_TRUE(doc) << doc.error().to_string();
    EXPECT_TRUE(doc->validate().empty()) << scenario;
    const auto report = dra::compiled::allocate(doc->scenario(), dra::alloc::first_fit{});
    EXPECT_EQ(report.document, dra_test::read_file(source + golden)) << scenario;
    // The results alone are the document's first part.
    const std::string results = dra::compiled::output_document(report.outcomes);
    EXPECT_EQ(report.document.substr(0, results.size() - 4), results.substr(0, results.size() - 4)) << scenario;
  }
}

TEST(Compiled, OffersEveryPolicyAndKeepsTheOutcomesTyped) {
  auto doc = dra::compiled::scenario_document::load(dra_test::read_file(source + "/examples/scenarios/dgx-a100.json"));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto first = dra::compiled::allocate(doc->scenario(), dra::alloc::first_fit{});
  const auto sorted = dra::compiled::allocate(doc->scenario(), dra::alloc::sorted{});
  const auto shared = dra::compiled::allocate(doc->scenario(), dra::alloc::shared_capacity{});
  ASSERT_EQ(first.outcomes.size(), 4u);
  ASSERT_EQ(sorted.outcomes.size(), first.outcomes.size());
  ASSERT_EQ(shared.outcomes.size(), first.outcomes.size());
  for (std::size_t i = 0; i < first.outcomes.size(); ++i) {
    // The policies may pick other devices, never a different verdict on this scenario.
    EXPECT_EQ(first.outcomes[i].status.index(), sorted.outcomes[i].status.index()) << i;
    EXPECT_EQ(first.outcomes[i].status.index(), shared.outcomes[i].status.index()) << i;
  }
  ASSERT_TRUE(first.outcomes[2].unschedulable());
  ASSERT_TRUE(first.outcomes[2].unschedulable()->why);  // the explanation comes along
  EXPECT_GT(first.search_steps, 0u);
}

TEST(Compiled, ReportsBrokenInputWithItsCode) {
  auto malformed = dra::compiled::scenario_document::load("{\"kind\": ");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().code, dra::errc::malformed_document);
  auto missing = dra::compiled::scenario_document::load_file(source + "/no/such/file.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, dra::errc::io);
  auto invalid = dra::compiled::scenario_document::load(
      R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"Not_A_Name"},"spec":{}})");
  ASSERT_TRUE(invalid) << invalid.error().to_string();
  const auto problems = invalid->validate();
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].code, dra::errc::invalid_object);
}

}  // namespace
