// The PodDisruptionBudgets preemption weighs: how many disruptions each allows (as the disruption controller wrote
// it, or would write it), which victims a budget forbids evicting, and what the evictions of a run leave.
#pragma once

#include <dra/alloc/node_match.hpp>
#include <dra/model/pod_disruption_budget.hpp>
#include <dra/model/scenario.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <unordered_map>
#include <vector>

namespace dra::sched {

// Whether the disruption controller counts the pod as healthy: bound, neither finished nor being deleted, and running
// (a pod without a phase is taken as running, as a hand-written bound pod is meant).
[[nodiscard]] inline bool counts_as_healthy(const model::pod& p) noexcept {
  return p.node_name && !p.node_name->empty() && !p.meta.deleting && (p.phase.empty() || p.phase == "Running");
}

// Whether the budget's selector picks the pod for the disruption controller: same namespace, and a selector that
// matches its labels (an absent selector picks no pod, an empty one every pod of the namespace).
[[nodiscard]] inline bool budget_selects(const model::pod_disruption_budget& b, const model::pod& p) {
  if (!b.selector || b.meta.namespace_ != p.meta.namespace_) return false;
  const auto matches = alloc::label_selector_matches(*b.selector, p.meta.labels);
  return matches && *matches;
}

// The disruptions a budget without a status allows, as the disruption controller works them out from the pods it
// selects: healthy pods less those the budget wants healthy, never below 0. minAvailable as a count wants that many;
// as a percentage, or maxUnavailable, it is taken of the pods the budget's controllers want, which dra takes to be
// the pods they have; a selected pod with no controller makes the controller give up, and then none is allowed.
[[nodiscard]] inline std::int32_t disruptions_allowed(const model::pod_disruption_budget& b,
                                                      std::span<const model::located<model::pod>> pods) {
  std::int64_t expected = 0, healthy = 0;
  bool all_controlled = true;
  for (const auto& located : pods) {
    const model::pod& p = located.object;
    if (!budget_selects(b, p)) continue;
    ++expected;
    if (counts_as_healthy(p)) ++healthy;
    all_controlled = all_controlled && !p.meta.controller_uid.empty();
  }
  // A percentage of `expected`, rounded up (intstr.GetScaledValueFromIntOrPercent); a count as it is.
  auto scaled = [&](const model::int_or_percent& v) -> std::int64_t {
    if (!v.is_string) return v.number;
    return (model::percent_value(v.string).value_or(0) * expected + 99) / 100;
  };
  std::int64_t desired = 0;
  if (b.max_unavailable) {
    if (!all_controlled) return 0;
    desired = std::max<std::int64_t>(0, expected - scaled(*b.max_unavailable));
  } else if (b.min_available) {
    if (b.min_available->is_string && !all_controlled) return 0;
    desired = scaled(*b.min_available);
  } else {
    return 0;  // a budget with neither field expects no pod
  }
  const std::int64_t allowed = healthy - desired;
  if (expected <= 0 || allowed <= 0) return 0;
  return static_cast<std::int32_t>(std::min<std::int64_t>(allowed, std::numeric_limits<std::int32_t>::max()));
}

// The scenario's budgets over a run: what each allows, which victims exceed them, and the evictions that spend them.
class disruption_budgets {
 public:
  disruption_budgets() = default;
  explicit disruption_budgets(const model::scenario& s) : s_(&s) {
    allowed_.reserve(s.disruption_budgets.size());
    for (std::size_t i = 0; i < s.disruption_budgets.size(); ++i) {
      const model::pod_disruption_budget& b = s.disruption_budgets[i].object;
      allowed_.push_back(b.status ? b.status->disruptions_allowed : disruptions_allowed(b, s.pods));
      by_namespace_[b.meta.namespace_].push_back(i);
    }
    given_ = allowed_;
  }

  // kube-scheduler's filterPodsWithPDBViolation: `victims` (indices into the scenario's pods, the most important
  // first) each take one disruption from every budget that selects them (with labels and a non-empty selector, and
  // not among the budget's disrupted pods); a victim that takes one a budget no longer has violates it.
  [[nodiscard]] std::vector<char> violating(std::span<const std::size_t> victims) const {
    std::vector<char> out(victims.size(), 0);
    if (allowed_.empty()) return out;
    std::unordered_map<std::size_t, std::int32_t> left;
    for (std::size_t k = 0; k < victims.size(); ++k) {
      const model::pod& p = s_->pods[victims[k]].object;
      if (p.meta.labels.empty()) continue;
      for (std::size_t b : selecting(victims[k])) {
        const model::pod_disruption_budget& budget = s_->disruption_budgets[b].object;
        if (budget.selector->match_labels.empty() && budget.selector->match_expressions.empty()) continue;
        if (budget.status && model::find(budget.status->disrupted_pods, p.meta.name) != nullptr) continue;
        std::int32_t& budget_left = left.try_emplace(b, allowed_[b]).first->second;
        if (--budget_left < 0) out[k] = 1;
      }
    }
    return out;
  }

  // The pod was evicted: each budget counting it healthy allows one disruption fewer, down to none, as the
  // disruption controller works it out again.
  void evicted(std::size_t pod) {
    if (allowed_.empty() || !counts_as_healthy(s_->pods[pod].object)) return;
    for (std::size_t b : selecting(pod)) allowed_[b] = std::max(allowed_[b] - 1, 0);
  }

  [[nodiscard]] std::int32_t allowed(std::size_t budget) const { return allowed_[budget]; }
  // Whether the run's evictions spent some of the budget's disruptions.
  [[nodiscard]] bool spent(std::size_t budget) const { return allowed_[budget] != given_[budget]; }

 private:
  // The budgets that select the pod (remembered: a pod is a candidate victim on its node for many preemptors).
  const std::vector<std::size_t>& selecting(std::size_t pod) const {
    const auto [it, inserted] = selecting_.try_emplace(pod);
    if (!inserted) return it->second;
    const model::pod& p = s_->pods[pod].object;
    if (const auto ns = by_namespace_.find(p.meta.namespace_); ns != by_namespace_.end())
      for (std::size_t b : ns->second)
        if (budget_selects(s_->disruption_budgets[b].object, p)) it->second.push_back(b);
    return it->second;
  }

  const model::scenario* s_ = nullptr;
  std::vector<std::int32_t> allowed_;  // per budget, what it allows now
  std::vector<std::int32_t> given_;    // per budget, what it allowed before the run
  std::unordered_map<model::text, std::vector<std::size_t>> by_namespace_;
  mutable std::unordered_map<std::size_t, std::vector<std::size_t>> selecting_;
};

}  // namespace dra::sched
