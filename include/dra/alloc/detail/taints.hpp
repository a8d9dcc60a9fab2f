// Device taints (KEP-5055): the devices a DeviceTaintRule picks, and which taints keep a device from being allocated
// against a request's tolerations.
#pragma once

#include <dra/alloc/ledger.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <span>

namespace dra::alloc {

namespace detail {

// Whether a DeviceTaintRule's selector picks a device: every field it sets must match; none set picks all.
[[nodiscard]] inline bool rule_selects(const model::device_taint_selector& selector, const device_ref& id) noexcept {
  return (!selector.driver || *selector.driver == id.driver) && (!selector.pool || *selector.pool == id.pool) &&
         (!selector.device || *selector.device == id.device);
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
// The device's own taints, then those DeviceTaintRules add to it.
[[nodiscard]] inline bool taint_prevents(const model::device& d, std::span<const model::device_taint* const> from_rules,
                                         const model::device_request_spec& spec) {
  return std::any_of(d.taints.begin(), d.taints.end(), [&](const auto& t) { return taint_blocks(t, spec); }) ||
         std::any_of(from_rules.begin(), from_rules.end(), [&](const auto* t) { return taint_blocks(*t, spec); });
}
}  // namespace detail

}  // namespace dra::alloc
