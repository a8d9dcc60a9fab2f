// Preemption in a run, as kube-scheduler's DefaultPreemption decides it: the candidates, the victims and the node
// chosen, the victims' claims released, the preemptor tried again after the queue, and the PostFilters' words on
// every pod no node takes; priorities from PriorityClasses.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/explain/claims.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/output/scenario_output.hpp>
#include <dra/sim/runner.hpp>
#include <dra/validate/scenario.hpp>

#include "../support/source_dir.hpp"

#include "preemption_run.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {
namespace preemption_tests {  // one translation unit with the other sim tests: these names are its own

using namespace dra;

const cel::selector_engine preemption_engine;

using dra_test::node;
using dra_test::pod;
using dra_test::pod_spec;

using run = dra_test::preemption_run;

run run_text(const std::string& text, alloc::features features = alloc::features::all()) {
  return dra_test::run_preemption(text, features);
}

// Four full nodes, each running one batch pod of priority 100 that started at a different time.
const std::string full_nodes = node("node-a", "4") + node("node-b", "4") + node("node-c", "4") + node("node-d", "4") +
                               pod({"batch-a", "4", 100, "node-a", "2026-11-01T01:00:00Z", {}}) +
                               pod({"batch-b", "4", 100, "node-b", "2026-11-01T03:00:00Z", {}}) +
                               pod({"batch-c", "4", 100, "node-c", "2026-11-01T02:00:00Z", {}}) +
                               pod({"batch-d", "4", 100, "node-d", "2026-11-01T00:30:00Z", {}});

TEST(Preemption, AHighPriorityPodEvictsTheVictimThatStartedLastAndLandsOnItsNode) {
  const run r = run_text(full_nodes + pod({"payments", "4", 10000, {}, {}, {}}));
  const sim::pod_outcome& o = r.outcome("payments");
  // The first attempt's text is the fit error alone: preemption found victims, so nothing is added.
  EXPECT_EQ(o.unschedulable, "0/4 nodes are available: 4 Insufficient cpu.");
  ASSERT_TRUE(o.preemption);
  EXPECT_EQ(o.preemption->nominated_node, "node-b");
  ASSERT_EQ(o.preemption->victims.size(), 1u);
  EXPECT_EQ(r.pod_name(o.preemption->victims[0]), "batch-b");
  // Every node ties on all rules but the last: batch-b started latest.
  EXPECT_EQ(o.preemption->rule, sched::preemption_rule::latest_start);
  EXPECT_EQ(o.preemption->candidates, 4u);
  EXPECT_EQ(o.preemption->retry_node, "node-b");
  EXPECT_EQ(o.node, "node-b");
  ASSERT_EQ(r.report.evictions.size(), 1u);
  EXPECT_EQ(r.pod_name(r.report.evictions[0].pod), "batch-b");
  EXPECT_EQ(r.pod_name(r.report.evictions[0].preemptor), "payments");
}

TEST(Preemption, TheNodeWhoseVictimsMatterLeastIsChosen) {
  // node-a would lose a priority-500 pod, node-b two priority-100 pods: the lower highest priority wins, although it
  // takes two victims. node-c's pods are not lower than the preemptor's.
  const std::string text = node("node-a", "4") + node("node-b", "4") + node("node-c", "4") +
                           pod({"important", "4", 500, "node-a", {}, {}}) + pod({"one", "2", 100, "node-b", {}, {}}) +
                           pod({"two", "2", 100, "node-b", {}, {}}) + pod({"peer", "4", 1000, "node-c", {}, {}}) +
                           pod({"preemptor", "3", 1000, {}, {}, {}});
  const run r = run_text(text);
  const sim::pod_outcome& o = r.outcome("preemptor");
  ASSERT_TRUE(o.preemption);
  EXPECT_EQ(o.preemption->nominated_node, "node-b");
  EXPECT_EQ(o.preemption->rule, sched::preemption_rule::lowest_top_priority);
  ASSERT_EQ(o.preemption->victims.size(), 2u);  // 3 cpu of 4: freeing one 2-cpu pod is not enough
  EXPECT_EQ(o.node, "node-b");
  EXPECT_EQ(o.preemption->candidates, 2u);
}

TEST(Preemption, APodThatStillFitsWithAVictimBackReprievesIt) {
  // Removing every lower pod frees 4 cpu; the pod needs 2: the more important of the two (priority 200) is given
  // back and only the priority-50 pod goes.
  const std::string text = node("node-a", "4") + pod({"keep", "2", 200, "node-a", {}, {}}) +
                           pod({"drop", "2", 50, "node-a", {}, {}}) + pod({"preemptor", "2", 1000, {}, {}, {}});
  const run r = run_text(text);
  const sim::pod_outcome& o = r.outcome("preemptor");
  ASSERT_TRUE(o.preemption);
  ASSERT_EQ(o.preemption->victims.size(), 1u);
  EXPECT_EQ(r.pod_name(o.preemption->victims[0]), "drop");
  EXPECT_EQ(o.preemption->rule, sched::preemption_rule::only_candidate);
  EXPECT_EQ(o.node, "node-a");
}

TEST(Preemption, NoLowerPriorityPodMeansNoVictimsAndTheWholeText) {
  const std::string text = node("node-a", "2") + node("node-b", "2") + pod({"a", "2", 0, "node-a", {}, {}}) +
                           pod({"b", "2", 0, "node-b", {}, {}}) + pod({"pending", "1", {}, {}, {}, {}});
  const run r = run_text(text);
  const sim::pod_outcome& o = r.outcome("pending");
  EXPECT_FALSE(o.preemption);
  EXPECT_EQ(o.unschedulable,
            "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are "
            "available: 2 No preemption victims found for incoming pod.");
  EXPECT_TRUE(r.report.evictions.empty());
}

// A run that leaves refusals unexplained (run_options::explain_refusals off, the guard's first-fit baseline) preempts
// as any run does; it only skips the dry run where no running pod has a lower priority, and keeps no text.
TEST(Preemption, ARunThatLeavesRefusalsUnexplainedStillEvictsTheSameVictim) {
  sim::run_options unexplained;
  unexplained.explain_refusals = false;
  const run r = dra_test::run_preemption(full_nodes + pod({"payments", "4", 10000, {}, {}, {}}),
                                         alloc::features::all(), unexplained);
  const sim::pod_outcome& o = r.outcome("payments");
  ASSERT_TRUE(o.preemption);
  EXPECT_EQ(o.preemption->nominated_node, "node-b");
  EXPECT_EQ(o.node, "node-b");
  ASSERT_EQ(r.report.evictions.size(), 1u);
  EXPECT_EQ(r.pod_name(r.report.evictions[0].pod), "batch-b");
  EXPECT_TRUE(o.unschedulable.empty());
}

TEST(Preemption, ARunThatLeavesRefusalsUnexplainedSaysNothingWhereNoPodIsLower) {
  const std::string text = node("node-a", "2") + node("node-b", "2") + pod({"a", "2", 0, "node-a", {}, {}}) +
                           pod({"b", "2", 0, "node-b", {}, {}}) + pod({"pending", "1", {}, {}, {}, {}});
  sim::run_options unexplained;
  unexplained.explain_refusals = false;
  const run r = dra_test::run_preemption(text, alloc::features::all(), unexplained);
  const sim::pod_outcome& o = r.outcome("pending");
  EXPECT_FALSE(o.node);
  EXPECT_FALSE(o.preemption);
  EXPECT_TRUE(o.reasons.empty());
  EXPECT_EQ(o.unschedulable, "");  // neither the fit error nor the dry run's
  EXPECT_TRUE(r.report.evictions.empty());
}

TEST(Preemption, APodThatNeverPreemptsSaysSo) {
  const std::string text = node("node-a", "2") + node("node-b", "2") + pod({"a", "2", 0, "node-a", {}, {}}) +
                           pod({"b", "2", 0, "node-b", {}, {}}) +
                           pod({"polite", "1", 1000, {}, {}, R"("preemptionPolicy": "Never", )"});
  const run r = run_text(text);
  EXPECT_EQ(r.outcome("polite").unschedulable,
            "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due "
            "to preemptionPolicy=Never.");
  EXPECT_TRUE(r.report.evictions.empty());
}

const std::string gpu_class =
    R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"}, "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}})"
    "\n";
std::string gpu_slice(std::string_view node_name, std::string_view device) {
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" +
         std::string(node_name) + R"("}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + std::string(node_name) +
         R"(", "pool": {"name": ")" + std::string(node_name) + R"(", "resourceSliceCount": 1}, "devices": [{"name": ")" +
         std::string(device) + R"("}]}})" + "\n";
}
const std::string gpu_template =
    R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "one-gpu", "namespace": "default"}, "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}})"
    "\n";
constexpr std::string_view uses_gpu_template =
    R"("resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}], )";

TEST(Preemption, DevicesAreNotFreedByTheDryRunAndDeviceRefusalsAreNotCandidates) {
  // node-a refuses for cpu and has no GPU; node-b and node-c have cpu but their GPUs are taken. The dry run on node-a
  // frees the cpu, then DynamicResources refuses it: kube-scheduler's exact text.
  const std::string text =
      node("node-a", "2") + node("node-b", "8") + node("node-c", "8") + gpu_class + gpu_template +
      gpu_slice("node-b", "gpu-0") + gpu_slice("node-c", "gpu-0") + pod({"low", "2", 0, "node-a", {}, {}}) +
      pod({"holder-b", "1", 5000, {}, {}, std::string(uses_gpu_template)}) +
      pod({"holder-c", "1", 5000, {}, {}, std::string(uses_gpu_template)}) +
      pod({"trainer", "2", 1000, {}, {}, std::string(uses_gpu_template)});
  const run r = run_text(text);
  EXPECT_EQ(r.outcome("holder-b").node, "node-b");
  EXPECT_EQ(r.outcome("holder-c").node, "node-c");
  const sim::pod_outcome& o = r.outcome("trainer");
  EXPECT_FALSE(o.preemption);
  EXPECT_EQ(o.unschedulable,
            "0/3 nodes are available: 1 Insufficient cpu, 2 cannot allocate all claims. still not schedulable, "
            "preemption: 0/3 nodes are available: 1 cannot allocate all claims, 2 Preemption is not helpful for "
            "scheduling.");
}

TEST(Preemption, AVictimsOwnClaimIsReleasedAndItsDeviceServesALaterPod) {
  // The victim holds gpu-0 through a claim made from its template (it owns it). Once it is evicted the claim is
  // deleted and gpu-0 is free: a later pod asking for a GPU gets it.
  const std::string victim_claim =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "victim-gpu-abcde", "namespace": "default", "uid": "claim-uid",)"
      R"( "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "victim", "uid": "uid-victim", "controller": true}]},)"
      R"( "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},)"
      R"( "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-a", "device": "gpu-0"}]}},)"
      R"( "reservedFor": [{"resource": "pods", "name": "victim", "uid": "uid-victim"}]}})"
      "\n";
  const std::string victim_status =
      R"("resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}], )";
  std::string victim = pod({"victim", "4", 0, "node-a", {}, victim_status});
  // Its status names the claim made for it.
  victim.insert(victim.rfind('}', victim.rfind('}') - 1),
                R"(, "resourceClaimStatuses": [{"name": "gpu", "resourceClaimName": "victim-gpu-abcde"}])");
  const std::string text = node("node-a", "4") + gpu_class + gpu_template + gpu_slice("node-a", "gpu-0") +
                           victim_claim + victim + pod({"urgent", "4", 1000, {}, {}, {}}) +
                           pod({"later", "0", 500, {}, {}, std::string(uses_gpu_template)});
  const run r = run_text(text);
  ASSERT_TRUE(r.outcome("urgent").preemption);
  EXPECT_EQ(r.outcome("urgent").node, "node-a");
  ASSERT_EQ(r.report.released.size(), 1u);
  EXPECT_EQ(r.doc->scenario().claims[r.report.released[0].claim].object.meta.name, "victim-gpu-abcde");
  EXPECT_TRUE(r.report.released[0].deleted);
  EXPECT_EQ(r.outcome("later").node, "node-a");
  // Explained, the later pod's claim met gpu-0 free: the eviction came before its unit.
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  const std::vector<std::string> names{r.report.outcomes[0].claim};
  const auto explained = sim::explain_claims(r.doc->scenario(), r.report, preemption_engine, alloc::features::all(), names);
  ASSERT_EQ(explained.size(), 1u);
  EXPECT_EQ(explained[0].status, model::claim_status::allocated);
  ASSERT_EQ(explained[0].diagnosis.nodes.size(), 1u);
  EXPECT_EQ(explained[0].diagnosis.nodes[0].verdict, model::explanation_code::fits);
}

TEST(Preemption, ALaterPodDoesNotTakeTheRoomHeldForTheNominatedPod) {
  // The victim frees 4 cpu for the preemptor, which is tried again only after the queue; the equal-priority pod
  // after it in the queue finds the room held and preempts nobody (the only lower pod is gone).
  const std::string text = node("node-a", "4") + pod({"victim", "4", 0, "node-a", {}, {}}) +
                           pod({"first", "4", 1000, {}, {}, {}}) + pod({"second", "4", 1000, {}, {}, {}});
  run r = run_text(text);
  EXPECT_EQ(r.outcome("first").node, "node-a");
  EXPECT_EQ(r.outcome("second").node, std::nullopt);
  EXPECT_EQ(r.outcome("second").unschedulable,
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod.");
}

TEST(Preemption, TheClusterWrittenAfterTheRunIsTheOneAfterTheEvictions) {
  // tests/cli/data/preemption.yaml: the trainer evicts etl-3 on node-b, whose own claim is deleted; the notebook gets
  // its GPU; the polite pod (preemptionPolicy Never) waits.
  auto doc = json::load_file(dra_test::source_dir() + "/tests/cli/data/preemption.yaml");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), preemption_engine);
  ASSERT_EQ(report.evictions.size(), 1u);
  EXPECT_EQ(doc->scenario().pods[report.evictions[0].pod].object.meta.name, "etl-3");
  const std::string json = sim::output_document(doc->scenario(), report);
  EXPECT_NE(json.find(R"("nominatedNode": "node-b")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("preemptedBy": "ml/trainer")"), std::string::npos) << json;
  auto written = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(written) << written.error().to_string();
  auto after = json::load(*written);
  ASSERT_TRUE(after) << after.error().to_string();
  const model::scenario& s = after->scenario();
  EXPECT_EQ(s.pods.size(), doc->scenario().pods.size() - 1);  // etl-3 deleted
  for (const auto& p : s.pods) {
    EXPECT_NE(p.object.meta.name, "etl-3");
    if (p.object.meta.name == "trainer" || p.object.meta.name == "notebook") {
      EXPECT_EQ(p.object.node_name, "node-b");
    }
  }
  for (const auto& c : s.claims) EXPECT_NE(c.object.meta.name, "etl-3-gpu-x7k2p");  // made for etl-3: deleted
  // Read back, the cluster is settled: nobody else is evicted, and only the polite pod still waits, with its text.
  const auto again = sim::run_scenario(s, preemption_engine);
  EXPECT_TRUE(again.evictions.empty());
  ASSERT_EQ(again.pods.size(), 1u);
  EXPECT_EQ(s.pods[again.pods[0].pod].object.meta.name, "report");
  EXPECT_EQ(again.pods[0].unschedulable,
            "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to "
            "preemptionPolicy=Never.");
}

// Device-aware preemption (DRAPreemption, KEP-5690): the dry run frees the devices of claims only victims use.
alloc::features with_device_preemption() {
  alloc::features f = alloc::features::all();
  f.device_preemption = true;
  return f;
}

std::string gpus_slice(std::string_view node_name, const std::vector<std::string_view>& devices) {
  std::string list;
  for (std::string_view d : devices) list += std::string(list.empty() ? "" : ", ") + R"({"name": ")" + std::string(d) + R"("})";
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" +
         std::string(node_name) + R"("}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + std::string(node_name) +
         R"(", "pool": {"name": ")" + std::string(node_name) + R"(", "resourceSliceCount": 1}, "devices": [)" + list +
         "]}}\n";
}

// A claim holding `device` of node `node_name`'s pool, allocated as the allocator writes a node-local allocation and
// reserved for the pods `users`.
std::string held_claim(std::string_view name, std::string_view node_name, std::string_view device,
                       const std::vector<std::string_view>& users) {
  std::string reserved;
  for (std::string_view u : users)
    reserved += std::string(reserved.empty() ? "" : ", ") + R"({"resource": "pods", "name": ")" + std::string(u) +
                R"(", "uid": "uid-)" + std::string(u) + R"("})";
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": ")" + std::string(name) +
         R"(", "namespace": "default"}, "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},)"
         R"( "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": ")" +
         std::string(node_name) + R"(", "device": ")" + std::string(device) +
         R"("}]}, "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [")" +
         std::string(node_name) + R"("]}]}]}}, "reservedFor": [)" + reserved + "]}}\n";
}

std::string uses_claim(std::string_view claim) {
  return R"("resourceClaims": [{"name": "gpu", "resourceClaimName": ")" + std::string(claim) + R"("}], )";
}

TEST(DevicePreemption, OffAsKubeSchedulerOnItFreesTheNotebooksGpu) {
  // node-a's only GPU is the notebook's; the trainer has room for its cpu but no GPU.
  const std::string text = node("node-a", "8") + gpu_class + gpu_template + gpu_slice("node-a", "gpu-0") +
                           held_claim("notebook-gpu", "node-a", "gpu-0", {"notebook"}) +
                           pod({"notebook", "1", 10, "node-a", {}, uses_claim("notebook-gpu")}) +
                           pod({"trainer", "1", 1000, {}, {}, std::string(uses_gpu_template)});
  const run upstream = run_text(text);
  EXPECT_FALSE(upstream.outcome("trainer").preemption);
  EXPECT_EQ(upstream.outcome("trainer").unschedulable,
            "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 Preemption is not helpful for scheduling.");
  EXPECT_TRUE(upstream.report.evictions.empty());

  const run r = run_text(text, with_device_preemption());
  const sim::pod_outcome& o = r.outcome("trainer");
  ASSERT_TRUE(o.preemption);
  EXPECT_EQ(o.preemption->nominated_node, "node-a");
  ASSERT_EQ(o.preemption->victims.size(), 1u);
  EXPECT_EQ(r.pod_name(o.preemption->victims[0]), "notebook");
  EXPECT_EQ(o.node, "node-a");
  ASSERT_EQ(r.report.released.size(), 1u);
  EXPECT_EQ(r.doc->scenario().claims[r.report.released[0].claim].object.meta.name, "notebook-gpu");
  EXPECT_FALSE(r.report.released[0].deleted);  // not made from the notebook's template: deallocated, kept
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  const auto* allocated = r.report.outcomes[0].allocated();
  ASSERT_NE(allocated, nullptr);
  EXPECT_EQ(allocated->allocation.results.at(0).device, "gpu-0");
}

TEST(DevicePreemption, TheMoreImportantHolderIsReprievedWhenOneGpuIsEnough) {
  const std::string text = node("node-a", "8") + gpu_class + gpu_template + gpus_slice("node-a", {"gpu-0", "gpu-1"}) +
                           held_claim("low-gpu", "node-a", "gpu-0", {"low"}) +
                           held_claim("mid-gpu", "node-a", "gpu-1", {"mid"}) +
                           pod({"low", "1", 10, "node-a", {}, uses_claim("low-gpu")}) +
                           pod({"mid", "1", 20, "node-a", {}, uses_claim("mid-gpu")}) +
                           pod({"trainer", "1", 1000, {}, {}, std::string(uses_gpu_template)});
  const run r = run_text(text, with_device_preemption());
  const sim::pod_outcome& o = r.outcome("trainer");
  ASSERT_TRUE(o.preemption);
  ASSERT_EQ(o.preemption->victims.size(), 1u);
  EXPECT_EQ(r.pod_name(o.preemption->victims[0]), "low");
  EXPECT_EQ(o.node, "node-a");
}

TEST(DevicePreemption, ASharedClaimIsFreedOnlyWhenEveryPodUsingItGoes) {
  // Two priority-0 pods share the GPU's claim: both go. With a priority-5000 pod sharing it too, nothing frees it.
  const std::string base = node("node-a", "8") + gpu_class + gpu_template + gpu_slice("node-a", "gpu-0") +
                           pod({"one", "1", 0, "node-a", {}, uses_claim("shared-gpu")}) +
                           pod({"two", "1", 0, "node-a", {}, uses_claim("shared-gpu")}) +
                           pod({"trainer", "1", 1000, {}, {}, std::string(uses_gpu_template)});
  const run both = run_text(base + held_claim("shared-gpu", "node-a", "gpu-0", {"one", "two"}), with_device_preemption());
  ASSERT_TRUE(both.outcome("trainer").preemption);
  EXPECT_EQ(both.outcome("trainer").preemption->victims.size(), 2u);
  EXPECT_EQ(both.outcome("trainer").node, "node-a");

  const run kept = run_text(base + held_claim("shared-gpu", "node-a", "gpu-0", {"one", "two", "boss"}) +
                                pod({"boss", "1", 5000, "node-a", {}, uses_claim("shared-gpu")}),
                            with_device_preemption());
  EXPECT_FALSE(kept.outcome("trainer").preemption);
  EXPECT_EQ(kept.outcome("trainer").unschedulable,
            "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 cannot allocate all claims.");
  EXPECT_TRUE(kept.report.evictions.empty());
}

TEST(DevicePreemption, TheFreedGpuIsHeldForThePreemptorNotTakenByTheNextPod) {
  // The next pod in the queue (priority 500) also wants a GPU: it comes before the trainer's retry, yet the freed
  // gpu-0 is held for the trainer. Without DRAPreemption's hold it would have taken it.
  const std::string text = node("node-a", "8") + gpu_class + gpu_template + gpu_slice("node-a", "gpu-0") +
                           held_claim("notebook-gpu", "node-a", "gpu-0", {"notebook"}) +
                           pod({"notebook", "1", 10, "node-a", {}, uses_claim("notebook-gpu")}) +
                           pod({"trainer", "1", 1000, {}, {}, std::string(uses_gpu_template)}) +
                           pod({"next", "1", 500, {}, {}, std::string(uses_gpu_template)});
  const run r = run_text(text, with_device_preemption());
  EXPECT_EQ(r.outcome("trainer").node, "node-a");
  EXPECT_EQ(r.outcome("next").node, std::nullopt);
  EXPECT_EQ(r.outcome("next").unschedulable,
            "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod.");
  // The release counts from the trainer's retry: explained, the next pod's claim met gpu-0 taken.
  ASSERT_EQ(r.report.released.size(), 1u);
  std::vector<std::string> names;
  for (const auto& o : r.report.outcomes) names.push_back(o.claim);
  const auto explained = sim::explain_claims(r.doc->scenario(), r.report, preemption_engine, with_device_preemption(), names);
  ASSERT_EQ(explained.size(), 2u);
  for (const auto& e : explained)
    if (e.status != model::claim_status::allocated) {
      ASSERT_EQ(e.diagnosis.nodes.size(), 1u);
      EXPECT_NE(e.diagnosis.nodes[0].verdict, model::explanation_code::fits);
    }
}

TEST(DevicePreemption, AClaimOfADeviceNotLocalToTheNodeIsNotFreed) {
  // The notebook's claim has no node selector (a network-attached device, say): KEP-5690 does not release it.
  std::string claim = held_claim("notebook-gpu", "node-a", "gpu-0", {"notebook"});
  const std::size_t selector = claim.find(R"(, "nodeSelector")");
  claim.erase(selector, claim.find(R"(, "reservedFor")") - selector - 1);
  const std::string text = node("node-a", "8") + gpu_class + gpu_template + gpu_slice("node-a", "gpu-0") + claim +
                           pod({"notebook", "1", 10, "node-a", {}, uses_claim("notebook-gpu")}) +
                           pod({"trainer", "1", 1000, {}, {}, std::string(uses_gpu_template)});
  const run r = run_text(text, with_device_preemption());
  EXPECT_FALSE(r.outcome("trainer").preemption);
  EXPECT_EQ(r.outcome("trainer").unschedulable,
            "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 cannot allocate all claims.");
}

TEST(DevicePreemption, AnExtendedResourceDraServesMustFitInTheDryRunToo) {
  // node-a takes one pod and its GPU, which DRA serves as example.com/gpu, is the holder's. Evicting the holder frees
  // the pod slot, but (without DRAPreemption) not the GPU: DynamicResources' Filter still refuses, nobody is evicted.
  const std::string one_pod_node =
      R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "1"}}})"
      "\n";
  const std::string extended_class =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"}, "spec": {"extendedResourceName": "example.com/gpu", "selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}})"
      "\n";
  std::string trainer = pod({"trainer", "1", 1000, {}, {}, {}});
  const std::string_view cpu_only = R"({"requests": {"cpu": "1"}})";
  trainer.replace(trainer.find(cpu_only), cpu_only.size(),
                  R"({"requests": {"cpu": "1", "example.com/gpu": "1"}, "limits": {"example.com/gpu": "1"}})");
  const std::string text = one_pod_node + extended_class + gpu_slice("node-a", "gpu-0") +
                           held_claim("holder-gpu", "node-a", "gpu-0", {"holder"}) +
                           pod({"holder", "1", 10, "node-a", {}, uses_claim("holder-gpu")}) + trainer;
  const run upstream = run_text(text);
  EXPECT_FALSE(upstream.outcome("trainer").preemption);
  EXPECT_TRUE(upstream.report.evictions.empty());
  EXPECT_EQ(upstream.outcome("trainer").unschedulable,
            "0/1 nodes are available: 1 Too many pods. still not schedulable, preemption: 0/1 nodes are available: 1 "
            "cannot allocate all claims.");

  const run r = run_text(text, with_device_preemption());
  ASSERT_TRUE(r.outcome("trainer").preemption);
  ASSERT_EQ(r.report.evictions.size(), 1u);
  EXPECT_EQ(r.pod_name(r.report.evictions[0].pod), "holder");
  EXPECT_EQ(r.outcome("trainer").node, "node-a");
}

const std::string classes =
    R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "training-high"}, "value": 1000000})"
    "\n"
    R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "default-low"}, "value": 10, "globalDefault": true, "preemptionPolicy": "Never"})"
    "\n";

TEST(Priorities, APodsClassGivesItsPriorityAndTheDefaultClassTheRest) {
  auto doc = json::load(classes + pod({"named", "1", {}, {}, {}, R"("priorityClassName": "training-high", )"}) +
                        pod({"unnamed", "1", {}, {}, {}, {}}) +
                        pod({"given", "1", 7, {}, {}, R"("priorityClassName": "training-high", )"}) +
                        pod({"system", "1", {}, {}, {}, R"("priorityClassName": "system-node-critical", )"}));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto& pods = doc->scenario().pods;
  EXPECT_EQ(pods[0].object.priority, 1000000);
  EXPECT_TRUE(model::preempts_lower_priority(pods[0].object));
  EXPECT_EQ(pods[1].object.priority, 10);  // the global default class, and its policy
  EXPECT_FALSE(model::preempts_lower_priority(pods[1].object));
  EXPECT_EQ(pods[2].object.priority, 7);  // admitted already: spec.priority stands
  EXPECT_EQ(pods[3].object.priority, 2000001000);
  EXPECT_TRUE(doc->scenario().warnings.empty());
}

TEST(Priorities, AHandWrittenPodOfAHighClassWinsTheGpuOverAnEarlierPodWithoutOne) {
  const std::string text =
      node("node-a", "8") + gpu_class + gpu_template + gpu_slice("node-a", "gpu-0") + classes.substr(0, classes.find('\n') + 1) +
      pod({"early", "1", {}, {}, {}, std::string(uses_gpu_template)}) +
      pod({"trainer", "1", {}, {}, {}, std::string(uses_gpu_template) + R"("priorityClassName": "training-high", )"});
  const run r = run_text(text);
  EXPECT_EQ(r.outcome("trainer").node, "node-a");
  EXPECT_EQ(r.outcome("early").node, std::nullopt);
}

TEST(Priorities, AnUnknownClassIsAWarningOnLoadAndAnErrorInValidation) {
  auto doc = json::load(pod({"lost", "1", {}, {}, {}, R"("priorityClassName": "nope", )"}));
  ASSERT_TRUE(doc) << doc.error().to_string();
  ASSERT_EQ(doc->scenario().warnings.size(), 1u);
  EXPECT_EQ(doc->scenario().warnings[0],
            "Pod/default/lost: spec.priorityClassName: no PriorityClass with name nope was found (the API server "
            "refuses such a pod; priority 0 is used)");
  const auto problems = validate::validate(*doc);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].path, "spec.priorityClassName");
  EXPECT_EQ(problems[0].code, errc::not_found);
}

TEST(Priorities, ClassesAreValidatedAsTheApiServerDoes) {
  auto doc = json::load(
      R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "too-high"}, "value": 1000000001})"
      "\n"
      R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "system-mine"}, "value": 1})"
      "\n"
      R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "a"}, "value": 1, "globalDefault": true, "preemptionPolicy": "Sometimes"})"
      "\n"
      R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "b"}, "value": 2, "globalDefault": true})"
      "\n");
  ASSERT_TRUE(doc) << doc.error().to_string();
  std::vector<std::string> said;
  for (const auto& e : validate::validate(*doc)) said.push_back(e.object + " " + e.path);
  EXPECT_EQ(said, (std::vector<std::string>{"PriorityClass/too-high value", "PriorityClass/system-mine metadata.name",
                                            "PriorityClass/a preemptionPolicy", "PriorityClass/b globalDefault"}));
}

}  // namespace preemption_tests
}  // namespace
