// The order kube-scheduler's queue takes pending pods in (PrioritySort), and which pods it holds back.
#pragma once

#include <dra/model/workload.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace dra::sched {

// kube-scheduler's message for a pod held back by its scheduling gates.
inline constexpr std::string_view scheduling_gated_reason = "Scheduling is blocked due to non-empty scheduling gates";

// A pod waits for its scheduling gates to be removed before the queue takes it.
[[nodiscard]] inline bool is_gated(const model::pod& pod) noexcept { return !pod.scheduling_gates.empty(); }

// Whether `a` goes before `b`: higher priority first, then the earlier creation. Timestamps compare as Kubernetes
// writes them (RFC 3339 in UTC, "2026-01-02T03:04:05Z"); an absent one sorts first.
[[nodiscard]] inline bool scheduled_before(const model::pod& a, const model::pod& b) noexcept {
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.meta.creation_timestamp < b.meta.creation_timestamp;
}

// The pods' positions in queue order; equal pods keep their order.
[[nodiscard]] inline std::vector<std::size_t> queue_order(const std::vector<const model::pod*>& pods) {
  std::vector<std::size_t> order(pods.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scheduled_before(*pods[a], *pods[b]); });
  return order;
}

}  // namespace dra::sched
