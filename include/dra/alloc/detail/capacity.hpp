// Consumable capacity (KEP-5075): what one allocation takes of a device's capacity under its request policy.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace dra::alloc::detail {

// The amount one allocation consumes of a capacity (KEP-5075 request policy).
[[nodiscard]] inline quantity consumed_amount(const quantity* requested, const model::device_capacity& capacity) {
  const auto& policy = capacity.request_policy;
  if (requested == nullptr) return policy && policy->default_value ? *policy->default_value : capacity.value;
  if (!policy) return *requested;
  if (policy->valid_range) {
    const auto& range = *policy->valid_range;
    if (*requested < range.min) return range.min;
    if (!range.step) return *requested;
    auto rounded = quantity::round_up_to_step(*requested, range.min, *range.step);
    return rounded ? *rounded : *requested;
  }
  if (!policy->valid_values.empty()) {
    for (const auto& v : policy->valid_values)
      if (*requested <= v) return v;
  }
  return *requested;
}

// A request's capacity requests as text, the same for every request asking for the same amounts.
[[nodiscard]] inline std::string capacity_key(const model::device_request_spec& spec) {
  std::string key;
  if (spec.capacity)
    for (const auto& r : spec.capacity->requests) key.append(r.name).append("=").append(r.value.to_string()) += ';';
  return key;
}

[[nodiscard]] inline bool violates_policy(const quantity& amount, const model::device_capacity& capacity) {
  const auto& policy = capacity.request_policy;
  if (!policy) return false;
  if (policy->default_value && amount.identical(*policy->default_value)) return false;
  if (policy->valid_range) {
    const auto& range = *policy->valid_range;
    if (range.max && amount > *range.max) return true;
    if (range.step) {
      std::int64_t step = range.step->value();
      if (step != 0 && (amount.value() - range.min.value()) % step != 0) return true;
    }
    return false;
  }
  if (!policy->valid_values.empty())
    return std::none_of(policy->valid_values.begin(), policy->valid_values.end(),
                        [&](const quantity& v) { return v == amount; });
  return false;
}

}  // namespace dra::alloc::detail
