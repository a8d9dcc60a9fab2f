// What kube-scheduler's node filters said of each node for each kind of pod, kept until the node's pods change: a
// queue of like pods (one template's copies, a trace's recurring shapes) filters a node once, not once per pod, and
// a pod that fits nowhere is answered from what is known of every node.
#pragma once

#include <dra/model/common.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/pod_requests.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dra::sched {

// The fields of a pod its node filters read (filter_node): two pods alike in them get the same verdict from a node
// whose pods request the same.
struct filter_kind {
  amounts requests;  // pod_requests(pod)
  std::vector<model::pod_toleration> tolerations;
  model::sorted_map<model::text> node_selector;
  std::optional<model::node_selector> required_node_affinity;
  std::optional<model::text> node_name;

  [[nodiscard]] static filter_kind of(const model::pod& pod, const amounts& requests) {
    return {requests, pod.tolerations, pod.node_selector, pod.required_node_affinity, pod.node_name};
  }
  // Whether `pod`, requesting `requests`, is of this kind (compared without copying the pod's fields).
  [[nodiscard]] bool holds(const model::pod& pod, const amounts& pod_requests) const {
    return requests == pod_requests && tolerations == pod.tolerations && node_selector == pod.node_selector &&
           required_node_affinity == pod.required_node_affinity && node_name == pod.node_name;
  }
};

// Per kind of pod and node, the filters' reasons (reason_lists::passed: none) and the revision of the node's requests
// they were worked out at (cluster_state::usage_revision); stale once the node's requests have another revision.
// Memory is bounded: past `budget` verdicts in all, the kind asked about longest ago is forgotten.
class node_filter_memo {
 public:
  static constexpr std::size_t default_budget = std::size_t{1} << 22;

  explicit node_filter_memo(std::size_t nodes, std::size_t budget = default_budget)
      : nodes_(nodes), budget_(std::max(budget, nodes)) {}

  // The kind `pod` (requesting `requests`) is of.
  [[nodiscard]] std::size_t kind_of(const model::pod& pod, const amounts& requests) {
    const std::size_t hash = hash_of(pod, requests);
    for (auto [it, end] = by_hash_.equal_range(hash); it != end; ++it)
      if (kinds_[it->second].kind.holds(pod, requests)) return it->second;
    kinds_.push_back({filter_kind::of(pod, requests), {}, {}, 0});
    by_hash_.emplace(hash, kinds_.size() - 1);
    return kinds_.size() - 1;
  }

  // Node i's reasons for a pod of `kind` if known at `revision` of the node's requests.
  [[nodiscard]] std::optional<reason_lists::id> known(std::size_t kind, std::size_t node, std::uint64_t revision) {
    verdicts& v = kinds_[kind];
    v.asked = ++clock_;
    if (v.stamps.empty() || v.stamps[node] != revision + 1) return std::nullopt;
    return v.reasons[node];
  }
  void remember(std::size_t kind, std::size_t node, std::uint64_t revision, reason_lists::id reasons) {
    verdicts& v = kinds_[kind];
    if (v.stamps.empty()) make_room(kind);
    v.stamps[node] = revision + 1;  // 0: not known
    v.reasons[node] = reasons;
  }

  // The lists every verdict names (and the pods' other reasons, for counting them alike).
  [[nodiscard]] reason_lists& reasons() noexcept { return reasons_; }
  [[nodiscard]] const reason_lists& reasons() const noexcept { return reasons_; }

 private:
  struct verdicts {
    filter_kind kind;
    std::vector<std::uint64_t> stamps;   // per node: 1 + the revision its reasons hold at (0: none); empty: no table
    std::vector<reason_lists::id> reasons;
    std::uint64_t asked = 0;  // when a pod of the kind last asked
  };

  // Enough of a kind's fields to tell most kinds apart cheaply; filter_kind::holds decides.
  static std::size_t hash_of(const model::pod& pod, const amounts& requests) {
    std::size_t h = pod.tolerations.size() * 31 + pod.node_selector.size() * 7 + (pod.required_node_affinity ? 3 : 0);
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    for (const auto& [name, value] : requests) {
      mix(std::hash<std::string_view>{}(name));
      mix(std::hash<std::int64_t>{}(value));
    }
    if (pod.node_name) mix(std::hash<std::string_view>{}(*pod.node_name));
    return h;
  }

  // A table for `kind`, the tables asked about longest ago given up while all of them would exceed the budget.
  void make_room(std::size_t kind) {
    while ((tables_ + 1) * nodes_ > budget_) {
      verdicts* oldest = nullptr;
      for (verdicts& v : kinds_)
        if (!v.stamps.empty() && (oldest == nullptr || v.asked < oldest->asked)) oldest = &v;
      if (oldest == nullptr) break;
      oldest->stamps = {};
      oldest->reasons = {};
      --tables_;
    }
    kinds_[kind].stamps.assign(nodes_, 0);
    kinds_[kind].reasons.assign(nodes_, reason_lists::passed);
    ++tables_;
  }

  std::size_t nodes_;
  std::size_t budget_;
  std::vector<verdicts> kinds_;
  std::unordered_multimap<std::size_t, std::size_t> by_hash_;  // hash_of(kind) → its index in kinds_
  std::size_t tables_ = 0;
  std::uint64_t clock_ = 0;
  reason_lists reasons_;
};

}  // namespace dra::sched
