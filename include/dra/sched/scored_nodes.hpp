// kube-scheduler's node scoring over a run's nodes (`--score kube`, sched::node_choice::kube_score): the nodes where a
// pending pod fits, scored so that the cycle takes the one the profile's scoring ranks highest rather than the first.
#pragma once

#include <dra/model/outcome.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/scheduler_config.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/scoring.hpp>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace dra::sched {

// DynamicResources' score of a unit's allocations on one node: each claim's, summed.
[[nodiscard]] inline std::int64_t prioritized_list_score(std::span<const model::resource_claim* const> claims,
                                                         std::span<const model::allocation_result> results) {
  std::int64_t score = 0;
  for (std::size_t i = 0; i < claims.size() && i < results.size(); ++i)
    score += sched::prioritized_list_score(claims[i]->spec, results[i]);
  return score;
}

// The feasible nodes of one pod, each with DynamicResources' score of the devices it would get there.
class scored_nodes {
 public:
  scored_nodes(const sched::pod_scoring& pod, std::span<const model::node* const> nodes,
               std::span<const sched::node_resources> resources, std::span<const sched::node_usage> usage)
      : pod_(pod), nodes_(nodes), resources_(resources), usage_(usage) {}

  // Node i of the list fits the pod; its claims' devices there score `prioritized_list`.
  void add(std::size_t i, std::int64_t prioritized_list) {
    sched::raw_node_score raw = pod_.score(*nodes_[i], resources_[i], usage_[i]);
    raw.prioritized_list += prioritized_list;
    raw_.push_back(raw);
    indices_.push_back(i);
  }

  [[nodiscard]] bool empty() const noexcept { return indices_.empty(); }

  // The node kube-scheduler's scoring takes among those added (ties: the first added). Not empty.
  [[nodiscard]] std::size_t best() const {
    assert(!empty());
    return indices_[sched::best_scored(raw_, pod_.weights)];
  }

 private:
  const sched::pod_scoring& pod_;
  std::span<const model::node* const> nodes_;
  std::span<const sched::node_resources> resources_;
  std::span<const sched::node_usage> usage_;
  std::vector<sched::raw_node_score> raw_;
  std::vector<std::size_t> indices_;
};

// Whether DynamicResources' score comes out alike on every node for this unit: none of its claims has a
// firstAvailable request (or the score is off without the PrioritizedList feature).
[[nodiscard]] inline bool dra_scores_alike(std::span<const model::resource_claim* const> claims, bool prioritized_list) {
  if (!prioritized_list) return true;
  return std::none_of(claims.begin(), claims.end(), [](const model::resource_claim* c) {
    return std::any_of(c->spec.requests.begin(), c->spec.requests.end(),
                       [](const model::device_request& r) { return !r.first_available.empty(); });
  });
}

// Whether TaintToleration's and NodeAffinity's scores come out alike on every node for this pod: no node has a
// PreferNoSchedule taint and the pod prefers no nodes.
[[nodiscard]] inline bool node_scores_alike(const model::pod& pod, bool nodes_prefer_no_schedule) {
  return !nodes_prefer_no_schedule &&
         std::none_of(pod.preferred_node_affinity.begin(), pod.preferred_node_affinity.end(),
                      [](const model::preferred_scheduling_term& t) { return t.weight != 0; });
}

// The nodes in the order of their NodeResourcesFit + BalancedAllocation scores for pods that ask alike (highest first,
// ties in node order), one ordering per kind of pod, each brought up to date from a log of the nodes whose pods
// changed: a pod placed changes one node's scores, not the order of the others.
class resource_rankings {
 public:
  // Node i's pods changed.
  void changed(std::size_t i) { log_.push_back(i); }
  // Every node's pods may have changed (a gang's trial was taken back).
  void changed_all() { rankings_.clear(); }

  // Node indices by descending score for `pod`'s kind, ties by index (as std::pair<-score, index> orders them); node i
  // has `resources[i]` and its pods take `usage[i]`.
  const std::set<std::pair<std::int64_t, std::size_t>>& order_for(const sched::pod_scoring& pod,
                                                                  std::span<const sched::node_resources> resources,
                                                                  std::span<const sched::node_usage> usage) {
    const key k{pod.scored.cpu, pod.scored.memory, pod.requested.cpu, pod.requested.memory, pod.balanced,
                pod.fit_requests, pod.balanced_requests};
    auto [it, fresh] = rankings_.try_emplace(k);
    ranking& r = it->second;
    if (fresh) {
      if (rankings_.size() > max_rankings) {  // a queue of ever-new kinds of pods: start over
        rankings_.clear();
        return order_for(pod, resources, usage);
      }
      r.score.resize(resources.size());
      for (std::size_t i = 0; i < resources.size(); ++i) {
        r.score[i] = score(pod, resources[i], usage[i]);
        r.order.emplace(-r.score[i], i);
      }
      r.seen = log_.size();
      return r.order;
    }
    for (; r.seen < log_.size(); ++r.seen) {
      const std::size_t i = log_[r.seen];
      r.order.erase({-r.score[i], i});
      r.score[i] = score(pod, resources[i], usage[i]);
      r.order.emplace(-r.score[i], i);
    }
    return r.order;
  }

 private:
  using key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, bool, std::vector<std::int64_t>,
                         std::vector<std::int64_t>>;
  struct ranking {
    std::vector<std::int64_t> score;                      // per node
    std::set<std::pair<std::int64_t, std::size_t>> order;  // (-score, node)
    std::size_t seen = 0;                                 // how much of log_ the scores reflect
  };
  static constexpr std::size_t max_rankings = 64;

  [[nodiscard]] static std::int64_t score(const sched::pod_scoring& pod, const sched::node_resources& resources,
                                          const sched::node_usage& used) {
    const auto [fit, balanced] = pod.resource_scores(resources, used);
    return pod.weights.resources_fit * fit + pod.weights.balanced_allocation * balanced;
  }

  std::vector<std::size_t> log_;
  std::map<key, ranking> rankings_;
};

// kube-scheduler's scoring over a run's nodes (`--score kube`): what each node offers, the rankings by resource
// scores, and the best scored node of those a pod fits.
class node_scorer {
 public:
  node_scorer() = default;  // scoring off
  // Scoring `nodes` as `profile` does (the default profile's scoring by default).
  explicit node_scorer(std::span<const model::node* const> nodes, model::scheduler_profile profile = {})
      : on_(true), config_(std::move(profile)) {
    for (const model::node* n : nodes) {
      resources_.push_back(sched::resources_of(*n));
      prefer_no_schedule_ = prefer_no_schedule_ ||
                            std::any_of(n->taints.begin(), n->taints.end(),
                                        [](const model::node_taint& t) { return t.effect == "PreferNoSchedule"; });
    }
  }

  [[nodiscard]] bool on() const noexcept { return on_; }
  // The profile pods are scored by (for pod_scoring).
  [[nodiscard]] const sched::configured_scoring* config() const noexcept { return &config_; }
  // Node i's pods changed; or every node's (a trial was taken back).
  void changed(std::size_t i) {
    if (on_) rankings_.changed(i);
  }
  void changed_all() { rankings_.changed_all(); }

  [[nodiscard]] bool kinds_alike(const model::pod& pod) const { return node_scores_alike(pod, prefer_no_schedule_); }

  [[nodiscard]] const std::set<std::pair<std::int64_t, std::size_t>>& order_for(const sched::pod_scoring& pod,
                                                                                std::span<const sched::node_usage> usage) {
    return rankings_.order_for(pod, resources_, usage);
  }

  [[nodiscard]] scored_nodes scored(const sched::pod_scoring& pod, std::span<const model::node* const> nodes,
                                    std::span<const sched::node_usage> usage) const {
    return scored_nodes(pod, nodes, resources_, usage);
  }

  // The node kube-scheduler's scoring takes when DynamicResources' scores come out alike: in the order of the
  // resource scores, the first node of each kind (its TaintToleration and NodeAffinity scores, shared by the kind's
  // nodes) that `fits`; of those, the best scored, normalised over them, as over every feasible node (a kind's
  // highest raw scores are its first node's). When the node half's scores come out alike too, the first node that
  // fits. nullopt when no node fits or `fits` failed (nullopt from it).
  template <class Fits>
  std::optional<std::size_t> best_in_resource_order(const sched::pod_scoring& pod,
                                                    std::span<const model::node* const> nodes,
                                                    std::span<const sched::node_usage> usage, Fits fits) {
    const bool one_kind = kinds_alike(*pod.pod);
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> first_of_kind;
    for (const auto& [score, i] : order_for(pod, usage)) {
      std::pair<std::int64_t, std::int64_t> kind{0, 0};
      if (!one_kind) {
        kind = {sched::intolerable_taints(*pod.pod, *nodes[i]), sched::preferred_affinity(*pod.pod, *nodes[i])};
        if (first_of_kind.contains(kind)) continue;
      }
      const std::optional<bool> fit = fits(i);
      if (!fit) return std::nullopt;
      if (!*fit) continue;
      if (one_kind) return i;
      first_of_kind.emplace(kind, i);
    }
    if (first_of_kind.empty()) return std::nullopt;
    std::vector<std::size_t> firsts;
    for (const auto& [kind, i] : first_of_kind) firsts.push_back(i);
    std::ranges::sort(firsts);  // ties between kinds go to the earlier node
    scored_nodes best = scored(pod, nodes, usage);
    for (std::size_t i : firsts) best.add(i, 0);
    return best.best();
  }

 private:
  bool on_ = false;
  sched::configured_scoring config_{model::scheduler_profile{}};
  std::vector<sched::node_resources> resources_;  // per node of the list
  bool prefer_no_schedule_ = false;               // some node has a PreferNoSchedule taint
  resource_rankings rankings_;                    // the nodes by resource scores, per kind of pod
};

}  // namespace dra::sched
