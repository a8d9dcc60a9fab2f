// The cycle's side of node allocatable resources (KEP-5517): where the scenario's devices are, and whether a node
// takes a pod once its claims' devices add their node resources to the pod's requests.
#pragma once

#include <dra/alloc/features.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/node_allocatable.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace dra::sched::detail {

// DynamicResources' reason for a pod using a claim another pod holds whose devices map node resources.
inline std::string shared_mapped_claim_reason(model::text claim) {
  return "node allocatable resource claim " + std::string(claim) + " has a mapped device and cannot be shared across pods";
}

// A claim of the pod with what the cycle knows of it beyond sched::allocated_claim.
struct pod_claim {
  sched::allocated_claim claim;
  bool held_by_other_pod = false;  // allocated for (reserved for) another pod already
};

// What a node makes of a pod's devices' node resources.
struct node_allocatable_verdict {
  std::vector<model::node_allocatable_claim_status> statuses;  // the pod's status.nodeAllocatableResourceClaimStatuses
  sched::amounts added;                                        // what they add to the pod's requests
  std::vector<sched::node_reason> refused;                     // why the node does not take the pod (empty: it does)
};

// The scenario's devices that have nodeAllocatableResources, found by the allocation results that name them.
class node_allocatable_accounting {
 public:
  node_allocatable_accounting(const model::scenario& s, const alloc::features& features) {
    if (!features.node_allocatable_resources) return;
    for (const auto& located : s.slices) {
      const model::resource_slice& slice = located.object;
      for (const model::device& d : slice.devices) {
        if (!d.node_allocatable_resources || d.node_allocatable_resources->empty()) continue;
        // Only the pool's newest generation is allocated from.
        auto [it, added] = devices_.try_emplace({slice.driver, slice.pool.name, d.name}, slice.pool.generation, &d);
        if (!added && it->second.first < slice.pool.generation) it->second = {slice.pool.generation, &d};
      }
    }
  }

  // With the feature off, or no device having the field, nothing changes: every check is skipped.
  [[nodiscard]] bool active() const noexcept { return !devices_.empty(); }

  [[nodiscard]] const model::device* device_of(const model::device_request_allocation_result& result) const {
    const auto it = devices_.find({result.driver, result.pool, result.device});
    return it != devices_.end() ? it->second.second : nullptr;
  }

  // The DynamicResources plugin's check of `node` for `pod` with `claims` allocated (calculateAndCheck…): a claim
  // another pod holds whose devices map resources refuses the pod; else its requests with what the devices add must
  // fit beside `usage` (and within its pod-level requests). Claims without such devices change nothing.
  [[nodiscard]] node_allocatable_verdict judge(const model::pod& pod, const model::node& node,
                                               const sched::node_usage& usage, std::span<const pod_claim> claims) const {
    node_allocatable_verdict out;
    auto find_device = [this](const model::device_request_allocation_result& r) { return device_of(r); };
    std::vector<sched::allocated_claim> counted;
    for (const pod_claim& c : claims) {
      if (c.claim.allocation == nullptr || !sched::has_node_allocatable_device(*c.claim.allocation, find_device)) continue;
      if (c.held_by_other_pod && sched::has_mapped_device(*c.claim.allocation, find_device)) {
        out.refused.push_back({sched::node_reason_code::claims, shared_mapped_claim_reason(c.claim.name)});
        return out;
      }
      counted.push_back(c.claim);
    }
    if (counted.empty()) return out;
    auto statuses = sched::node_allocatable_statuses(pod, counted, find_device);
    if (!statuses) {
      out.refused.push_back({sched::node_reason_code::claims, statuses.error().message});
      return out;
    }
    out.statuses = std::move(*statuses);
    out.added = sched::node_allocatable_amounts(out.statuses);
    check_pod_level_requests(pod, out);
    if (!out.refused.empty()) return out;
    out.refused = sched::insufficient_node_allocatable(sched::pod_requests(pod, out.added), node, usage);
    return out;
  }

 private:
  // validatePodLevelResourcesCoverDRA: checked only once the pod has devices' amounts.
  static void check_pod_level_requests(const model::pod& pod, node_allocatable_verdict& out) {
    if (out.statuses.empty()) return;
    if (auto shortfall = sched::pod_level_shortfall(pod, out.added)) out.refused.push_back(std::move(*shortfall));
  }

  // (driver, pool, device) -> (pool generation, device)
  std::map<std::tuple<model::text, model::text, model::text>, std::pair<std::int64_t, const model::device*>> devices_;
};

// What a bound pod's recorded statuses add to its requests (the scheduler counts them on its node with the feature on).
[[nodiscard]] inline sched::amounts recorded_node_allocatable(const model::pod& pod, const alloc::features& features) {
  if (!features.node_allocatable_resources || pod.node_allocatable_claim_statuses.empty()) return {};
  return sched::node_allocatable_amounts(pod.node_allocatable_claim_statuses);
}

}  // namespace dra::sched::detail
