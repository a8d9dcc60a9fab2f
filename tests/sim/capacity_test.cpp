// sim::capacity and sim::what_if on tests/cli/data/capacity.yaml, with the answers worked out by hand.
#include "../support/source_dir.hpp"

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>
#include <dra/sim/analysis/what_if.hpp>
#include <dra/sched/generated_names.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include <optional>
#include <string>
#include <vector>

namespace capacity_tests {

using namespace dra;

const cel::selector_engine engine;

json::document load_fixture() {
  auto doc = json::load_file(dra_test::source_dir() + "/tests/cli/data/capacity.yaml");
  EXPECT_TRUE(doc) << doc.error().to_string();
  return std::move(*doc);
}

sim::capacity_report trainers(const model::scenario& s, sim::capacity_options options = {}) {
  auto pod = sim::find_pod(s, "default/trainer");
  EXPECT_TRUE(pod) << pod.error().to_string();
  auto report = sim::capacity(s, **pod, engine, alloc::features::all(), alloc::first_fit{}, options);
  EXPECT_TRUE(report) << report.error().to_string();
  return std::move(*report);
}

// What each pending pod of a run got: "name -> node" or "name: why not".
std::vector<std::string> placements(const model::scenario& s, const sim::run_report& report) {
  std::vector<std::string> out;
  for (const auto& p : report.pods) {
    const std::string name(sim::pod_at(s, report, p.pod).meta.name);
    out.push_back(p.node ? name + " -> " + *p.node : name + ": " + p.unschedulable);
  }
  return out;
}

TEST(Capacity, CopiesFollowThePendingPodsUntilOneDoesNotFit) {
  // node-a: 8 cpu, web 3 -> 5 left; node-b: 4 cpu, runner 1 -> 3 left, gpu-1 free. The pending trainer (2 cpu) takes
  // node-a/gpu-0 (cpu 5/8); pair (node-b only, 2 GPUs) finds one GPU there and waits.
  // Copies of trainer (2 cpu, 1 GPU): trainer-1 -> node-a (7/8, gpu-1); trainer-2: node-a 7+2 > 8 -> node-b (3/4,
  // gpu-1); trainer-3: node-a 9 > 8, node-b 5 > 4: two nodes short of cpu. 2 fit: one on each node.
  const auto doc = load_fixture();
  const auto report = trainers(doc.scenario());
  EXPECT_EQ(report.pod, "default/trainer");
  EXPECT_EQ(report.fits, 2u);
  EXPECT_EQ(report.nodes, (std::vector<sim::node_count>{{"node-a", 1}, {"node-b", 1}}));
  ASSERT_TRUE(report.next);
  EXPECT_EQ(report.next->unschedulable, "0/2 nodes are available: 2 Insufficient cpu.");
  EXPECT_EQ(placements(doc.scenario(), report.run),
            (std::vector<std::string>{"trainer -> node-a",
                                      "pair: 0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't "
                                      "match Pod's node affinity/selector. still not schedulable, preemption: 0/2 "
                                      "nodes are available: 2 Preemption is not helpful for scheduling.",
                                      // The copies count what fits without evicting: their text is the fit error.
                                      "trainer-1 -> node-a", "trainer-2 -> node-b",
                                      "trainer-3: 0/2 nodes are available: 2 Insufficient cpu."}));
  // Each copy has a claim of its own, made from the template.
  ASSERT_EQ(report.next_claims.size(), 1u);
  const model::pod& third = sim::pod_at(doc.scenario(), report.run, report.next->pod);
  EXPECT_EQ(third.meta.name, "trainer-3");
  EXPECT_EQ(report.run.outcomes[report.next_claims[0]].claim,
            "default/" + sched::generated_claim_name(third.meta, "gpu"));
}

TEST(Capacity, MaxStopsTheCountWithoutANextCopy) {
  const auto doc = load_fixture();
  const auto report = trainers(doc.scenario(), {.max = 1, .run = {}});
  EXPECT_EQ(report.fits, 1u);
  EXPECT_EQ(report.nodes, (std::vector<sim::node_count>{{"node-a", 1}}));
  EXPECT_FALSE(report.next);
}

TEST(Capacity, TheNextCopyIsExplainedPerClaimWhenNoNodeHasTheDevices) {
  // A copy of pair (1 cpu, 2 GPUs, node-b only) finds node-b with one free
  // GPU after the queue: 0 fit, and its claim says why.
  const auto doc = load_fixture();
  auto pod = sim::find_pod(doc.scenario(), "pair");
  ASSERT_TRUE(pod);
  const auto report = sim::capacity(doc.scenario(), **pod, engine);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->fits, 0u);
  ASSERT_TRUE(report->next);
  EXPECT_EQ(report->next->unschedulable,
            "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's node "
            "affinity/selector.");
  ASSERT_EQ(report->next_claims.size(), 1u);
  const auto* refused = report->run.outcomes[report->next_claims[0]].unschedulable();
  ASSERT_NE(refused, nullptr);
  EXPECT_TRUE(refused->why);
}

// n0 takes one pod, n1 three. Bound b1 holds n1's GPU through a claim its copies share (so they go to n1 only);
// pending p0's claim takes a GPU that every node reaches. Best fit packs p0 onto n1, whose own pool is in use; first
// fit puts it on n0.
constexpr const char* packed_replicas = R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "everywhere"},
 "spec": {"driver": "gpu.example.com", "pool": {"name": "everywhere", "generation": 1, "resourceSliceCount": 1},
  "allNodes": true, "devices": [{"name": "shared-gpu"}]}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0", "labels": {"kubernetes.io/hostname": "n0"}},
 "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "1"}}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"kubernetes.io/hostname": "n1"}},
 "status": {"allocatable": {"cpu": "6", "memory": "2Gi", "pods": "3"}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n1"},
 "spec": {"driver": "gpu.example.com", "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
  "nodeName": "n1", "devices": [{"name": "gpu-0"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "b1-gpu", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},
 "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "n1",
   "device": "gpu-0"}]}, "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name",
   "operator": "In", "values": ["n1"]}]}]}}, "reservedFor": [{"resource": "pods", "name": "b1", "uid": "b1-uid"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "p0-gpu", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b1", "namespace": "default", "uid": "b1-uid"},
 "spec": {"nodeName": "n1", "containers": [{"name": "main", "resources": {"requests": {"cpu": "1"}}}],
  "resourceClaims": [{"name": "gpu", "resourceClaimName": "b1-gpu"}]}, "status": {"phase": "Running"}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p0", "namespace": "default"},
 "spec": {"containers": [{"name": "main"}], "resourceClaims": [{"name": "gpu", "resourceClaimName": "p0-gpu"}]}}
)";

TEST(Capacity, AGuardedPolicyCountsWhatItsAnswerWithTheCopiesPendingPlaces) {
  // With n copies of b1 pending, best fit alone places p0 on n1 and one copy; first fit places p0 on n0 and two, so
  // run_scenario answers with first fit's placements from two copies on: two fit, and the third finds both nodes full.
  auto doc = json::load(packed_replicas);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto& s = doc->scenario();
  auto b1 = sim::find_pod(s, "b1");
  ASSERT_TRUE(b1);
  const auto guarded = sim::capacity(s, **b1, engine, alloc::features::all(), alloc::sorted{});
  ASSERT_TRUE(guarded) << guarded.error().to_string();
  EXPECT_EQ(guarded->fits, 2u);
  EXPECT_EQ(guarded->nodes, (std::vector<sim::node_count>{{"n1", 2}}));
  EXPECT_EQ(guarded->run.placements, sim::run_report::answer::first_fit);
  EXPECT_EQ(placements(s, guarded->run),
            (std::vector<std::string>{"p0 -> n0", "b1-1 -> n1", "b1-2 -> n1",
                                      "b1-3: 0/2 nodes are available: 2 Too many pods."}));
  ASSERT_TRUE(guarded->next);
  EXPECT_EQ(guarded->next->unschedulable, guarded->run.pods.back().unschedulable);

  // One copy pending: best fit's own answer places everything, and is the one reported.
  const auto one = sim::capacity(s, **b1, engine, alloc::features::all(), alloc::sorted{}, {.max = 1, .run = {}});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->fits, 1u);
  EXPECT_EQ(one->run.placements, sim::run_report::answer::policy);
  EXPECT_EQ(placements(s, one->run), (std::vector<std::string>{"p0 -> n1", "b1-1 -> n1"}));
}

TEST(WhatIf, AddedNodesTakeWhatTheClusterCouldNot) {
  // node-b copied once: node-b-whatif-0, 4 cpu, gpu-0 and gpu-1 free, label pool=b: pair (1 cpu, 2 GPUs) now fits
  // there. Then trainer's copies: trainer-1 -> node-a, trainer-2 -> node-b (as before); trainer-3: whatif-0 has cpu
  // (1+2 <= 4) but no GPU left: 2 short of cpu, 1 of devices.
  const auto doc = load_fixture();
  auto changed = sim::what_if(doc.scenario(), {.add_nodes = {{"node-b", 1}}, .drain = {}});
  ASSERT_TRUE(changed) << changed.error().to_string();
  EXPECT_EQ(changed->added_nodes, std::vector<std::string>{"node-b-whatif-0"});
  const model::scenario& s = changed->scenario;
  ASSERT_EQ(s.slices.size(), 3u);
  EXPECT_EQ(s.slices[2].object.meta.name, "node-b-whatif-0-gpus");
  EXPECT_EQ(s.slices[2].object.pool.name, "node-b-whatif-0");
  EXPECT_EQ(s.nodes[2].object.meta.labels[0].value, "node-b-whatif-0");  // kubernetes.io/hostname
  const auto report = trainers(s);
  EXPECT_EQ(placements(s, report.run)[1], "pair -> node-b-whatif-0");
  EXPECT_EQ(report.fits, 2u);
  ASSERT_TRUE(report.next);
  EXPECT_EQ(report.next->unschedulable, "0/3 nodes are available: 1 cannot allocate all claims, 2 Insufficient cpu.");
}

TEST(WhatIf, CopiesOfALargerNodeTakeMoreCopies) {
  // node-a copied: 8 cpu, 3 GPUs, no pods. trainer-3, -4, -5 land there (cpu 2, 4, 6 of 8; GPUs 1, 2, 3 of 3);
  // trainer-6 finds cpu there (8 <= 8) but no GPU: 5 fit.
  const auto doc = load_fixture();
  auto changed = sim::what_if(doc.scenario(), {.add_nodes = {{"node-a", 1}}, .drain = {}});
  ASSERT_TRUE(changed);
  const auto report = trainers(changed->scenario);
  EXPECT_EQ(report.fits, 5u);
  EXPECT_EQ(report.nodes, (std::vector<sim::node_count>{{"node-a", 1}, {"node-b", 1}, {"node-a-whatif-0", 3}}));
  ASSERT_TRUE(report.next);
  EXPECT_EQ(report.next->unschedulable, "0/3 nodes are available: 1 cannot allocate all claims, 2 Insufficient cpu.");
}

TEST(WhatIf, ADrainedNodesPodsArePlacedElsewhere) {
  // node-b drained: runner pending, runner-gpu released. runner (1 cpu) -> node-a (3+1 = 4/8, gpu-0 for runner-gpu),
  // trainer -> node-a (6/8, gpu-1); pair selects pool=b, which no node has now.
  const auto doc = load_fixture();
  auto changed = sim::what_if(doc.scenario(), {.add_nodes = {}, .drain = {"node-b"}});
  ASSERT_TRUE(changed) << changed.error().to_string();
  EXPECT_EQ(changed->drained_pods, std::vector<std::string>{"default/runner"});
  const model::scenario& s = changed->scenario;
  EXPECT_EQ(s.nodes.size(), 1u);
  EXPECT_EQ(s.slices.size(), 1u);
  EXPECT_FALSE(s.claims[0].object.allocation);
  EXPECT_EQ(s.claims[0].source.json.find("allocation"), std::string_view::npos);
  EXPECT_EQ(s.claims[0].source.json.find("reservedFor"), std::string_view::npos);
  EXPECT_EQ(s.pods[1].source.json.find("nodeName"), std::string_view::npos);
  const auto report = sim::run_scenario(s, engine);
  EXPECT_EQ(placements(s, report),
            (std::vector<std::string>{
                "runner -> node-a", "trainer -> node-a",
                "pair: 0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. still not "
                "schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."}));
  // Written out and read again, the drained scenario keeps its changes: nothing is pending but pair.
  auto written = sim::scenario_after(s, report);
  ASSERT_TRUE(written) << written.error().to_string();
  auto again = json::load(*written);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(placements(again->scenario(), sim::run_scenario(again->scenario(), engine)),
            (std::vector<std::string>{
                "pair: 0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. still not "
                "schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."}));
}

TEST(WhatIf, ADrainReportsThePodsThatNoLongerFit) {
  // node-a drained: web (3 cpu) pending -> node-b (1+3 = 4/4); trainer (2 cpu) and pair (1 cpu) find no cpu there.
  const auto doc = load_fixture();
  auto changed = sim::what_if(doc.scenario(), {.add_nodes = {}, .drain = {"node-a"}});
  ASSERT_TRUE(changed);
  const auto report = sim::run_scenario(changed->scenario, engine);
  EXPECT_EQ(placements(changed->scenario, report),
            (std::vector<std::string>{"web -> node-b",
                                      "trainer: 0/1 nodes are available: 1 Insufficient cpu. still not schedulable, "
                                      "preemption: 0/1 nodes are available: 1 No preemption victims found for "
                                      "incoming pod.",
                                      "pair: 0/1 nodes are available: 1 Insufficient cpu. still not schedulable, "
                                      "preemption: 0/1 nodes are available: 1 No preemption victims found for "
                                      "incoming pod."}));
}

TEST(WhatIf, AnUnknownNodeIsAnError) {
  const auto doc = load_fixture();
  auto changed = sim::what_if(doc.scenario(), {.add_nodes = {}, .drain = {"node-z"}});
  ASSERT_FALSE(changed);
  EXPECT_EQ(changed.error().code, errc::not_found);
  EXPECT_EQ(changed.error().message, "--drain: node \"node-z\" not found");
}

}  // namespace capacity_tests

namespace availability_tests {

using namespace dra;

const cel::selector_engine selectors;

// The default scenario (two A100s, each with 14 MIG partitions over one counter set) with gpu-0's 3g.20gb instance
// on memory slices 0-3 allocated.
constexpr const char* mig_taken = R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "taken", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "mig", "exactly": {"deviceClassName": "mig.nvidia.com"}}]}},
 "status": {"allocation": {"devices": {"results": [{"request": "mig", "driver": "gpu.nvidia.com",
   "pool": "dgx-a100-1", "device": "gpu-0-mig-3g-20gb-0"}]}}}}
)";

TEST(Availability, ClassesAndMigPartitionsFromTheCountersLeft) {
  std::string text;
  {
    std::ifstream in(dra_test::source_dir() + "/examples/scenarios/dgx-a100.json");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto doc = json::load(text + mig_taken);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::availability(doc->scenario(), selectors, "gpu.nvidia.com/profile");
  ASSERT_TRUE(report) << report.error().to_string();
  ASSERT_EQ(report->classes.size(), 2u);
  // gpu-0 left: memory slices 4-7, copy engines 7-3 = 4, decoders 5-2 = 3, memory 40960-19968 = 20992Mi,
  // multiprocessors 98-42 = 56. A full GPU needs all eight slices: only gpu-1 can be had.
  EXPECT_EQ(report->classes[0],
            (sim::class_availability{
                "gpu.nvidia.com", 2, 0, 1, {}, {{"dgx-a100-1", "gpu.nvidia.com", "dgx-a100-1", 2, 0, 1}}}));
  // MIG devices: 2 x 14. gpu-0 can still give 1g-4, 1g-5, 1g-6 (slices 4, 5, 6), 2g-4 (4-5) and 3g-4 (4-7: 3 <= 4
  // engines, 2 <= 3 decoders, 19968 <= 20992Mi, 42 <= 56): 5; gpu-1 all 14: 19.
  // One after another: 1g: gpu-0 3 (slices 4-6), gpu-1 7 (7 engines, 7 x 4864 = 34048 <= 40960Mi, 98 mp) = 10;
  // 2g: gpu-0 1 (2g-4), gpu-1 3 (6 engines, 3 decoders) = 4; 3g: gpu-0 1, gpu-1 2 = 3; 4g: gpu-1 = 1; 7g: gpu-1 = 1.
  EXPECT_EQ(report->classes[1],
            (sim::class_availability{
                "mig.nvidia.com",
                28,
                1,
                19,
                {{"1g.5gb", 14, 10}, {"2g.10gb", 6, 4}, {"3g.20gb", 4, 3}, {"4g.20gb", 2, 1}, {"7g.40gb", 2, 1}},
                {{"dgx-a100-1", "gpu.nvidia.com", "dgx-a100-1", 28, 1, 19}}}));
  EXPECT_TRUE(report->shared.empty());
  // By type, every MIG device is one value, and handing them out one after another takes counters others need:
  // gpu-0 gives 1g-4, 1g-5, 1g-6 (slices 4-6; then 2g-4, 3g-4 find slice 4 taken); gpu-1 gives 1g-0..6 (slices 0-6,
  // all 98 multiprocessors); nothing bigger is left: 3 + 7 = 10 of the 19 available one at a time.
  const auto by_type = sim::availability(doc->scenario(), selectors, "type");
  ASSERT_TRUE(by_type);
  EXPECT_EQ(by_type->classes[0].partitions, (std::vector<sim::partition_availability>{{"gpu", 2, 1}}));
  EXPECT_EQ(by_type->classes[1].partitions, (std::vector<sim::partition_availability>{{"mig", 28, 10}}));
}

// One shared device (40Gi of memory) a claim takes 10Gi of, on a node with 4 cpu and 10 pods, one of its pods bound
// (500m cpu, 1Gi).
constexpr const char* shared_device = R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a"},
 "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "10"}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "shared"},
 "spec": {"selectors": [{"cel": {"expression": "true"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-a-gpus"},
 "spec": {"driver": "gpu.example.com", "nodeName": "node-a", "pool": {"name": "node-a", "resourceSliceCount": 1},
  "devices": [{"name": "gpu-0", "allowMultipleAllocations": true, "capacity": {"memory": {"value": "40Gi"}}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "part", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "shared",
   "capacity": {"requests": {"memory": "10Gi"}}}}]}},
 "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-a",
   "device": "gpu-0", "shareID": "0a1b2c3d-0000-4000-8000-000000000001", "consumedCapacity": {"memory": "10Gi"}}]}}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "user", "namespace": "default"},
 "spec": {"nodeName": "node-a", "containers": [{"name": "main", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}}
)";

TEST(Availability, SharedCapacityAndNodes) {
  auto doc = json::load(shared_device);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::availability(doc->scenario(), selectors);
  ASSERT_TRUE(report) << report.error().to_string();
  // Held by one claim, yet a new claim can still share it: 30Gi left.
  EXPECT_EQ(report->classes[0],
            (sim::class_availability{"shared", 1, 1, 1, {}, {{"node-a", "gpu.example.com", "node-a", 1, 1, 1}}}));
  ASSERT_EQ(report->shared.size(), 1u);
  ASSERT_EQ(report->shared[0].capacity.size(), 1u);
  const auto& memory = report->shared[0].capacity[0];
  EXPECT_EQ(memory.name, "memory");
  EXPECT_EQ(memory.total.to_string(), "40Gi");
  EXPECT_EQ(memory.consumed.to_string(), "10Gi");
  EXPECT_EQ(memory.available.to_string(), "30Gi");
  ASSERT_EQ(report->nodes.size(), 1u);
  EXPECT_EQ(report->nodes[0].node, "node-a");
  std::string requested;
  for (const auto& [name, amount] : report->nodes[0].requested)
    requested += std::string(name) + "=" + amount.to_string() + " ";
  EXPECT_EQ(requested, "cpu=500m memory=1Gi pods=1 ");
}

}  // namespace availability_tests
