// Consumable capacity (KEP-5075): the key by which the search keeps capacity verdicts per set of asks.
#pragma once

#include <dra/model/resource_claim.hpp>

#include <string>

namespace dra::alloc::detail {

// A request's capacity requests as text, the same for every request asking for the same amounts.
[[nodiscard]] inline std::string capacity_key(const model::device_request_spec& spec) {
  std::string key;
  if (spec.capacity)
    for (const auto& r : spec.capacity->requests) key.append(r.name).append("=").append(r.value.to_string()) += ';';
  return key;
}

}  // namespace dra::alloc::detail
