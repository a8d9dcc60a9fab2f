// PodGroup and Workload (scheduling.k8s.io v1beta1, v1alpha3): pods scheduled as a group, optionally as a gang,
// sharing the group's ResourceClaims.
#pragma once

#include <dra/model/common.hpp>
#include <dra/model/workload.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace dra::model {

// What a PodGroup (or a Workload's pod group template) asks of the scheduler.
struct pod_group_spec {
  bool basic = false;                         // schedulingPolicy.basic: pods scheduled one by one
  std::optional<std::int64_t> gang_min_count;  // schedulingPolicy.gang.minCount: the gang's pods go together
  bool gang = false;                           // schedulingPolicy.gang was given (minCount may still be missing)
  std::vector<text> topology_keys;             // schedulingConstraints.topology[].key: one label value for the group
  // resourceClaims: a pod entry equal to one of these in every field refers to the group's claim.
  std::vector<pod_resource_claim> resource_claims;
  friend bool operator==(const pod_group_spec&, const pod_group_spec&) = default;
};

struct pod_group {
  object_meta meta;
  pod_group_spec spec;
  std::vector<pod_resource_claim_status> resource_claim_statuses;  // status.resourceClaimStatuses
  friend bool operator==(const pod_group&, const pod_group&) = default;
};

// A Workload's spec.podGroupTemplates[] entry: a named PodGroup spec the workload controller makes groups from.
struct pod_group_template {
  text name;
  pod_group_spec spec;
  friend bool operator==(const pod_group_template&, const pod_group_template&) = default;
};

struct workload {
  object_meta meta;
  std::vector<pod_group_template> pod_group_templates;  // spec.podGroupTemplates
  friend bool operator==(const workload&, const workload&) = default;
};

// Whether the pod's claim entry refers to the group's claim: equal to a group entry in every field.
[[nodiscard]] inline const pod_resource_claim* group_claim_entry(const pod_group& group, const pod_resource_claim& ref) {
  for (const auto& entry : group.spec.resource_claims)
    if (entry == ref) return &entry;
  return nullptr;
}

}  // namespace dra::model
