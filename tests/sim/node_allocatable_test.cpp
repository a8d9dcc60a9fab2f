// Node allocatable resources through DRA (KEP-5517): what a pod's devices add to its requests on the node it is
// tried on, the nodes that refuse it for that, what the node counts for later pods, and the status written.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/generated_names.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace dra;

const cel::selector_engine nar_engine;

std::string nar_node(std::string_view name, std::string_view cpu, std::string_view memory = "16Gi") {
  return R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + std::string(name) +
         R"(", "labels": {"kubernetes.io/hostname": ")" + std::string(name) +
         R"("}}, "status": {"allocatable": {"cpu": ")" + std::string(cpu) + R"(", "memory": ")" + std::string(memory) +
         R"(", "pods": "110"}}})" + "\n";
}

const std::string nar_classes =
    R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "cores"}, "spec": {"selectors": [{"cel": {"expression": "device.driver == 'cpu.example.com'"}}]}})"
    "\n"
    R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpus"}, "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}})"
    "\n";

// `count` cores on `node`, each mapping one cpu.
std::string core_slice(std::string_view node, int count) {
  std::string devices;
  for (int i = 0; i < count; ++i)
    devices += std::string(i ? ", " : "") + R"({"name": "core-)" + std::to_string(i) +
               R"(", "nodeAllocatableResources": {"cpu": {"mapping": {"deviceMultiplier": "1"}}}})";
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + std::string(node) +
         R"(-cores"}, "spec": {"driver": "cpu.example.com", "nodeName": ")" + std::string(node) + R"(", "pool": {"name": ")" +
         std::string(node) + R"(", "resourceSliceCount": 1}, "devices": [)" + devices + "]}}\n";
}

std::string claim_template(std::string_view name, std::string_view device_class, int count) {
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": ")" +
         std::string(name) + R"(", "namespace": "default"}, "spec": {"spec": {"devices": {"requests": [{"name": "req", "exactly": {"deviceClassName": ")" +
         std::string(device_class) + R"(", "count": )" + std::to_string(count) + "}}]}}}}\n";
}

// A pod whose one container requests `cpu` and uses the claim made from `template_name`.
std::string claim_pod(std::string_view name, std::string_view cpu, std::string_view template_name) {
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + std::string(name) +
         R"(", "namespace": "default"}, "spec": {"containers": [{"name": "main", "resources": {"requests": {"cpu": ")" +
         std::string(cpu) + R"("}, "claims": [{"name": "devices"}]}}], "resourceClaims": [{"name": "devices", "resourceClaimTemplateName": ")" +
         std::string(template_name) + "\"}]}}\n";
}

struct nar_run {
  std::optional<json::document> doc;
  sim::run_report report;
};

nar_run run_nar(const std::string& text, alloc::features features = alloc::features::all()) {
  nar_run out;
  auto doc = json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return out;
  out.doc.emplace(std::move(*doc));
  out.report = sim::run_scenario(out.doc->scenario(), nar_engine, features);
  return out;
}

// Three cores of node-a's four would make the pod's cpu 2 + 3 = 5 of node-a's 4: node-a refuses it, as
// DynamicResources' check after allocating there does, and node-b (8 cpu) takes it.
const std::string three_cores_scenario = nar_node("node-a", "4") + nar_node("node-b", "8") + nar_classes +
                                         core_slice("node-a", 4) + core_slice("node-b", 4) +
                                         claim_template("three-cores", "cores", 3) + claim_pod("first", "2", "three-cores");

TEST(NodeAllocatableResources, MappedCpuThatDoesNotFitSendsThePodToTheNextNode) {
  const auto r = run_nar(three_cores_scenario);
  ASSERT_EQ(r.report.pods.size(), 1u);
  EXPECT_EQ(r.report.pods[0].node, "node-b");
  ASSERT_EQ(r.report.pods[0].node_allocatable.size(), 1u);
  const model::node_allocatable_claim_status& status = r.report.pods[0].node_allocatable[0];
  EXPECT_EQ(status.resource_claim_name, sched::generated_claim_name(r.doc->scenario().pods[0].object.meta, "devices"));
  EXPECT_EQ(status.containers, std::vector<model::text>{"main"});
  ASSERT_EQ(status.mapping.size(), 1u);
  EXPECT_EQ(status.mapping[0].name, "cpu");
  EXPECT_EQ(status.mapping[0].value.to_string(), "3");  // one cpu per allocated device
  EXPECT_TRUE(status.overhead.empty());
}

TEST(NodeAllocatableResources, WithTheFeatureOffTheFieldChangesNothing) {
  alloc::features off = alloc::features::all();
  off.node_allocatable_resources = false;
  const auto r = run_nar(three_cores_scenario, off);
  ASSERT_EQ(r.report.pods.size(), 1u);
  EXPECT_EQ(r.report.pods[0].node, "node-a");
  EXPECT_TRUE(r.report.pods[0].node_allocatable.empty());
}

TEST(NodeAllocatableResources, ARefusedNodeIsNotRememberedAsUnfitForTheClaims) {
  // The second pod needs three cores too: node-b has one left, node-a has four but refuses it for cpu. A third pod
  // asking 1 cpu with the same claim shape fits node-a (1 + 3 = 4): node-a's refusal of the second pod was the
  // second pod's, not the shape's.
  const auto r = run_nar(three_cores_scenario + claim_pod("second", "2", "three-cores") +
                         claim_pod("third", "1", "three-cores"));
  ASSERT_EQ(r.report.pods.size(), 3u);
  EXPECT_EQ(r.report.pods[1].node, std::nullopt);
  EXPECT_EQ(r.report.pods[1].unschedulable,
            "0/2 nodes are available: 1 Insufficient cpu, 1 cannot allocate all claims. still not schedulable, "
            "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not "
            "helpful for scheduling.");
  EXPECT_EQ(r.report.pods[2].node, "node-a");
}

TEST(NodeAllocatableResources, ClaimsOfAPodEveryNodeRefusesForItsDevicesSayWhy) {
  const auto r = run_nar(nar_node("node-a", "4") + nar_classes + core_slice("node-a", 4) +
                         claim_template("three-cores", "cores", 3) + claim_pod("first", "2", "three-cores"));
  ASSERT_EQ(r.report.pods.size(), 1u);
  EXPECT_EQ(r.report.pods[0].unschedulable,
            "0/1 nodes are available: 1 Insufficient cpu. still not schedulable, preemption: 0/1 nodes are available: "
            "1 No preemption victims found for incoming pod.");
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  const auto* refused = std::get_if<model::claim_unschedulable>(&r.report.outcomes[0].status);
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->reason, "its pod fits no node: 0/1 nodes are available: 1 Insufficient cpu.");
}

TEST(NodeAllocatableResources, TheNodeCountsTheMappedAmountForLaterPods) {
  // node-b runs the first pod: 2 cpu of its own and 3 from its cores. A pod asking 4 cpu there no longer fits
  // (5 + 4 > 8); without the cores it would (2 + 4).
  const std::string later =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "later", "namespace": "default"}, "spec": {"nodeSelector": {"kubernetes.io/hostname": "node-b"}, "containers": [{"name": "main", "resources": {"requests": {"cpu": "4"}}}]}})"
      "\n";
  const auto r = run_nar(three_cores_scenario + later);
  ASSERT_EQ(r.report.pods.size(), 2u);
  EXPECT_EQ(r.report.pods[1].node, std::nullopt);
  EXPECT_EQ(r.report.pods[1].unschedulable,
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector. no new "
            "claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming "
            "pod, 1 Preemption is not helpful for scheduling.");
}

TEST(NodeAllocatableResources, AClaimWithMappedDevicesIsNotSharedWithASecondPod) {
  // Both pods name one claim of three cores: the first allocates it on node-b (node-a is short of cpu); the second
  // may only go where the claim is, and there its devices are another pod's.
  const std::string claim =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": "default"}, "spec": {"devices": {"requests": [{"name": "req", "exactly": {"deviceClassName": "cores", "count": 3}}]}}})"
      "\n";
  auto named_pod = [](std::string_view name) {
    return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + std::string(name) +
           R"(", "namespace": "default"}, "spec": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1"}}}], "resourceClaims": [{"name": "c", "resourceClaimName": "shared"}]}})" + "\n";
  };
  const auto r = run_nar(nar_node("node-a", "3") + nar_node("node-b", "8") + nar_classes + core_slice("node-a", 4) +
                         core_slice("node-b", 4) + claim + named_pod("one") + named_pod("two"));
  ASSERT_EQ(r.report.pods.size(), 2u);
  EXPECT_EQ(r.report.pods[0].node, "node-b");
  EXPECT_EQ(r.report.pods[1].unschedulable,
            "0/2 nodes are available: 1 node allocatable resource claim shared has a mapped device and cannot be shared "
            "across pods, 1 resourceclaim not available on the node. still not schedulable, preemption: 0/2 nodes are "
            "available: 2 Preemption is not helpful for scheduling.");
}

TEST(NodeAllocatableResources, ABoundPodsRecordedStatusCountsOnItsNode) {
  // A pod bound to node-b whose status records 5 cpu from its claim, beside its own 1: 6 of 8 taken.
  const std::string bound =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bound", "namespace": "default"}, "spec": {"nodeName": "node-b", "containers": [{"name": "main", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Running", "nodeAllocatableResourceClaimStatuses": [{"resourceClaimName": "c", "containers": ["main"], "mapping": [{"name": "cpu", "quantity": "5"}]}]}})"
      "\n";
  const std::string pending =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pending", "namespace": "default"}, "spec": {"nodeSelector": {"kubernetes.io/hostname": "node-b"}, "containers": [{"name": "main", "resources": {"requests": {"cpu": "3"}}}]}})"
      "\n";
  const std::string text = nar_node("node-a", "4") + nar_node("node-b", "8") + nar_classes + core_slice("node-a", 1) + bound + pending;
  EXPECT_EQ(run_nar(text).report.pods[0].node, std::nullopt);
  alloc::features off = alloc::features::all();
  off.node_allocatable_resources = false;
  EXPECT_EQ(run_nar(text, off).report.pods[0].node, "node-b");
}

TEST(NodeAllocatableResources, ConsumedCapacityTimesItsMultiplierAndOverheadsPerContainer) {
  // One shared memory device: a claim consuming 4Gi of it maps 4Gi * 2 of node memory; a GPU adds 1Gi per pod and
  // 512Mi per container that uses it (two here): 8Gi + 2Gi on top of the containers' 1Gi.
  const std::string slices =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-a-mem"}, "spec": {"driver": "cpu.example.com", "nodeName": "node-a", "pool": {"name": "node-a-mem", "resourceSliceCount": 1}, "devices": [{"name": "mem", "allowMultipleAllocations": true, "capacity": {"dra.example.com/memory": {"value": "64Gi"}}, "nodeAllocatableResources": {"memory": {"mapping": {"capacityKey": "dra.example.com/memory", "capacityMultiplier": "2"}}}}]}})"
      "\n"
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-a-gpu"}, "spec": {"driver": "gpu.example.com", "nodeName": "node-a", "pool": {"name": "node-a-gpu", "resourceSliceCount": 1}, "devices": [{"name": "gpu-0", "nodeAllocatableResources": {"memory": {"overhead": {"perPod": "1Gi", "perContainer": "512Mi"}}}}]}})"
      "\n";
  const std::string claims =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "mem", "namespace": "default"}, "spec": {"devices": {"requests": [{"name": "req", "exactly": {"deviceClassName": "cores", "capacity": {"requests": {"dra.example.com/memory": "4Gi"}}}}]}}})"
      "\n"
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "gpu", "namespace": "default"}, "spec": {"devices": {"requests": [{"name": "req", "exactly": {"deviceClassName": "gpus"}}]}}})"
      "\n";
  const std::string pod =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer", "namespace": "default"}, "spec": {"containers": [{"name": "a", "resources": {"requests": {"memory": "1Gi"}, "claims": [{"name": "m"}, {"name": "g"}]}}, {"name": "b", "resources": {"claims": [{"name": "g"}]}}], "resourceClaims": [{"name": "m", "resourceClaimName": "mem"}, {"name": "g", "resourceClaimName": "gpu"}]}})"
      "\n";
  // 11Gi fits 11Gi exactly; 1Mi less does not.
  auto r = run_nar(nar_node("node-a", "4", "11Gi") + nar_classes + slices + claims + pod);
  ASSERT_EQ(r.report.pods.size(), 1u);
  ASSERT_EQ(r.report.pods[0].node, "node-a");
  const auto& statuses = r.report.pods[0].node_allocatable;
  ASSERT_EQ(statuses.size(), 2u);
  EXPECT_EQ(statuses[0].resource_claim_name, "gpu");  // sorted by claim name
  EXPECT_EQ(statuses[0].containers, (std::vector<model::text>{"a", "b"}));
  EXPECT_TRUE(statuses[0].mapping.empty());
  ASSERT_EQ(statuses[0].overhead.size(), 1u);
  EXPECT_EQ(statuses[0].overhead[0].name, "memory");
  EXPECT_EQ(statuses[0].overhead[0].per_pod->to_string(), "1Gi");
  EXPECT_EQ(statuses[0].overhead[0].per_container->to_string(), "512Mi");
  EXPECT_EQ(statuses[1].resource_claim_name, "mem");
  EXPECT_EQ(statuses[1].containers, std::vector<model::text>{"a"});
  ASSERT_EQ(statuses[1].mapping.size(), 1u);
  EXPECT_EQ(statuses[1].mapping[0].value.to_string(), "8Gi");

  r = run_nar(nar_node("node-a", "4", "11263Mi") + nar_classes + slices + claims + pod);
  EXPECT_EQ(r.report.pods[0].unschedulable,
            "0/1 nodes are available: 1 Insufficient memory. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod.");
}

TEST(NodeAllocatableResources, TheScenarioOutputRecordsTheStatusAndReadsItBack) {
  const auto r = run_nar(three_cores_scenario);
  auto written = sim::scenario_after(r.doc->scenario(), r.report);
  ASSERT_TRUE(written) << written.error().to_string();
  const std::string claim = sched::generated_claim_name(r.doc->scenario().pods[0].object.meta, "devices");
  EXPECT_NE(written->find(R"("nodeAllocatableResourceClaimStatuses": [
          {
            "resourceClaimName": ")" + claim + R"(",
            "containers": [
              "main"
            ],
            "mapping": [
              {
                "name": "cpu",
                "quantity": "3"
              }
            ]
          }
        ])"),
            std::string::npos)
      << *written;
  auto again = json::load(*written);
  ASSERT_TRUE(again) << again.error().to_string();
  const auto& pods = again->scenario().pods;
  ASSERT_EQ(pods.size(), 1u);
  ASSERT_EQ(pods[0].object.node_allocatable_claim_statuses.size(), 1u);
  EXPECT_EQ(pods[0].object.node_allocatable_claim_statuses[0], r.report.pods[0].node_allocatable[0]);
}

}  // namespace
