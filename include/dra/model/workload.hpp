// Node and Pod: the parts of core/v1 objects that scheduling and device allocation look at.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/common.hpp>
#include <dra/model/resource_slice.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace dra::model {

// core/v1 Taint has DeviceTaint's fields (key, value, effect, timeAdded); effects NoSchedule, PreferNoSchedule,
// NoExecute.
using node_taint = device_taint;
// core/v1 Toleration has DeviceToleration's fields and operators (Equal, Exists).
using pod_toleration = device_toleration;

// Resource amounts by name ("cpu", "memory", "nvidia.com/gpu", "hugepages-2Mi", "pods"), sorted by name.
using resource_list = sorted_map<quantity>;

struct node {
  object_meta meta;  // name and labels are what node selectors look at
  bool unschedulable = false;                // spec.unschedulable: cordoned
  std::vector<node_taint> taints;            // spec.taints
  std::optional<resource_list> allocatable;  // status.allocatable; absent: the node's resources are not limited
  std::vector<text> declared_features;       // status.declaredFeatures
  friend bool operator==(const node&, const node&) = default;
};

// PodResourceClaim: a pod names its claims directly (resourceClaimName) or
// through a template (resourceClaimTemplateName; the claim made from it is
// found through status.resourceClaimStatuses, or generated, see sim/).
struct pod_resource_claim {
  text name;
  std::optional<text> resource_claim_name;
  std::optional<text> resource_claim_template_name;
  friend bool operator==(const pod_resource_claim&, const pod_resource_claim&) = default;
};

// PodResourceClaimStatus: which claim Kubernetes generated for a template entry.
struct pod_resource_claim_status {
  text name;                                // the pod's spec.resourceClaims[].name
  std::optional<text> resource_claim_name;  // unset: no claim was needed
  friend bool operator==(const pod_resource_claim_status&, const pod_resource_claim_status&) = default;
};

// ContainerExtendedResourceRequest: which request of the pod's extended-resource claim serves a container's resource.
struct container_extended_resource_request {
  text container_name;
  text resource_name;
  text request_name;
  friend bool operator==(const container_extended_resource_request&, const container_extended_resource_request&) = default;
};

// PodExtendedResourceClaimStatus: the claim kube-scheduler made for the pod's extended resources served through DRA
// (KEP-5004), recorded once the pod was bound.
struct pod_extended_resource_claim_status {
  std::vector<container_extended_resource_request> request_mappings;
  text resource_claim_name;
  friend bool operator==(const pod_extended_resource_claim_status&, const pod_extended_resource_claim_status&) = default;
};

// NodeAllocatableOverheadResources: a claim's device overheads for one node resource.
struct node_allocatable_overhead_status {
  text name;
  std::optional<quantity> per_pod;
  std::optional<quantity> per_container;
  friend bool operator==(const node_allocatable_overhead_status&, const node_allocatable_overhead_status&) = default;
};

// NodeAllocatableResourceClaimStatus (KEP-5517): what one claim's allocated devices add to the pod's node resources,
// as kube-scheduler records it when it binds the pod (status.nodeAllocatableResourceClaimStatuses).
struct node_allocatable_claim_status {
  text resource_claim_name;
  std::vector<text> containers;                             // the pod's containers that reference the claim
  sorted_map<quantity> mapping;                             // mapping[]: resource name -> quantity
  std::vector<node_allocatable_overhead_status> overhead;   // by name
  friend bool operator==(const node_allocatable_claim_status&, const node_allocatable_claim_status&) = default;
};

// A container or init container: what it requests, and whether it is a sidecar (an init container with
// restartPolicy Always, which keeps running beside the regular containers).
struct container {
  text name;
  resource_list requests;  // resources.requests
  resource_list limits;    // resources.limits: a request left unset defaults to its limit
  bool sidecar = false;    // restartPolicy: Always (init containers only)
  std::vector<text> claims;  // resources.claims[].name: the pod's resourceClaims entries it uses
  friend bool operator==(const container&, const container&) = default;
};

// PreferredSchedulingTerm: a node matching `preference` adds `weight` (1-100) to NodeAffinity's score.
struct preferred_scheduling_term {
  std::int32_t weight = 0;
  node_selector_term preference;
  friend bool operator==(const preferred_scheduling_term&, const preferred_scheduling_term&) = default;
};

struct pod {
  object_meta meta;
  std::vector<pod_resource_claim> resource_claims;
  std::optional<text> node_name;
  std::vector<pod_resource_claim_status> resource_claim_statuses;  // status.resourceClaimStatuses

  sorted_map<text> node_selector;                         // spec.nodeSelector
  std::optional<model::node_selector> required_node_affinity;  // affinity.nodeAffinity.requiredDuringScheduling…
  std::vector<preferred_scheduling_term> preferred_node_affinity;  // affinity.nodeAffinity.preferredDuringScheduling…
  std::vector<pod_toleration> tolerations;                 // spec.tolerations
  std::vector<container> init_containers;                  // spec.initContainers, in order
  std::vector<container> containers;                       // spec.containers
  resource_list overhead;                                  // spec.overhead
  std::optional<resource_list> pod_requests;               // spec.resources.requests (pod-level resources)
  std::optional<resource_list> pod_limits;                 // spec.resources.limits
  // spec.priority; when the pod gives none, its PriorityClass's value once admitted (admit_priorities), else 0.
  std::int32_t priority = 0;
  bool priority_given = false;                             // spec.priority was in the input
  std::optional<text> priority_class_name;                 // spec.priorityClassName
  std::optional<text> preemption_policy;                   // spec.preemptionPolicy, or its class's once admitted
  text start_time;                                         // status.startTime (RFC 3339; "" when absent)
  std::vector<text> scheduling_gates;                      // spec.schedulingGates[].name
  text phase;                                              // status.phase ("" when absent)
  std::optional<text> pod_group_name;                      // spec.schedulingGroup.podGroupName
  std::optional<pod_extended_resource_claim_status> extended_resource_claim_status;  // status.extendedResourceClaimStatus
  // status.nodeAllocatableResourceClaimStatuses (KEP-5517): counted on a bound pod's node with the feature on.
  std::vector<node_allocatable_claim_status> node_allocatable_claim_statuses;
  friend bool operator==(const pod&, const pod&) = default;
};

// A pod runs to completion once its phase is Succeeded or Failed: its node no longer counts its requests.
[[nodiscard]] inline bool is_terminal(const pod& p) noexcept { return p.phase == "Succeeded" || p.phase == "Failed"; }

}  // namespace dra::model
