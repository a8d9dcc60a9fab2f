// kube-scheduler's node scoring, as its default profile (or a configured one) scores the plugins dra models: each
// plugin's score of one node for one pod, the normalisation over the feasible nodes, and the weighted sum that picks
// the node.
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/scheduler_config.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace dra::sched {

// framework.MaxNodeScore: every plugin scores a node from 0 to this.
inline constexpr std::int64_t max_node_score = 100;

// The weights of the scoring plugins; default-constructed, the default profile's (0: a plugin not scored).
using score_weights = model::score_weights;

// One node's scores for one pod before normalisation: TaintToleration, NodeAffinity and DynamicResources are raw
// counts, normalised over the feasible nodes; NodeResourcesFit and BalancedAllocation are 0-100 already.
struct raw_node_score {
  std::int64_t intolerable_taints = 0;  // PreferNoSchedule taints the pod does not tolerate
  std::int64_t preferred_affinity = 0;  // the weights of the preferred node-affinity terms the node matches
  std::int64_t least_allocated = 0;     // NodeResourcesFit (LeastAllocated unless a profile says otherwise)
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
// without allocatable), and its whole allocatable list for the other resources a configured profile counts.
struct node_resources {
  std::int64_t allocatable_cpu = 0;
  std::int64_t allocatable_memory = 0;
  const model::resource_list* allocatable = nullptr;  // the node's; null when it lists none
};

[[nodiscard]] inline node_resources resources_of(const model::node& node) {
  node_resources out;
  if (!node.allocatable) return out;
  out.allocatable = &*node.allocatable;
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

// The balance of resource shares in use (0-100): 100 × (1 − their standard deviation), truncated; for two shares the
// deviation is half their difference, for one or none 0.
[[nodiscard]] inline std::int64_t balance_of(std::span<const double> shares) {
  double deviation = 0;
  if (shares.size() == 2) {
    deviation = std::abs((shares[0] - shares[1]) / 2);
  } else if (shares.size() > 2) {
    double mean = 0;
    for (double share : shares) mean += share;
    mean /= static_cast<double>(shares.size());
    double sum = 0;
    for (double share : shares) sum += (share - mean) * (share - mean);
    deviation = std::sqrt(sum / static_cast<double>(shares.size()));
  }
  return static_cast<std::int64_t>((1 - deviation) * static_cast<double>(max_node_score));
}

// How balanced the cpu and memory shares in use are (balance_of), a resource without allocatable left out.
[[nodiscard]] inline std::int64_t balance(const node_resources& node, std::int64_t cpu, std::int64_t memory) {
  std::array<double, 2> shares{};
  std::size_t counted = 0;
  auto add = [&](std::int64_t allocatable, std::int64_t requested) {
    if (allocatable != 0)
      shares[counted++] = std::min(1.0, static_cast<double>(requested) / static_cast<double>(allocatable));
  };
  add(node.allocatable_cpu, cpu);
  add(node.allocatable_memory, memory);
  return balance_of(std::span<const double>(shares.data(), counted));
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

// One resource as a configured profile's resource scorers see it on one node (resource_allocation.go's
// calculateResourceAllocatableRequest): what the node can hold, what its pods take with the pod and without it.
struct resource_use {
  std::int64_t allocatable = 0;
  std::int64_t requested = 0;  // the node's pods and the pod
  std::int64_t allocated = 0;  // the node's pods alone
};

// How the node's pods count resource `name`, with the pod asking `pod_request` of it: cpu and memory as non-zero
// requests for NodeResourcesFit (`as_requested` false), as requested for BalancedAllocation; ephemeral-storage and
// extended (scalar) resources as requested. Not counted (nullopt): a resource the node lists no (or zero)
// allocatable for, a scalar resource the pod does not ask for, and any other name (pods, …). Extended resources
// that DRA devices back (KEP-5004), which kube-scheduler counts by the class's devices on the node, are not counted.
[[nodiscard]] inline std::optional<resource_use> resource_use_of(std::string_view name, const node_resources& node,
                                                                 const node_usage& usage, std::int64_t pod_request,
                                                                 bool as_requested) {
  if (pod_request == 0 && is_scalar_resource(name)) return std::nullopt;
  std::int64_t allocatable = 0;
  std::int64_t used = 0;
  if (name == "cpu") {
    allocatable = node.allocatable_cpu;
    used = as_requested ? amount_of(usage.requested, name) : usage.scored.cpu;
  } else if (name == "memory") {
    allocatable = node.allocatable_memory;
    used = as_requested ? amount_of(usage.requested, name) : usage.scored.memory;
  } else if (name == "ephemeral-storage" || is_scalar_resource(name)) {
    const quantity* listed = node.allocatable != nullptr ? model::find(*node.allocatable, name) : nullptr;
    allocatable = listed != nullptr ? scheduler_units(name, *listed) : 0;
    used = amount_of(usage.requested, name);
  }
  if (allocatable == 0) return std::nullopt;
  return resource_use{allocatable, detail::saturating_add(used, pod_request), used};
}

namespace detail {

// mostRequestedScore: the share of `capacity` taken, 0-100, `requested` counting at most `capacity` (pods without
// requests count the defaults, which may pass it).
[[nodiscard]] constexpr std::int64_t most_requested(std::int64_t requested, std::int64_t capacity) noexcept {
  if (capacity == 0) return 0;
  return std::min(requested, capacity) * max_node_score / capacity;
}

// helper.BuildBrokenLinearFunction over `shape` with its scores scaled to 0-100 first (×10: MaxNodeScore /
// MaxCustomPriorityScore): the first point's score below it, the last's above it, linear between points (integer
// division, truncating). 0 for an empty shape (which validation refuses).
[[nodiscard]] inline std::int64_t broken_linear(std::span<const model::utilization_shape_point> shape,
                                                std::int64_t utilization) {
  constexpr std::int64_t scale = max_node_score / 10;
  if (shape.empty()) return 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (utilization > shape[i].utilization) continue;
    if (i == 0) return shape[0].score * scale;
    const auto& low = shape[i - 1];
    const auto& high = shape[i];
    const std::int64_t rise = (high.score - low.score) * scale;
    return low.score * scale + rise * (utilization - low.utilization) / (high.utilization - low.utilization);
  }
  return shape.back().score * scale;
}

// RequestedToCapacityRatio's score of one resource: the shape at the utilization in whole per cent (truncated), at
// 100 when over capacity.
[[nodiscard]] inline std::int64_t requested_to_capacity(std::span<const model::utilization_shape_point> shape,
                                                        std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return broken_linear(shape, 100);
  return broken_linear(shape, requested * 100 / capacity);
}

}  // namespace detail

// NodeResourcesFit's score under a configured scoring strategy, over its resources (`pod_requests[k]` the pod's
// request of `fit.resources[k]`, cpu and memory non-zero): the weighted mean of the counted resources' scores.
// LeastAllocated and MostAllocated truncate each score and the mean; RequestedToCapacityRatio leaves out resources
// scoring 0 and rounds the mean (half away from zero). 0 when no resource counts.
[[nodiscard]] inline std::int64_t resources_fit_score(const model::resources_fit_scoring& fit,
                                                      const node_resources& node, const node_usage& usage,
                                                      std::span<const std::int64_t> pod_requests) {
  const auto* ratio = std::get_if<model::requested_to_capacity_ratio>(&fit.strategy);
  const bool most = std::holds_alternative<model::most_allocated>(fit.strategy);
  std::int64_t sum = 0;
  std::int64_t weights = 0;
  for (std::size_t k = 0; k < fit.resources.size() && k < pod_requests.size(); ++k) {
    const auto use = resource_use_of(fit.resources[k].name, node, usage, pod_requests[k], /*as_requested=*/false);
    if (!use) continue;
    const std::int64_t weight = fit.resources[k].weight;
    std::int64_t score = 0;
    if (ratio != nullptr) {
      score = detail::requested_to_capacity(ratio->shape, use->requested, use->allocatable);
      if (score <= 0) continue;
    } else if (most) {
      score = detail::most_requested(use->requested, use->allocatable);
    } else {
      score = detail::least_requested(use->requested, use->allocatable);
    }
    sum += score * weight;
    weights += weight;
  }
  if (weights == 0) return 0;
  if (ratio != nullptr)
    return static_cast<std::int64_t>(std::round(static_cast<double>(sum) / static_cast<double>(weights)));
  return sum / weights;
}

// BalancedAllocation's score over configured resources (`pod_requests[k]` the pod's request of `resources[k]`, as
// requested): 50 + (50 + balance with the pod − balance without it) / 2 over the counted resources' shares (each at
// most 1). Weights play no part (validation holds them at 1).
[[nodiscard]] inline std::int64_t balanced_allocation_score(std::span<const model::resource_weight> resources,
                                                            const node_resources& node, const node_usage& usage,
                                                            std::span<const std::int64_t> pod_requests) {
  std::vector<double> with_pod;
  std::vector<double> without;
  for (std::size_t k = 0; k < resources.size() && k < pod_requests.size(); ++k) {
    const auto use = resource_use_of(resources[k].name, node, usage, pod_requests[k], /*as_requested=*/true);
    if (!use) continue;
    const auto share = [&](std::int64_t amount) {
      return std::min(1.0, static_cast<double>(amount) / static_cast<double>(use->allocatable));
    };
    with_pod.push_back(share(use->requested));
    without.push_back(share(use->allocated));
  }
  constexpr std::int64_t half = max_node_score / 2;
  return half + (half + detail::balance_of(with_pod) - detail::balance_of(without)) / 2;
}

// A profile's scoring as the scorers use it: the profile, and whether it scores resources as the default profile
// does (then the scorers take their cpu-and-memory path).
struct configured_scoring {
  model::scheduler_profile profile;
  bool default_resources = true;

  explicit configured_scoring(model::scheduler_profile p)
      : profile(std::move(p)), default_resources(profile.fit == model::resources_fit_scoring{} &&
                                                 profile.balanced_resources == model::default_scored_resources()) {}
};

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
  score_weights weights{};                  // the profile's plugin weights
  // A profile that scores resources otherwise than the default one (null: the default's way), with the pod's
  // request of each resource its NodeResourcesFit and BalancedAllocation count, in their order.
  const model::scheduler_profile* resource_profile = nullptr;
  std::vector<std::int64_t> fit_requests;
  std::vector<std::int64_t> balanced_requests;

  // `config`: the profile the run scores by; null for the default profile.
  explicit pod_scoring(const model::pod& p, const amounts& requests, const configured_scoring* config = nullptr)
      : pod(&p), scored(scored_requests(p, requests)), requested{amount_of(requests, "cpu"), amount_of(requests, "memory")},
        balanced(balanced_scored(requests)) {
    if (config == nullptr) return;
    weights = config->profile.weights;
    if (config->default_resources) return;
    resource_profile = &config->profile;
    for (const auto& r : resource_profile->fit.resources)
      fit_requests.push_back(r.name == "cpu"      ? scored.cpu
                             : r.name == "memory" ? scored.memory
                                                  : amount_of(requests, r.name));
    for (const auto& r : resource_profile->balanced_resources) balanced_requests.push_back(amount_of(requests, r.name));
    // BalancedAllocation skips a pod that asks none of its resources.
    balanced = std::any_of(balanced_requests.begin(), balanced_requests.end(), [](std::int64_t v) { return v != 0; });
  }

  // NodeResourcesFit's and BalancedAllocation's scores of a node with `resources`, whose pods take `usage` (the
  // latter 0 when BalancedAllocation does not score the pod).
  [[nodiscard]] std::pair<std::int64_t, std::int64_t> resource_scores(const node_resources& resources,
                                                                      const node_usage& usage) const {
    if (resource_profile == nullptr)
      return {least_allocated(resources, usage.scored, scored),
              balanced ? balanced_allocation(resources, usage.requested, requested) : 0};
    const auto& profile = *resource_profile;
    return {resources_fit_score(profile.fit, resources, usage, fit_requests),
            balanced ? balanced_allocation_score(profile.balanced_resources, resources, usage, balanced_requests) : 0};
  }

  // The node-half scores of `node`, whose pods take `usage`; prioritized_list is left to the caller.
  [[nodiscard]] raw_node_score score(const model::node& node, const node_resources& resources,
                                     const node_usage& usage) const {
    raw_node_score out;
    out.intolerable_taints = intolerable_taints(*pod, node);
    out.preferred_affinity = preferred_affinity(*pod, node);
    std::tie(out.least_allocated, out.balanced) = resource_scores(resources, usage);
    out.prioritized_list = allocated_claims_score;
    return out;
  }
};

}  // namespace dra::sched
