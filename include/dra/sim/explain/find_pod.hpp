// Finds a scenario's pod by the name a user gives it, as kubectl takes it: "namespace/name", or "name" in the default
// namespace (where a pod written without a namespace is too).
#pragma once

#include <dra/core/result.hpp>
#include <dra/model/scenario.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dra::sim {

// "namespace/name", or "name" in the default namespace, as kubectl takes them.
[[nodiscard]] inline std::string qualified_pod_name(std::string_view name) {
  return name.find('/') == std::string_view::npos ? "default/" + std::string(name) : std::string(name);
}

// The index in s.pods of the pod `name` (kubectl's spelling, see qualified_pod_name), if `s` has it.
[[nodiscard]] inline std::optional<std::size_t> pod_index(const model::scenario& s, std::string_view name) {
  const auto slash = name.find('/');
  const std::string_view namespace_ = slash == std::string_view::npos ? "default" : name.substr(0, slash);
  const std::string_view pod_name = slash == std::string_view::npos ? name : name.substr(slash + 1);
  for (std::size_t i = 0; i < s.pods.size(); ++i) {
    const model::object_meta& meta = s.pods[i].object.meta;
    if (meta.name == pod_name &&
        (meta.namespace_.empty() ? std::string_view("default") : meta.namespace_) == namespace_)
      return i;
  }
  return std::nullopt;
}

// The pod `name` (as pod_index takes it) of `s`; an error naming it when `s` has none.
[[nodiscard]] inline result<const model::located<model::pod>*> find_pod(const model::scenario& s,
                                                                        std::string_view name) {
  if (const auto index = pod_index(s, name)) return &s.pods[*index];
  return dra::error{"pod " + std::string(name) + " not found", "", "", errc::not_found};
}

}  // namespace dra::sim
