// Validation of PodGroups and Workloads (scheduling.k8s.io) as the API server checks the fields dra reads: the
// scheduling policy, topology constraints and the group's claims.
#pragma once

#include <dra/core/names.hpp>
#include <dra/model/pod_group.hpp>
#include <dra/validate/common.hpp>
#include <dra/validate/detail/report.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace dra::validate {

namespace detail {

// A PodGroup (or pod group template) carries at most this many claims and topology constraints.
inline constexpr std::size_t max_pod_group_claims = 4;
inline constexpr std::size_t max_topology_constraints = 1;

// Claim entries (a pod's or a group's): names are DNS labels, unique; exactly one source, a DNS subdomain.
inline void check_claim_entries(reporter& r, const field_path& path, const std::vector<model::pod_resource_claim>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const model::pod_resource_claim& entry = entries[i];
    const field_path at = index(path, i);
    if (entry.name.empty())
      r.add(child(at, "name"), required());
    else
      r.add_name_problems(child(at, "name"), entry.name, names::dns1123_label(entry.name));
    for (std::size_t j = 0; j < i; ++j)
      if (entries[j].name == entry.name && !entry.name.empty()) {
        r.add(child(at, "name"), duplicate(entry.name));
        break;
      }
    if (entry.resource_claim_name && entry.resource_claim_template_name)
      r.add(at, invalid("\"\"", "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"));
    else if (!entry.resource_claim_name && !entry.resource_claim_template_name)
      r.add(at, required("must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"));
    if (entry.resource_claim_name)
      r.add_name_problems(child(at, "resourceClaimName"), *entry.resource_claim_name,
                          names::dns1123_subdomain(*entry.resource_claim_name));
    if (entry.resource_claim_template_name)
      r.add_name_problems(child(at, "resourceClaimTemplateName"), *entry.resource_claim_template_name,
                          names::dns1123_subdomain(*entry.resource_claim_template_name));
  }
}

inline void check_pod_group_spec(reporter& r, const field_path& path, const model::pod_group_spec& spec) {
  const field_path policy = child(path, "schedulingPolicy");
  if (spec.basic && spec.gang)
    r.add(policy, invalid("\"\"", "exactly one of `basic` or `gang` is required, but multiple fields are set"));
  else if (!spec.basic && !spec.gang)
    r.add(policy, required("exactly one of `basic` or `gang` is required"));
  if (spec.gang) {
    const field_path min_count = child(child(policy, "gang"), "minCount");
    if (!spec.gang_min_count)
      r.add(min_count, required());
    else if (*spec.gang_min_count <= 0)
      r.add(min_count, invalid_number(*spec.gang_min_count, "must be greater than 0"));
  }
  const field_path topology = child(child(path, "schedulingConstraints"), "topology");
  if (spec.topology_keys.size() > max_topology_constraints)
    r.add(topology, too_many(spec.topology_keys.size(), max_topology_constraints));
  for (std::size_t i = 0; i < spec.topology_keys.size(); ++i) {
    const field_path key = child(index(topology, i), "key");
    if (spec.topology_keys[i].empty())
      r.add(key, required());
    else
      check_label_key(r, key, spec.topology_keys[i]);
  }
  const field_path claims = child(path, "resourceClaims");
  if (spec.resource_claims.size() > max_pod_group_claims)
    r.add(claims, too_many(spec.resource_claims.size(), max_pod_group_claims));
  check_claim_entries(r, claims, spec.resource_claims);
}

}  // namespace detail

// Every problem of a PodGroup's fields that dra reads.
inline void validate_pod_group(const model::pod_group& group, error_list& errors, std::string object) {
  detail::reporter r(errors, std::move(object));
  detail::check_object_meta(r, group.meta, detail::scope::namespaced);
  detail::check_pod_group_spec(r, "spec", group.spec);
}

// Every problem of a Workload's pod group templates: at least one, names DNS labels and unique, each a valid spec.
inline void validate_workload(const model::workload& workload, error_list& errors, std::string object) {
  detail::reporter r(errors, std::move(object));
  detail::check_object_meta(r, workload.meta, detail::scope::namespaced);
  const detail::field_path templates = "spec.podGroupTemplates";
  if (workload.pod_group_templates.empty()) r.add(templates, detail::required());
  for (std::size_t i = 0; i < workload.pod_group_templates.size(); ++i) {
    const model::pod_group_template& t = workload.pod_group_templates[i];
    const detail::field_path at = detail::index(templates, i);
    if (t.name.empty())
      r.add(detail::child(at, "name"), detail::required());
    else
      r.add_name_problems(detail::child(at, "name"), t.name, names::dns1123_label(t.name));
    for (std::size_t j = 0; j < i; ++j)
      if (workload.pod_group_templates[j].name == t.name && !t.name.empty()) {
        r.add(detail::child(at, "name"), detail::duplicate(t.name));
        break;
      }
    detail::check_pod_group_spec(r, at, t.spec);
  }
}

}  // namespace dra::validate
