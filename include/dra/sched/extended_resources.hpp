// Extended resources served through DRA (KEP-5004): which DeviceClass serves a resource a pod requests in its
// containers, which nodes leave it to DRA, and the requests of the claim kube-scheduler makes for it there.
#pragma once

#include <dra/model/device_class.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/pod_requests.hpp>
#include <dra/validate/device_class.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sched {

// Every DeviceClass serves the resource named by this prefix and its own name.
inline constexpr std::string_view implicit_class_resource_prefix = "deviceclass.resource.kubernetes.io/";
// The annotation upstream puts on the claim it makes for a pod's extended resources.
inline constexpr std::string_view extended_resource_claim_annotation = "resource.kubernetes.io/extended-resource-claim";
// The suffix of that claim's name after the pod's (Kubernetes adds a random part after it; dra does not).
inline constexpr std::string_view extended_resource_claim_suffix = "-extended-resources";

// IsDRAExtendedResourceName: an extended resource name, or a class's implicit name.
[[nodiscard]] inline bool is_dra_extended_resource_name(std::string_view resource) {
  return resource.starts_with(implicit_class_resource_prefix) || validate::is_extended_resource_name(resource);
}

// The class that serves `resource`: the one its implicit name names, else among the classes whose
// extendedResourceName it is the one created last, the first by name among equals (the API's tie-break).
[[nodiscard]] inline const model::device_class* class_serving(std::span<const model::device_class* const> classes,
                                                              std::string_view resource) {
  if (resource.starts_with(implicit_class_resource_prefix)) {
    const std::string_view name = resource.substr(implicit_class_resource_prefix.size());
    const auto named = std::find_if(classes.begin(), classes.end(),
                                    [&](const model::device_class* c) { return c->meta.name == name; });
    return named != classes.end() ? *named : nullptr;
  }
  const model::device_class* best = nullptr;
  for (const model::device_class* c : classes) {
    if (!c->extended_resource_name || *c->extended_resource_name != resource) continue;
    if (best == nullptr || c->meta.creation_timestamp > best->meta.creation_timestamp ||
        (c->meta.creation_timestamp == best->meta.creation_timestamp && c->meta.name < best->meta.name))
      best = c;
  }
  return best;
}

// A resource a pod requests that a DeviceClass serves.
struct dra_resource {
  std::string name;
  const model::device_class* device_class = nullptr;
  friend bool operator==(const dra_resource&, const dra_resource&) = default;
};

// The resources among `requests` (pod_requests of the pod) that a class serves, by name.
[[nodiscard]] inline std::vector<dra_resource> dra_backed_resources(const amounts& requests,
                                                                    std::span<const model::device_class* const> classes) {
  std::vector<dra_resource> out;
  if (classes.empty()) return out;
  for (const auto& [name, amount] : requests) {
    if (amount == 0 || !is_dra_extended_resource_name(name)) continue;
    if (const model::device_class* c = class_serving(classes, name)) out.push_back({std::string(name), c});
  }
  return out;
}

// ShouldDelegateResourceToDRA, for a resource a class serves: the node's allocatable has none of it (absent, or 0),
// so no device plugin serves it there and NodeResourcesFit leaves it to DynamicResources.
[[nodiscard]] inline bool left_to_dra(const model::node& node, std::string_view resource) {
  if (!node.allocatable) return true;
  const quantity* offered = model::find(*node.allocatable, resource);
  return offered == nullptr || offered->is_zero();
}

// The resources of `backed` the node leaves to DRA, in the same order.
[[nodiscard]] inline std::vector<dra_resource> left_to_dra(const model::node& node, std::span<const dra_resource> backed) {
  std::vector<dra_resource> out;
  for (const dra_resource& r : backed)
    if (left_to_dra(node, r.name)) out.push_back(r);
  return out;
}

// One request of the extended-resource claim: ExactCount devices of the class.
struct extended_request {
  std::string name;  // container-<i>-request-<j>
  std::string device_class;
  std::int64_t count = 0;
  friend bool operator==(const extended_request&, const extended_request&) = default;
};

// Which request serves a container's resource (core/v1 ContainerExtendedResourceRequest).
struct extended_mapping {
  std::string container;
  std::string resource;
  std::string request;
  friend bool operator==(const extended_mapping&, const extended_mapping&) = default;
};

struct extended_claim_requests {
  std::vector<extended_request> requests;  // sorted by name
  std::vector<extended_mapping> mappings;  // per resource (by name): long-lived containers', then init containers'
  friend bool operator==(const extended_claim_requests&, const extended_claim_requests&) = default;
};

namespace detail {

// A container's request for `resource` as a whole number (the API server defaults a request to its limit); nullopt
// when absent, zero or fractional.
inline std::optional<std::int64_t> whole_request(const model::container& c, std::string_view resource) {
  const quantity* q = model::find(c.requests, resource);
  if (q == nullptr) q = model::find(c.limits, resource);
  if (q == nullptr) return std::nullopt;
  const auto whole = q->as_int64();
  if (!whole || *whole == 0) return std::nullopt;
  return whole;
}

// `resource`'s position among the names of everything the container requests, sorted (cpu and memory count).
inline std::size_t request_position(const model::container& c, std::string_view resource) {
  std::vector<std::string_view> names;
  for (const auto& entry : c.requests) names.push_back(entry.name);
  for (const auto& entry : c.limits)
    if (model::find(c.requests, entry.name) == nullptr) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), resource) - names.begin());
}

}  // namespace detail

// The requests and container mappings of the claim made for the resources `on_dra_path` (upstream's
// createRequestsAndMappings): containers are numbered init containers first. Each long-lived container (regular,
// or sidecar) asking for a resource gets its own request; a regular init container first uses the requests of the
// long-lived containers after it, then asks for the rest, and of those rests only the largest is kept (they never
// run at once), the others' mappings pointing to it.
[[nodiscard]] inline extended_claim_requests extended_claim_for(const model::pod& pod,
                                                                std::span<const dra_resource> on_dra_path) {
  std::vector<const model::container*> containers;
  for (const auto& c : pod.init_containers) containers.push_back(&c);
  for (const auto& c : pod.containers) containers.push_back(&c);
  const std::size_t inits = pod.init_containers.size();
  auto long_lived = [&](std::size_t i) { return i >= inits || containers[i]->sidecar; };
  auto request_name = [&](std::size_t i, std::string_view resource) {
    return "container-" + std::to_string(i) + "-request-" +
           std::to_string(detail::request_position(*containers[i], resource));
  };
  std::vector<dra_resource> resources(on_dra_path.begin(), on_dra_path.end());
  std::sort(resources.begin(), resources.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  extended_claim_requests out;
  for (const dra_resource& r : resources) {
    const std::string device_class(r.device_class->meta.name);
    std::vector<std::optional<extended_request>> own(containers.size());  // long-lived containers' requests
    std::vector<extended_mapping> long_mappings, short_mappings;
    for (std::size_t i = 0; i < containers.size(); ++i) {
      if (!long_lived(i)) continue;
      const auto count = detail::whole_request(*containers[i], r.name);
      if (!count) continue;
      own[i] = extended_request{request_name(i, r.name), device_class, *count};
      long_mappings.push_back({std::string(containers[i]->name), r.name, own[i]->name});
    }
    std::optional<extended_request> largest_rest;
    std::vector<std::string> rest_names;
    for (std::size_t i = 0; i < containers.size(); ++i) {
      if (long_lived(i)) continue;
      const auto need = detail::whole_request(*containers[i], r.name);
      if (!need) continue;
      std::int64_t covered = 0;
      for (std::size_t later = i; later < containers.size() && covered < *need; ++later) {
        if (!own[later]) continue;
        covered += own[later]->count;
        short_mappings.push_back({std::string(containers[i]->name), r.name, own[later]->name});
      }
      if (covered >= *need) continue;
      extended_request rest{request_name(i, r.name), device_class, *need - covered};
      short_mappings.push_back({std::string(containers[i]->name), r.name, rest.name});
      rest_names.push_back(rest.name);
      if (!largest_rest || largest_rest->count < rest.count) largest_rest = std::move(rest);
    }
    if (largest_rest) {
      for (auto& m : short_mappings)
        if (std::find(rest_names.begin(), rest_names.end(), m.request) != rest_names.end()) m.request = largest_rest->name;
      out.requests.push_back(*largest_rest);
    }
    for (auto& request : own)
      if (request) out.requests.push_back(std::move(*request));
    out.mappings.insert(out.mappings.end(), long_mappings.begin(), long_mappings.end());
    out.mappings.insert(out.mappings.end(), short_mappings.begin(), short_mappings.end());
  }
  std::stable_sort(out.requests.begin(), out.requests.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace dra::sched
