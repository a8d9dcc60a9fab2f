// NodeResourcesFit's and BalancedAllocation's scores under a configured profile (--scheduler-config): each strategy's
// formula as kube-scheduler 1.37 computes it (noderesources' least_allocated, most_allocated,
// requested_to_capacity_ratio and resource_allocation, helper.BuildBrokenLinearFunction), with worked numbers.
#include <dra/sched/scoring.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace dra;

constexpr std::int64_t gib = 1024LL * 1024 * 1024;
constexpr std::int64_t mib = 1024LL * 1024;

using pod_asks = std::vector<std::int64_t>;  // a pod's request of each resource a scorer counts

quantity qty(std::string_view text) { return *quantity::parse(text); }

// A node of 4 cpus, 8Gi and, optionally, 8 nvidia.com/gpu.
struct scoring_node {
  model::resource_list list;
  sched::node_resources resources;
  explicit scoring_node(bool gpus = false) {
    list = {{"cpu", qty("4")}, {"memory", qty("8Gi")}};
    if (gpus) list.push_back({"nvidia.com/gpu", qty("8")});
    model::sort_by_key(list);
    resources = {4000, 8 * gib, &list};
  }
};

// What the node's pods take: cpu in millicores, memory in bytes, gpus; scored (non-zero) as requested.
sched::node_usage taken(std::int64_t cpu, std::int64_t memory, std::int64_t gpus = 0) {
  sched::node_usage u;
  u.requested = {{"cpu", cpu}, {"memory", memory}};
  if (gpus != 0) u.requested.push_back({"nvidia.com/gpu", gpus});
  model::sort_by_key(u.requested);
  u.scored = {cpu, memory};
  return u;
}

model::resources_fit_scoring fit(model::scoring_strategy strategy,
                                 std::vector<model::resource_weight> resources = {{"cpu", 1}, {"memory", 1}}) {
  return {std::move(strategy), std::move(resources)};
}

TEST(ConfiguredScoring, LeastAllocatedTruncatesEachShareAndTheMean) {
  const scoring_node node;
  // cpu: 1500m used + 1000m = 2500m of 4000m → (1500 × 100) / 4000 = 37 (37.5); memory 4Gi of 8Gi → 50.
  const sched::node_usage u = taken(1500, 2 * gib);
  const std::vector<std::int64_t> pod{1000, 2 * gib};
  EXPECT_EQ(sched::resources_fit_score(fit(model::least_allocated{}), node.resources, u, pod), 43);  // 87 / 2
  // The default profile's path gives the same.
  EXPECT_EQ(sched::least_allocated(node.resources, u.scored, {1000, 2 * gib}), 43);
  // Weighted cpu 3, memory 1: (3 × 37 + 50) / 4 = 161 / 4 = 40.
  EXPECT_EQ(
      sched::resources_fit_score(fit(model::least_allocated{}, {{"cpu", 3}, {"memory", 1}}), node.resources, u, pod),
      40);
}

TEST(ConfiguredScoring, MostAllocatedScoresTheShareInUseCappedAtCapacity) {
  const scoring_node node;
  const sched::node_usage u = taken(1500, 2 * gib);
  const std::vector<std::int64_t> pod{1000, 2 * gib};
  // cpu 2500 × 100 / 4000 = 62 (62.5), memory 50: (62 + 50) / 2 = 56; weighted 3:1 → (186 + 50) / 4 = 59.
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}), node.resources, u, pod), 56);
  EXPECT_EQ(
      sched::resources_fit_score(fit(model::most_allocated{}, {{"cpu", 3}, {"memory", 1}}), node.resources, u, pod),
      59);
  // Over capacity (the defaults of pods without requests can pass it): cpu counts as full, 100; memory 50 → 75.
  // LeastAllocated gives such a resource 0: (0 + 50) / 2 = 25.
  const sched::node_usage over = taken(3500, 2 * gib);
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}), node.resources, over, pod), 75);
  EXPECT_EQ(sched::resources_fit_score(fit(model::least_allocated{}), node.resources, over, pod), 25);
}

TEST(ConfiguredScoring, BrokenLinearShapeScalesScoresThenInterpolatesInIntegers) {
  // {0, 0}, {100, 10}: ×10, then the utilization itself (MostAllocated-like).
  const std::vector<model::utilization_shape_point> rising{{0, 0}, {100, 10}};
  EXPECT_EQ(sched::detail::broken_linear(rising, 0), 0);
  EXPECT_EQ(sched::detail::broken_linear(rising, 62), 62);
  EXPECT_EQ(sched::detail::broken_linear(rising, 100), 100);
  // Three points {10, 10}, {50, 2}, {90, 8}: 100 up to 10 %; at 30 %: 100 + (20 − 100) × 20 / 40 = 60; at 62 %:
  // 20 + (80 − 20) × 12 / 40 = 38; at 61 %: 20 + 60 × 11 / 40 = 36 (36.5 truncated); 80 beyond 90 %.
  const std::vector<model::utilization_shape_point> dip{{10, 10}, {50, 2}, {90, 8}};
  EXPECT_EQ(sched::detail::broken_linear(dip, 5), 100);
  EXPECT_EQ(sched::detail::broken_linear(dip, 30), 60);
  EXPECT_EQ(sched::detail::broken_linear(dip, 62), 38);
  EXPECT_EQ(sched::detail::broken_linear(dip, 61), 36);
  EXPECT_EQ(sched::detail::broken_linear(dip, 95), 80);
}

TEST(ConfiguredScoring, RequestedToCapacityRatioRoundsTheWeightedMean) {
  const scoring_node node;
  const sched::node_usage u = taken(1500, 2 * gib);
  const std::vector<std::int64_t> pod{1000, 2 * gib};
  // {0, 0}, {100, 10}: cpu at 62 % → 62, memory at 50 % → 50; the mean 56 as MostAllocated's.
  const model::requested_to_capacity_ratio rising{{{0, 0}, {100, 10}}};
  EXPECT_EQ(sched::resources_fit_score(fit(rising), node.resources, u, pod), 56);
  // Weighted cpu 1, memory 2: (62 + 100) / 3 = 54.
  EXPECT_EQ(sched::resources_fit_score(fit(rising, {{"cpu", 1}, {"memory", 2}}), node.resources, u, pod), 54);
  // The three-point shape: cpu 62 % → 38, memory 50 % → 20; weighted 1 and 2: (38 + 40) / 3 = 26; weighted 2 and 1:
  // (76 + 20) / 3 = 32; weighted 1 and 1: 58 / 2 = 29. With cpu at 61 % (2440m) → 36 and memory at 51 % (4226Mi:
  // 422600 / 8192 = 51) → 20 + 60 × 1 / 40 = 21: (36 + 21) / 2 = 28.5, rounded up to 29 where truncation gives 28.
  const model::requested_to_capacity_ratio dip{{{10, 10}, {50, 2}, {90, 8}}};
  EXPECT_EQ(sched::resources_fit_score(fit(dip, {{"cpu", 1}, {"memory", 2}}), node.resources, u, pod), 26);
  EXPECT_EQ(sched::resources_fit_score(fit(dip, {{"cpu", 2}, {"memory", 1}}), node.resources, u, pod), 32);
  EXPECT_EQ(sched::resources_fit_score(fit(dip), node.resources, u, pod), 29);
  const sched::node_usage half_up = taken(1440, 2178 * mib);
  EXPECT_EQ(sched::resources_fit_score(fit(dip), node.resources, half_up, pod), 29);
}

TEST(ConfiguredScoring, RequestedToCapacityRatioLeavesOutResourcesScoringZero) {
  const scoring_node node;
  // cpu at 50 % → 50; memory at 0 % (50Mi of 8Gi: 0 in whole per cent) → 0, left out of the mean: 50, not 25.
  const model::requested_to_capacity_ratio rising{{{0, 0}, {100, 10}}};
  EXPECT_EQ(sched::resources_fit_score(fit(rising), node.resources, taken(1000, 0), pod_asks{1000, 50 * mib}), 50);
  // MostAllocated keeps it: (50 + 0) / 2 = 25.
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}), node.resources, taken(1000, 0),
                                       pod_asks{1000, 50 * mib}),
            25);
  // Over capacity counts as 100 % utilization: the shape's last score, 100.
  EXPECT_EQ(sched::resources_fit_score(fit(rising), node.resources, taken(5000, 4 * gib), pod_asks{1000, 4 * gib}),
            100);
}

TEST(ConfiguredScoring, ExtendedResourcesCountWhereTheNodeListsThemAndThePodAsks) {
  const scoring_node gpus(true);
  const scoring_node no_gpus;
  const std::vector<model::resource_weight> resources{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 5}};
  const sched::node_usage u = taken(1000, 2 * gib, 2);
  // MostAllocated: cpu 2000/4000 → 50, memory 4Gi/8Gi → 50, gpus 4/8 → 50 ×5; with 6 of 8: 75 →
  // (50 + 50 + 375) / 7 = 67.
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}, resources), gpus.resources, u,
                                       pod_asks{1000, 2 * gib, 2}),
            50);
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}, resources), gpus.resources, u,
                                       pod_asks{1000, 2 * gib, 4}),
            67);
  // A pod asking no gpus leaves them out (50, not (50 + 50 + 5 × 25) / 7 = 32); so does a node listing none.
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}, resources), gpus.resources, u,
                                       pod_asks{1000, 2 * gib, 0}),
            50);
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}, resources), no_gpus.resources, u,
                                       pod_asks{1000, 2 * gib, 4}),
            50);
  // A name that is neither cpu, memory, ephemeral-storage nor a scalar resource never counts; nothing counted: 0.
  EXPECT_EQ(sched::resources_fit_score(fit(model::most_allocated{}, {{"pods", 1}}), gpus.resources, u, pod_asks{1}), 0);
}

TEST(ConfiguredScoring, BalancedAllocationOverThreeResourcesUsesTheStandardDeviation) {
  const scoring_node node(true);
  const std::vector<model::resource_weight> resources{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  // Without the pod: cpu 1/4, memory 2/8, gpu 2/8: all 0.25, deviation 0 → 100. With it (1 cpu, 0, 4 gpus): 0.5,
  // 0.25, 0.75: mean 0.5, deviation √(0.125 / 3) = 0.2041 → 79. Score 50 + (50 + 79 − 100) / 2 = 64.
  EXPECT_EQ(sched::balanced_allocation_score(resources, node.resources, taken(1000, 2 * gib, 2), pod_asks{1000, 0, 4}),
            64);
  // cpu and memory alone: the default's formula (shares 0.5 and 0.25 → 87, before 100): 50 + 37 / 2 = 68.
  const std::vector<model::resource_weight> two{{"cpu", 1}, {"memory", 1}};
  EXPECT_EQ(sched::balanced_allocation_score(two, node.resources, taken(1000, 2 * gib), pod_asks{1000, 0}), 68);
  EXPECT_EQ(sched::balanced_allocation(node.resources, taken(1000, 2 * gib).requested, {1000, 0}), 68);
}

TEST(ConfiguredScoring, PodScoringTakesTheProfilesWeightsAndResources) {
  model::pod pod;
  pod.meta.name = "p";
  pod.containers.push_back(model::container{"c", {{"cpu", qty("1")}, {"memory", qty("2Gi")}}, {}, false, {}});
  const sched::amounts requests = sched::pod_requests(pod);
  model::node node;
  node.meta.name = "n";
  node.allocatable = model::resource_list{{"cpu", qty("4")}, {"memory", qty("8Gi")}};
  const sched::node_resources resources = sched::resources_of(node);
  const sched::node_usage u = taken(1500, 2 * gib);

  // The default profile, configured or not: LeastAllocated 43 (as above); the shares 0.375 and 0.25 before, 0.625
  // and 0.5 with the pod, both balanced 93: 50 + (50 + 93 − 93) / 2 = 75.
  const sched::configured_scoring defaults{model::scheduler_profile{}};
  EXPECT_TRUE(defaults.default_resources);
  const sched::pod_scoring plain(pod, requests);
  const sched::pod_scoring configured(pod, requests, &defaults);
  EXPECT_EQ(plain.resource_scores(resources, u), (std::pair<std::int64_t, std::int64_t>{43, 75}));
  EXPECT_EQ(configured.resource_scores(resources, u), plain.resource_scores(resources, u));
  EXPECT_EQ(configured.resource_profile, nullptr);

  // MostAllocated with BalancedAllocation off (weight 0): fit 56, weights carried to the totals.
  model::scheduler_profile packing;
  packing.fit.strategy = model::most_allocated{};
  packing.weights.balanced_allocation = 0;
  packing.weights.resources_fit = 5;
  const sched::configured_scoring most{packing};
  EXPECT_FALSE(most.default_resources);
  const sched::pod_scoring packed(pod, requests, &most);
  EXPECT_EQ(packed.resource_scores(resources, u).first, 56);
  EXPECT_EQ(packed.weights.resources_fit, 5);
  const std::vector<sched::raw_node_score> raw{packed.score(node, resources, u)};
  // Taints 100 (none) × 3 + fit 56 × 5 + balance × 0.
  EXPECT_EQ(sched::total_scores(raw, packed.weights), (std::vector<std::int64_t>{300 + 280}));
}

}  // namespace
