// PodGroups: the group's claims (one per group, allocated with its first placed pod, reserved for the group) and
// gangs (all or nothing with minCount, one topology domain, the arrangement searched where one-by-one placement fails).
#include "../support/made_claims.hpp"
#include "../support/source_dir.hpp"

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/generated_names.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <gtest/gtest.h>

#include "gang_world.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace dra;
using dra_test::gpu_cluster;
using dra_test::gpu_node;
using dra_test::group_pod;
using dra_test::pod_group;

const cel::selector_engine group_engine;

const std::string own_gpu = "[{name: gpu, resourceClaimTemplateName: one-gpu}]";

struct pod_place {
  std::string pod;
  std::optional<std::string> node;
  friend bool operator==(const pod_place&, const pod_place&) = default;
  friend std::ostream& operator<<(std::ostream& os, const pod_place& p) {
    return os << p.pod << " -> " << p.node.value_or("-");
  }
};

std::vector<pod_place> gang_placements(const model::scenario& s, const sim::run_report& report) {
  std::vector<pod_place> out;
  for (const auto& p : report.pods) out.push_back({std::string(s.pods[p.pod].object.meta.name), p.node});
  return out;
}

TEST(PodGroupClaims, OneClaimPerGroupAllocatedWithTheFirstPodAndFollowedByTheRest) {
  // node-c (first, no GPU) would take w1 were it not bound to go where the group's claim went.
  const std::string text = gpu_cluster({{"node-c", 0, 8}, {"node-a", 1}, {"node-b", 1}}) +
                           pod_group("train", std::nullopt,
                                     "  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]\n") +
                           group_pod("w0", "train", 1, own_gpu) + group_pod("w1", "train", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report),
            (std::vector<pod_place>{{"w0", "node-a"}, {"w1", "node-a"}}));
  ASSERT_EQ(report.generated.size(), 1u);  // one claim for the group, not one per pod
  const std::string claim = sched::generated_claim_name(doc->scenario().pod_groups[0].object.meta, "gpu");
  EXPECT_TRUE(claim.starts_with("train-gpu-")) << claim;  // named after the group
  EXPECT_EQ(report.generated[0].claim.meta.name, claim);
  EXPECT_EQ(report.generated[0].pod_group, 0u);
  ASSERT_EQ(report.outcomes.size(), 1u);
  ASSERT_NE(report.outcomes[0].allocated(), nullptr);
  EXPECT_EQ(report.outcomes[0].allocated()->node, "node-a");

  auto written = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(written) << written.error().to_string();
  EXPECT_NE(written->find(R"("resourceClaimStatuses": [
          {
            "name": "gpu",
            "resourceClaimName": ")" + claim + "\""),
            std::string::npos)
      << *written;
  EXPECT_NE(written->find(R"("kind": "PodGroup",)"), std::string::npos) << *written;  // its owner
  EXPECT_NE(written->find(R"("apiGroup": "scheduling.k8s.io",)"), std::string::npos) << *written;
  EXPECT_NE(written->find(R"("resource": "podgroups",)"), std::string::npos) << *written;
  // Read back, the run allocates nothing more and both pods stay where they are.
  auto again = json::load(*written);
  ASSERT_TRUE(again) << again.error().to_string();
  const auto second = sim::run_scenario(again->scenario(), group_engine);
  EXPECT_TRUE(second.outcomes.empty());
  EXPECT_TRUE(second.generated.empty());
}

TEST(PodGroupClaims, AMissingGroupIsAnErrorForItsPods) {
  auto doc = json::load(gpu_cluster({{"node-a", 1}}) + group_pod("w0", "nowhere", 1));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  ASSERT_EQ(report.pods.size(), 1u);
  EXPECT_FALSE(report.pods[0].node);
  EXPECT_EQ(report.pods[0].unschedulable,
            "0/1 nodes are available: pod default/w0: PodGroup default/nowhere not found. no new claims to deallocate, "
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
}

TEST(Gang, AllOrNothingLeavesNothingAllocated) {
  // Three pods of one GPU each, two GPUs: the gang (minCount 3) is not placed, and the pod after it takes node-a.
  const std::string text = gpu_cluster({{"node-a", 1}, {"node-b", 1}}) + pod_group("g", 3) +
                           group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu) +
                           group_pod("w2", "g", 1, own_gpu) + group_pod("after", "", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report),
            (std::vector<pod_place>{{"w0", std::nullopt}, {"w1", std::nullopt}, {"w2", std::nullopt}, {"after", "node-a"}}));
  EXPECT_EQ(report.pods[0].unschedulable,
            "PodGroup default/g: 2 of minCount 3 pods fit; pod default/w2: 0/2 nodes are available: 2 cannot "
            "allocate all claims.");
  ASSERT_FALSE(report.pods[0].reasons.empty());
  EXPECT_EQ(report.pods[0].reasons[0].reason.code, sched::node_reason_code::gang);
  ASSERT_EQ(report.generated.size(), 1u);  // only `after`'s claim: the gang's were rolled back
  EXPECT_EQ(report.generated[0].claim.meta.name,
            sched::generated_claim_name(doc->scenario().pods[3].object.meta, "gpu"));
}

TEST(Gang, MinCountBelowTheGangPlacesThosePodsThatFit) {
  const std::string text = gpu_cluster({{"node-a", 1}, {"node-b", 1}}) + pod_group("g", 2) +
                           group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu) +
                           group_pod("w2", "g", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report),
            (std::vector<pod_place>{{"w0", "node-a"}, {"w1", "node-b"}, {"w2", std::nullopt}}));
}

TEST(Gang, BoundPodsCountTowardsMinCount) {
  std::string text = gpu_cluster({{"node-a", 1}, {"node-b", 1}}) + pod_group("g", 3) +
                     group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu);
  text += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: running, namespace: default}\nspec:\n"
          "  nodeName: node-b\n  schedulingGroup: {podGroupName: g}\n";
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  // The bound pod and two GPUs make three: both pending pods are placed.
  EXPECT_EQ(gang_placements(doc->scenario(), report), (std::vector<pod_place>{{"w0", "node-a"}, {"w1", "node-b"}}));
}

TEST(Gang, AGangWhosePodsAllWaitForTheirGatesIsNotTried) {
  std::string text = gpu_cluster({{"node-a", 1}}) + pod_group("g", 2);
  for (const char* name : {"w0", "w1"})
    text += group_pod(name, "g", 1, own_gpu) + "  schedulingGates: [{name: wait}]\n";
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  for (const auto& report :
       {sim::run_scenario(doc->scenario(), group_engine),
        sim::run_scenario(doc->scenario(), group_engine, alloc::features::all(), alloc::sorted{})}) {
    ASSERT_EQ(report.pods.size(), 2u);
    for (const auto& p : report.pods) {
      EXPECT_TRUE(p.gated);
      EXPECT_FALSE(p.node);
    }
    EXPECT_TRUE(report.outcomes.empty());
  }
}

TEST(PodGroupClaims, BestFitCountsTheGroupsClaimOnceAndNotOnceAllocated) {
  // tests/cli/data/group-demand.json: two A100s; big's 4g and the group's 3g (made once, with train-0) fill gpu-0;
  // then small's 1g and medium's 4g go to gpu-1; train-1 comes last and uses the group's claim, allocated already.
  // Nobody waits for a 3g once the group's claim is allocated, so best fit puts the 1g at slice 4 (where it only
  // rules out the 3g at 4) and the 4g fits at 0. A 3g still counted as pending for train-1 would keep the 3g at 4
  // free: the 1g at slice 0, and no room for the 4g.
  auto doc = json::load_file(dra_test::source_dir() + "/tests/cli/data/group-demand.json");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine, alloc::features::all(), alloc::sorted{});
  std::vector<std::string> devices;
  for (const auto& o : report.outcomes)
    devices.push_back(o.claim + " " +
                      (o.allocated() ? std::string(o.allocated()->allocation.results.at(0).device) : "-"));
  const model::scenario& s = doc->scenario();
  EXPECT_EQ(devices, (std::vector<std::string>{dra_test::made_claim(s, "team-a/big", "mig") + " gpu-0-mig-4g-20gb-0",
                                               dra_test::made_claim(s, "team-a/train", "mig") + " gpu-0-mig-3g-20gb-4",
                                               dra_test::made_claim(s, "team-a/small", "mig") + " gpu-1-mig-1g-5gb-4",
                                               dra_test::made_claim(s, "team-a/medium", "mig") + " gpu-1-mig-4g-20gb-0"}));
  EXPECT_EQ(report.placements, sim::run_report::answer::policy);
}

TEST(Gang, TopologyKeepsTheGangOnOneLabelValue) {
  // Rack r1 has one GPU, rack r2 two: the gang of two goes to r2 although node-a comes first.
  const std::string text =
      gpu_cluster({{"node-a", 1, 4, "r1"}, {"node-b", 1, 4, "r2"}, {"node-c", 1, 4, "r2"}, {"node-d", 1, 4, "r1"}}) +
      pod_group("g", 2, "  schedulingConstraints: {topology: [{key: rack}]}\n") +
      group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu) + group_pod("w2", "g", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  // r1 (first in node order) takes two of the three: minCount 2 is met there.
  EXPECT_EQ(gang_placements(doc->scenario(), report),
            (std::vector<pod_place>{{"w0", "node-a"}, {"w1", "node-d"}, {"w2", std::nullopt}}));
}

TEST(Gang, TopologyMovesTheGangToTheDomainWhereItFits) {
  const std::string text =
      gpu_cluster({{"node-a", 1, 4, "r1"}, {"node-b", 1, 4, "r2"}, {"node-c", 1, 4, "r2"}, {"node-d", 1, 4, "r2"}}) +
      pod_group("g", 3, "  schedulingConstraints: {topology: [{key: rack}]}\n") +
      group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu) + group_pod("w2", "g", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report),
            (std::vector<pod_place>{{"w0", "node-b"}, {"w1", "node-c"}, {"w2", "node-d"}}));
}

TEST(Gang, NodesOutsideTheGangsDomainAreSaidToBe) {
  // The scenario of TopologyKeepsTheGangOnOneLabelValue: r1 takes w0 and w1, w2 finds no GPU left there. r2's nodes
  // have GPUs but are outside the gang's domain: that is their reason, not the claims'.
  const std::string text =
      gpu_cluster({{"node-a", 1, 4, "r1"}, {"node-b", 1, 4, "r2"}, {"node-c", 1, 4, "r2"}, {"node-d", 1, 4, "r1"}}) +
      pod_group("g", 2, "  schedulingConstraints: {topology: [{key: rack}]}\n") +
      group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu) + group_pod("w2", "g", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  ASSERT_EQ(report.pods.size(), 3u);
  EXPECT_EQ(report.pods[2].unschedulable,
            "0/4 nodes are available: 2 cannot allocate all claims, 2 node(s) outside the PodGroup's topology domain "
            "rack=r1.");
  // Without node filters to apply (no allocatable, no selectors), the same.
  const std::string bare =
      dra_test::gpu_class_and_template() +
      "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-a, labels: {rack: r1}}\n---\n" +
      dra_test::gpu_slice_text("node-a-gpus", "node-a", "gpu.example.com", 1) +
      "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-b, labels: {rack: r2}}\n---\n" +
      dra_test::gpu_slice_text("node-b-gpus", "node-b", "gpu.example.com", 1) +
      pod_group("g", 1, "  schedulingConstraints: {topology: [{key: rack}]}\n") + group_pod("w0", "g", 0, own_gpu) +
      group_pod("w1", "g", 0, own_gpu);
  auto bare_doc = json::load(bare);
  ASSERT_TRUE(bare_doc) << bare_doc.error().to_string();
  const auto bare_report = sim::run_scenario(bare_doc->scenario(), group_engine);
  ASSERT_EQ(bare_report.pods.size(), 2u);
  EXPECT_EQ(bare_report.pods[0].node, "node-a");
  EXPECT_EQ(bare_report.pods[1].unschedulable,
            "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) outside the PodGroup's topology domain "
            "rack=r1.");
}

TEST(Gang, SearchPlacesWhatOneByOnePlacementLeavesPending) {
  // The multi-host TPU case: upstream puts trainer-0 on host-1 with slice-a, then trainer-1 has nowhere to go.
  auto doc = json::load_file(dra_test::source_dir() + "/tests/cli/data/gang-tpu-slices.yaml");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report),
            (std::vector<pod_place>{{"trainer-0", "host-3"}, {"trainer-1", "host-4"}}));
  ASSERT_EQ(report.outcomes.size(), 1u);
  ASSERT_NE(report.outcomes[0].allocated(), nullptr);
  EXPECT_EQ(report.outcomes[0].allocated()->allocation.results.at(0).pool, "slice-b");
  EXPECT_NE(std::find_if(report.warnings.begin(), report.warnings.end(),
                         [](const std::string& w) { return w.find("kubernetes#138765") != std::string::npos; }),
            report.warnings.end());
}

TEST(Gang, WhereOneByOneSucceedsFirstFitKeepsItsAnswer) {
  // Upstream's answer packs node-a first; the search would find the same count elsewhere, but first fit keeps it.
  const std::string text = gpu_cluster({{"node-a", 2, 8}, {"node-b", 2, 8}}) + pod_group("g", 2) +
                           group_pod("w0", "g", 1, own_gpu) + group_pod("w1", "g", 1, own_gpu);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report), (std::vector<pod_place>{{"w0", "node-a"}, {"w1", "node-a"}}));
  EXPECT_TRUE(report.warnings.empty());
}

TEST(Gang, NodesPodsPickByNameAreNotInterchangeable) {
  // w1 must run on n0, which one-by-one placement gives w0: the search moves w0 to n1 (alike n0 but for its name).
  std::string text = gpu_cluster({{"n0", 0, 1}, {"n1", 0, 1}, {"n2", 0, 1}}) + pod_group("g", 2) + group_pod("w0", "g", 1);
  text += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: w1, namespace: default}\nspec:\n"
          "  schedulingGroup: {podGroupName: g}\n  nodeSelector: {kubernetes.io/hostname: n0}\n"
          "  containers: [{name: main, resources: {requests: {cpu: \"1\"}}}]\n";
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  EXPECT_EQ(gang_placements(doc->scenario(), report), (std::vector<pod_place>{{"w0", "n1"}, {"w1", "n0"}}));
}

TEST(Gang, AnExhaustedSearchSaysSo) {
  // Ten nodes that are not interchangeable (each its own zone), ten pods: nine fit anywhere, the last fits nowhere.
  // Every order of the nine is a new arrangement: the search stops at its budget and says so.
  std::string text = pod_group("g", 10);
  for (int n = 0; n < 10; ++n)
    text += "---\napiVersion: v1\nkind: Node\nmetadata: {name: n" + std::to_string(n) + ", labels: {zone: z" +
            std::to_string(n) + "}}\nstatus: {allocatable: {cpu: \"1\", pods: \"110\"}}\n";
  for (int p = 0; p < 10; ++p) text += group_pod("w" + std::to_string(p), "g", p == 9 ? 2 : 1);
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::run_scenario(doc->scenario(), group_engine);
  ASSERT_EQ(report.pods.size(), 10u);
  EXPECT_FALSE(report.pods[0].node);
  EXPECT_NE(report.pods[0].unschedulable.find("PodGroup default/g: 9 of minCount 10 pods fit; the search of the "
                                              "gang's arrangements stopped at its budget of 20000 trials"),
            std::string::npos)
      << report.pods[0].unschedulable;
}

// ---- Property: the gang is placed exactly when some assignment of pods to nodes (or to none) places minCount pods.

TEST(GangProperty, PlacedExactlyWhenSomeAssignmentFits) {
  std::mt19937 random(36);
  int placed_gangs = 0;
  for (int round = 0; round < 150; ++round) {
    dra_test::small_gang g;
    const int node_count = 1 + static_cast<int>(random() % 3);
    for (int n = 0; n < node_count; ++n)
      g.nodes.push_back({"n" + std::to_string(n), static_cast<int>(random() % 4), 1 + static_cast<int>(random() % 4)});
    const int pod_count = 2 + static_cast<int>(random() % 3);
    for (int p = 0; p < pod_count; ++p)
      g.pods.emplace_back(1 + static_cast<int>(random() % 3), static_cast<int>(random() % 3));
    g.min_count = 1 + static_cast<int>(random() % pod_count);
    const std::string text = dra_test::small_gang_text(g);
    auto doc = json::load(text);
    ASSERT_TRUE(doc) << doc.error().to_string();
    const auto report = sim::run_scenario(doc->scenario(), group_engine);
    EXPECT_EQ(dra_test::small_gang_verdict(g, report), "") << "round " << round << ":\n" << text;
    placed_gangs += dra_test::brute_force_fits(g) ? 1 : 0;
  }
  EXPECT_GT(placed_gangs, 30);  // both answers are exercised
  EXPECT_LT(placed_gangs, 140);
}

}  // namespace
