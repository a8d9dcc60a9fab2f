// PriorityClass (scheduling.k8s.io/v1) and how the API server's Priority admission gives a pod its priority and
// preemption policy from it.
#pragma once

#include <dra/core/result.hpp>
#include <dra/model/common.hpp>
#include <dra/model/workload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dra::model {

struct priority_class {
  object_meta meta;
  std::int32_t value = 0;                     // value
  bool global_default = false;                // globalDefault: the class of pods that name none
  std::optional<text> preemption_policy;      // preemptionPolicy (absent: PreemptLowerPriority)
  friend bool operator==(const priority_class&, const priority_class&) = default;
};

// The preemption policies a pod or class may name.
inline constexpr std::string_view preempt_lower_priority = "PreemptLowerPriority";
inline constexpr std::string_view preempt_never = "Never";

// The classes every cluster has without their being listed (the API server creates them).
struct system_priority_class {
  std::string_view name;
  std::int32_t value;
};
inline constexpr system_priority_class system_priority_classes[] = {
    {"system-node-critical", 2000001000},
    {"system-cluster-critical", 2000000000},
};

// Whether a pod may preempt others: its (admitted) preemption policy is not Never.
[[nodiscard]] inline bool preempts_lower_priority(const pod& p) noexcept {
  return !p.preemption_policy || *p.preemption_policy != preempt_never;
}

}  // namespace dra::model
