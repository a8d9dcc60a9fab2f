// Node and Pod: the parts of core/v1 objects that device allocation needs.
#pragma once

#include <dra/model/common.hpp>

#include <optional>
#include <vector>

namespace dra::model {

struct node {
  object_meta meta;  // name and labels are what node selectors look at
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

struct pod {
  object_meta meta;
  std::vector<pod_resource_claim> resource_claims;
  std::optional<text> node_name;
  std::vector<pod_resource_claim_status> resource_claim_statuses;  // status.resourceClaimStatuses
  friend bool operator==(const pod&, const pod&) = default;
};

}  // namespace dra::model
