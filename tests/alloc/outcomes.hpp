// Test support for the alloc room: the devices of a result as "request=device" lines.
#pragma once

#include <dra/model/outcome.hpp>

#include <string>
#include <vector>

namespace dra_test {

inline std::vector<std::string> devices_of(const dra::model::allocation_result& result) {
  std::vector<std::string> out;
  for (const auto& r : result.results) out.push_back(r.request + "=" + std::string(r.device));
  return out;
}

// Empty unless the claim was allocated.
inline std::vector<std::string> devices_of(const dra::model::claim_outcome& o) {
  return o.allocated() ? devices_of(o.allocated()->allocation) : std::vector<std::string>{};
}

}  // namespace dra_test
