// Validation of a ResourceClaim: requests and subrequests, allocation modes, constraints, configuration, and an allocation result in its status.
#pragma once

#include <dra/core/ip.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/validate/common.hpp>
#include <dra/validate/detail/report.hpp>
#include <dra/validate/limits.hpp>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::validate {

namespace detail {

inline void check_allocation_mode(reporter& r, const field_path& path, const model::device_request_spec& spec) {
  switch (spec.mode) {
    case model::allocation_mode::all:
      // Ingest leaves count at 0 for All unless the input set it.
      if (spec.count != 0)
        r.add(child(path, "count"), invalid_number(spec.count, "must not be specified when allocationMode is 'All'"));
      break;
    case model::allocation_mode::exact_count:
      if (spec.count <= 0) r.add(child(path, "count"), invalid_number(spec.count, "must be greater than zero"));
      break;
    case model::allocation_mode::unsupported:
      r.add(child(path, "allocationMode"), not_supported(spec.mode_name, {"All", "ExactCount"}));
      break;
  }
}

// derivedAttributes (KEP-6080): each a qualified name (the domain may be left out), unique within the request, with
// an expression (compiled with the scenario's other expressions, see validate/scenario.hpp).
inline void check_derived_attributes(reporter& r, const field_path& path,
                                     std::span<const model::device_derived_attribute> derived) {
  for (std::size_t i = 0; i < derived.size(); ++i) {
    const field_path at = index(path, i);
    const field_path name = child(at, "name");
    if (derived[i].name.empty())
      r.add(name, required());
    else
      r.add_name_problems(name, derived[i].name, names::qualified_name(derived[i].name));
    for (std::size_t j = 0; j < i; ++j)
      if (!derived[i].name.empty() && derived[j].name == derived[i].name) {
        r.add(name, duplicate(derived[i].name));
        break;
      }
    const field_path expression = child(at, "expression");
    if (derived[i].expression.empty())
      r.add(expression, required());
    else if (derived[i].expression.size() > limits::cel_expression_length)
      r.add(expression, too_long(limits::cel_expression_length));
  }
}

// What ExactDeviceRequest and DeviceSubRequest share.
inline void check_request_spec(reporter& r, const field_path& path, const model::device_request_spec& spec) {
  const field_path class_path = child(path, "deviceClassName");
  if (spec.device_class_name.empty())
    r.add(class_path, required());
  else
    r.add_name_problems(class_path, spec.device_class_name, names::dns1123_subdomain(spec.device_class_name));
  check_selectors(r, child(path, "selectors"), spec.selectors);
  check_allocation_mode(r, path, spec);
  for (std::size_t i = 0; i < spec.tolerations.size(); ++i)
    check_toleration(r, index(child(path, "tolerations"), i), spec.tolerations[i]);
  if (spec.capacity) {
    const field_path requests = child(path, "capacity.requests");
    check_sorted_keys(r, requests, spec.capacity->requests);
    for (const auto& entry : spec.capacity->requests)
      r.add_name_problems(requests, entry.name, names::qualified_name(entry.name));
  }
  check_derived_attributes(r, child(path, "derivedAttributes"), spec.derived_attributes);
}

// The names a constraint or configuration may refer to: "request" or "request/subrequest".
class request_names {
 public:
  explicit request_names(const model::device_claim& claim) : claim_(claim) {}

  [[nodiscard]] bool has(std::string_view reference) const {
    const std::size_t slash = reference.find('/');
    const std::string_view request = reference.substr(0, slash);
    for (const model::device_request& rq : claim_.requests) {
      if (rq.name != request) continue;
      if (slash == std::string_view::npos) return true;
      const std::string_view sub = reference.substr(slash + 1);
      for (const model::device_sub_request& s : rq.first_available)
        if (s.name == sub) return true;
      return false;
    }
    return false;
  }

 private:
  const model::device_claim& claim_;
};

inline constexpr std::string_view request_reference_rule =
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

// A list of request references: at most 32, unique, each existing.
template <class Name>
void check_request_references(reporter& r, const field_path& path, const std::vector<Name>& references,
                              const request_names& known) {
  if (references.size() > limits::requests_per_claim) {
    r.add(path, too_many(references.size(), limits::requests_per_claim));
    return;
  }
  for (std::size_t i = 0; i < references.size(); ++i) {
    const field_path at = index(path, i);
    const std::string_view name = references[i];
    const std::size_t slash = name.find('/');
    if (slash != std::string_view::npos && name.find('/', slash + 1) != std::string_view::npos) {
      r.add(at, invalid_text(name, request_reference_rule));
      continue;
    }
    r.add_name_problems(at, name.substr(0, slash), names::dns1123_label(name.substr(0, slash)));
    if (slash != std::string_view::npos)
      r.add_name_problems(at, name.substr(slash + 1), names::dns1123_label(name.substr(slash + 1)));
    if (!known.has(name)) r.add(at, invalid_text(name, request_reference_rule));
    for (std::size_t j = 0; j < i; ++j)
      if (std::string_view(references[j]) == name) {
        r.add(at, duplicate(name));
        break;
      }
  }
}

inline void check_request(reporter& r, const field_path& path, const model::device_request& rq) {
  check_label_name(r, child(path, "name"), rq.name);
  const bool exactly = rq.exactly.has_value();
  const bool first_available = !rq.first_available.empty();
  if (!exactly && !first_available) {
    r.add(path, required("exactly one of `exactly` or `firstAvailable` is required"));
  } else if (exactly && first_available) {
    r.add(path, invalid("null", "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"));
  } else if (exactly) {
    check_request_spec(r, child(path, "exactly"), *rq.exactly);
  } else {
    const field_path subs = child(path, "firstAvailable");
    if (rq.first_available.size() > limits::subrequests_per_request) {
      r.add(subs, too_many(rq.first_available.size(), limits::subrequests_per_request));
      return;
    }
    for (std::size_t i = 0; i < rq.first_available.size(); ++i) {
      const field_path at = index(subs, i);
      const model::device_sub_request& sub = rq.first_available[i];
      check_label_name(r, child(at, "name"), sub.name);
      check_request_spec(r, at, sub);
      for (std::size_t j = 0; j < i; ++j)
        if (rq.first_available[j].name == sub.name) {
          r.add(at, duplicate(sub.name));
          break;
        }
    }
  }
}

// Whether every request and subrequest a constraint binds (all of the claim's when it names none; every
// subrequest of a request named without one) defines a derived attribute called `name` (KEP-6080).
[[nodiscard]] inline bool derived_in_every_bound_request(const model::device_claim& claim,
                                                         const model::device_constraint& c, std::string_view name) {
  auto defines = [&](const model::device_request_spec& spec) {
    return std::any_of(spec.derived_attributes.begin(), spec.derived_attributes.end(),
                       [&](const model::device_derived_attribute& d) { return d.name == name; });
  };
  auto bound = [&](std::string_view request, std::string_view sub) {
    if (c.requests.empty()) return true;
    return std::any_of(c.requests.begin(), c.requests.end(), [&](std::string_view reference) {
      const std::size_t slash = reference.find('/');
      if (reference.substr(0, slash) != request) return false;
      return slash == std::string_view::npos || reference.substr(slash + 1) == sub;
    });
  };
  bool any = false;
  for (const model::device_request& rq : claim.requests) {
    if (rq.exactly && bound(rq.name, {})) {
      if (!defines(*rq.exactly)) return false;
      any = true;
    }
    for (const model::device_sub_request& sub : rq.first_available)
      if (bound(rq.name, sub.name)) {
        if (!defines(sub)) return false;
        any = true;
      }
  }
  return any;
}

// matchAttribute or distinctAttribute: a fully qualified name, or (KEP-6080) a name without a domain that every
// bound request defines as a derived attribute.
inline void check_constraint_attribute(reporter& r, const field_path& path, std::string_view attribute,
                                       const model::device_claim& claim, const model::device_constraint& c) {
  names::problems problems = names::qualified_name(attribute);
  if (problems.empty() && attribute.find('/') == std::string_view::npos &&
      !derived_in_every_bound_request(claim, c, attribute))
    problems.emplace_back("must include a domain");  // worded as before derived attributes existed
  r.add_name_problems(path, attribute, std::move(problems));
}

inline void check_constraint(reporter& r, const field_path& path, const model::device_constraint& c,
                             const request_names& known, const model::device_claim& claim) {
  check_request_references(r, child(path, "requests"), c.requests, known);
  if (c.match_attribute && c.distinct_attribute) {
    r.add(path, invalid("null", "exactly one of `matchAttribute` or `distinctAttribute` is required, but multiple "
                                "fields are set"));
  } else if (c.match_attribute) {
    check_constraint_attribute(r, child(path, "matchAttribute"), *c.match_attribute, claim, c);
  } else if (c.distinct_attribute) {
    check_constraint_attribute(r, child(path, "distinctAttribute"), *c.distinct_attribute, claim, c);
  } else {
    r.add(path, required("exactly one of `matchAttribute` or `distinctAttribute` is required"));
  }
}

inline constexpr std::string_view uuid_rule =
    "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal "
    "characters";

// xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx in lower-case hexadecimal (share IDs are UIDs).
[[nodiscard]] inline bool is_normalized_uuid(std::string_view id) noexcept {
  if (id.size() != 36) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

// DeviceAllocationConfiguration.source: required, FromClaim or FromClass.
inline void check_config_source(reporter& r, const field_path& path, const model::device_allocation_configuration& c) {
  if (c.source != model::allocation_config_source::unsupported) return;
  if (c.source_name.empty())
    r.add(path, required());
  else
    r.add(path, not_supported(c.source_name, {"FromClaim", "FromClass"}));
}

// status.reservedFor as the API server checks a stored claim's status: at
// most 256 consumers, each with resource, name and uid, no uid twice, and
// only on an allocated claim.
inline void check_reserved_for(reporter& r, const model::resource_claim& claim) {
  const field_path path = "status.reservedFor";
  const auto& consumers = claim.reserved_for;
  if (consumers.size() > limits::reserved_for) {
    r.add(path, too_many(consumers.size(), limits::reserved_for));
  } else {
    for (std::size_t i = 0; i < consumers.size(); ++i) {
      const field_path at = index(path, i);
      if (consumers[i].resource.empty()) r.add(child(at, "resource"), required());
      if (consumers[i].name.empty()) r.add(child(at, "name"), required());
      if (consumers[i].uid.empty()) r.add(child(at, "uid"), required());
      for (std::size_t j = 0; j < i; ++j)
        if (consumers[j].uid == consumers[i].uid) {
          r.add(at, duplicate(consumers[i].uid));
          break;
        }
    }
  }
  if (!consumers.empty() && !claim.allocation) r.add(path, forbidden("may not be specified when `allocated` is not set"));
}

// NetworkDeviceData: bounded lengths, at most 16 interface addresses in
// canonical CIDR form, none twice.
inline void check_network_data(reporter& r, const field_path& path, const model::network_device_data& network) {
  if (network.interface_name.size() > limits::network_interface_name_length)
    r.add(child(path, "interfaceName"), too_long(limits::network_interface_name_length));
  if (network.hardware_address.size() > limits::network_hardware_address_length)
    r.add(child(path, "hardwareAddress"), too_long(limits::network_hardware_address_length));
  const field_path ips = child(path, "ips");
  if (network.ips.size() > limits::network_ips) {
    r.add(ips, too_many(network.ips.size(), limits::network_ips));
    return;
  }
  for (std::size_t i = 0; i < network.ips.size(); ++i) {
    const std::string_view ip = network.ips[i];
    ip_prefix prefix;
    if (!parse_prefix(ip, prefix).empty()) {
      r.add(index(ips, i), invalid_text(ip, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"));
    } else {
      const std::string canonical = format_prefix(prefix);
      if (canonical != ip) r.add(index(ips, i), invalid_text(ip, concat("must be in canonical form (", canonical, ")")));
    }
    for (std::size_t j = 0; j < i; ++j)
      if (network.ips[j] == ip) {
        r.add(index(ips, i), duplicate(ip));
        break;
      }
  }
}

// "driver/pool/device", with "/shareID" for a shared allocation, as upstream prints a device's ID.
[[nodiscard]] inline std::string device_id(model::text driver, model::text pool, model::text device,
                                           const std::optional<model::text>& share_id) {
  std::string id = concat(driver, "/", pool, "/", device);
  if (share_id) id += concat("/", *share_id);
  return id;
}

// status.devices: each names a device of the allocation (once), with
// valid names, share ID, at most 8 conditions, a JSON object as data and
// valid network data.
inline void check_device_statuses(reporter& r, const model::resource_claim& claim) {
  const field_path path = "status.devices";
  std::vector<std::string> allocated;
  if (claim.allocation)
    for (const auto& result : claim.allocation->results)
      allocated.push_back(device_id(result.driver, result.pool, result.device,
                                    result.share_id ? std::optional<model::text>(*result.share_id) : std::nullopt));
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < claim.devices.size(); ++i) {
    const model::allocated_device_status& d = claim.devices[i];
    const field_path at = index(path, i);
    check_driver_name(r, child(at, "driver"), d.driver);
    check_pool_name(r, child(at, "pool"), d.pool, limits::pool_name_length);
    check_label_name(r, child(at, "device"), d.device);
    if (d.share_id && !is_normalized_uuid(*d.share_id))
      r.add(child(at, "shareID"), invalid_text(*d.share_id, uuid_rule));
    std::string id = device_id(d.driver, d.pool, d.device, d.share_id);
    if (std::find(allocated.begin(), allocated.end(), id) == allocated.end())
      r.add(at, invalid(id, "must be an allocated device in the claim"));
    if (d.conditions > limits::device_status_conditions)
      r.add(child(at, "conditions"), too_many(d.conditions, limits::device_status_conditions));
    if (!d.data_json.empty()) {
      const field_path data = child(at, "data");
      if (d.data_json == "null")
        r.add(data, required());
      else if (d.data_json.size() > limits::opaque_parameters_length)
        r.add(data, too_long(limits::opaque_parameters_length));
      else if (!is_json_object(d.data_json))
        r.add(data, invalid("<value omitted>", "must be a valid JSON object"));
    }
    if (d.network_data) check_network_data(r, child(at, "networkData"), *d.network_data);
    if (std::find(seen.begin(), seen.end(), id) != seen.end())
      r.add(at, concat("Duplicate value: ", id));
    else
      seen.push_back(std::move(id));
  }
}

inline void check_allocation(reporter& r, const field_path& path, const model::allocation_result& a,
                             const request_names& known) {
  const field_path results = child(path, "devices.results");
  if (a.results.size() > limits::allocation_results) {
    r.add(results, too_many(a.results.size(), limits::allocation_results));
  } else {
    for (std::size_t i = 0; i < a.results.size(); ++i) {
      const field_path at = index(results, i);
      const model::device_request_allocation_result& result = a.results[i];
      if (!known.has(result.request)) r.add(child(at, "request"), invalid_text(result.request, request_reference_rule));
      check_driver_name(r, child(at, "driver"), result.driver);
      check_pool_name(r, child(at, "pool"), result.pool, limits::pool_name_length);
      check_label_name(r, child(at, "device"), result.device);
      for (std::size_t t = 0; t < result.tolerations.size(); ++t)
        check_toleration(r, index(child(at, "tolerations"), t), result.tolerations[t]);
      check_binding_conditions(r, at, result.binding_conditions, result.binding_failure_conditions);
      if (result.share_id && !is_normalized_uuid(*result.share_id))
        r.add(child(at, "shareID"), invalid_text(*result.share_id, uuid_rule));
    }
  }
  const field_path config = child(path, "devices.config");
  // Class and claim configuration together.
  if (a.config.size() > 2 * limits::configs) {
    r.add(config, too_many(a.config.size(), 2 * limits::configs));
  } else {
    for (std::size_t i = 0; i < a.config.size(); ++i) {
      const field_path at = index(config, i);
      check_config_source(r, child(at, "source"), a.config[i]);
      check_request_references(r, child(at, "requests"), a.config[i].requests, known);
      check_opaque(r, child(at, "opaque"), a.config[i].opaque);
    }
  }
  if (a.node_selector) check_node_selector(r, child(path, "nodeSelector"), *a.node_selector, false);
}

inline void check_claim(reporter& r, const model::resource_claim& claim) {
  check_object_meta(r, claim.meta, scope::namespaced);
  const model::device_claim& spec = claim.spec;
  const request_names known(spec);
  const field_path requests = "spec.devices.requests";
  if (spec.requests.size() > limits::requests_per_claim) {
    r.add(requests, too_many(spec.requests.size(), limits::requests_per_claim));
  } else {
    for (std::size_t i = 0; i < spec.requests.size(); ++i) {
      const field_path at = index(requests, i);
      check_request(r, at, spec.requests[i]);
      for (std::size_t j = 0; j < i; ++j)
        if (spec.requests[j].name == spec.requests[i].name) {
          r.add(at, duplicate(spec.requests[i].name));
          break;
        }
    }
  }
  const field_path constraints = "spec.devices.constraints";
  if (spec.constraints.size() > limits::constraints_per_claim) {
    r.add(constraints, too_many(spec.constraints.size(), limits::constraints_per_claim));
  } else {
    for (std::size_t i = 0; i < spec.constraints.size(); ++i)
      check_constraint(r, index(constraints, i), spec.constraints[i], known, spec);
  }
  const field_path config = "spec.devices.config";
  if (spec.config.size() > limits::configs) {
    r.add(config, too_many(spec.config.size(), limits::configs));
  } else {
    for (std::size_t i = 0; i < spec.config.size(); ++i) {
      const field_path at = index(config, i);
      check_request_references(r, child(at, "requests"), spec.config[i].requests, known);
      check_opaque(r, child(at, "opaque"), spec.config[i].opaque);
    }
  }
  if (claim.allocation) check_allocation(r, "status.allocation", *claim.allocation, known);
  check_reserved_for(r, claim);
  check_device_statuses(r, claim);
}

}  // namespace detail

// Appends every problem of `claim` to `errors`, each naming `object`
// ("ResourceClaim/<namespace>/<name>" when left empty).
inline void validate_resource_claim(const model::resource_claim& claim, error_list& errors, std::string object = {}) {
  if (object.empty()) object = detail::object_label("ResourceClaim", claim.meta.namespace_, claim.meta.name);
  detail::reporter r(errors, std::move(object));
  detail::check_claim(r, claim);
}

// Every problem of one ResourceClaim; empty when it is valid.
[[nodiscard]] inline error_list validate_resource_claim(const model::resource_claim& claim) {
  error_list errors;
  validate_resource_claim(claim, errors);
  return errors;
}

}  // namespace dra::validate
