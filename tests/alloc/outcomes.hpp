// Test support for the alloc room: a claim outcome's devices as "request=device" lines.
#pragma once

#include <dra/model/outcome.hpp>

#include <string>
#include <vector>

namespace dra_test {

// Empty unless the claim was allocated.
inline std::vector<std::string> devices_of(const dra::model::claim_outcome& o) {
  std::vector<std::string> out;
  if (o.allocated())
    for (const auto& r : o.allocated()->allocation.results) out.push_back(r.request + "=" + std::string(r.device));
  return out;
}

}  // namespace dra_test
