// Validation of Nodes, Pods and PriorityClasses as the API server checks the fields scheduling reads: taints,
// allocatable resources, node selection, tolerations, resource requests, scheduling gates, priorities.
#pragma once

#include <dra/core/names.hpp>
#include <dra/model/priority_class.hpp>
#include <dra/model/workload.hpp>
#include <dra/validate/common.hpp>
#include <dra/validate/detail/report.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::validate {

namespace detail {

// A resource counted in whole units: `pods` and extended resources (domain-qualified, outside kubernetes.io).
[[nodiscard]] inline bool is_integer_resource(std::string_view name) noexcept {
  return name == "pods" ||
         (name.find('/') != std::string_view::npos && name.find("kubernetes.io/") == std::string_view::npos);
}

// A ResourceList: amounts not negative, whole numbers where the resource is counted.
inline void check_resource_list(reporter& r, const field_path& path, const model::resource_list& list) {
  for (const auto& [name, amount] : list) {
    const field_path at = child(path, name);
    if (amount.sign() < 0)
      r.add(at, invalid_text(amount.to_string(), "must be greater than or equal to 0"));
    else if (is_integer_resource(name) && amount.milli_value() % 1000 != 0)
      r.add(at, invalid_text(amount.to_string(), "must be an integer"));
  }
}

// core/v1 Taint effects.
inline constexpr std::array<std::string_view, 3> node_taint_effects = {"NoSchedule", "PreferNoSchedule", "NoExecute"};

// validateNodeTaints. Upstream reports them under metadata.taints, not spec.taints: so does dra.
inline void check_node_taints(reporter& r, const std::vector<model::node_taint>& taints) {
  const field_path path = "metadata.taints";
  for (std::size_t i = 0; i < taints.size(); ++i) {
    const model::node_taint& t = taints[i];
    const field_path at = index(path, i);
    check_label_key(r, child(at, "key"), t.key);
    r.add_name_problems(child(at, "value"), t.value, names::label_value(t.value));
    if (t.effect.empty())
      r.add(child(at, "effect"), required());
    else if (std::find(node_taint_effects.begin(), node_taint_effects.end(), t.effect) == node_taint_effects.end())
      r.add(child(at, "effect"), not_supported(t.effect, node_taint_effects));
    for (std::size_t j = 0; j < i; ++j)
      if (taints[j].key == t.key && taints[j].effect == t.effect) {
        const std::string shown = concat(t.key, "=", t.value, ":", t.effect);
        r.add(at, concat("Duplicate value: ", quoted(std::string_view(shown)), ": taints must be unique by key and effect pair"));
        break;
      }
  }
}

// ValidateTolerations (pods): an empty key needs Exists, Exists takes no value, tolerationSeconds needs NoExecute.
// Upstream reports an Equal toleration's bad value under `operator`: so does dra.
inline void check_pod_toleration(reporter& r, const field_path& path, const model::pod_toleration& t) {
  if (!t.key.empty()) check_label_key(r, child(path, "key"), t.key);
  const field_path op = child(path, "operator");
  if (t.key.empty() && t.op != model::toleration_operator::exists)
    r.add(op, invalid_text(t.op == model::toleration_operator::unsupported ? t.operator_name : std::string_view("Equal"),
                           "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
  if (t.toleration_seconds && t.effect != "NoExecute")
    r.add(child(path, "effect"), invalid_text(t.effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  switch (t.op) {
    case model::toleration_operator::equal:
      r.add_name_problems(op, t.value, names::label_value(t.value));
      break;
    case model::toleration_operator::exists:
      if (!t.value.empty()) r.add(op, invalid_text(t.value, "value must be empty when `operator` is 'Exists'"));
      break;
    case model::toleration_operator::unsupported:
      r.add(op, not_supported(t.operator_name, {"Equal", "Exists"}));
      break;
  }
  if (!t.effect.empty() && std::find(node_taint_effects.begin(), node_taint_effects.end(), t.effect) == node_taint_effects.end())
    r.add(child(path, "effect"), not_supported(t.effect, node_taint_effects));
}

// A container's resources: lists valid, and no request above its limit.
inline void check_container(reporter& r, const field_path& path, const model::container& c) {
  const field_path resources = child(path, "resources");
  check_resource_list(r, child(resources, "requests"), c.requests);
  check_resource_list(r, child(resources, "limits"), c.limits);
  for (const auto& [name, request] : c.requests)
    if (const quantity* limit = model::find(c.limits, name); limit != nullptr && request > *limit)
      r.add(child(child(resources, "requests"), name),
            invalid_text(request.to_string(), concat("must be less than or equal to ", name, " limit of ", limit->to_string())));
}

}  // namespace detail

// Every problem of a Node's scheduling fields.
inline void validate_node(const model::node& node, error_list& errors, std::string object) {
  detail::reporter r(errors, std::move(object));
  detail::check_object_meta(r, node.meta, detail::scope::cluster);
  detail::check_node_taints(r, node.taints);
  if (node.allocatable) detail::check_resource_list(r, "status.allocatable", *node.allocatable);
}

// Every problem of a Pod's scheduling fields.
inline void validate_pod(const model::pod& pod, error_list& errors, std::string object) {
  detail::reporter r(errors, std::move(object));
  detail::check_object_meta(r, pod.meta, detail::scope::namespaced);
  detail::check_labels(r, "spec.nodeSelector", pod.node_selector);
  if (pod.required_node_affinity)
    detail::check_node_selector(r, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution",
                                *pod.required_node_affinity, /*single_term=*/false);
  for (std::size_t i = 0; i < pod.preferred_node_affinity.size(); ++i) {
    const detail::field_path term = detail::index("spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution", i);
    const model::preferred_scheduling_term& preferred = pod.preferred_node_affinity[i];
    if (preferred.weight < 1 || preferred.weight > 100)
      r.add(detail::child(term, "weight"), detail::invalid_number(preferred.weight, "must be in the range 1-100"));
    detail::check_node_selector_term(r, detail::child(term, "preference"), preferred.preference);
  }
  for (std::size_t i = 0; i < pod.tolerations.size(); ++i)
    detail::check_pod_toleration(r, detail::index("spec.tolerations", i), pod.tolerations[i]);
  for (std::size_t i = 0; i < pod.init_containers.size(); ++i)
    detail::check_container(r, detail::index("spec.initContainers", i), pod.init_containers[i]);
  for (std::size_t i = 0; i < pod.containers.size(); ++i)
    detail::check_container(r, detail::index("spec.containers", i), pod.containers[i]);
  detail::check_resource_list(r, "spec.overhead", pod.overhead);
  if (pod.pod_group_name)
    r.add_name_problems("spec.schedulingGroup.podGroupName", *pod.pod_group_name,
                        names::dns1123_subdomain(*pod.pod_group_name));
  if (pod.pod_requests) detail::check_resource_list(r, "spec.resources.requests", *pod.pod_requests);
  for (std::size_t i = 0; i < pod.scheduling_gates.size(); ++i) {
    const auto gate = pod.scheduling_gates[i];
    const detail::field_path at = detail::index("spec.schedulingGates", i);
    r.add_name_problems(at, gate, names::qualified_name(gate));
    if (std::find(pod.scheduling_gates.begin(), pod.scheduling_gates.begin() + static_cast<std::ptrdiff_t>(i), gate) !=
        pod.scheduling_gates.begin() + static_cast<std::ptrdiff_t>(i))
      r.add(at, detail::duplicate(gate));
  }
  if (pod.preemption_policy && *pod.preemption_policy != model::preempt_lower_priority &&
      *pod.preemption_policy != model::preempt_never)
    r.add("spec.preemptionPolicy",
          detail::not_supported(*pod.preemption_policy, {model::preempt_never, model::preempt_lower_priority}));
}

// The value user classes may not exceed; higher values belong to the system classes.
inline constexpr std::int32_t highest_user_priority = 1000000000;

// A PriorityClass's own fields, as the API server validates them.
inline void validate_priority_class(const model::priority_class& c, error_list& errors, std::string object) {
  detail::reporter r(errors, std::move(object));
  detail::check_object_meta(r, c.meta, detail::scope::cluster);
  const auto system = std::find_if(std::begin(model::system_priority_classes), std::end(model::system_priority_classes),
                                   [&](const auto& known) { return known.name == c.meta.name; });
  if (system != std::end(model::system_priority_classes)) {
    if (c.value != system->value)
      r.add("value", detail::invalid_number(c.value, concat("the value of ", c.meta.name, " is ",
                                                             std::to_string(system->value))));
  } else if (c.meta.name.starts_with("system-")) {
    r.add("metadata.name", detail::forbidden("priority class names with 'system-' prefix are reserved"));
  } else if (c.value > highest_user_priority) {
    r.add("value", detail::forbidden("maximum allowed value of a user defined priority is 1000000000"));
  }
  if (c.preemption_policy && *c.preemption_policy != model::preempt_lower_priority &&
      *c.preemption_policy != model::preempt_never)
    r.add("preemptionPolicy",
          detail::not_supported(*c.preemption_policy, {model::preempt_never, model::preempt_lower_priority}));
}

}  // namespace dra::validate
