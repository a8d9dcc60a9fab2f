// sched::node_likeness: nodes alike in all but names share a kind until their requests or devices differ, and a
// search ranking nodes (best fit) still finds the one node of its kind that takes the pod.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/node_likeness.hpp>
#include <dra/sim/runner.hpp>

#include "../support/shared_allocation.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace dra;

struct gpu_node {
  std::string name;
  std::string model = "a100";
  std::string cpu = "8";
  std::string taint;  // a NoSchedule taint's key, if any
};

// Each node with its own slice of two GPUs of `model`, shared by capacity, and a class for them.
std::string cluster(const std::vector<gpu_node>& nodes) {
  std::string out = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
    "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
)";
  for (const auto& n : nodes) {
    const std::string taints =
        n.taint.empty() ? "" : R"(, "spec": {"taints": [{"key": ")" + n.taint + R"(", "effect": "NoSchedule"}]})";
    out += R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + n.name + "\"}" + taints +
           R"(, "status": {"allocatable": {"cpu": ")" + n.cpu + R"(", "memory": "32Gi", "pods": "110"}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + n.name +
           R"(-gpus"}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + n.name + R"(", "pool": {"name": ")" +
           n.name + R"(", "resourceSliceCount": 1}, "devices": [)";
    for (int g = 0; g < 2; ++g)
      out += std::string(g ? "," : "") + R"({"name": ")" + n.name + "-gpu-" + std::to_string(g) +
             R"(", "allowMultipleAllocations": true, "attributes": {"model": {"string": ")" + n.model +
             R"("}}, "capacity": {"memory": {"value": "40Gi"}}})";
    out += "]}}\n";
  }
  return out;
}

model::allocation_result share_on(std::string_view node_pool, std::string_view device, std::string_view memory) {
  return dra_test::shared_allocation(node_pool, device, "memory", memory);
}

TEST(NodeLikeness, NodesAlikeButForNamesShareAKindUntilTheyDiffer) {
  const auto doc = json::load(cluster({{"a"}, {"b"}, {"c", "t4"}, {"d", "a100", "16"}, {"e", "a100", "8", "x"}}));
  ASSERT_TRUE(doc) << doc.error().message;
  std::vector<const model::node*> nodes;
  for (const auto& n : doc->scenario().nodes) nodes.push_back(&n.object);
  sched::node_likeness likeness(doc->scenario(), nodes);
  ASSERT_TRUE(likeness.on());
  alloc::ledger ledger;
  auto kind = [&](std::size_t i, const sched::node_usage& usage = {}, std::uint64_t revision = 0) {
    return likeness.kind_of(i, usage, revision, ledger);
  };
  EXPECT_EQ(kind(0), kind(1));
  EXPECT_NE(kind(0), kind(2));  // another GPU model
  EXPECT_NE(kind(0), kind(3));  // more cpu
  EXPECT_NE(kind(0), kind(4));  // a taint
  // 10Gi taken of a's first GPU: a differs from b until b's first GPU gives as much.
  ledger.add(share_on("a", "a-gpu-0", "10Gi"));
  EXPECT_NE(kind(0), kind(1));
  ledger.add(share_on("b", "b-gpu-1", "10Gi"));
  EXPECT_NE(kind(0), kind(1));  // the same amount, of the other GPU
  ledger.add(share_on("b", "b-gpu-0", "10Gi"));
  ledger.add(share_on("a", "a-gpu-1", "10Gi"));
  EXPECT_EQ(kind(0), kind(1));
  // A pod's requests on a (a new revision of its requests) set it apart.
  sched::node_usage busy;
  busy.add(sched::amounts{{"cpu", 1000}});
  EXPECT_NE(kind(0, busy, 1), kind(1));
  EXPECT_EQ(kind(0, busy, 1), kind(1, busy, 2));
}

TEST(NodeLikeness, NoNodesAreAlikeWhereSlicesChooseNodesBySelectors) {
  const std::string selected = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "net"},
    "spec": {"driver": "net.example.com", "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "rack",
    "operator": "In", "values": ["r1"]}]}]}, "pool": {"name": "net", "resourceSliceCount": 1}, "devices": [{"name": "nic"}]}}
)";
  const auto doc = json::load(cluster({{"a"}, {"b"}}) + selected);
  ASSERT_TRUE(doc) << doc.error().message;
  std::vector<const model::node*> nodes;
  for (const auto& n : doc->scenario().nodes) nodes.push_back(&n.object);
  EXPECT_FALSE(sched::node_likeness(doc->scenario(), nodes).on());
}

std::string pod_with_gpu_share(const std::string& name, const std::string& model) {
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": ")" + name +
         R"(", "namespace": "default"}, "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
         "deviceClassName": "gpu", "capacity": {"requests": {"memory": "10Gi"}}, "selectors": [{"cel": {"expression":
         "device.attributes['gpu.example.com'].model == ')" + model + R"('"}}]}}]}}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name + R"(", "namespace": "default"}, "spec": {
  "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}],
  "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": ")" + name + R"("}]}}
)";
}

TEST(NodeLikeness, BestFitStillFindsTheOneNodeOfItsKindThatTakesThePod) {
  // c is like a and b but for its taint, and comes first. p1 (a t4 share) fits only on d; p2 and p3 (a100 shares, no
  // toleration) land on a (the first untainted a100 node, then the most used), never on c: c's kind is its own.
  const auto doc = json::load(cluster({{"c", "a100", "8", "x"}, {"a"}, {"b"}, {"d", "t4"}}) +
                              pod_with_gpu_share("p1", "t4") + pod_with_gpu_share("p2", "a100") +
                              pod_with_gpu_share("p3", "a100"));
  ASSERT_TRUE(doc) << doc.error().message;
  const cel::selector_engine engine;
  // Best fit's own placements: first fit's (which the guard could report) are the same here.
  const sim::run_report report =
      sim::scenario_run<cel::selector_engine, alloc::sorted>(doc->scenario(), engine, alloc::features::all(), {}, {})
          .run();
  std::vector<std::string> placed;
  for (const auto& p : report.pods) placed.push_back(p.node.value_or("none"));
  EXPECT_EQ(placed, (std::vector<std::string>{"d", "a", "a"}));
}

}  // namespace
