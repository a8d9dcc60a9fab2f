// kube-scheduler's node scoring, as its default profile scores the plugins dra models: each plugin's score of one
// node for one pod, the normalisation over the feasible nodes, and the weighted sum that picks the node.
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace dra::sched {

// framework.MaxNodeScore: every plugin scores a node from 0 to this.
inline constexpr std::int64_t max_node_score = 100;

// The weights of the default profile's scoring plugins (apis/config/v1 default_plugins.go: DynamicResources weighs 2
// in 1.36 and 1.37).
struct score_weights {
  std::int64_t taint_toleration = 3;
  std::int64_t node_affinity = 2;
  std::int64_t resources_fit = 1;
  std::int64_t balanced_allocation = 1;
  std::int64_t dynamic_resources = 2;
};

// One node's scores for one pod before normalisation: TaintToleration, NodeAffinity and DynamicResources are raw
// counts, normalised over the feasible nodes; NodeResourcesFit and BalancedAllocation are 0-100 already.
struct raw_node_score {
  std::int64_t intolerable_taints = 0;  // PreferNoSchedule taints the pod does not tolerate
  std::int64_t preferred_affinity = 0;  // the weights of the preferred node-affinity terms the node matches
  std::int64_t least_allocated = 0;     // NodeResourcesFit, LeastAllocated
  std::int64_t balanced = 0;            // NodeResourcesBalancedAllocation
  std::int64_t prioritized_list = 0;    // DynamicResources: how early the chosen firstAvailable alternatives come
  friend bool operator==(const raw_node_score&, const raw_node_score&) = default;
};

// TaintToleration's score: the node's PreferNoSchedule taints that none of the pod's tolerations for that effect (or
// for every effect) tolerates.
[[nodiscard]] inline std::int64_t intolerable_taints(const model::pod& pod, const model::node& node) {
  std::int64_t count = 0;
  for (const auto& taint : node.taints) {
    if (taint.effect != "PreferNoSchedule") continue;
    const bool tolerated = std::any_of(pod.tolerations.begin(), pod.tolerations.end(), [&](const model::pod_toleration& t) {
      return (t.effect.empty() || t.effect == "PreferNoSchedule") && tolerates(t, taint);
    });
    if (!tolerated) ++count;
  }
  return count;
}

// NodeAffinity's score: the weights of the pod's preferred terms the node matches. A term without requirements, or
// with a malformed one, matches nothing (component-helpers' PreferredSchedulingTerms).
[[nodiscard]] inline std::int64_t preferred_affinity(const model::pod& pod, const model::node& node) {
  std::int64_t sum = 0;
  for (const auto& term : pod.preferred_node_affinity) {
    if (term.weight == 0 || (term.preference.match_expressions.empty() && term.preference.match_fields.empty())) continue;
    const auto matches = alloc::node_selector_term_matches(term.preference, node);
    if (matches && *matches) sum += term.weight;
  }
  return sum;
}

// What the resource scorers see of a node: its allocatable cpu and memory (0 when not listed, and for a node
// without allocatable) and what its pods take.
struct node_resources {
  std::int64_t allocatable_cpu = 0;
  std::int64_t allocatable_memory = 0;
};

[[nodiscard]] inline node_resources resources_of(const model::node& node) {
  node_resources out;
  if (!node.allocatable) return out;
  if (const quantity* cpu = model::find(*node.allocatable, std::string_view("cpu"))) out.allocatable_cpu = cpu->milli_value();
  if (const quantity* memory = model::find(*node.allocatable, std::string_view("memory"))) out.allocatable_memory = memory->value();
  return out;
}

namespace detail {

// leastRequestedScore: the share of `capacity` left once `requested` is taken, 0-100 (0 when over).
[[nodiscard]] constexpr std::int64_t least_requested(std::int64_t requested, std::int64_t capacity) noexcept {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * max_node_score / capacity;
}

// How balanced the cpu and memory shares in use are (0-100): 100 × (1 − their spread), a share over 1 counting as 1.
[[nodiscard]] inline std::int64_t balance(const node_resources& node, std::int64_t cpu, std::int64_t memory) {
  std::vector<double> shares;
  auto add = [&](std::int64_t allocatable, std::int64_t requested) {
    if (allocatable == 0) return;
    shares.push_back(std::min(1.0, static_cast<double>(requested) / static_cast<double>(allocatable)));
  };
  add(node.allocatable_cpu, cpu);
  add(node.allocatable_memory, memory);
  const double spread = shares.size() == 2 ? std::abs((shares[0] - shares[1]) / 2) : 0.0;
  return static_cast<std::int64_t>((1 - spread) * static_cast<double>(max_node_score));
}

}  // namespace detail

// NodeResourcesFit's LeastAllocated score over cpu and memory (weight 1 each): the mean share left free with the pod
// on the node, counting non-zero requests; a resource the node lists no allocatable for is left out (0: neither).
[[nodiscard]] inline std::int64_t least_allocated(const node_resources& node, const non_zero_amounts& node_scored,
                                                  const non_zero_amounts& pod_scored) {
  std::int64_t sum = 0;
  std::int64_t weights = 0;
  if (node.allocatable_cpu != 0) {
    sum += detail::least_requested(node_scored.cpu + pod_scored.cpu, node.allocatable_cpu);
    ++weights;
  }
  if (node.allocatable_memory != 0) {
    sum += detail::least_requested(node_scored.memory + pod_scored.memory, node.allocatable_memory);
    ++weights;
  }
  return weights == 0 ? 0 : sum / weights;
}

// NodeResourcesBalancedAllocation's score: how much the pod improves the balance of the cpu and memory shares in use
// on the node, 50 + (50 + balance with the pod − balance without it) / 2 (so 75 when it changes nothing), counting
// requests as they are. kube-scheduler scores the change since 1.36 (kubernetes#135573); before, the balance with
// the pod alone. Not scored for a pod that requests neither (see balanced_scored).
[[nodiscard]] inline std::int64_t balanced_allocation(const node_resources& node, const amounts& node_requested,
                                                      const non_zero_amounts& pod_requested) {
  const std::int64_t cpu = amount_of(node_requested, "cpu");
  const std::int64_t memory = amount_of(node_requested, "memory");
  const std::int64_t with_pod = detail::balance(node, cpu + pod_requested.cpu, memory + pod_requested.memory);
  const std::int64_t without = detail::balance(node, cpu, memory);
  constexpr std::int64_t half = max_node_score / 2;
  return half + (half + with_pod - without) / 2;  // integer division truncates toward zero, as Go's
}

// Whether BalancedAllocation scores the pod: not when it requests no cpu and no memory (its PreScore skips such
// best-effort pods, kubernetes#129138).
[[nodiscard]] inline bool balanced_scored(const amounts& pod_requests) {
  return amount_of(pod_requests, "cpu") != 0 || amount_of(pod_requests, "memory") != 0;
}

// firstAvailable alternatives a request may list (resource.k8s.io FirstAvailableDeviceRequestMaxSize).
inline constexpr std::int64_t first_available_max = 8;

// DynamicResources' score of one claim's allocation: for each firstAvailable request, 8 − the index of the
// alternative its devices came from.
[[nodiscard]] inline std::int64_t prioritized_list_score(const model::device_claim& claim,
                                                         const model::allocation_result& allocation) {
  std::int64_t score = 0;
  for (const auto& request : claim.requests) {
    for (std::size_t i = 0; i < request.first_available.size(); ++i) {
      const std::string_view sub = request.first_available[i].name;
      const bool chosen = std::any_of(allocation.results.begin(), allocation.results.end(), [&](const auto& r) {
        const std::string_view name = r.request;
        return name.size() == request.name.size() + 1 + sub.size() && name.starts_with(request.name) &&
               name[request.name.size()] == '/' && name.ends_with(sub);
      });
      if (chosen) score += first_available_max - static_cast<std::int64_t>(i);
    }
  }
  return score;
}

// helper.DefaultNormalizeScore: scales scores to 0-100 by the highest (integer division), reversed when lower raw
// scores are better; when every score is 0, reversed scores all become 100 and others stay 0.
inline void normalize(std::span<std::int64_t> scores, bool reverse) {
  const std::int64_t highest = scores.empty() ? 0 : *std::max_element(scores.begin(), scores.end());
  for (std::int64_t& score : scores) {
    if (highest == 0) {
      if (reverse) score = max_node_score;
      continue;
    }
    score = max_node_score * score / highest;
    if (reverse) score = max_node_score - score;
  }
}

// The weighted sums of the feasible nodes' scores, normalised over them, in the order given.
[[nodiscard]] inline std::vector<std::int64_t> total_scores(std::span<const raw_node_score> raw,
                                                            const score_weights& weights = {}) {
  std::vector<std::int64_t> taints, affinity, prioritized;
  for (const auto& r : raw) {
    taints.push_back(r.intolerable_taints);
    affinity.push_back(r.preferred_affinity);
    prioritized.push_back(r.prioritized_list);
  }
  normalize(taints, /*reverse=*/true);
  normalize(affinity, /*reverse=*/false);
  normalize(prioritized, /*reverse=*/false);
  std::vector<std::int64_t> totals(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i)
    totals[i] = weights.taint_toleration * taints[i] + weights.node_affinity * affinity[i] +
                weights.resources_fit * raw[i].least_allocated + weights.balanced_allocation * raw[i].balanced +
                weights.dynamic_resources * prioritized[i];
  return totals;
}

// The position of the node kube-scheduler would pick among the feasible ones: the highest total; ties go to the
// earliest (kube-scheduler picks among ties at random; dra's tie-break is node order). `raw` must not be empty.
[[nodiscard]] inline std::size_t best_scored(std::span<const raw_node_score> raw, const score_weights& weights = {}) {
  const std::vector<std::int64_t> totals = total_scores(raw, weights);
  return static_cast<std::size_t>(std::max_element(totals.begin(), totals.end()) - totals.begin());
}

// What one pod brings to the scoring of every node: worked out once per pod.
struct pod_scoring {
  const model::pod* pod = nullptr;
  non_zero_amounts scored;       // for LeastAllocated
  non_zero_amounts requested;    // for BalancedAllocation
  bool balanced = false;         // whether BalancedAllocation scores the pod
  std::int64_t allocated_claims_score = 0;  // DynamicResources' score of the pod's claims allocated already

  explicit pod_scoring(const model::pod& p, const amounts& requests)
      : pod(&p), scored(scored_requests(p, requests)), requested{amount_of(requests, "cpu"), amount_of(requests, "memory")},
        balanced(balanced_scored(requests)) {}

  // The node-half scores of `node`, whose pods take `usage`; prioritized_list is left to the caller.
  [[nodiscard]] raw_node_score score(const model::node& node, const node_resources& resources,
                                     const node_usage& usage) const {
    raw_node_score out;
    out.intolerable_taints = intolerable_taints(*pod, node);
    out.preferred_affinity = preferred_affinity(*pod, node);
    out.least_allocated = least_allocated(resources, usage.scored, scored);
    if (balanced) out.balanced = balanced_allocation(resources, usage.requested, requested);
    out.prioritized_list = allocated_claims_score;
    return out;
  }
};

}  // namespace dra::sched
