// Optional node operations (KEP-5945): devices of slices with skipNodeOperations go only to nodes that declare the
// feature, and their allocation results carry the slice's list.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace dra;

const cel::selector_engine node_operations_engine;

std::string skipping_scenario(std::string_view first_node_features) {
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "vgpu"}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "old-kubelet"}, "status": {"declaredFeatures": [)" +
         std::string(first_node_features) + R"(]}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "new-kubelet"}, "status": {"declaredFeatures": ["DraOptionalNodeOperations"]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "central"},
 "spec": {"driver": "control-plane.example.com", "allNodes": true, "pool": {"name": "central", "resourceSliceCount": 1},
          "skipNodeOperations": ["*"], "devices": [{"name": "virtual-0"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "v", "exactly": {"deviceClassName": "vgpu"}}]}}}
)";
}

TEST(OptionalNodeOperations, OnlyNodesThatDeclareTheFeatureGetTheDevices) {
  auto doc = json::load(skipping_scenario(""));
  ASSERT_TRUE(doc) << doc.error().to_string();
  auto report = sim::run_scenario(doc->scenario(), node_operations_engine);
  ASSERT_EQ(report.outcomes.size(), 1u);
  const auto* allocated = report.outcomes[0].allocated();
  ASSERT_NE(allocated, nullptr);
  EXPECT_EQ(allocated->node, "new-kubelet");
  ASSERT_EQ(allocated->allocation.results.size(), 1u);
  EXPECT_EQ(allocated->allocation.results[0].skip_node_operations, (std::vector<model::text>{"*"}));
  // Declared on the first node too: first fit takes it.
  doc = json::load(skipping_scenario(R"("DraOptionalNodeOperations")"));
  ASSERT_TRUE(doc) << doc.error().to_string();
  report = sim::run_scenario(doc->scenario(), node_operations_engine);
  ASSERT_NE(report.outcomes[0].allocated(), nullptr);
  EXPECT_EQ(report.outcomes[0].allocated()->node, "old-kubelet");
}

TEST(OptionalNodeOperations, WithTheFeatureOffTheFieldIsIgnored) {
  auto doc = json::load(skipping_scenario(""));
  ASSERT_TRUE(doc) << doc.error().to_string();
  alloc::features off = alloc::features::all();
  off.optional_node_operations = false;
  const auto report = sim::run_scenario(doc->scenario(), node_operations_engine, off);
  ASSERT_NE(report.outcomes[0].allocated(), nullptr);
  EXPECT_EQ(report.outcomes[0].allocated()->node, "old-kubelet");
  EXPECT_TRUE(report.outcomes[0].allocated()->allocation.results[0].skip_node_operations.empty());
}

}  // namespace
