// kube-scheduler's default scoring, plugin by plugin: the cases of upstream's score tables (noderesources'
// least_allocated and balanced_allocation, tainttoleration, nodeaffinity, dynamicresources' prioritized-list score,
// helper.DefaultNormalizeScore), as facts.
#include <dra/sched/scoring.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace dra;

quantity q(std::string_view text) { return *quantity::parse(text); }

model::node node_with(std::string_view cpu, std::string_view memory) {
  model::node n;
  n.meta.name = "n";
  n.allocatable = model::resource_list{{"cpu", q(cpu)}, {"memory", q(memory)}};
  return n;
}

model::pod pod_asking(std::vector<model::container> containers) {
  model::pod p;
  p.meta.name = "p";
  p.containers = std::move(containers);
  return p;
}

model::container asking(model::resource_list requests) { return model::container{"c", std::move(requests), {}, false, {}}; }

model::node_taint prefer_no_schedule(std::string_view key, std::string_view value) {
  model::node_taint t;
  t.key = key;
  t.value = value;
  t.effect = "PreferNoSchedule";
  return t;
}

TEST(ScoredRequests, AContainerAskingNoCpuOrMemoryCountsTheDefaults) {
  // 100m and 200Mi per container that leaves them out; an explicit 0 stays 0.
  const model::pod none = pod_asking({asking({}), asking({})});
  EXPECT_EQ(sched::scored_requests(none), (sched::non_zero_amounts{200, 400 * 1024 * 1024}));
  const model::pod zero = pod_asking({asking({{"cpu", q("0")}, {"memory", q("1Gi")}})});
  EXPECT_EQ(sched::scored_requests(zero), (sched::non_zero_amounts{0, 1024 * 1024 * 1024}));
}

TEST(ScoredRequests, NodesCountPodLevelRequestsWithoutPerContainerDefaults) {
  // With pod-level requests, the scorer still adds 100m for the container without cpu; the node's count takes the
  // defaults only for a resource nobody names (memory here).
  model::pod p = pod_asking({asking({{"cpu", q("1")}}), asking({})});
  p.pod_requests = model::resource_list{{"hugepages-2Mi", q("2Mi")}};
  const sched::amounts requests = sched::pod_requests(p);
  EXPECT_EQ(sched::scored_requests(p), (sched::non_zero_amounts{1100, 400 * 1024 * 1024}));
  EXPECT_EQ(sched::counted_requests(p, requests), (sched::non_zero_amounts{1000, 400 * 1024 * 1024}));
  const model::pod plain = pod_asking({asking({{"cpu", q("1")}}), asking({})});
  EXPECT_EQ(sched::counted_requests(plain, sched::pod_requests(plain)), sched::scored_requests(plain));
}

TEST(LeastAllocated, TheMeanShareLeftFreeWithThePodOnTheNode) {
  // Differently sized nodes, nothing scheduled, the pod asks 3 cpus and 5000 bytes: cpu 25 and memory 50 on the
  // small node (37), 50 and 50 on the large one.
  const sched::non_zero_amounts pod{3000, 5000};
  EXPECT_EQ(sched::least_allocated(sched::resources_of(node_with("4", "10000")), {}, pod), 37);
  EXPECT_EQ(sched::least_allocated(sched::resources_of(node_with("6", "10000")), {}, pod), 50);
  // What the node's pods take counts; a resource over its allocatable scores 0.
  EXPECT_EQ(sched::least_allocated(sched::resources_of(node_with("4", "10000")), {1000, 0}, pod), 25);
  EXPECT_EQ(sched::least_allocated(sched::resources_of(node_with("4", "10000")), {2000, 6000}, pod), 0);
  // A resource without allocatable is left out; without either, the score is 0.
  model::node cpu_only = node_with("4", "10000");
  cpu_only.allocatable = model::resource_list{{"cpu", q("4")}};
  EXPECT_EQ(sched::least_allocated(sched::resources_of(cpu_only), {}, pod), 25);
  EXPECT_EQ(sched::least_allocated(sched::resources_of(model::node{}), {}, pod), 0);
}

TEST(BalancedAllocation, ScoresTheChangeInBalanceThePodMakes) {
  // The pod asks 3 cpus and 5000 bytes of an empty node. On the small node its shares are 0.75 and 0.5 (balance 87,
  // against 100 without it): 50 + (50 + 87 - 100) / 2 = 68. On the large one 0.5 and 0.5 change nothing: 75.
  const sched::non_zero_amounts pod{3000, 5000};
  EXPECT_EQ(sched::balanced_allocation(sched::resources_of(node_with("4", "10000")), {}, pod), 68);
  EXPECT_EQ(sched::balanced_allocation(sched::resources_of(node_with("6", "10000")), {}, pod), 75);
  // Requests as they are (no defaults), a share over 1 counting as 1: 0.75 and 0 before (62), 1 and 0.5 after (75).
  EXPECT_EQ(sched::balanced_allocation(sched::resources_of(node_with("4", "10000")), {{"cpu", 3000}}, pod), 81);
  // Not scored for a pod that requests neither cpu nor memory.
  EXPECT_FALSE(sched::balanced_scored({}));
  EXPECT_TRUE(sched::balanced_scored({{"memory", 1}}));
}

TEST(BalancedAllocation, PrefersTheNodeThePodBringsBackInBalance) {
  // Two 8-cpu, 16Gi nodes running 4 cpu and 8Gi, and 1 cpu and 12Gi; the pod asks 2 cpus and 2Gi. The first node is
  // balanced and the pod unbalances it (100 to 93: 71); the second gets closer to balance (68 to 75: 78).
  // kube-scheduler 1.36 ranks the second higher; scoring the balance with the pod alone ranked the first (93 to 75).
  constexpr std::int64_t gi = std::int64_t{1} << 30;
  const sched::non_zero_amounts pod{2000, 2 * gi};
  const auto node = sched::resources_of(node_with("8", "16Gi"));
  EXPECT_EQ(sched::balanced_allocation(node, {{"cpu", 4000}, {"memory", 8 * gi}}, pod), 71);
  EXPECT_EQ(sched::balanced_allocation(node, {{"cpu", 1000}, {"memory", 12 * gi}}, pod), 78);
}

TEST(TaintToleration, CountsPreferNoScheduleTaintsThePodDoesNotTolerate) {
  model::node n;
  n.taints = {prefer_no_schedule("a", "1"), prefer_no_schedule("b", "2"), prefer_no_schedule("c", "3")};
  model::node_taint hard = prefer_no_schedule("d", "4");
  hard.effect = "NoSchedule";
  n.taints.push_back(hard);
  model::pod p;
  EXPECT_EQ(sched::intolerable_taints(p, n), 3);
  model::pod_toleration for_a;  // Equal a=1, every effect
  for_a.key = "a";
  for_a.value = "1";
  model::pod_toleration for_b = for_a;  // b=2 but only NoSchedule: does not count for scoring
  for_b.key = "b";
  for_b.value = "2";
  for_b.effect = "NoSchedule";
  model::pod_toleration for_c;  // Exists c, PreferNoSchedule
  for_c.key = "c";
  for_c.op = model::toleration_operator::exists;
  for_c.effect = "PreferNoSchedule";
  p.tolerations = {for_a, for_b, for_c};
  EXPECT_EQ(sched::intolerable_taints(p, n), 1);
}

TEST(NodeAffinityScore, SumsTheWeightsOfThePreferredTermsTheNodeMatches) {
  model::node n;
  n.meta.name = "n1";
  n.meta.labels = {{"foo", "bar"}, {"key", "value"}};
  auto term = [](std::int32_t weight, std::string_view key, std::vector<model::text> values) {
    model::preferred_scheduling_term t;
    t.weight = weight;
    t.preference.match_expressions.push_back({key, model::node_selector_operator::in, std::move(values)});
    return t;
  };
  model::pod p;
  p.preferred_node_affinity = {term(2, "foo", {"bar"}), term(5, "key", {"value"}), term(7, "foo", {"other"})};
  EXPECT_EQ(sched::preferred_affinity(p, n), 7);
  // A term without requirements matches nothing; so does one with a malformed requirement (Gt on a non-number).
  model::preferred_scheduling_term empty;
  empty.weight = 11;
  model::preferred_scheduling_term malformed = term(13, "foo", {"x"});
  malformed.preference.match_expressions.front().op = model::node_selector_operator::gt;
  p.preferred_node_affinity = {empty, malformed};
  EXPECT_EQ(sched::preferred_affinity(p, n), 0);
  // matchFields on the node's name.
  model::preferred_scheduling_term by_name;
  by_name.weight = 3;
  by_name.preference.match_fields.push_back({"metadata.name", model::node_selector_operator::in, {"n1"}});
  p.preferred_node_affinity = {by_name};
  EXPECT_EQ(sched::preferred_affinity(p, n), 3);
}

TEST(PrioritizedListScore, EightLessTheIndexOfTheAlternativeChosen) {
  model::device_claim claim;
  model::device_request list;
  list.name = "gpu";
  for (std::string_view name : {"large", "medium", "small"}) {
    model::device_sub_request sub;
    sub.name = name;
    list.first_available.push_back(sub);
  }
  model::device_request exact;
  exact.name = "nic";
  exact.exactly.emplace();
  claim.requests = {list, exact};
  model::allocation_result allocation;
  allocation.results.resize(2);
  allocation.results[0].request = "gpu/medium";
  allocation.results[1].request = "nic";
  EXPECT_EQ(sched::prioritized_list_score(claim, allocation), 7);
  allocation.results.front().request = "gpu/large";
  EXPECT_EQ(sched::prioritized_list_score(claim, allocation), 8);
  // A name that only starts like an alternative is not one.
  allocation.results.front().request = "gpu/smallest";
  EXPECT_EQ(sched::prioritized_list_score(claim, allocation), 0);
}

TEST(NormalizeScore, ScalesByTheHighestWithIntegerDivision) {
  std::vector<std::int64_t> scores{0, 2, 3};
  sched::normalize(scores, false);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{0, 66, 100}));
  scores = {0, 2, 3};
  sched::normalize(scores, true);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{100, 34, 0}));
  scores = {0, 0};
  sched::normalize(scores, true);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{100, 100}));
  scores = {0, 0};
  sched::normalize(scores, false);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{0, 0}));
}

TEST(TotalScores, WeighsThePluginsAsTheDefaultProfileDoes) {
  // TaintToleration ×3 (reversed), NodeAffinity ×2, NodeResourcesFit ×1, BalancedAllocation ×1, DynamicResources ×2.
  const std::vector<sched::raw_node_score> raw{{1, 0, 50, 100, 8}, {0, 4, 40, 90, 7}};
  // Node 0: 3×0 + 2×0 + 50 + 100 + 2×100 = 350; node 1: 3×100 + 2×100 + 40 + 90 + 2×87 = 804.
  EXPECT_EQ(sched::total_scores(raw), (std::vector<std::int64_t>{350, 804}));
  EXPECT_EQ(sched::best_scored(raw), 1u);
  // Ties go to the earlier node.
  const std::vector<sched::raw_node_score> tied(3, sched::raw_node_score{0, 0, 10, 0, 0});
  EXPECT_EQ(sched::best_scored(tied), 0u);
}

}  // namespace
