// What a pod asks of its node: its resource requests as kube-scheduler computes them (containers, init containers
// and sidecars, overhead, pod-level resources).
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/workload.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

namespace dra::sched {

// Resource amounts as the scheduler compares them: cpu in thousandths of a core, everything else in whole units
// (Quantity.MilliValue and Value, rounded up), sorted by name.
using amounts = model::sorted_map<std::int64_t>;

// The amount of `name` in `list`, 0 when absent.
[[nodiscard]] inline std::int64_t amount_of(const amounts& list, std::string_view name) noexcept {
  const std::int64_t* found = model::find(list, name);
  return found != nullptr ? *found : 0;
}

[[nodiscard]] constexpr bool is_cpu(std::string_view resource) noexcept { return resource == "cpu"; }

// A quantity of `resource` in the scheduler's units.
[[nodiscard]] inline std::int64_t scheduler_units(std::string_view resource, const quantity& q) noexcept {
  return is_cpu(resource) ? q.milli_value() : q.value();
}

// The resources NodeResourcesFit checks besides cpu, memory, ephemeral-storage and pods (its "scalar" resources):
// extended resources and other domain-qualified names, hugepages-*, attachable-volumes-*. Other names are ignored.
[[nodiscard]] constexpr bool is_scalar_resource(std::string_view resource) noexcept {
  return resource.starts_with("hugepages-") || resource.starts_with("attachable-volumes-") ||
         resource.find('/') != std::string_view::npos;
}

// Pod-level `resources` (KEP-2837) override the containers' sum for these resources only.
[[nodiscard]] constexpr bool is_pod_level_resource(std::string_view resource) noexcept {
  return resource == "cpu" || resource == "memory" || resource.starts_with("hugepages-");
}

namespace detail {

inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? (b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min()) : sum;
}

// The amount of `name` in `list`, added as 0 when absent.
inline std::int64_t& slot(amounts& list, std::string_view name) {
  auto at = std::lower_bound(list.begin(), list.end(), name, [](const auto& e, std::string_view n) { return e.name < n; });
  if (at == list.end() || at->name != name) at = list.insert(at, {name, 0});
  return at->value;
}

// Adds `more` into `into`, name by name.
inline void add_into(amounts& into, const amounts& more) {
  for (const auto& [name, value] : more) {
    std::int64_t& sum = slot(into, name);
    sum = saturating_add(sum, value);
  }
}

// Raises each amount of `into` to at least `other`'s.
inline void max_into(amounts& into, const amounts& other) {
  for (const auto& [name, value] : other) {
    std::int64_t& peak = slot(into, name);
    peak = std::max(peak, value);
  }
}

// A container's requests; a resource with a limit and no request requests its limit (the API server's default).
inline amounts container_requests(const model::container& c) {
  amounts out;
  for (const auto& [name, q] : c.requests) out.push_back({name, scheduler_units(name, q)});
  for (const auto& [name, q] : c.limits)
    if (model::find(c.requests, name) == nullptr) slot(out, name) = scheduler_units(name, q);
  return out;
}

}  // namespace detail

// The containers' part of the pod's requests (component-helpers' AggregateContainerRequests): the regular
// containers' sum plus the sidecars', raised to what the init phase needs at its peak (each regular init container
// plus the sidecars started before it).
[[nodiscard]] inline amounts aggregate_container_requests(const model::pod& pod) {
  amounts total;
  for (const auto& c : pod.containers) detail::add_into(total, detail::container_requests(c));
  amounts sidecars;
  amounts init_peak;
  for (const auto& c : pod.init_containers) {
    const amounts own = detail::container_requests(c);
    amounts during = own;
    if (c.sidecar) {
      detail::add_into(total, own);
      detail::add_into(sidecars, own);
      during = sidecars;
    } else {
      detail::add_into(during, sidecars);
    }
    detail::max_into(init_peak, during);
  }
  detail::max_into(total, init_peak);
  return total;
}

// The pod's requests (component-helpers' PodRequests): its containers' (aggregate_container_requests) plus what its
// allocated devices add (`from_devices`, KEP-5517), with pod-level requests for cpu, memory and hugepages where set,
// plus the pod's overhead.
[[nodiscard]] inline amounts pod_requests(const model::pod& pod, const amounts& from_devices = {}) {
  amounts total = aggregate_container_requests(pod);
  detail::add_into(total, from_devices);
  if (pod.pod_requests)
    for (const auto& [name, q] : *pod.pod_requests)
      if (is_pod_level_resource(name)) detail::slot(total, name) = scheduler_units(name, q);
  for (const auto& [name, q] : pod.overhead) {
    std::int64_t& sum = detail::slot(total, name);
    sum = detail::saturating_add(sum, scheduler_units(name, q));
  }
  return total;
}

}  // namespace dra::sched
