// Validation of a DeviceClass: name, selectors (presence and length of CEL expressions), configuration, extended resource name.
#pragma once

#include <dra/model/device_class.hpp>
#include <dra/validate/common.hpp>
#include <dra/validate/detail/report.hpp>
#include <dra/validate/limits.hpp>

#include <string>

namespace dra::validate {

// v1helper.IsExtendedResourceName: a qualified name outside the
// kubernetes.io namespace whose quota form "requests.<name>" is a valid
// label key.
[[nodiscard]] inline bool is_extended_resource_name(std::string_view name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return false;  // native resources have no domain
  if (name.find("kubernetes.io/") != std::string_view::npos) return false;
  if (name.starts_with("requests.")) return false;
  return names::label_key(concat("requests.", name)).empty();
}

namespace detail {

inline void check_class(reporter& r, const model::device_class& c) {
  check_object_meta(r, c.meta, scope::cluster);
  check_selectors(r, "spec.selectors", c.selectors);
  if (c.config.size() > limits::configs) {
    r.add("spec.config", too_many(c.config.size(), limits::configs));
  } else {
    for (std::size_t i = 0; i < c.config.size(); ++i)
      check_opaque(r, child(index("spec.config", i), "opaque"), c.config[i].opaque);
  }
  if (c.extended_resource_name && !is_extended_resource_name(*c.extended_resource_name))
    r.add("spec.extendedResourceName",
          invalid_text(*c.extended_resource_name, "must be a valid extended resource name"));
}

}  // namespace detail

// Appends every problem of `device_class` to `errors`, each naming `object`
// ("DeviceClass/<name>" when left empty).
inline void validate_device_class(const model::device_class& device_class, error_list& errors, std::string object = {}) {
  if (object.empty()) object = detail::object_label("DeviceClass", {}, device_class.meta.name);
  detail::reporter r(errors, std::move(object));
  detail::check_class(r, device_class);
}

// Every problem of one DeviceClass; empty when it is valid.
[[nodiscard]] inline error_list validate_device_class(const model::device_class& device_class) {
  error_list errors;
  validate_device_class(device_class, errors);
  return errors;
}

}  // namespace dra::validate
