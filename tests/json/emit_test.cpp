// Tests of emit: Kubernetes' JSON shape for allocation results, Go's escaping, and ingest/emit round trips.
#include "../support/source_dir.hpp"
#include <dra/flatten/mixin_view.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "../support/files.hpp"
#include "json_compare.hpp"

#include <filesystem>

namespace {

using dra_test::read_file;

// The raw JSON of status.allocation of every allocated claim in `json`.
std::vector<std::string> raw_allocations(const std::string& json) {
  std::vector<std::string> out;
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root = parser.parse(padded).value();
  auto visit = [&](simdjson::dom::element object) {
    auto allocation = object.at_pointer("/status/allocation");
    if (!allocation.error()) out.push_back(simdjson::minify(allocation.value()));
  };
  simdjson::dom::array items;
  if (root.get_array().get(items) == simdjson::SUCCESS || root["items"].get_array().get(items) == simdjson::SUCCESS) {
    for (simdjson::dom::element item : items) visit(item);
  } else {
    visit(root);
  }
  return out;
}

void expect_round_trip(const std::string& json, const std::string& name, int& compared) {
  auto doc = dra::json::load(json);
  ASSERT_TRUE(doc.has_value()) << name << ": " << doc.error().to_string();
  std::vector<std::string> expected = raw_allocations(json);
  std::vector<std::string> emitted;
  for (const auto& [claim, source] : doc->scenario().claims)
    if (claim.allocation) emitted.push_back(dra::json::to_json(*claim.allocation));
  ASSERT_EQ(emitted.size(), expected.size()) << name;
  for (std::size_t i = 0; i < emitted.size(); ++i) {
    std::string diff;
    // Exact strings: what was read must be written back byte-identical where canonical.
    EXPECT_TRUE(dra_test::json_equal(emitted[i], expected[i], diff)) << name << ": " << diff << "\n" << emitted[i];
    ++compared;
  }
}

TEST(Emit, RoundTripsAnAllocatedClaimWithEveryField) {
  int compared = 0;
  expect_round_trip(read_file(std::string(dra_test::json_test_data()) + "/allocated-claim.json"), "allocated-claim", compared);
  EXPECT_EQ(compared, 1);
}

TEST(Emit, RoundTripsEveryAllocatedClaimOfTheUpstreamTable) {
  const std::filesystem::path dir = std::filesystem::path(dra_test::source_dir()) / "tests" / "alloc" / "data" / "upstream";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.ends_with(".expected.json") || !name.ends_with(".json") || name.starts_with("_")) continue;
    expect_round_trip(read_file(entry.path()), name, compared);
  }
  EXPECT_GE(compared, 24);  // the allocated claims of the table
}

TEST(Emit, WritesAllocationResultsInKubernetesFieldOrderAndOmitsEmptyFields) {
  dra::model::allocation_result a;
  auto& r = a.results.emplace_back();
  r.request = "req/sub";
  r.driver = "d";
  r.pool = "p";
  r.device = "dev";
  r.consumed_capacity.push_back({"memory", *dra::quantity::parse("1024Mi")});
  a.node_selector = dra::model::node_selector{{dra::model::node_selector_term{
      {}, {dra::model::node_selector_requirement{"metadata.name", dra::model::node_selector_operator::in, {"n"}}}}}};
  EXPECT_EQ(
      dra::json::to_json(a),
      R"({"devices":{"results":[{"request":"req/sub","driver":"d","pool":"p","device":"dev",)"
      R"("consumedCapacity":{"memory":"1Gi"}}]},)"
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n"]}]}]}})");
  EXPECT_EQ(dra::json::to_json(dra::model::allocation_result{}), R"({"devices":{}})");
}

TEST(Emit, EscapesStringsLikeGo) {
  dra::json::writer w;
  w.begin_array().string("a\"b\\c\n\t\r\x01<>&\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9").end_array();
  EXPECT_EQ(w.str(), R"(["a\"b\\c\n\t\r\u0001\u003c\u003e\u0026\u2028\u2029)"
                     "\xc3\xa9"
                     R"("])");
}

TEST(Emit, WritesTheOutputDocument) {
  dra::model::explanation why{2, {{dra::model::explanation_code::count, 2, "b", "r", "only 1 device"}}};
  const std::vector<dra::model::claim_outcome> outcomes{
      {"default/a", dra::model::claim_allocated{"node-1", {}}},
      {"b", dra::model::claim_unschedulable{"cannot allocate all claims", why}},
      {"default/c", dra::error{"CEL compile error", "request r1", "claim default/c", dra::errc::cel_compile}}};
  std::string doc = dra::json::output_document(outcomes, 0);
  EXPECT_EQ(doc, R"({"results":[{"claim":"default/a","node":"node-1","allocation":{"devices":{}}},)"
                 R"({"claim":"b","node":null,"unschedulable":"cannot allocate all claims","explanation":{"nodes":2,)"
                 R"("reasons":[{"code":"count","nodes":2,"claim":"b","request":"r","message":"only 1 device"}]}},)"
                 R"({"claim":"default/c","node":null,"error":"claim default/c: request r1: CEL compile error"}]})");
  std::string indented = dra::json::output_document(outcomes, 2);
  std::string diff;
  EXPECT_TRUE(dra_test::json_equal(indented, doc, diff)) << diff;
  EXPECT_NE(indented.find("\n    {\n      \"claim\": \"default/a\""), std::string::npos) << indented;
}

}  // namespace

namespace {

TEST(Emit, CompatibilityGroupsAreReadAndWritten) {
  auto doc = dra::json::load(R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s"},
    "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},"nodeName":"n","devices":[{"name":"mig-1",
    "consumesCounters":[{"counterSet":"gpu-0","counters":{"memory":{"value":"1Gi"}},"compatibilityGroups":["mig","all"]}]}]}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& slice = doc->scenario().slices.at(0).object;
  const auto& groups = slice.devices.at(0).consumes_counters.at(0).compatibility_groups;
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], "mig");
  EXPECT_EQ(groups[1], "all");
  const std::string emitted = dra::json::to_json(slice, 0);
  EXPECT_NE(emitted.find(R"("compatibilityGroups":["mig","all"])"), std::string::npos) << emitted;
  // Flattening a device keeps its groups.
  const auto flat = dra::flatten::materialize(dra::flatten::mixin_device_view(slice.devices[0], nullptr));
  EXPECT_EQ(flat.consumes_counters.at(0).compatibility_groups, groups);
}

TEST(Emit, NodeAllocatableResourcesAreReadAndWritten) {
  auto doc = dra::json::load(R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s"},
    "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},"nodeName":"n","devices":[{"name":"cpu-0",
    "nodeAllocatableResources":{"memory":{"overhead":{"perPod":"1Gi","perContainer":"512Mi"}},
      "cpu":{"mapping":{"capacityKey":"d/cores","capacityMultiplier":"2"}}}},
    {"name":"cpu-1","nodeAllocatableResources":{"cpu":{"mapping":{"deviceMultiplier":"8"}}}}]}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& slice = doc->scenario().slices.at(0).object;
  const auto& resources = slice.devices.at(0).node_allocatable_resources;
  ASSERT_TRUE(resources);
  ASSERT_EQ(resources->size(), 2u);
  EXPECT_EQ(resources->at(0).name, "cpu");  // sorted by name
  ASSERT_TRUE(resources->at(0).value.mapping);
  EXPECT_EQ(resources->at(0).value.mapping->capacity_key, "d/cores");
  EXPECT_EQ(resources->at(0).value.mapping->capacity_multiplier->to_string(), "2");
  EXPECT_FALSE(resources->at(0).value.overhead);
  ASSERT_TRUE(resources->at(1).value.overhead);
  EXPECT_EQ(resources->at(1).value.overhead->per_container->to_string(), "512Mi");
  EXPECT_EQ(slice.devices.at(1).node_allocatable_resources->at(0).value.mapping->device_multiplier->to_string(), "8");
  EXPECT_FALSE(slice.devices.at(0).node_allocatable_resources->at(0).value.mapping->device_multiplier);
  const std::string emitted = dra::json::to_json(slice, 0);
  EXPECT_NE(emitted.find(R"("nodeAllocatableResources":{"cpu":{"mapping":{"capacityKey":"d/cores","capacityMultiplier":"2"}},)"
                         R"("memory":{"overhead":{"perPod":"1Gi","perContainer":"512Mi"}}})"),
            std::string::npos)
      << emitted;
  auto again = dra::json::load(emitted);
  ASSERT_TRUE(again.has_value()) << again.error().to_string();
  EXPECT_EQ(again->scenario().slices.at(0).object, slice);
}

TEST(Emit, ResourceSlicesRoundTripThroughEmitAndIngest) {
  for (const char* fixture : {"full-slice.json", "kep-5234-mixins.json", "v1-equivalent.json"}) {
    auto doc = dra::json::load_file(std::string(dra_test::json_test_data()) + "/" + fixture);
    ASSERT_TRUE(doc.has_value()) << fixture << ": " << doc.error().to_string();
    for (const auto& [slice, source] : doc->scenario().slices) {
      std::string emitted = dra::json::to_json(slice, 2);
      auto again = dra::json::load(emitted);
      ASSERT_TRUE(again.has_value()) << fixture << ": " << again.error().to_string() << "\n" << emitted;
      ASSERT_EQ(again->scenario().slices.size(), 1u);
      EXPECT_EQ(again->scenario().slices[0].object, slice) << fixture << "\n" << emitted;
      // And as JSON values, the emitted slice equals the input where the input was canonical.
      if (std::string(fixture) == "full-slice.json") {
        std::string diff;
        EXPECT_FALSE(dra_test::json_equal(emitted, source.json, diff));  // the input has an unknown field
        EXPECT_NE(diff.find("devices[0]"), std::string::npos) << diff;
      }
    }
  }
}

}  // namespace
