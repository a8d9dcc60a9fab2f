// Does this pod fit this node, device claims aside: kube-scheduler's node filters (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, NodeResourcesFit) in its default order, with its own words for each refusal.
#pragma once

#include <dra/alloc/node_match.hpp>
#include <dra/model/explanation_codes.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>

#include <algorithm>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sched {

// Why a node was refused, as an explanation code (model::name_of writes it: "node-taint").
using node_reason_code = model::pod_reason_code;

// One reason a node gives, in kube-scheduler's words ("Insufficient cpu").
struct node_reason {
  node_reason_code code;
  std::string message;
  friend bool operator==(const node_reason&, const node_reason&) = default;
};

// kube-scheduler's reason strings (framework/plugins/*: ErrReason…).
inline constexpr std::string_view unschedulable_reason = "node(s) were unschedulable";
inline constexpr std::string_view untolerated_taint_reason = "node(s) had untolerated taint(s)";
inline constexpr std::string_view node_name_reason = "node(s) didn't match the requested node name";
inline constexpr std::string_view node_affinity_reason = "node(s) didn't match Pod's node affinity/selector";
inline constexpr std::string_view too_many_pods_reason = "Too many pods";
inline constexpr std::string_view claims_reason = "cannot allocate all claims";

// core/v1 Toleration.ToleratesTaint: the effect and key match when set (an empty key needs Exists), then Equal
// compares values and Exists takes any.
[[nodiscard]] constexpr bool tolerates(const model::pod_toleration& t, const model::node_taint& taint) noexcept {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  switch (t.op) {
    case model::toleration_operator::equal: return t.value == taint.value;
    case model::toleration_operator::exists: return true;
    case model::toleration_operator::unsupported: return false;
  }
  return false;
}

[[nodiscard]] inline bool tolerated(const std::vector<model::pod_toleration>& tolerations,
                                    const model::node_taint& taint) noexcept {
  return std::any_of(tolerations.begin(), tolerations.end(),
                     [&](const model::pod_toleration& t) { return tolerates(t, taint); });
}

// NodeUnschedulable: a cordoned node takes only pods that tolerate node.kubernetes.io/unschedulable:NoSchedule.
[[nodiscard]] inline bool passes_unschedulable(const model::pod& pod, const model::node& node) noexcept {
  if (!node.unschedulable) return true;
  const model::node_taint cordon{"node.kubernetes.io/unschedulable", "", "NoSchedule", std::nullopt};
  return tolerated(pod.tolerations, cordon);
}

// NodeName: a pod that names a node fits only there.
[[nodiscard]] inline bool passes_node_name(const model::pod& pod, const model::node& node) noexcept {
  return !pod.node_name || pod.node_name->empty() || *pod.node_name == node.meta.name;
}

// TaintToleration: the first of the node's NoSchedule and NoExecute taints the pod does not tolerate, if any
// (PreferNoSchedule only weighs in scoring).
[[nodiscard]] inline const model::node_taint* untolerated_taint(const model::pod& pod, const model::node& node) noexcept {
  for (const auto& taint : node.taints)
    if ((taint.effect == "NoSchedule" || taint.effect == "NoExecute") && !tolerated(pod.tolerations, taint)) return &taint;
  return nullptr;
}

// NodeAffinity: every nodeSelector label equal, and one required term matched. A term with a malformed requirement
// matches nothing, as kube-scheduler's lazy-error selector has it (validation reports the requirement).
[[nodiscard]] inline bool passes_node_affinity(const model::pod& pod, const model::node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    const model::text* label = model::find(node.meta.labels, key);
    if (label == nullptr || *label != value) return false;
  }
  if (!pod.required_node_affinity) return true;
  return std::any_of(pod.required_node_affinity->terms.begin(), pod.required_node_affinity->terms.end(),
                     [&](const model::node_selector_term& term) {
                       const auto matches = alloc::node_selector_term_matches(term, node);
                       return matches && *matches;
                     });
}

// NodeAffinity's PreFilter: when every required term names nodes with `matchFields metadata.name In`, only those
// nodes are filtered at all (the names a term's field requirements all allow, gathered over the terms). nullopt: no
// such restriction; an empty set: the terms conflict ("pod affinity terms conflict").
[[nodiscard]] inline std::optional<std::vector<model::text>> affinity_node_names(const model::pod& pod) {
  if (!pod.required_node_affinity) return std::nullopt;
  std::vector<model::text> names;
  for (const auto& term : pod.required_node_affinity->terms) {
    std::optional<std::vector<model::text>> allowed;  // the intersection of this term's metadata.name In sets
    for (const auto& r : term.match_fields) {
      if (r.key != "metadata.name" || r.op != model::node_selector_operator::in) continue;
      std::vector<model::text> values = r.values;
      std::sort(values.begin(), values.end());
      if (!allowed) {
        allowed = std::move(values);
        continue;
      }
      std::vector<model::text> both;
      std::set_intersection(allowed->begin(), allowed->end(), values.begin(), values.end(), std::back_inserter(both));
      allowed = std::move(both);
    }
    if (!allowed) return std::nullopt;  // this term may match any node
    names.insert(names.end(), allowed->begin(), allowed->end());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// The pre-filter texts kube-scheduler gives (framework PreFilter statuses).
inline constexpr std::string_view affinity_conflict_reason = "pod affinity terms conflict";
inline constexpr std::string_view outside_affinity_names_reason = "node(s) didn't satisfy plugin(s) [NodeAffinity]";

namespace detail {

// Whether `wanted` of `resource` is more than the node's allocatable leaves beside what its pods request.
[[nodiscard]] inline bool short_of(const model::resource_list& allocatable, const node_usage& usage,
                                   std::string_view resource, std::int64_t wanted) {
  const quantity* offered = model::find(allocatable, resource);
  const std::int64_t have = offered != nullptr ? scheduler_units(resource, *offered) : 0;
  return wanted > have - amount_of(usage.requested, resource);
}

}  // namespace detail

// NodeResourcesFit: each resource the pod requests, on top of what the node's pods already request, within the
// node's allocatable; one reason per resource short ("Insufficient cpu"), and "Too many pods" first. A node without
// allocatable is not limited. `requests` is pod_requests(pod); of `dra_backed` (the requested resources a DeviceClass
// serves), those the node has none of are left to DRA (KEP-5004) and not checked here.
[[nodiscard]] inline std::vector<node_reason> insufficient_resources(const amounts& requests, const model::node& node,
                                                                     const node_usage& usage,
                                                                     std::span<const dra_resource> dra_backed = {}) {
  std::vector<node_reason> out;
  if (!node.allocatable) return out;
  const model::resource_list& allocatable = *node.allocatable;
  const quantity* pods = model::find(allocatable, std::string_view("pods"));
  if (usage.pods + 1 > (pods != nullptr ? pods->value() : 0))
    out.push_back({node_reason_code::too_many_pods, std::string(too_many_pods_reason)});
  // A pod asking for none of them is checked for the pod count only.
  const bool asks_nothing = std::none_of(requests.begin(), requests.end(), [](const auto& r) {
    return (r.name == "cpu" || r.name == "memory" || r.name == "ephemeral-storage" || is_scalar_resource(r.name)) &&
           r.value != 0;
  });
  if (asks_nothing) return out;
  auto short_of = [&](std::string_view resource, std::int64_t wanted) {
    return detail::short_of(allocatable, usage, resource, wanted);
  };
  // cpu, memory and ephemeral-storage first, then the other resources (extended, hugepages) by name.
  for (std::string_view native : {"cpu", "memory", "ephemeral-storage"}) {
    const std::int64_t wanted = amount_of(requests, native);
    if (wanted > 0 && short_of(native, wanted))
      out.push_back({node_reason_code::resources, "Insufficient " + std::string(native)});
  }
  for (const auto& [resource, wanted] : requests) {
    if (!is_scalar_resource(resource) || wanted <= 0) continue;
    const std::string_view name = resource;  // a structured binding is not captured (before C++20's P1091 in clang)
    const bool backed = std::any_of(dra_backed.begin(), dra_backed.end(), [name](const dra_resource& r) { return r.name == name; });
    if (backed && left_to_dra(node, name)) continue;
    if (short_of(resource, wanted)) out.push_back({node_reason_code::resources, "Insufficient " + std::string(resource)});
  }
  return out;
}

// The filters in kube-scheduler's default order; the first that refuses gives the node's reasons (NodeResourcesFit
// may give several). Empty: the node is feasible for the pod, device claims aside.
[[nodiscard]] inline std::vector<node_reason> filter_node(const model::pod& pod, const amounts& requests,
                                                          const model::node& node, const node_usage& usage,
                                                          std::span<const dra_resource> dra_backed = {}) {
  if (!passes_unschedulable(pod, node)) return {{node_reason_code::node_unschedulable, std::string(unschedulable_reason)}};
  if (!passes_node_name(pod, node)) return {{node_reason_code::node_name, std::string(node_name_reason)}};
  if (untolerated_taint(pod, node) != nullptr)
    return {{node_reason_code::node_taint, std::string(untolerated_taint_reason)}};
  if (!passes_node_affinity(pod, node)) return {{node_reason_code::node_affinity, std::string(node_affinity_reason)}};
  return insufficient_resources(requests, node, usage, dra_backed);
}

}  // namespace dra::sched
