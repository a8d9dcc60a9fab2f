// Which nodes a pending pod may run on before its claims are tried: kube-scheduler's pre-filters and filters over
// the scenario's nodes, worked out node by node as the cycle asks, and the reasons of those that refuse it.
#pragma once

#include <dra/alloc/node_match.hpp>
#include <dra/model/common.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_usage.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace dra::sched {

// DynamicResources' reason for a node where a claim the pod uses is allocated elsewhere.
inline constexpr std::string_view claim_elsewhere_reason = "resourceclaim not available on the node";

// The node filters of one pending pod over the node list. A node is filtered the first time it is asked about, so
// a pod that fits on the first node it tries costs one node's filters; the reasons of every node are worked out
// only for a pod no node takes.
class pod_node_filter {
 public:
  // `usage[i]`: what node i's pods take already; `allocated`: the node selectors of the claims the pod uses that are
  // allocated already (a node outside one of them refuses the pod, as DynamicResources' filter does); `dra_backed`:
  // the requested resources DeviceClasses serve (nodes without them leave them to DRA).
  pod_node_filter(const model::pod& pod, const sched::amounts& requests, std::span<const model::node* const> nodes,
                  std::span<const sched::node_usage> usage, std::vector<const model::node_selector*> allocated,
                  std::span<const sched::dra_resource> dra_backed = {})
      : pod_(pod), requests_(requests), nodes_(nodes), usage_(usage), allocated_(std::move(allocated)),
        dra_backed_(dra_backed),
        verdicts_(nodes.size(), verdict::unknown), named_(sched::affinity_node_names(pod)) {
    if (named_ && named_->empty()) pre_filter_failure_ = sched::affinity_conflict_reason;
  }

  // What the pod requests of its node (pod_requests).
  [[nodiscard]] const sched::amounts& requests() const noexcept { return requests_; }

  // Whether node i passes every filter.
  [[nodiscard]] bool feasible(std::size_t i) {
    if (!only_.empty() && !only_[i]) return false;
    if (verdicts_[i] == verdict::unknown) {
      auto reasons = reasons_of(i);
      verdicts_[i] = reasons.empty() ? verdict::feasible : verdict::refused;
      // Kept for the refusal, which a pod that fits nowhere works out next: its filters are not run twice.
      if (!reasons.empty()) {
        if (filtered_.empty()) filtered_.resize(nodes_.size());
        filtered_[i] = std::move(reasons);
      }
    }
    return verdicts_[i] == verdict::feasible;
  }

  // Node i refuses the pod after all, for `reasons` found once its claims were tried there (the DynamicResources
  // plugin's node allocatable check, KEP-5517): no longer feasible, and those reasons count in the refusal.
  void refuse(std::size_t i, std::vector<sched::node_reason> reasons) {
    verdicts_[i] = verdict::refused;
    late_reasons_.emplace_back(i, std::move(reasons));
    refusal_.reset();  // worked out again with them
  }

  // Narrows feasible() to the nodes `only` marks (empty: every node), for trying the pod's nodes group by group; the
  // refusal still counts every node.
  void restrict_to(std::vector<bool> only) { only_ = std::move(only); }

  // The nodes `in` does not mark (a gang's nodes outside its topology domain) refuse the pod for `reason` alone.
  void leave_out(std::vector<char> in, sched::node_reason reason) {
    in_ = std::move(in);
    left_out_ = std::move(reason);
    refusal_.reset();
  }

  // Why no node took the pod, the nodes that passed the filters having refused its claims.
  struct refusal_text {
    std::string message;                        // kube-scheduler's text
    std::vector<sched::reason_count> reasons;   // how many nodes gave each reason (none for a pre-filter's refusal)
  };

  // Worked out once, when first asked (for the pod's claims, then for the pod itself).
  [[nodiscard]] const refusal_text& refusal() {
    if (refusal_) return *refusal_;
    refusal_text& out = refusal_.emplace();
    if (!pre_filter_failure_.empty()) {
      out.message = sched::pre_filter_error_message(nodes_.size(), pre_filter_failure_);
      return out;
    }
    per_node_.clear();
    per_node_.reserve(nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i) per_node_.push_back(refusal_of(i));
    out.reasons = sched::count_reasons(per_node_);
    out.message = sched::fit_error_message(nodes_.size(), out.reasons);
    return out;
  }

  // Why node i refused the pod, as the refusal counts it: its filters' reasons, or its claims' when they passed
  // (kept from the refusal, once worked out).
  [[nodiscard]] std::vector<sched::node_reason> refusal_of(std::size_t i) const {
    if (refusal_ && i < per_node_.size()) return per_node_[i];
    if (!in_.empty() && !in_[i]) return {left_out_};
    if (i < filtered_.size() && !filtered_[i].empty()) return filtered_[i];
    auto reasons = reasons_of(i);
    if (reasons.empty()) reasons.push_back({sched::node_reason_code::claims, std::string(sched::claims_reason)});
    return reasons;
  }
  // A pre-filter refused the pod before any node was filtered.
  [[nodiscard]] bool refused_before_nodes() const noexcept { return !pre_filter_failure_.empty(); }

 private:
  enum class verdict : std::uint8_t { unknown, feasible, refused };

  [[nodiscard]] std::vector<sched::node_reason> reasons_of(std::size_t i) const {
    if (!pre_filter_failure_.empty()) return {{sched::node_reason_code::node_affinity, pre_filter_failure_}};
    const model::node& node = *nodes_[i];
    if (named_ && !std::binary_search(named_->begin(), named_->end(), node.meta.name))
      return {{sched::node_reason_code::node_affinity, std::string(sched::outside_affinity_names_reason)}};
    auto reasons = sched::filter_node(pod_, requests_, node, usage_[i], dra_backed_);
    if (!reasons.empty()) return reasons;
    for (const auto& [refused, late] : late_reasons_)
      if (refused == i) return late;
    for (const model::node_selector* selector : allocated_) {
      const auto matches = alloc::node_selector_matches(*selector, node);
      if (!matches || !*matches) return {{sched::node_reason_code::claims, std::string(claim_elsewhere_reason)}};
    }
    return {};
  }

  const model::pod& pod_;
  const sched::amounts& requests_;
  std::span<const model::node* const> nodes_;
  std::span<const sched::node_usage> usage_;
  std::vector<const model::node_selector*> allocated_;
  std::span<const sched::dra_resource> dra_backed_;
  std::vector<bool> only_;
  std::vector<char> in_;         // see leave_out (empty: every node)
  sched::node_reason left_out_;  // the reason of the nodes `in_` leaves out
  std::vector<verdict> verdicts_;
  std::vector<std::vector<sched::node_reason>> filtered_;  // per node its filters refused: their reasons (feasible)
  std::optional<std::vector<model::text>> named_;  // NodeAffinity's pre-filter: the only nodes filtered, if set
  std::string pre_filter_failure_;
  std::optional<refusal_text> refusal_;
  std::vector<std::vector<sched::node_reason>> per_node_;  // each node's reasons, when the refusal was worked out
  std::vector<std::pair<std::size_t, std::vector<sched::node_reason>>> late_reasons_;  // see refuse()
};

}  // namespace dra::sched
