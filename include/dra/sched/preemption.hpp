// kube-scheduler's PostFilters for a pod no node takes: DefaultPreemption's choice of the lower-priority pods to evict
// and of the node among the candidates, and the words DynamicResources and DefaultPreemption add to the pod's failure.
#pragma once

#include <dra/model/common.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/sched/fit_error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dra::sched {

// What the PostFilters say, in kube-scheduler's words.
inline constexpr std::string_view no_claims_to_deallocate = "no new claims to deallocate";  // a pod without claims
inline constexpr std::string_view still_not_schedulable = "still not schedulable";          // a pod with claims
inline constexpr std::string_view preemption_not_helpful = "Preemption is not helpful for scheduling";
inline constexpr std::string_view no_preemption_victims = "No preemption victims found for incoming pod";
inline constexpr std::string_view preemption_policy_never = "not eligible due to preemptionPolicy=Never.";

// A running pod the dry run may evict.
struct preemption_victim {
  std::size_t pod = 0;  // index into scenario.pods
  std::int32_t priority = 0;
  model::text start_time;  // status.startTime; "" when the pod has not started (kube-scheduler counts it as now)
  friend bool operator==(const preemption_victim&, const preemption_victim&) = default;
};

// Whether start time `a` is before `b`; a pod that has not started counts as starting now, after any recorded time.
[[nodiscard]] inline bool started_before(model::text a, model::text b) noexcept {
  if (a.empty() || b.empty()) return !a.empty() && b.empty();
  return a < b;  // RFC 3339 in UTC, as Kubernetes writes it, sorts as text
}

// Whether `a` matters more than `b` (kube-scheduler's MoreImportantPod): the higher priority, then the earlier start.
[[nodiscard]] inline bool more_important(const preemption_victim& a, const preemption_victim& b) noexcept {
  if (a.priority != b.priority) return a.priority > b.priority;
  return started_before(a.start_time, b.start_time);
}

// A node where evicting `victims` (the most important first) lets the pod fit.
struct preemption_candidate {
  std::size_t node = 0;  // index into the run's node list
  std::vector<preemption_victim> victims;
  std::size_t pdb_violations = 0;  // victims whose eviction a PodDisruptionBudget forbids
};

// The rule that settled the choice of node, in the order kube-scheduler applies them.
enum class preemption_rule : std::uint8_t {
  only_candidate,         // one node had victims that let the pod fit
  fewest_pdb_violations,  // the fewest PodDisruptionBudget violations
  lowest_top_priority,    // the lowest priority among the highest-priority victims
  smallest_priority_sum,  // the smallest sum of the victims' priorities
  fewest_victims,         // the fewest victims
  latest_start,           // the latest start among each node's highest-priority victims (the earliest of them)
  first_candidate,        // every rule tied: the first candidate (kube-scheduler's is random; dra's is node order)
};

[[nodiscard]] constexpr std::string_view rule_name(preemption_rule rule) noexcept {
  switch (rule) {
    case preemption_rule::only_candidate: return "the only candidate";
    case preemption_rule::fewest_pdb_violations: return "fewest PodDisruptionBudget violations";
    case preemption_rule::lowest_top_priority: return "lowest highest-priority victim";
    case preemption_rule::smallest_priority_sum: return "smallest sum of victims' priorities";
    case preemption_rule::fewest_victims: return "fewest victims";
    case preemption_rule::latest_start: return "latest start of its highest-priority victims";
    case preemption_rule::first_candidate: return "first candidate in node order";
  }
  return {};
}

// The same as a stable identifier, for JSON.
[[nodiscard]] constexpr std::string_view rule_key(preemption_rule rule) noexcept {
  switch (rule) {
    case preemption_rule::only_candidate: return "onlyCandidate";
    case preemption_rule::fewest_pdb_violations: return "fewestPDBViolations";
    case preemption_rule::lowest_top_priority: return "lowestHighestPriority";
    case preemption_rule::smallest_priority_sum: return "smallestPrioritySum";
    case preemption_rule::fewest_victims: return "fewestVictims";
    case preemption_rule::latest_start: return "latestStart";
    case preemption_rule::first_candidate: return "firstCandidate";
  }
  return {};
}

struct preemption_choice {
  std::size_t candidate = 0;  // index into the candidates
  preemption_rule rule = preemption_rule::only_candidate;
  // Per candidate, the rule that preferred others to it; none for the chosen one.
  std::vector<std::optional<preemption_rule>> set_aside_by;
};

// Chooses among non-empty candidates as DefaultPreemption's pickOneNodeForPreemption: each rule keeps the candidates
// it ranks best; the first that leaves one decides. Each candidate set aside is marked with the rule that did it.
[[nodiscard]] inline preemption_choice choose_preemption_node(std::span<const preemption_candidate> candidates) {
  std::vector<std::size_t> left(candidates.size());
  for (std::size_t i = 0; i < left.size(); ++i) left[i] = i;
  std::vector<std::optional<preemption_rule>> set_aside(candidates.size());
  auto chosen = [&](preemption_rule rule) {
    for (std::size_t i = 1; i < left.size(); ++i) set_aside[left[i]] = rule;  // the first of a tie wins
    return preemption_choice{left.front(), rule, std::move(set_aside)};
  };
  if (left.size() == 1) return chosen(preemption_rule::only_candidate);
  // Keeps the candidates `better` ranks first (a strict order on candidates), the others set aside by `rule`; true
  // when one is left.
  auto keep_best = [&](preemption_rule rule, auto better) {
    std::size_t best = left.front();
    for (std::size_t i : left)
      if (better(candidates[i], candidates[best])) best = i;
    std::erase_if(left, [&](std::size_t i) {
      const bool worse = better(candidates[best], candidates[i]);
      if (worse) set_aside[i] = rule;
      return worse;
    });
    return left.size() == 1;
  };
  // Each node's highest-priority victims' earliest start (the victims come most important first).
  auto earliest_top_start = [](const preemption_candidate& c) { return c.victims.front().start_time; };
  auto priority_sum = [](const preemption_candidate& c) {
    // Each victim counts 2^31 on top of its priority, so that negative priorities still add up to more per victim.
    std::int64_t sum = 0;
    for (const auto& v : c.victims) sum += std::int64_t{v.priority} + std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
    return sum;
  };
  using enum preemption_rule;
  if (keep_best(fewest_pdb_violations,
                [](const auto& a, const auto& b) { return a.pdb_violations < b.pdb_violations; }))
    return chosen(fewest_pdb_violations);
  if (keep_best(lowest_top_priority,
                [](const auto& a, const auto& b) { return a.victims.front().priority < b.victims.front().priority; }))
    return chosen(lowest_top_priority);
  if (keep_best(smallest_priority_sum,
                [&](const auto& a, const auto& b) { return priority_sum(a) < priority_sum(b); }))
    return chosen(smallest_priority_sum);
  if (keep_best(fewest_victims, [](const auto& a, const auto& b) { return a.victims.size() < b.victims.size(); }))
    return chosen(fewest_victims);
  if (keep_best(latest_start, [&](const auto& a, const auto& b) {
        return started_before(earliest_top_start(b), earliest_top_start(a));
      }))
    return chosen(latest_start);
  return chosen(first_candidate);
}

// Whether evicting pods may take away why a node refused the pod (kube-scheduler's Unschedulable, not
// UnschedulableAndUnresolvable): short of resources or of pod slots; with DRAPreemption (`frees_devices`), also
// devices the claims did not get.
[[nodiscard]] inline bool preemption_may_resolve(const node_reason& r, bool frees_devices) noexcept {
  if (r.code == node_reason_code::resources || r.code == node_reason_code::too_many_pods) return true;
  return frees_devices && r.code == node_reason_code::claims && r.message == claims_reason;
}

// How many candidates the dry run looks for before it stops: 10 % of the nodes where preemption may help, at least
// 100, at most all of them (DefaultPreemption's minCandidateNodesPercentage and minCandidateNodesAbsolute).
[[nodiscard]] constexpr std::size_t preemption_candidates_wanted(std::size_t potential_nodes) noexcept {
  return std::min(potential_nodes, std::max<std::size_t>(potential_nodes * 10 / 100, 100));
}

// The PostFilters' text after a fit error, joined as kube-scheduler joins them: DynamicResources' word, then
// DefaultPreemption's (`preemption` without its "preemption: " prefix; empty when it found victims, and then nothing
// is added: the pod is nominated).
[[nodiscard]] inline std::string post_filter_text(std::string_view dra_word, std::string_view preemption) {
  if (preemption.empty()) return {};
  return std::string(dra_word) + ", preemption: " + std::string(preemption);
}

namespace detail {

// Whether the allocation's devices are those of node `node_name` alone (the node selector the allocator writes for
// node-local devices): device-aware preemption frees no device of several nodes or none.
[[nodiscard]] inline bool local_to(const model::allocation_result& allocation, std::string_view node_name) {
  if (!allocation.node_selector || allocation.node_selector->terms.size() != 1) return false;
  const model::node_selector_term& term = allocation.node_selector->terms.front();
  if (!term.match_expressions.empty() || term.match_fields.size() != 1) return false;
  const model::node_selector_requirement& field = term.match_fields.front();
  return field.key == "metadata.name" && field.op == model::node_selector_operator::in && field.values.size() == 1 &&
         field.values.front() == node_name;
}

[[nodiscard]] inline bool is_pod_group_reference(const model::resource_claim_consumer_reference& ref) noexcept {
  return ref.resource == "podgroups";
}

// The claims the removed victims free: each claim some of them hold (`holds[k]` for victim k, one entry per naming)
// that every pod using it (`users[claim]`) is among.
[[nodiscard]] inline std::vector<std::size_t> claims_freed(const std::vector<std::vector<std::size_t>>& holds,
                                                          const std::vector<char>& removed,
                                                          const std::vector<std::size_t>& users) {
  std::unordered_map<std::size_t, std::size_t> named;
  for (std::size_t k = 0; k < holds.size(); ++k)
    if (removed[k] != 0)
      for (std::size_t c : holds[k]) ++named[c];
  std::vector<std::size_t> out;
  for (const auto& [claim, count] : named)
    if (count == users[claim]) out.push_back(claim);
  std::ranges::sort(out);
  return out;
}

}  // namespace detail

}  // namespace dra::sched
