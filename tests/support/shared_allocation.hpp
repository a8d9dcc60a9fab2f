// Test support: an allocation result that takes part of a device shared by capacity (KEP-5075), as a claim sharing a
// GPU holds it, for tests that fill a ledger by hand.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/resource_claim.hpp>

#include <string_view>
#include <utility>

namespace dra_test {

// Request "gpu" of driver gpu.example.com holding `amount` of capacity `capacity` of device `device` in pool `pool`
// (the texts must outlive the result; `amount` must be a valid quantity).
inline dra::model::allocation_result shared_allocation(std::string_view pool, std::string_view device,
                                                       std::string_view capacity, std::string_view amount) {
  dra::model::device_request_allocation_result r;
  r.request = "gpu";
  r.driver = "gpu.example.com";
  r.pool = pool;
  r.device = device;
  r.share_id = "s";
  r.consumed_capacity = dra::model::sorted_map<dra::quantity>{{capacity, *dra::quantity::parse(amount)}};
  dra::model::allocation_result a;
  a.results.push_back(std::move(r));
  return a;
}

}  // namespace dra_test
