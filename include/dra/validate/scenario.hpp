// Validation of a whole loaded scenario: every ResourceSlice, DeviceClass and ResourceClaim in input order, then the pools they form.
#pragma once

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/model/priority_admission.hpp>
#include <dra/model/scenario.hpp>
#include <dra/validate/device_class.hpp>
#include <dra/validate/device_taint_rule.hpp>
#include <dra/validate/disruption_budget.hpp>
#include <dra/validate/pod_group.hpp>
#include <dra/validate/pools.hpp>
#include <dra/validate/resource_claim.hpp>
#include <dra/validate/resource_slice.hpp>
#include <dra/validate/unknown_fields.hpp>
#include <dra/validate/workload.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::validate {

// Every problem of every ResourceSlice, DeviceClass, ResourceClaim, Node and
// Pod of the scenario taken one by one, in input order (Nodes and Pods: the
// fields scheduling reads).
[[nodiscard]] inline error_list validate_objects(const model::scenario& scenario) {
  struct entry {
    std::size_t index;
    const void* object;
    int kind;  // 0 slice, 1 class, 2 claim, 3 claim template, 4 taint rule, 5 node, 6 pod, 7 pod group, 8 workload,
               // 9 priority class, 10 disruption budget
    const model::source_position* source;
  };
  std::vector<entry> order;
  order.reserve(scenario.slices.size() + scenario.classes.size() + scenario.claims.size());
  for (const auto& s : scenario.slices) order.push_back({s.source.index, &s.object, 0, &s.source});
  for (const auto& c : scenario.classes) order.push_back({c.source.index, &c.object, 1, &c.source});
  for (const auto& c : scenario.claims) order.push_back({c.source.index, &c.object, 2, &c.source});
  for (const auto& t : scenario.claim_templates) order.push_back({t.source.index, &t.object, 3, &t.source});
  for (const auto& t : scenario.taint_rules) order.push_back({t.source.index, &t.object, 4, &t.source});
  for (const auto& n : scenario.nodes) order.push_back({n.source.index, &n.object, 5, &n.source});
  for (const auto& p : scenario.pods) order.push_back({p.source.index, &p.object, 6, &p.source});
  for (const auto& g : scenario.pod_groups) order.push_back({g.source.index, &g.object, 7, &g.source});
  for (const auto& w : scenario.workloads) order.push_back({w.source.index, &w.object, 8, &w.source});
  for (const auto& c : scenario.priority_classes) order.push_back({c.source.index, &c.object, 9, &c.source});
  for (const auto& b : scenario.disruption_budgets) order.push_back({b.source.index, &b.object, 10, &b.source});
  std::stable_sort(order.begin(), order.end(), [](const entry& a, const entry& b) { return a.index < b.index; });

  error_list errors;
  for (const entry& e : order) {
    if (e.kind == 0) {
      const auto& slice = *static_cast<const model::resource_slice*>(e.object);
      validate_resource_slice(slice, errors, detail::located_label("ResourceSlice", {}, slice.meta.name, *e.source));
    } else if (e.kind == 1) {
      const auto& device_class = *static_cast<const model::device_class*>(e.object);
      validate_device_class(device_class, errors,
                            detail::located_label("DeviceClass", {}, device_class.meta.name, *e.source));
    } else if (e.kind == 3) {
      const auto& t = *static_cast<const model::resource_claim_template*>(e.object);
      validate_resource_claim_template(
          t, errors, detail::located_label("ResourceClaimTemplate", t.meta.namespace_, t.meta.name, *e.source));
    } else if (e.kind == 5) {
      const auto& node = *static_cast<const model::node*>(e.object);
      validate_node(node, errors, detail::located_label("Node", {}, node.meta.name, *e.source));
    } else if (e.kind == 6) {
      const auto& pod = *static_cast<const model::pod*>(e.object);
      validate_pod(pod, errors, detail::located_label("Pod", pod.meta.namespace_, pod.meta.name, *e.source));
    } else if (e.kind == 7) {
      const auto& group = *static_cast<const model::pod_group*>(e.object);
      validate_pod_group(group, errors,
                         detail::located_label("PodGroup", group.meta.namespace_, group.meta.name, *e.source));
    } else if (e.kind == 8) {
      const auto& workload = *static_cast<const model::workload*>(e.object);
      validate_workload(workload, errors,
                        detail::located_label("Workload", workload.meta.namespace_, workload.meta.name, *e.source));
    } else if (e.kind == 9) {
      const auto& c = *static_cast<const model::priority_class*>(e.object);
      validate_priority_class(c, errors, detail::located_label("PriorityClass", {}, c.meta.name, *e.source));
    } else if (e.kind == 10) {
      const auto& b = *static_cast<const model::pod_disruption_budget*>(e.object);
      validate_disruption_budget(b, errors,
                                 detail::located_label("PodDisruptionBudget", b.meta.namespace_, b.meta.name, *e.source));
    } else if (e.kind == 4) {
      const auto& rule = *static_cast<const model::device_taint_rule*>(e.object);
      validate_device_taint_rule(rule, errors, detail::located_label("DeviceTaintRule", {}, rule.meta.name, *e.source));
    } else {
      const auto& claim = *static_cast<const model::resource_claim*>(e.object);
      validate_resource_claim(
          claim, errors, detail::located_label("ResourceClaim", claim.meta.namespace_, claim.meta.name, *e.source));
    }
  }
  return errors;
}

namespace detail {

// Kubernetes keeps one object per kind and name (and namespace, for
// claims); a second one in the input would replace the first.
template <class T>
void check_unique_names(error_list& errors, std::string_view kind, const std::vector<model::located<T>>& objects) {
  std::map<std::pair<std::string_view, std::string_view>, const model::located<T>*> seen;
  for (const auto& located : objects) {
    const model::object_meta& meta = located.object.meta;
    if (meta.name.empty()) continue;  // reported as a missing name
    auto [it, inserted] = seen.try_emplace({meta.namespace_, meta.name}, &located);
    if (inserted) continue;
    const std::string where = it->second->source.path.empty() ? std::string("earlier") : concat("at ", it->second->source.path);
    reporter(errors, object_label(kind, meta.namespace_, meta.name))
        .add("metadata.name", concat(duplicate(meta.name), ": another ", kind, " of this name comes ", where, " in the input"));
  }
}

// CEL selectors and derived attribute expressions must compile in Kubernetes' DRA environment, as the API server
// checks them on create (empty and over-long expressions are reported with the object's other problems). A selector
// whose estimated cost exceeds the selector cost limit is refused, as upstream refuses it ("Forbidden: too complex,
// exceeds cost limit"); derived attributes' expressions are not held to it (upstream's alpha does not say it is).
inline void check_selector_expressions(error_list& errors, const model::scenario& scenario) {
  const cel::selector_engine engine;
  // One expression, unless empty or too long (reported with the object's other problems): `compile` must accept it.
  auto check_expression = [&](const std::string& object, const field_path& at, std::string_view text,
                              const auto& compile, bool cost_limited) {
    if (text.empty() || text.size() > limits::cel_expression_length) return;
    auto compiled = compile(text);
    if (!compiled) {
      reporter(errors, object).add(at, invalid_text(text, compiled.error().message), compiled.error().code);
    } else if (cost_limited && compiled.value().compiled->estimated_cost().max > cel::selector_max_cost) {
      reporter(errors, object).add(at, forbidden("too complex, exceeds cost limit"));
    }
  };
  // `path` is viewed by field_path: callers keep it alive for the call.
  auto check = [&](const std::string& object, const std::string& path, std::span<const model::device_selector> selectors) {
    for (std::size_t i = 0; i < selectors.size(); ++i)
      check_expression(
          object, field_path(std::string_view(path)).index(i).child("cel.expression"), selectors[i].cel_expression,
          [&](std::string_view t) { return engine.compile(t); }, true);
  };
  // Derived attributes' expressions (KEP-6080) compile in the same environment, to a value rather than a verdict.
  auto check_derived = [&](const std::string& object, const std::string& path,
                           std::span<const model::device_derived_attribute> derived) {
    for (std::size_t i = 0; i < derived.size(); ++i)
      check_expression(
          object, field_path(std::string_view(path)).index(i).child("expression"), derived[i].expression,
          [&](std::string_view t) { return engine.compile_derived(t); }, false);
  };
  // A claim's spec, or a template's (`prefix` "spec.spec").
  auto check_claim_spec = [&](const std::string& object, std::string_view prefix, const model::device_claim& spec) {
    for (std::size_t r = 0; r < spec.requests.size(); ++r) {
      const model::device_request& request = spec.requests[r];
      const std::string base = concat(prefix, ".devices.requests[", std::to_string(r), "]");
      if (request.exactly) {
        const std::string path = concat(base, ".exactly.selectors");
        check(object, path, request.exactly->selectors);
      }
      for (std::size_t s = 0; s < request.first_available.size(); ++s) {
        const std::string path = concat(base, ".firstAvailable[", std::to_string(s), "].selectors");
        check(object, path, request.first_available[s].selectors);
      }
      if (request.exactly)
        check_derived(object, concat(base, ".exactly.derivedAttributes"), request.exactly->derived_attributes);
      for (std::size_t s = 0; s < request.first_available.size(); ++s)
        check_derived(object, concat(base, ".firstAvailable[", std::to_string(s), "].derivedAttributes"),
                      request.first_available[s].derived_attributes);
    }
  };
  const std::string class_path = "spec.selectors";
  for (const auto& located : scenario.classes)
    check(object_label("DeviceClass", {}, located.object.meta.name), class_path, located.object.selectors);
  for (const auto& located : scenario.claims) {
    const model::resource_claim& claim = located.object;
    check_claim_spec(object_label("ResourceClaim", claim.meta.namespace_, claim.meta.name), "spec", claim.spec);
  }
  for (const auto& located : scenario.claim_templates) {
    const model::resource_claim_template& t = located.object;
    check_claim_spec(object_label("ResourceClaimTemplate", t.meta.namespace_, t.meta.name), "spec.spec", t.spec);
  }
}

}  // namespace detail

namespace detail {

// What Priority admission refuses: a pod naming a class that does not exist, a second global default class.
inline void check_priorities(error_list& errors, const model::scenario& scenario) {
  const model::priority_classes classes(scenario);
  for (const auto& located : scenario.pods) {
    const model::pod& pod = located.object;
    if (pod.priority_class_name && !pod.priority_class_name->empty() && classes.find(*pod.priority_class_name) == nullptr)
      reporter(errors, object_label("Pod", pod.meta.namespace_, pod.meta.name))
          .add("spec.priorityClassName", model::unknown_priority_class_message(*pod.priority_class_name),
               errc::not_found);
  }
  const model::priority_class* first_default = nullptr;
  for (const auto& located : scenario.priority_classes) {
    const model::priority_class& c = located.object;
    if (!c.global_default) continue;
    if (first_default == nullptr) {
      first_default = &c;
      continue;
    }
    reporter(errors, object_label("PriorityClass", {}, c.meta.name))
        .add("globalDefault", forbidden(concat("PriorityClass ", first_default->meta.name,
                                               " is already marked as default. Only one default can exist")));
  }
}

}  // namespace detail

// Every problem of the scenario: each object's (validate_objects), objects
// of one kind sharing a name, then problems across the slices of a pool
// (validate_pools); empty when valid.
[[nodiscard]] inline error_list validate_scenario(const model::scenario& scenario) {
  error_list errors = validate_objects(scenario);
  detail::check_unique_names(errors, "ResourceSlice", scenario.slices);
  detail::check_unique_names(errors, "DeviceClass", scenario.classes);
  detail::check_unique_names(errors, "ResourceClaim", scenario.claims);
  detail::check_unique_names(errors, "ResourceClaimTemplate", scenario.claim_templates);
  detail::check_unique_names(errors, "DeviceTaintRule", scenario.taint_rules);
  detail::check_unique_names(errors, "PodGroup", scenario.pod_groups);
  detail::check_unique_names(errors, "Workload", scenario.workloads);
  detail::check_unique_names(errors, "PriorityClass", scenario.priority_classes);
  detail::check_unique_names(errors, "PodDisruptionBudget", scenario.disruption_budgets);
  detail::check_priorities(errors, scenario);
  detail::check_selector_expressions(errors, scenario);
  validate_pools(scenario, errors);
  return errors;
}

// The entry point of `dra validate`: every problem of a loaded document.
// Fields the objects' kinds do not have come first, as the API server refuses such an object
// before it validates it.
[[nodiscard]] inline error_list validate(const json::document& document) {
  error_list errors;
  report_unknown_fields(document.unknown_fields(), errors);
  error_list others = validate_scenario(document.scenario());
  errors.insert(errors.end(), std::make_move_iterator(others.begin()), std::make_move_iterator(others.end()));
  return errors;
}

}  // namespace dra::validate
