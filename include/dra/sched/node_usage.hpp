// What a node's pods already take of its resources: the requests of the pods bound to it that have not finished,
// and of the pods placed on it since, for NodeResourcesFit.
#pragma once

#include <dra/model/workload.hpp>
#include <dra/sched/pod_requests.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dra::sched {

struct node_usage {
  amounts requested;        // the sum of the pods' requests
  non_zero_amounts scored;  // the sum of their cpu and memory as scoring counts them (counted_requests)
  std::int64_t pods = 0;    // how many pods the node runs
  friend bool operator==(const node_usage&, const node_usage&) = default;

  // Adds a pod whose requests are `pod_requests` (pod_requests(pod)) and, as scoring counts them, `counted`
  // (counted_requests(pod, pod_requests); left out by callers that do not score nodes).
  void add(const amounts& pod_requests, const non_zero_amounts& counted = {}) {
    detail::add_into(requested, pod_requests);
    scored.cpu = detail::saturating_add(scored.cpu, counted.cpu);
    scored.memory = detail::saturating_add(scored.memory, counted.memory);
    ++pods;
  }
  // Takes back a pod add() counted with the same amounts (an evicted pod, a nominated pod's reservation).
  void remove(const amounts& pod_requests, const non_zero_amounts& counted = {}) {
    for (const auto& [name, value] : pod_requests) {
      std::int64_t& sum = detail::slot(requested, name);
      sum = detail::saturating_add(sum, -value);
    }
    scored.cpu = detail::saturating_add(scored.cpu, -counted.cpu);
    scored.memory = detail::saturating_add(scored.memory, -counted.memory);
    --pods;
  }
};

// Every node's usage, by node name: the scenario's bound, non-terminal pods counted where they are bound.
class cluster_usage {
 public:
  cluster_usage() = default;
  explicit cluster_usage(std::span<const model::pod* const> pods) {
    for (const model::pod* p : pods)
      if (p->node_name && !p->node_name->empty() && !model::is_terminal(*p)) place(*p->node_name, *p);
  }

  [[nodiscard]] const node_usage& of(std::string_view node) const {
    static const node_usage none;
    const auto it = usage_.find(node);
    return it != usage_.end() ? it->second : none;
  }
  void place(std::string_view node, const model::pod& pod) {
    const amounts requests = pod_requests(pod);
    usage_[node].add(requests, counted_requests(pod, requests));
  }

 private:
  std::unordered_map<std::string_view, node_usage> usage_;
};

}  // namespace dra::sched
