// Validation of a DeviceTaintRule and of a ResourceClaimTemplate, as the API server checks them on create.
#pragma once

#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/validate/resource_claim.hpp>
#include <dra/validate/resource_slice.hpp>

#include <string>

namespace dra::validate {

namespace detail {

// DeviceTaintRule: a cluster-scoped name; each selector field that is set is a valid driver,
// pool or device name; the taint as a slice's own (key, value, effect among NoSchedule,
// NoExecute, None).
inline void check_taint_rule(reporter& r, const model::device_taint_rule& rule) {
  check_metadata(r, rule.meta.name, rule.meta.namespace_);
  if (!rule.meta.namespace_.empty())
    r.add("metadata.namespace", forbidden("not allowed on this type"));
  const field_path selector = "spec.deviceSelector";
  if (rule.device_selector.driver) check_driver_name(r, child(selector, "driver"), *rule.device_selector.driver);
  if (rule.device_selector.pool)
    check_pool_name(r, child(selector, "pool"), *rule.device_selector.pool, limits::pool_name_length);
  if (rule.device_selector.device) check_label_name(r, child(selector, "device"), *rule.device_selector.device);
  check_taint(r, "spec.taint", rule.taint);
}

}  // namespace detail

// Appends every problem of `rule` to `errors`, each naming `object` ("DeviceTaintRule/<name>" when empty).
inline void validate_device_taint_rule(const model::device_taint_rule& rule, error_list& errors, std::string object = {}) {
  if (object.empty()) object = detail::object_label("DeviceTaintRule", {}, rule.meta.name);
  detail::reporter r(errors, std::move(object));
  detail::check_taint_rule(r, rule);
}

// Appends every problem of a ResourceClaimTemplate: its metadata, and its spec.spec checked as a
// claim's spec is (paths under spec.spec).
inline void validate_resource_claim_template(const model::resource_claim_template& claim_template, error_list& errors,
                                             std::string object = {}) {
  if (object.empty())
    object = detail::object_label("ResourceClaimTemplate", claim_template.meta.namespace_, claim_template.meta.name);
  // The claim's checks, on a claim that has the template's name (so that its metadata is
  // checked once) and spec; their paths move from spec.… to spec.spec.….
  model::resource_claim as_claim;
  as_claim.meta = claim_template.meta;
  as_claim.spec = claim_template.spec;
  error_list claim_errors;
  validate_resource_claim(as_claim, claim_errors, object);
  for (dra::error& e : claim_errors) {
    if (e.path.starts_with("spec.")) e.path = concat("spec.", e.path);
    errors.push_back(std::move(e));
  }
}

}  // namespace dra::validate
