// Node allocatable resources through DRA (KEP-5517): what a pod's allocated devices add to its cpu, memory,
// ephemeral-storage and hugepages requests on a node, and the DynamicResources plugin's check that the sum fits there.
#pragma once

#include <dra/core/function_ref.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sched {

// One claim a pod uses, with its allocation (made for the node being tried, or made before).
struct allocated_claim {
  model::text name;   // the ResourceClaim's name (what the status records)
  model::text entry;  // the pod's spec.resourceClaims[].name for it (containers name this); empty for none
  const model::allocation_result* allocation = nullptr;
};

// The device an allocation result names, as the node sees it; nullptr when it is not there.
using allocated_device_lookup = function_ref<const model::device*(const model::device_request_allocation_result&)>;

// Whether any device of `allocation` has nodeAllocatableResources.
[[nodiscard]] inline bool has_node_allocatable_device(const model::allocation_result& allocation,
                                                      allocated_device_lookup find_device) {
  return std::any_of(allocation.results.begin(), allocation.results.end(), [&](const auto& result) {
    const model::device* device = find_device(result);
    return device != nullptr && device->node_allocatable_resources && !device->node_allocatable_resources->empty();
  });
}

// Whether a claim's devices map node resources (not only overheads): such a claim is not shared between pods.
[[nodiscard]] inline bool has_mapped_device(const model::allocation_result& allocation,
                                            allocated_device_lookup find_device) {
  return std::any_of(allocation.results.begin(), allocation.results.end(), [&](const auto& result) {
    const model::device* device = find_device(result);
    if (device == nullptr || !device->node_allocatable_resources) return false;
    return std::any_of(device->node_allocatable_resources->begin(), device->node_allocatable_resources->end(),
                       [](const auto& entry) { return entry.value.mapping.has_value(); });
  });
}

namespace detail {

// Adds `amount` to the entry `name` of `list` (kept sorted), as Quantity.Add does.
template <class Entry, class Field>
dra::status add_quantity(std::vector<Entry>& list, model::text name, const quantity& amount, Field field) {
  auto at = std::lower_bound(list.begin(), list.end(), name, [](const Entry& e, model::text n) { return e.name < n; });
  if (at == list.end() || at->name != name) {
    at = list.insert(at, Entry{});
    at->name = name;
  }
  std::optional<quantity>& sum = field(*at);
  auto added = sum ? sum->add(amount) : result<quantity>(amount);
  if (!added) return std::move(added).error();
  sum = *added;
  return {};
}

struct mapped_amount {
  model::text name;
  std::optional<quantity> value;
};

// LookupByQualifiedName: `key` in `consumed`, a key without a domain being the driver's.
inline const quantity* consumed_amount(const model::sorted_map<quantity>& consumed, std::string_view key,
                                       std::string_view driver) {
  const std::size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (const quantity* q = model::find(consumed, key)) return q;
    return key.substr(0, slash) == driver ? model::find(consumed, key.substr(slash + 1)) : nullptr;
  }
  const std::string qualified = std::string(driver) + "/" + std::string(key);
  if (const quantity* q = model::find(consumed, qualified)) return q;
  return model::find(consumed, key);
}

// One device's mapping of `resource` into `totals` (addDeviceMapping): its multiplier per device, or the capacity it
// consumes under the key times the key's multiplier (a key the allocation consumed none of adds nothing).
inline dra::status add_mapping(model::text resource, const model::node_allocatable_mapping& mapping,
                               const model::device_request_allocation_result& result, std::string_view claim,
                               std::vector<mapped_amount>& totals) {
  auto value_of = [](mapped_amount& m) -> std::optional<quantity>& { return m.value; };
  if (mapping.capacity_key && !mapping.capacity_key->empty()) {
    if (result.consumed_capacity.empty())
      return dra::error{"claim " + std::string(claim) + ", device " + std::string(result.device) +
                            ": no consumed capacity, but capacity key \"" + std::string(*mapping.capacity_key) +
                            "\" maps node resource " + std::string(resource),
                        "", "", errc::invalid_object};
    const quantity* consumed = consumed_amount(result.consumed_capacity, *mapping.capacity_key, result.driver);
    if (consumed == nullptr) return {};
    quantity amount = *consumed;
    if (mapping.capacity_multiplier && *mapping.capacity_multiplier != quantity::from_int(1)) {
      auto product = consumed->mul(*mapping.capacity_multiplier);
      if (!product) return std::move(product).error();
      amount = *product;
    }
    return add_quantity(totals, resource, amount, value_of);
  }
  if (mapping.device_multiplier) return add_quantity(totals, resource, *mapping.device_multiplier, value_of);
  return {};
}

}  // namespace detail

// The status.nodeAllocatableResourceClaimStatuses kube-scheduler records for a pod whose claims are `claims`
// (buildNodeAllocatableDRAInfo): per claim whose allocated devices have nodeAllocatableResources, the mapped amounts
// summed over its devices, the overheads summed likewise, and the pod's containers that reference it (init containers
// first); sorted by claim name. An error where a capacity key maps a device the allocation consumed nothing of.
[[nodiscard]] inline result<std::vector<model::node_allocatable_claim_status>> node_allocatable_statuses(
    const model::pod& pod, std::span<const allocated_claim> claims, allocated_device_lookup find_device) {
  std::vector<model::node_allocatable_claim_status> out;
  for (const allocated_claim& claim : claims) {
    if (claim.allocation == nullptr) continue;
    std::vector<detail::mapped_amount> mapped;
    std::vector<model::node_allocatable_overhead_status> overhead;
    for (const auto& result : claim.allocation->results) {
      const model::device* device = find_device(result);
      if (device == nullptr || !device->node_allocatable_resources) continue;
      for (const auto& [resource, entry] : *device->node_allocatable_resources) {
        if (entry.mapping)
          if (auto st = detail::add_mapping(resource, *entry.mapping, result, claim.name, mapped); !st)
            return std::move(st).error();
        if (!entry.overhead) continue;
        if (entry.overhead->per_pod)
          if (auto st = detail::add_quantity(overhead, resource, *entry.overhead->per_pod,
                                             [](auto& o) -> std::optional<quantity>& { return o.per_pod; });
              !st)
            return std::move(st).error();
        if (entry.overhead->per_container)
          if (auto st = detail::add_quantity(overhead, resource, *entry.overhead->per_container,
                                             [](auto& o) -> std::optional<quantity>& { return o.per_container; });
              !st)
            return std::move(st).error();
      }
    }
    if (mapped.empty() && overhead.empty()) continue;
    model::node_allocatable_claim_status& status = out.emplace_back();
    status.resource_claim_name = claim.name;
    for (const auto& m : mapped) status.mapping.push_back({m.name, *m.value});
    status.overhead = std::move(overhead);
    if (claim.entry.empty()) continue;
    for (const auto* containers : {&pod.init_containers, &pod.containers})
      for (const model::container& c : *containers)
        for (model::text used : c.claims)
          if (used == claim.entry) status.containers.push_back(c.name);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.resource_claim_name < b.resource_claim_name; });
  return out;
}

// What `statuses` add to the pod's requests, in scheduler units (addDRANodeAllocatableClaimResources): each mapped
// amount, and each overhead once per pod plus once per referencing container; summed as quantities first.
[[nodiscard]] inline amounts node_allocatable_amounts(std::span<const model::node_allocatable_claim_status> statuses) {
  std::vector<detail::mapped_amount> sums;
  auto value_of = [](detail::mapped_amount& m) -> std::optional<quantity>& { return m.value; };
  auto add = [&](model::text name, const quantity& q) {
    // Past 38 digits the sum is counted as the most there is.
    if (!detail::add_quantity(sums, name, q, value_of))
      for (auto& sum : sums)
        if (sum.name == name) sum.value = quantity::from_int(std::numeric_limits<std::int64_t>::max());
  };
  for (const auto& status : statuses) {
    for (const auto& [name, q] : status.mapping) add(name, q);
    for (const auto& o : status.overhead) {
      if (o.per_pod) add(o.name, *o.per_pod);
      if (o.per_container && !status.containers.empty())
        if (auto times = o.per_container->mul(static_cast<std::int64_t>(status.containers.size()))) add(o.name, *times);
    }
  }
  amounts out;
  for (const auto& s : sums) out.push_back({s.name, scheduler_units(s.name, *s.value)});
  return out;
}

// The DynamicResources plugin's nodeFitsResources: the pod's requests with its devices' amounts (`total`), on top of
// what the node's pods request, within its allocatable for cpu, memory, ephemeral-storage and hugepages; one reason
// per resource short, in NodeResourcesFit's words ("Insufficient cpu"). A node without allocatable is not limited.
[[nodiscard]] inline std::vector<node_reason> insufficient_node_allocatable(const amounts& total,
                                                                            const model::node& node,
                                                                            const node_usage& usage) {
  std::vector<node_reason> out;
  if (!node.allocatable) return out;
  auto check = [&](std::string_view resource, std::int64_t wanted) {
    if (wanted > 0 && detail::short_of(*node.allocatable, usage, resource, wanted))
      out.push_back({node_reason_code::resources, "Insufficient " + std::string(resource)});
  };
  for (std::string_view native : {"cpu", "memory", "ephemeral-storage"}) check(native, amount_of(total, native));
  for (const auto& [resource, wanted] : total)
    if (resource.starts_with("hugepages-")) check(resource, wanted);
  return out;
}

// validatePodLevelResourcesCoverDRA, for requests: a pod-level request (cpu, memory, hugepages) below what its
// containers and devices (`from_devices`, node_allocatable_amounts) ask together leaves the pod on no node.
[[nodiscard]] inline std::optional<node_reason> pod_level_shortfall(const model::pod& pod, const amounts& from_devices) {
  if (!pod.pod_requests) return std::nullopt;
  amounts containers_and_devices = aggregate_container_requests(pod);
  detail::add_into(containers_and_devices, from_devices);
  for (const auto& [name, q] : *pod.pod_requests) {
    if (!is_pod_level_resource(name)) continue;
    const std::int64_t* asked = model::find(containers_and_devices, name);
    if (asked != nullptr && *asked > scheduler_units(name, q))
      return node_reason{node_reason_code::resources,
                         "pod level request for " + std::string(name) +
                             " is insufficient to cover the aggregated container and node-allocatable DRA requests"};
  }
  return std::nullopt;
}

}  // namespace dra::sched
