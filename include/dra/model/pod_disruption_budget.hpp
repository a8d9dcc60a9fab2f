// PodDisruptionBudget (policy/v1): how many of an application's pods may be disrupted at once, which preemption
// weighs when it chooses victims.
#pragma once

#include <dra/model/common.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace dra::model {

// intstr.IntOrString as a budget's minAvailable and maxUnavailable take it: a count, or a percentage as text ("50%").
struct int_or_percent {
  std::int32_t number = 0;  // when given as a number
  text string;              // when given as a string
  bool is_string = false;
  friend bool operator==(const int_or_percent&, const int_or_percent&) = default;
};

// The percentage a budget given as a string spells ("50%" is 50; past 1,000,000 it stays there); nullopt unless it
// is digits then '%'.
[[nodiscard]] inline std::optional<std::int64_t> percent_value(text s) noexcept {
  if (s.size() < 2 || s.back() != '%') return std::nullopt;
  std::int64_t value = 0;
  for (char c : s.substr(0, s.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    value = std::min<std::int64_t>(value * 10 + (c - '0'), 1'000'000);
  }
  return value;
}

// What the disruption controller last wrote: the disruptions the budget allows now, and the pods being evicted
// through the Eviction API (which kube-scheduler does not count again).
struct disruption_budget_status {
  std::int32_t disruptions_allowed = 0;  // status.disruptionsAllowed
  sorted_map<text> disrupted_pods;       // status.disruptedPods: pod name -> when its eviction was admitted
  friend bool operator==(const disruption_budget_status&, const disruption_budget_status&) = default;
};

struct pod_disruption_budget {
  object_meta meta;
  std::optional<int_or_percent> min_available;    // spec.minAvailable
  std::optional<int_or_percent> max_unavailable;  // spec.maxUnavailable
  std::optional<label_selector> selector;         // spec.selector; absent selects no pod
  text unhealthy_pod_eviction_policy;             // spec.unhealthyPodEvictionPolicy ("" when absent)
  std::optional<disruption_budget_status> status;  // present when the input carries status.disruptionsAllowed
  friend bool operator==(const pod_disruption_budget&, const pod_disruption_budget&) = default;
};

// The values spec.unhealthyPodEvictionPolicy may take.
inline constexpr std::string_view if_healthy_budget = "IfHealthyBudget";
inline constexpr std::string_view always_allow = "AlwaysAllow";

}  // namespace dra::model
