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
// `missing` gives amounts for resources the container does not request at all.
inline amounts container_requests(const model::container& c, const amounts& missing = {}) {
  amounts out;
  for (const auto& [name, q] : c.requests) out.push_back({name, scheduler_units(name, q)});
  for (const auto& [name, q] : c.limits)
    if (model::find(c.requests, name) == nullptr) slot(out, name) = scheduler_units(name, q);
  for (const auto& [name, value] : missing)
    if (model::find(out, name) == nullptr) slot(out, name) = value;
  return out;
}

}  // namespace detail

// The containers' part of the pod's requests (component-helpers' AggregateContainerRequests): the regular
// containers' sum plus the sidecars', raised to what the init phase needs at its peak (each regular init container
// plus the sidecars started before it). `missing` (PodRequests' NonMissingContainerRequests) stands in for what a
// container does not request.
[[nodiscard]] inline amounts aggregate_container_requests(const model::pod& pod, const amounts& missing = {}) {
  amounts total;
  for (const auto& c : pod.containers) detail::add_into(total, detail::container_requests(c, missing));
  amounts sidecars;
  amounts init_peak;
  for (const auto& c : pod.init_containers) {
    const amounts own = detail::container_requests(c, missing);
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

// The pod's requests (component-helpers' PodRequests): its containers' (aggregate_container_requests, with
// `missing`) plus what its allocated devices add (`from_devices`, KEP-5517), with pod-level requests for cpu, memory
// and hugepages where set, plus the pod's overhead.
[[nodiscard]] inline amounts pod_requests(const model::pod& pod, const amounts& from_devices = {},
                                          const amounts& missing = {}) {
  amounts total = aggregate_container_requests(pod, missing);
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

// kube-scheduler's stand-ins for a container that requests no cpu or memory, when it scores nodes and counts what
// their pods take (schedutil.DefaultMilliCPURequest, DefaultMemoryRequest): 100m and 200Mi.
inline constexpr std::int64_t default_milli_cpu_request = 100;
inline constexpr std::int64_t default_memory_request = 200 * 1024 * 1024;

// cpu and memory as kube-scheduler's scoring counts them ("non-zero" requests).
struct non_zero_amounts {
  std::int64_t cpu = 0;     // thousandths of a core
  std::int64_t memory = 0;  // bytes
  friend bool operator==(const non_zero_amounts&, const non_zero_amounts&) = default;
};

namespace detail {
inline non_zero_amounts cpu_and_memory(const amounts& requests) {
  return {amount_of(requests, "cpu"), amount_of(requests, "memory")};
}

// Whether every container and init container names both cpu and memory (as a request or a limit): then the
// defaults for missing requests change nothing.
inline bool names_cpu_and_memory(const model::pod& pod) {
  auto names_both = [](const model::container& c) {
    auto names = [&](std::string_view r) { return model::find(c.requests, r) != nullptr || model::find(c.limits, r) != nullptr; };
    return names("cpu") && names("memory");
  };
  return std::all_of(pod.containers.begin(), pod.containers.end(), names_both) &&
         std::all_of(pod.init_containers.begin(), pod.init_containers.end(), names_both);
}
}  // namespace detail

// What the scorers (NodeResourcesFit, resource_allocation.go) take a pod to request: every container that requests
// no cpu (memory) counts the default, before pod-level requests and overhead apply. `requests` is
// pod_requests(pod, from_devices).
[[nodiscard]] inline non_zero_amounts scored_requests(const model::pod& pod, const amounts& requests,
                                                      const amounts& from_devices = {}) {
  static const amounts defaults{{"cpu", default_milli_cpu_request}, {"memory", default_memory_request}};
  if (detail::names_cpu_and_memory(pod)) return detail::cpu_and_memory(requests);
  return detail::cpu_and_memory(pod_requests(pod, from_devices, defaults));
}
[[nodiscard]] inline non_zero_amounts scored_requests(const model::pod& pod) { return scored_requests(pod, pod_requests(pod)); }

// What a node's pod adds to the node's non-zero requested amounts (framework NodeInfo.NonZeroRequested): as
// scored_requests, except that a pod with pod-level requests takes the defaults only for a resource that neither
// its containers nor its pod-level requests name. `requests` is pod_requests(pod, from_devices).
[[nodiscard]] inline non_zero_amounts counted_requests(const model::pod& pod, const amounts& requests,
                                                       const amounts& from_devices = {}) {
  if (!pod.pod_requests || pod.pod_requests->empty()) return scored_requests(pod, requests, from_devices);
  amounts missing;
  if (model::find(requests, std::string_view("cpu")) == nullptr) missing.push_back({"cpu", default_milli_cpu_request});
  if (model::find(requests, std::string_view("memory")) == nullptr) missing.push_back({"memory", default_memory_request});
  return detail::cpu_and_memory(missing.empty() ? requests : pod_requests(pod, from_devices, missing));
}

}  // namespace dra::sched
