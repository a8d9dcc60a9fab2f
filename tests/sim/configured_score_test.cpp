// `--scheduler-config` (run_options::profile): a run scored by a configured KubeSchedulerConfiguration profile.
// MostAllocated packs pods onto the fuller node where LeastAllocated (the default) spreads them; answers worked out
// by hand from kube-scheduler's formulas.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/scheduler_config.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace dra;

const cel::selector_engine configured_engine;

// Two nodes of 4 cpus and 8Gi; node-b runs a pod of 2 cpus and 2Gi; three pending pods of 1 cpu and 1Gi.
const std::string packing_scenario = R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a"},
 "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-b"},
 "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "busy", "namespace": "default"},
 "spec": {"nodeName": "node-b",
          "containers": [{"name": "c", "resources": {"requests": {"cpu": "2", "memory": "2Gi"}}}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1", "namespace": "default"},
 "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p2", "namespace": "default"},
 "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p3", "namespace": "default"},
 "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}
)";

std::string scoring_strategy(const std::string& strategy) {
  return "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
         "- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy: " +
         strategy + "\n";
}

// The pending pods' nodes under kube-scheduler's scoring by `profile`, each pod with every node tried when
// `every_node` (the same answers, by another path).
std::vector<std::string> configured_nodes(const model::scheduler_profile& profile, bool every_node = false) {
  auto doc = json::load(packing_scenario);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return {};
  sim::run_options options{.nodes = sim::node_choice::kube_score, .score_every_node = every_node};
  options.profile = profile;
  const sim::run_report report =
      sim::run_scenario(doc->scenario(), configured_engine, alloc::features::all(), alloc::first_fit{}, options);
  std::vector<std::string> out;
  for (const auto& p : report.pods) out.push_back(p.node.value_or("-"));
  return out;
}

model::scheduler_profile profile_of(const std::string& config) {
  auto profile = json::read_scheduler_profile(config);
  EXPECT_TRUE(profile) << profile.error().to_string();
  return profile ? *profile : model::scheduler_profile{};
}

TEST(ConfiguredScore, MostAllocatedPacksWhereLeastAllocatedSpreads) {
  // The taint and affinity scores tie (300 and 0 everywhere); NodeResourcesFit + BalancedAllocation decide.
  // LeastAllocated, p1: node-a (4−1)/4 → 75, (8−1)/8 → 87: 81, balance 100 → 93: 71 → 152; node-b 25 and 62: 43,
  // balance 87 → 81: 72 → 115: node-a. p2: node-a 50 and 75: 62, balance 93 → 87: 72 → 134 against 115: node-a.
  // p3: both nodes run 2 cpus and 2Gi, 115 each: node-a (node order).
  const std::vector<std::string> spread{"node-a", "node-a", "node-a"};
  EXPECT_EQ(configured_nodes(model::scheduler_profile{}), spread);
  EXPECT_EQ(configured_nodes(profile_of(scoring_strategy("{type: LeastAllocated}"))), spread);
  // MostAllocated, p1: node-a 25 and 12: 18 + 71 = 89; node-b 75 and 37: 56 + 72 = 128: node-b. p2: node-b 100 and
  // 50: 75, balance 81 → 75: 72 → 147 against 89: node-b. p3: node-b's cpus are all taken: node-a.
  const std::vector<std::string> packed{"node-b", "node-b", "node-a"};
  const model::scheduler_profile most = profile_of(scoring_strategy("{type: MostAllocated}"));
  EXPECT_EQ(configured_nodes(most), packed);
  EXPECT_EQ(configured_nodes(most, /*every_node=*/true), packed);
  // RequestedToCapacityRatio rising from 0 to 10 scores as MostAllocated does here (the utilizations are whole
  // per cents but for node-a's memory, 12.5 → 12, and node-b's, 37.5 → 37, which both round alike).
  const model::scheduler_profile ratio = profile_of(scoring_strategy(
      "{type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}, "
      "{utilization: 100, score: 10}]}}"));
  EXPECT_EQ(configured_nodes(ratio), packed);
}

TEST(ConfiguredScore, AScorePluginDisabledNoLongerCounts) {
  // NodeResourcesFit off (LeastAllocated still configured): BalancedAllocation alone decides. p1: node-a 71, node-b
  // 72 (as above): node-b. p2: node-a 71; node-b's balance 81 → 75: 50 + (50 + 75 − 81) / 2 = 72: node-b.
  // p3: node-a.
  const model::scheduler_profile balance_only = profile_of(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
      "- plugins: {score: {disabled: [{name: NodeResourcesFit}]}}\n");
  EXPECT_EQ(balance_only.weights.resources_fit, 0);
  EXPECT_EQ(configured_nodes(balance_only), (std::vector<std::string>{"node-b", "node-b", "node-a"}));
}

}  // namespace
