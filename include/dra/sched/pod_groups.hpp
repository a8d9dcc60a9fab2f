// The scenario's PodGroups as the scheduling cycle looks them up: a pod's group by namespace and name, and each
// group's pods in queue order (a gang is placed when the queue reaches its first pod).
#pragma once

#include <dra/model/pod_group.hpp>
#include <dra/model/scenario.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace dra::sched {

class pod_group_index {
 public:
  // The group a pod names: `names_group` false when it names none; `group` unset when the group is not in the scenario.
  struct lookup {
    bool names_group = false;
    std::optional<std::size_t> group;  // index into scenario.pod_groups
  };

  // `queue` holds the pods' indices in queue order.
  pod_group_index(const model::scenario& s, std::span<const std::size_t> queue)
      : s_(&s), members_(s.pod_groups.size()) {
    for (std::size_t g = 0; g < s.pod_groups.size(); ++g)
      by_name_.emplace(std::pair{s.pod_groups[g].object.meta.namespace_, s.pod_groups[g].object.meta.name}, g);
    for (std::size_t p : queue)
      if (const lookup found = of(s.pods[p].object); found.group) members_[*found.group].push_back(p);
  }

  [[nodiscard]] lookup of(const model::pod& pod) const {
    if (!pod.pod_group_name) return {};
    const auto it = by_name_.find(std::pair{pod.meta.namespace_, *pod.pod_group_name});
    return {true, it == by_name_.end() ? std::nullopt : std::optional<std::size_t>(it->second)};
  }
  [[nodiscard]] const model::pod_group& group(std::size_t g) const { return s_->pod_groups[g].object; }
  // The group's pods (every phase), in queue order.
  [[nodiscard]] std::span<const std::size_t> members(std::size_t g) const { return members_[g]; }
  [[nodiscard]] bool is_gang(std::size_t g) const { return group(g).spec.gang && group(g).spec.gang_min_count; }

 private:
  const model::scenario* s_;
  std::map<std::pair<model::text, model::text>, std::size_t> by_name_;
  std::vector<std::vector<std::size_t>> members_;
};

}  // namespace dra::sched
