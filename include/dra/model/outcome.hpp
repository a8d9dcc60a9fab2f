// The outcome of allocating one claim: what the dra command's output document lists per pending claim.
#pragma once

#include <dra/model/resource_claim.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dra::model {

// One cause that ruled out `nodes` of the nodes tried, for one request of one
// claim (the scenario format's explanation reasons).
struct explanation_reason {
  std::string code;     // node-selection, pool, class, selector, in-use, counters, capacity, taint, constraint, count, conflict
  std::size_t nodes = 0;
  std::string claim;    // "namespace/name"
  std::string request;  // "request", or "request/subrequest" for a firstAvailable alternative
  std::string message;  // for people: what blocks it
  friend bool operator==(const explanation_reason&, const explanation_reason&) = default;
};

// Why a unit of work fits on no node: "0/`nodes` nodes are available: …".
struct explanation {
  std::size_t nodes = 0;  // nodes tried
  std::vector<explanation_reason> reasons;
  friend bool operator==(const explanation&, const explanation&) = default;
};

// Exactly one of allocation, unschedulable and error is set.
struct claim_outcome {
  std::string claim;                // "namespace/name", or "name" without a namespace
  std::optional<std::string> node;  // the node it was allocated on
  std::optional<allocation_result> allocation;
  std::optional<std::string> unschedulable;  // fits on no node
  std::optional<std::string> error;          // the input is broken
  std::optional<model::explanation> explanation;  // with unschedulable: why
  friend bool operator==(const claim_outcome&, const claim_outcome&) = default;
};

}  // namespace dra::model
