// Validation of a PodDisruptionBudget as the API server validates it (policy/v1).
#pragma once

#include <dra/model/pod_disruption_budget.hpp>
#include <dra/validate/common.hpp>
#include <dra/validate/detail/report.hpp>

#include <string>

namespace dra::validate {

namespace detail {

// ValidatePositiveIntOrPercent and IsNotMoreThan100Percent: a count of at least 0, or a percentage up to 100%.
inline void check_int_or_percent(reporter& r, const field_path& path, const model::int_or_percent& v) {
  if (!v.is_string) {
    if (v.number < 0) r.add(path, invalid_number(v.number, "must be greater than or equal to 0"));
    return;
  }
  const auto percent = model::percent_value(v.string);
  if (!percent)
    r.add(path, invalid_text(v.string, "a valid percent string must be a numeric string followed by an ending '%' "
                                       "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
  else if (*percent > 100)
    r.add(path, invalid_text(v.string, "must not be greater than 100%"));
}

}  // namespace detail

inline void validate_disruption_budget(const model::pod_disruption_budget& b, error_list& errors, std::string object) {
  detail::reporter r(errors, std::move(object));
  detail::check_object_meta(r, b.meta, detail::scope::namespaced);
  if (b.min_available && b.max_unavailable)
    r.add("spec", detail::invalid("<budget>", "minAvailable and maxUnavailable cannot be both set"));
  if (b.min_available) detail::check_int_or_percent(r, "spec.minAvailable", *b.min_available);
  if (b.max_unavailable) detail::check_int_or_percent(r, "spec.maxUnavailable", *b.max_unavailable);
  if (b.selector) detail::check_label_selector(r, "spec.selector", *b.selector);
  if (!b.unhealthy_pod_eviction_policy.empty() && b.unhealthy_pod_eviction_policy != model::if_healthy_budget &&
      b.unhealthy_pod_eviction_policy != model::always_allow)
    r.add("spec.unhealthyPodEvictionPolicy",
          detail::not_supported(b.unhealthy_pod_eviction_policy, {model::always_allow, model::if_healthy_budget}));
  if (b.status && b.status->disruptions_allowed < 0)
    r.add("status.disruptionsAllowed",
          detail::invalid_number(b.status->disruptions_allowed, "must be greater than or equal to 0"));
}

}  // namespace dra::validate
