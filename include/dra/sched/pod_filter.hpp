// Which nodes a pending pod may run on before its claims are tried: kube-scheduler's pre-filters and filters over
// the scenario's nodes, worked out node by node as the cycle asks, and the reasons of those that refuse it.
#pragma once

#include <dra/alloc/node_match.hpp>
#include <dra/model/common.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/filter_memo.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_usage.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sched {

// DynamicResources' reason for a node where a claim the pod uses is allocated elsewhere.
inline constexpr std::string_view claim_elsewhere_reason = "resourceclaim not available on the node";

// The node filters of one pending pod over the node list. A node is filtered the first time it is asked about, so
// a pod that fits on the first node it tries costs one node's filters; the reasons of every node are worked out
// only for a pod no node takes. What the filters say of a node is remembered for the pods of the same kind (the
// memo) until the node's requests change: each node's reasons are a number naming a list in the memo's reasons.
class pod_node_filter {
 public:
  using reason_id = reason_lists::id;

  // `usage[i]`: what node i's pods take already, at revision `revisions[i]`; `allocated`: the node selectors of the
  // claims the pod uses that are allocated already (a node outside one of them refuses the pod, as DynamicResources'
  // filter does); `dra_backed`: the requested resources DeviceClasses serve (nodes without them leave them to DRA).
  pod_node_filter(const model::pod& pod, const sched::amounts& requests, std::span<const model::node* const> nodes,
                  std::span<const sched::node_usage> usage, std::span<const std::uint64_t> revisions,
                  node_filter_memo& memo, std::vector<const model::node_selector*> allocated,
                  std::span<const sched::dra_resource> dra_backed = {})
      : pod_(pod), requests_(requests), nodes_(nodes), usage_(usage), revisions_(revisions), memo_(memo),
        allocated_(std::move(allocated)), dra_backed_(dra_backed), verdicts_(nodes.size(), unknown),
        named_(sched::affinity_node_names(pod)) {
    if (named_ && named_->empty()) pre_filter_failure_ = sched::affinity_conflict_reason;
  }

  // What the pod requests of its node (pod_requests).
  [[nodiscard]] const sched::amounts& requests() const noexcept { return requests_; }

  // Whether node i passes every filter.
  [[nodiscard]] bool feasible(std::size_t i) {
    if (!only_.empty() && !only_[i]) return false;
    return verdict(i) == reason_lists::passed;
  }

  // Node i refuses the pod after all, for `reasons` found once its claims were tried there (the DynamicResources
  // plugin's node allocatable check, KEP-5517): no longer feasible, and those reasons count in the refusal.
  void refuse(std::size_t i, std::vector<sched::node_reason> reasons) {
    verdicts_[i] = reasons.empty() ? claims_refused() : memo_.reasons().intern(std::move(reasons));
    refusal_.reset();  // worked out again with them
  }

  // Narrows feasible() to the nodes `only` marks (empty: every node), for trying the pod's nodes group by group; the
  // refusal still counts every node.
  void restrict_to(std::vector<bool> only) { only_ = std::move(only); }

  // The nodes `in` does not mark (a gang's nodes outside its topology domain) refuse the pod for `reason` alone.
  void leave_out(std::vector<char> in, sched::node_reason reason) {
    in_ = std::move(in);
    left_out_ = memo_.reasons().intern({std::move(reason)});
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
    std::vector<reason_id> per_node(nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i) per_node[i] = refusal_of(i);
    out.reasons = memo_.reasons().count(per_node);
    out.message = sched::fit_error_message(nodes_.size(), out.reasons);
    return out;
  }

  // Why node i refused the pod, as the refusal counts it: its filters' reasons, or its claims' when they passed (a
  // list of the memo's reasons).
  [[nodiscard]] reason_id refusal_of(std::size_t i) {
    if (!in_.empty() && !in_[i]) return left_out_;
    const reason_id id = verdict(i);
    return id == reason_lists::passed ? claims_refused() : id;
  }
  [[nodiscard]] const reason_lists& reasons() const noexcept { return memo_.reasons(); }
  // Whether the filters read nothing of a node but its cordon, taints and resources (no label, no name, no position
  // in the list): nodes alike in those (node_likeness) are filtered alike.
  [[nodiscard]] bool reads_only_node_resources() const noexcept {
    return !named_ && pre_filter_failure_.empty() && pod_.node_selector.empty() && !pod_.required_node_affinity &&
           (!pod_.node_name || pod_.node_name->empty()) && allocated_.empty() && only_.empty() && in_.empty();
  }
  // A pre-filter refused the pod before any node was filtered.
  [[nodiscard]] bool refused_before_nodes() const noexcept { return !pre_filter_failure_.empty(); }

 private:
  static constexpr reason_id unknown = ~reason_id{0};

  reason_id verdict(std::size_t i) {
    if (verdicts_[i] == unknown) verdicts_[i] = work_out(i);
    return verdicts_[i];
  }

  reason_id work_out(std::size_t i) {
    using code = sched::node_reason_code;
    if (!pre_filter_failure_.empty()) return once(pre_filtered_, code::node_affinity, pre_filter_failure_);
    const model::node& node = *nodes_[i];
    if (named_ && !std::binary_search(named_->begin(), named_->end(), node.meta.name))
      return once(outside_names_, code::node_affinity, sched::outside_affinity_names_reason);
    if (!kind_) kind_ = memo_.kind_of(pod_, requests_);
    const std::uint64_t revision = i < revisions_.size() ? revisions_[i] : 0;
    std::optional<reason_id> filtered = memo_.known(*kind_, i, revision);
    if (!filtered) {
      filtered = memo_.reasons().intern(sched::filter_node(pod_, requests_, node, usage_[i], dra_backed_));
      memo_.remember(*kind_, i, revision, *filtered);
    }
    if (*filtered != reason_lists::passed) return *filtered;
    for (const model::node_selector* selector : allocated_) {
      const auto matches = alloc::node_selector_matches(*selector, node);
      if (!matches || !*matches) return once(claim_elsewhere_, code::claims, claim_elsewhere_reason);
    }
    return reason_lists::passed;
  }

  reason_id claims_refused() { return once(claims_refused_, sched::node_reason_code::claims, sched::claims_reason); }

  // The list of one reason, `slot` keeping it for the pod's other nodes.
  reason_id once(std::optional<reason_id>& slot, sched::node_reason_code code, std::string_view message) {
    if (!slot) slot = memo_.reasons().intern({{code, std::string(message)}});
    return *slot;
  }

  const model::pod& pod_;
  const sched::amounts& requests_;
  std::span<const model::node* const> nodes_;
  std::span<const sched::node_usage> usage_;
  std::span<const std::uint64_t> revisions_;
  node_filter_memo& memo_;
  std::vector<const model::node_selector*> allocated_;
  std::span<const sched::dra_resource> dra_backed_;
  std::optional<std::size_t> kind_;  // the pod's in the memo, once a node is filtered
  std::vector<bool> only_;
  std::vector<char> in_;                          // see leave_out (empty: every node)
  reason_id left_out_ = reason_lists::passed;     // the reason of the nodes `in_` leaves out
  std::optional<reason_id> claims_refused_, claim_elsewhere_, outside_names_, pre_filtered_;  // see once()
  std::vector<reason_id> verdicts_;               // per node: its reasons, `unknown` until worked out
  std::optional<std::vector<model::text>> named_;  // NodeAffinity's pre-filter: the only nodes filtered, if set
  std::string pre_filter_failure_;
  std::optional<refusal_text> refusal_;
};

}  // namespace dra::sched
