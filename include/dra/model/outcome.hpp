// The outcome of allocating one claim: what the dra command's output document lists per pending claim.
#pragma once

#include <dra/core/result.hpp>
#include <dra/model/explanation_codes.hpp>
#include <dra/model/resource_claim.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dra::model {

// One cause that ruled out `nodes` of the nodes tried, for one request of one
// claim (the scenario format's explanation reasons).
struct explanation_reason {
  explanation_code code = explanation_code::fits;  // never `fits`: a reason rules nodes out
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

// The claim got devices on `node`.
struct claim_allocated {
  std::string node;
  allocation_result allocation;
  friend bool operator==(const claim_allocated&, const claim_allocated&) = default;
};

// No node can take the claim (together with the other claims of its pod).
struct claim_unschedulable {
  std::string reason;                     // "cannot allocate all claims"
  std::optional<model::explanation> why;  // the nodes tried and what ruled each out, when worked out
  friend bool operator==(const claim_unschedulable&, const claim_unschedulable&) = default;
};

// What became of one pending claim: allocated, unschedulable, or an error (the input is broken:
// a missing template or class, a CEL error, only invalid pools).
struct claim_outcome {
  std::string claim;  // "namespace/name", or "name" without a namespace
  std::variant<claim_allocated, claim_unschedulable, dra::error> status;

  [[nodiscard]] const claim_allocated* allocated() const noexcept { return std::get_if<claim_allocated>(&status); }
  [[nodiscard]] const claim_unschedulable* unschedulable() const noexcept {
    return std::get_if<claim_unschedulable>(&status);
  }
  [[nodiscard]] const dra::error* error() const noexcept { return std::get_if<dra::error>(&status); }
  friend bool operator==(const claim_outcome&, const claim_outcome&) = default;
};

}  // namespace dra::model
