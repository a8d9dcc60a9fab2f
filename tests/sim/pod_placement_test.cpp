// Pods placed as kube-scheduler places them: the node filters before the claims, the queue's order, the nodes'
// resources taken by each placed pod, and each pending pod's answer.
#include "../support/source_dir.hpp"

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using namespace dra;

struct placed {
  std::string pod;
  std::optional<std::string> node;
  std::string unschedulable;
  friend bool operator==(const placed&, const placed&) = default;
  friend std::ostream& operator<<(std::ostream& os, const placed& p) {
    return os << p.pod << " -> " << p.node.value_or("-") << " " << p.unschedulable;
  }
};

std::vector<placed> pods_of(const model::scenario& s, const sim::run_report& report) {
  std::vector<placed> out;
  for (const auto& p : report.pods)
    out.push_back({std::string(s.pods[p.pod].object.meta.name), p.node, p.unschedulable});
  return out;
}

const cel::selector_engine engine;

TEST(PodPlacement, TheNodeHalfDecidesWhereClaimsMayGo) {
  // node-a is cordoned, node-c tainted; trainer selects gpu=h100 (node-b, node-c) and takes node-b's only GPU;
  // inference asks for nvidia.com/gpu, which a DeviceClass maps.
  auto doc = json::load_file(dra_test::source_dir() + "/tests/cli/data/placement.yaml");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), engine);
  const std::string all_taken =
      "0/3 nodes are available: 1 cannot allocate all claims, 1 node(s) had untolerated taint(s), 1 node(s) were "
      "unschedulable. still not schedulable, preemption: 0/3 nodes are available: 3 Preemption is not helpful for "
      "scheduling.";
  EXPECT_EQ(pods_of(doc->scenario(), report),
            (std::vector<placed>{
                {"trainer", "node-b", ""},
                {"big", std::nullopt,
                 "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s), 1 node(s) were "
                 "unschedulable. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption "
                 "victims found for incoming pod, 2 Preemption is not helpful for scheduling."},
                {"gated", std::nullopt, "Scheduling is blocked due to non-empty scheduling gates"},
                {"second-trainer", std::nullopt, all_taken},
                {"inference", "node-c", ""},  // nvidia.com/gpu through DRA, on the node whose taint it tolerates
            }));
  ASSERT_EQ(report.outcomes.size(), 3u);
  ASSERT_NE(report.outcomes[0].allocated(), nullptr);
  EXPECT_EQ(report.outcomes[0].allocated()->node, "node-b");
  ASSERT_NE(report.outcomes[1].unschedulable(), nullptr);
  ASSERT_TRUE(report.outcomes[1].unschedulable()->why);
  EXPECT_EQ(report.outcomes[1].unschedulable()->why->nodes, 1u);  // only node-b passed the node filters
  EXPECT_TRUE(report.pods[2].gated);
}

constexpr const char* two_nodes = R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "small", "labels": {"kubernetes.io/hostname": "small"}},
 "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "3"}}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "large"},
 "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
)";

std::vector<placed> run_text(const std::string& text) {
  auto doc = json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return {};
  return pods_of(doc->scenario(), sim::run_scenario(doc->scenario(), engine));
}

std::string pod_json(std::string_view name, std::string_view cpu, std::string_view extra = "") {
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + std::string(name) +
         R"(", "namespace": "default")" + std::string(extra.empty() ? "" : ", ") + std::string(extra) +
         R"(}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": ")" + std::string(cpu) +
         R"("}}}]}})" + "\n";
}

TEST(PodPlacement, PlacedPodsTakeTheirNodesResources) {
  // First fit: the first node with room, until it is full.
  EXPECT_EQ(run_text(std::string(two_nodes) + pod_json("a", "1500m") + pod_json("b", "1") + pod_json("c", "500m")),
            (std::vector<placed>{{"a", "small", ""}, {"b", "large", ""}, {"c", "small", ""}}));
}

TEST(PodPlacement, BoundPodsCountUnlessTheyFinished) {
  const std::string bound = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
 "spec": {"nodeName": "small", "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]}}
)";
  const std::string finished = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "done", "namespace": "default"},
 "spec": {"nodeName": "large", "containers": [{"name": "c", "resources": {"requests": {"cpu": "8"}}}]},
 "status": {"phase": "Succeeded"}}
)";
  EXPECT_EQ(run_text(std::string(two_nodes) + bound + finished + pod_json("a", "1")),
            (std::vector<placed>{{"a", "large", ""}}));  // bound pods are not pending: only "a" is answered
}

TEST(PodPlacement, TheQueueTakesHigherPriorityFirst) {
  const std::string low = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "low", "namespace": "default"},
 "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "6"}}}]}}
)";
  const std::string high = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "high", "namespace": "default"},
 "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "6"}}}]}}
)";
  EXPECT_EQ(run_text(std::string(two_nodes) + low + high),
            (std::vector<placed>{{"high", "large", ""},
                                 {"low", std::nullopt,
                                  "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, "
                                  "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming "
                                  "pod."}}));
}

TEST(PodPlacement, TooManyPods) {
  std::string text(two_nodes);
  for (int i = 0; i < 3; ++i) text += pod_json("p" + std::to_string(i), "0");
  text += R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "namespace": "default"},
 "spec": {"nodeSelector": {"kubernetes.io/hostname": "small"}, "containers": [{"name": "c"}]}}
)";
  const auto pods = run_text(text);
  ASSERT_EQ(pods.size(), 4u);
  EXPECT_EQ(pods[3].unschedulable,
            "0/2 nodes are available: 1 Too many pods, 1 node(s) didn't match Pod's node affinity/selector. no new "
            "claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming "
            "pod, 1 Preemption is not helpful for scheduling.");
}

TEST(PodPlacement, ConflictingNodeNameTermsRefuseBeforeAnyNode) {
  const std::string pod = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "namespace": "default"},
 "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
   {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["small"]},
                    {"key": "metadata.name", "operator": "In", "values": ["large"]}]}]}}},
  "containers": [{"name": "c"}]}}
)";
  EXPECT_EQ(run_text(std::string(two_nodes) + pod),
            (std::vector<placed>{{"x", std::nullopt, "0/2 nodes are available: pod affinity terms conflict."}}));
  const std::string named = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "y", "namespace": "default"},
 "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
   {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["small"]}]}]}}},
  "containers": [{"name": "c", "resources": {"requests": {"cpu": "3"}}}]}}
)";
  EXPECT_EQ(run_text(std::string(two_nodes) + named),
            (std::vector<placed>{{"y", std::nullopt,
                                  "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) "
                                  "[NodeAffinity]. no new claims to deallocate, preemption: 0/2 nodes are available: "
                                  "1 No preemption victims found for incoming pod, 1 Preemption is not helpful for "
                                  "scheduling."}}));
}

TEST(PodPlacement, AGatedPodsClaimsWaitWithIt) {
  const std::string text = std::string(two_nodes) + R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "none"}}]}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "g", "namespace": "default"},
 "spec": {"schedulingGates": [{"name": "example.com/later"}], "resourceClaims": [{"name": "x", "resourceClaimName": "c"}],
          "containers": [{"name": "c"}]}}
)";
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), engine);
  ASSERT_EQ(report.outcomes.size(), 1u);  // held, not tried (its class does not even exist)
  ASSERT_NE(report.outcomes[0].unschedulable(), nullptr);
  EXPECT_EQ(report.outcomes[0].unschedulable()->reason,
            "its pod waits: Scheduling is blocked due to non-empty scheduling gates");
  ASSERT_EQ(report.pods.size(), 1u);
  EXPECT_TRUE(report.pods[0].gated);
}

TEST(PodPlacement, PlacedPodsAreBoundInTheScenarioWrittenBack) {
  auto doc = json::load(std::string(two_nodes) + pod_json("a", "1"));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), engine);
  auto written = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(written) << written.error().to_string();
  auto again = json::load(*written);
  ASSERT_TRUE(again) << again.error().to_string();
  ASSERT_EQ(again->scenario().pods.size(), 1u);
  EXPECT_EQ(again->scenario().pods[0].object.node_name, std::optional<model::text>("small"));
  EXPECT_TRUE(sim::run_scenario(again->scenario(), engine).pods.empty());  // bound now: nothing pending
}

TEST(PodPlacement, PodsSharingAClaimGoWhereItWasAllocated) {
  // One GPU, on "large" only; "first" allocates the shared claim there, "second" must follow it, and "third", whose
  // claim is allocated on "small" in the input, must go to "small".
  const std::string text = std::string(two_nodes) + R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "large-gpus"},
 "spec": {"driver": "gpu.example.com", "nodeName": "large", "pool": {"name": "large", "resourceSliceCount": 1},
          "devices": [{"name": "gpu-0"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "on-small", "namespace": "default"},
 "spec": {"devices": {"requests": []}},
 "status": {"allocation": {"nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
   {"key": "metadata.name", "operator": "In", "values": ["small"]}]}]}}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "first", "namespace": "default"},
 "spec": {"resourceClaims": [{"name": "g", "resourceClaimName": "shared"}], "containers": [{"name": "c"}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "second", "namespace": "default"},
 "spec": {"resourceClaims": [{"name": "g", "resourceClaimName": "shared"}], "containers": [{"name": "c"}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "third", "namespace": "default"},
 "spec": {"resourceClaims": [{"name": "s", "resourceClaimName": "on-small"}], "containers": [{"name": "c"}]}}
)";
  EXPECT_EQ(run_text(text), (std::vector<placed>{{"first", "large", ""}, {"second", "large", ""}, {"third", "small", ""}}));
}

TEST(PodPlacement, ScenariosWithoutPodsAnswerNoPods) {
  auto doc = json::load_file(dra_test::source_dir() + "/tests/alloc/data/upstream/all-devices-single.json");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), engine);
  EXPECT_TRUE(report.pods.empty());  // its only pod is bound: nothing to answer
  EXPECT_EQ(sim::output_document(doc->scenario(), report), json::output_document(report.outcomes));
}

}  // namespace
