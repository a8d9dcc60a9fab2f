// The outcome of allocating one claim: what the dra command's output document lists per pending claim.
#pragma once

#include <dra/model/resource_claim.hpp>

#include <optional>
#include <string>

namespace dra::model {

// Exactly one of allocation, unschedulable and error is set.
struct claim_outcome {
  std::string claim;                // "namespace/name", or "name" without a namespace
  std::optional<std::string> node;  // the node it was allocated on
  std::optional<allocation_result> allocation;
  std::optional<std::string> unschedulable;  // fits on no node
  std::optional<std::string> error;          // the input is broken
  friend bool operator==(const claim_outcome&, const claim_outcome&) = default;
};

}  // namespace dra::model
