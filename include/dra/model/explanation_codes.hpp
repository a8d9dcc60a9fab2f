// The words explanations are made of — why a request fits on no node, where a device drops out of the funnel, what
// became of an explained claim — as enums, each with the one name table the output formats write and read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace dra::model {

// Why a request cannot be satisfied on a node (the scenario format's explanation codes); `fits` when it can.
enum class explanation_code : std::uint8_t {
  fits,
  node_selection,
  pool,
  device_class,
  selector,
  in_use,
  counters,
  capacity,
  taint,
  constraint,
  count,
  conflict
};

// The stage of the diagnosis funnel at which a device drops out for a request; `usable` when it passes them all.
enum class funnel_stage : std::uint8_t { pool, device_class, selector, in_use, counters, capacity, taint, usable };

// Why a node refuses a pending pod, or why the pod is not tried at all: one per kube-scheduler filter
// (NodeResourcesFit has two), the DynamicResources plugin's, and the scheduling gates'.
enum class pod_reason_code : std::uint8_t {
  node_unschedulable,  // NodeUnschedulable: cordoned, and the pod does not tolerate it
  node_name,           // NodeName: the pod names another node
  node_taint,          // TaintToleration: a NoSchedule or NoExecute taint the pod does not tolerate
  node_affinity,       // NodeAffinity: nodeSelector or required node affinity
  resources,           // NodeResourcesFit: not enough of a resource left
  too_many_pods,       // NodeResourcesFit: the node's `pods` allocatable is reached
  claims,              // DynamicResources: the pod's claims do not fit, or are allocated elsewhere
  scheduling_gated,    // the pod waits for its scheduling gates
  gang,                // the pod's gang could not be placed: fewer than minCount of its pods fit
};

// What `dra explain` found a named claim to be.
enum class claim_status : std::uint8_t { allocated, unschedulable, error, not_found, already_allocated };

// Each enum's names, one entry per value in the values' order: `table` is {value, name} pairs. Specialised below.
template <typename Enum>
struct enum_names;

template <>
struct enum_names<explanation_code> {
  static constexpr std::pair<explanation_code, std::string_view> table[] = {
      {explanation_code::fits, "fits"},         {explanation_code::node_selection, "node-selection"},
      {explanation_code::pool, "pool"},         {explanation_code::device_class, "class"},
      {explanation_code::selector, "selector"}, {explanation_code::in_use, "in-use"},
      {explanation_code::counters, "counters"}, {explanation_code::capacity, "capacity"},
      {explanation_code::taint, "taint"},       {explanation_code::constraint, "constraint"},
      {explanation_code::count, "count"},       {explanation_code::conflict, "conflict"},
  };
};

template <>
struct enum_names<funnel_stage> {
  static constexpr std::pair<funnel_stage, std::string_view> table[] = {
      {funnel_stage::pool, "pool"},     {funnel_stage::device_class, "class"}, {funnel_stage::selector, "selector"},
      {funnel_stage::in_use, "in-use"}, {funnel_stage::counters, "counters"},  {funnel_stage::capacity, "capacity"},
      {funnel_stage::taint, "taint"},   {funnel_stage::usable, "usable"},
  };
};

template <>
struct enum_names<pod_reason_code> {
  static constexpr std::pair<pod_reason_code, std::string_view> table[] = {
      {pod_reason_code::node_unschedulable, "node-unschedulable"},
      {pod_reason_code::node_name, "node-name"},
      {pod_reason_code::node_taint, "node-taint"},
      {pod_reason_code::node_affinity, "node-affinity"},
      {pod_reason_code::resources, "resources"},
      {pod_reason_code::too_many_pods, "too-many-pods"},
      {pod_reason_code::claims, "claims"},
      {pod_reason_code::scheduling_gated, "scheduling-gated"},
      {pod_reason_code::gang, "gang"},
  };
};

template <>
struct enum_names<claim_status> {
  static constexpr std::pair<claim_status, std::string_view> table[] = {
      {claim_status::allocated, "allocated"},
      {claim_status::unschedulable, "unschedulable"},
      {claim_status::error, "error"},
      {claim_status::not_found, "not found"},
      {claim_status::already_allocated, "already allocated"},
  };
};

// An enum with a name table.
template <typename Enum>
concept named_enum = std::is_enum_v<Enum> && requires {
  std::size(enum_names<Enum>::table);
};

namespace detail {

// Entry i names value i, so that name_of indexes the table.
template <named_enum Enum>
[[nodiscard]] constexpr bool names_in_value_order() noexcept {
  const auto& table = enum_names<Enum>::table;
  for (std::size_t i = 0; i < std::size(table); ++i)
    if (static_cast<std::size_t>(table[i].first) != i) return false;
  return true;
}

}  // namespace detail

// The name the output formats write for `value` ("in-use"); "unknown" for a value outside the enum.
template <named_enum Enum>
[[nodiscard]] constexpr std::string_view name_of(Enum value) noexcept {
  static_assert(detail::names_in_value_order<Enum>(), "enum_names' table must list every value in order");
  const auto& table = enum_names<Enum>::table;
  const auto index = static_cast<std::size_t>(value);
  return index < std::size(table) ? table[index].second : std::string_view("unknown");
}

// The value named `name`, if any: the inverse of name_of.
template <named_enum Enum>
[[nodiscard]] constexpr std::optional<Enum> from_name(std::string_view name) noexcept {
  const auto& table = enum_names<Enum>::table;
  const auto* found = std::ranges::find(table, name, &std::pair<Enum, std::string_view>::second);
  if (found == std::end(table)) return std::nullopt;
  return found->first;
}

}  // namespace dra::model
