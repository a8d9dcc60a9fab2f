// A kube-scheduler profile's scoring (KubeSchedulerConfiguration, kubescheduler.config.k8s.io/v1), as values: the
// weights of the score plugins dra models and how NodeResourcesFit and BalancedAllocation score resources.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace dra::model {

// A resource a scorer counts, with its weight in the weighted mean (ResourceSpec).
struct resource_weight {
  std::string name;
  std::int64_t weight = 1;
  friend bool operator==(const resource_weight&, const resource_weight&) = default;
};

// What NodeResourcesFit and BalancedAllocation count when a profile names no resources: cpu and memory, weight 1.
[[nodiscard]] inline std::vector<resource_weight> default_scored_resources() { return {{"cpu", 1}, {"memory", 1}}; }

// A point of RequestedToCapacityRatio's shape: the score (0-10) at a utilization (0-100 per cent).
struct utilization_shape_point {
  std::int64_t utilization = 0;
  std::int64_t score = 0;
  friend bool operator==(const utilization_shape_point&, const utilization_shape_point&) = default;
};

// NodeResourcesFit's scoring strategies (scoringStrategy.type).
struct least_allocated {  // the share left free: spreads pods
  friend bool operator==(const least_allocated&, const least_allocated&) = default;
};
struct most_allocated {  // the share in use: packs pods
  friend bool operator==(const most_allocated&, const most_allocated&) = default;
};
struct requested_to_capacity_ratio {  // the share in use through a broken-line function
  std::vector<utilization_shape_point> shape;
  friend bool operator==(const requested_to_capacity_ratio&, const requested_to_capacity_ratio&) = default;
};
using scoring_strategy = std::variant<least_allocated, most_allocated, requested_to_capacity_ratio>;

// NodeResourcesFit's scoring (NodeResourcesFitArgs.scoringStrategy); the default is kube-scheduler's.
struct resources_fit_scoring {
  scoring_strategy strategy{};
  std::vector<resource_weight> resources = default_scored_resources();
  friend bool operator==(const resources_fit_scoring&, const resources_fit_scoring&) = default;
};

// The weights of the score plugins dra models; 0 for one the profile does not score. The defaults are the default
// profile's (apis/config/v1 default_plugins.go: DynamicResources weighs 2 in 1.36 and 1.37).
struct score_weights {
  std::int64_t taint_toleration = 3;
  std::int64_t node_affinity = 2;
  std::int64_t resources_fit = 1;
  std::int64_t balanced_allocation = 1;
  std::int64_t dynamic_resources = 2;
  friend bool operator==(const score_weights&, const score_weights&) = default;
};

// One profile's scoring; default-constructed, the default profile's.
struct scheduler_profile {
  std::string scheduler_name = "default-scheduler";
  score_weights weights{};
  resources_fit_scoring fit{};
  std::vector<resource_weight> balanced_resources = default_scored_resources();  // BalancedAllocation's `resources`
  friend bool operator==(const scheduler_profile&, const scheduler_profile&) = default;
};

}  // namespace dra::model
