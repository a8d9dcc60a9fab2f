// The checks a request puts one device through (consumable capacity under its request policy, taints, attributes by
// qualified name), defined once: the allocator's search and `dra explain` both call them, so they cannot disagree.
#pragma once

#include <dra/alloc/ledger.hpp>
#include <dra/core/quantity.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace dra::alloc {

// ---- Consumable capacity (KEP-5075)

// The amount one allocation consumes of a capacity: what the request asks (nothing asked: the policy's default, or
// the whole capacity), raised to the policy's minimum, step or next valid value.
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

// Whether the capacity's request policy forbids consuming `amount` (above its maximum, off its step, not one of its
// valid values); its default is always allowed.
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

// What is already taken of a device's capacities, counted against one more allocation.
struct capacity_holdings {
  const capacity_amounts* given_out = nullptr;   // by allocated claims (the ledger)
  const capacity_amounts* allocating = nullptr;  // by the allocation being worked out
};

// Why a device cannot give a request the capacity it asks.
struct capacity_shortfall {
  enum class reason : std::uint8_t {
    no_such_capacity,  // the request asks for a capacity the device lacks
    against_policy,    // the amount is not allowed by the capacity's request policy
    used_up,           // the amount does not fit beside what is held
  };
  reason why = reason::no_such_capacity;
  std::string_view capacity;  // its name
  quantity amount;            // what the allocation would consume (against_policy, used_up)
  quantity held;              // what the holdings already take of it (used_up)
};

// The first capacity that keeps the device from a request (its asks in order, then the device's capacities in order);
// nothing when it fits. Without `holdings`, only the request's own asks are checked, not what others hold.
[[nodiscard]] inline std::optional<capacity_shortfall> capacity_shortfall_of(const flatten::mixin_device_view& device,
                                                                             const model::device_request_spec& spec,
                                                                             const capacity_holdings* holdings) {
  using reason = capacity_shortfall::reason;
  const model::capacity_requirements* wanted = spec.capacity ? &*spec.capacity : nullptr;
  if (wanted != nullptr)
    for (const auto& r : wanted->requests)
      if (device.capacity(r.name) == nullptr) return capacity_shortfall{reason::no_such_capacity, r.name, {}, {}};
  for (const auto e : device.capacities()) {
    const quantity* requested = wanted != nullptr ? model::find(wanted->requests, e.name) : nullptr;
    const quantity amount = consumed_amount(requested, *e.value);
    if (violates_policy(amount, *e.value)) return capacity_shortfall{reason::against_policy, e.name, amount, {}};
    if (holdings == nullptr) continue;
    const quantity* given = holdings->given_out != nullptr ? model::find(*holdings->given_out, e.name) : nullptr;
    const quantity* taking = holdings->allocating != nullptr ? model::find(*holdings->allocating, e.name) : nullptr;
    // A sum too large to represent is more than any capacity holds.
    quantity total = amount;
    bool representable = true;
    for (const quantity* held : {given, taking})
      if (held != nullptr && representable) {
        auto sum = total.add(*held);
        representable = sum.has_value();
        if (representable) total = *sum;
      }
    if (representable && total <= e.value->value) continue;
    quantity held;
    for (const quantity* h : {given, taking})
      if (h != nullptr)
        if (auto sum = held.add(*h)) held = *sum;
    return capacity_shortfall{reason::used_up, e.name, amount, held};
  }
  return std::nullopt;
}

// ---- Device taints (KEP-5055)

// Whether a DeviceTaintRule's selector picks a device: every field it sets must match; none set picks all.
[[nodiscard]] inline bool rule_selects(const model::device_taint_selector& selector, const device_ref& id) noexcept {
  return (!selector.driver || *selector.driver == id.driver) && (!selector.pool || *selector.pool == id.pool) &&
         (!selector.device || *selector.device == id.device);
}

// The taints the rules that pick the device add to it, in the rules' order.
[[nodiscard]] inline std::vector<const model::device_taint*> taints_from_rules(
    std::span<const model::device_taint_rule* const> rules, const device_ref& id) {
  std::vector<const model::device_taint*> taints;
  for (const auto* rule : rules)
    if (rule_selects(rule->device_selector, id)) taints.push_back(&rule->taint);
  return taints;
}

[[nodiscard]] inline bool tolerates(const model::device_toleration& t, const model::device_taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op == model::toleration_operator::exists) return true;
  return t.op == model::toleration_operator::equal && t.value == taint.value;  // an unknown operator tolerates nothing
}

// Only NoSchedule and NoExecute keep a device from being allocated; None and unknown effects do not.
[[nodiscard]] inline bool taint_blocks(const model::device_taint& taint, const model::device_request_spec& spec) {
  if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") return false;
  return std::none_of(spec.tolerations.begin(), spec.tolerations.end(),
                      [&](const model::device_toleration& t) { return tolerates(t, taint); });
}

// The first taint that keeps the device from the request: its own, then those DeviceTaintRules add; none: null.
[[nodiscard]] inline const model::device_taint* blocking_taint(const model::device& d,
                                                               std::span<const model::device_taint* const> from_rules,
                                                               const model::device_request_spec& spec) {
  for (const auto& taint : d.taints)
    if (taint_blocks(taint, spec)) return &taint;
  for (const auto* taint : from_rules)
    if (taint_blocks(*taint, spec)) return taint;
  return nullptr;
}

// ---- Attributes

// Looks up a fully qualified attribute name; the driver's own domain may be left out on the device.
[[nodiscard]] inline const model::device_attribute* lookup_attribute(const flatten::mixin_device_view& device,
                                                                     std::string_view driver,
                                                                     std::string_view qualified) {
  if (const auto* a = device.attribute(qualified)) return a;
  std::size_t slash = qualified.find('/');
  if (slash == std::string_view::npos || qualified.substr(0, slash) != driver) return nullptr;
  return device.attribute(qualified.substr(slash + 1));
}

}  // namespace dra::alloc
