// Which nodes a pending pod may run on before its claims are tried: kube-scheduler's pre-filters and filters over
// the scenario's nodes, with the reasons of the nodes that refuse it.
#pragma once

#include <dra/alloc/node_match.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_usage.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace dra::sim::detail {

// DynamicResources' reason for a node where a claim the pod uses is allocated elsewhere.
inline constexpr std::string_view claim_elsewhere_reason = "resourceclaim not available on the node";

struct pod_nodes {
  std::vector<bool> feasible;                         // per node of the list: passed every filter so far
  std::vector<std::vector<sched::node_reason>> refused;  // the reasons of each node that refused the pod
  std::string pre_filter_failure;                     // set: the pod was refused before any node was filtered
  [[nodiscard]] bool any_feasible() const noexcept {
    return std::find(feasible.begin(), feasible.end(), true) != feasible.end();
  }
};

// Runs the node filters for `pod` (whose requests are `requests`) on each node, `usage[i]` being what node i's pods
// take already; `allocated` are the node selectors of the claims the pod uses that are allocated already: a node
// outside one of them refuses the pod as DynamicResources' filter does.
[[nodiscard]] inline pod_nodes filter_pod_nodes(const model::pod& pod, const sched::amounts& requests,
                                                std::span<const model::node* const> nodes,
                                                std::span<const sched::node_usage> usage,
                                                std::span<const model::node_selector* const> allocated) {
  pod_nodes out;
  out.feasible.assign(nodes.size(), false);
  const auto named = sched::affinity_node_names(pod);
  if (named && named->empty()) {
    out.pre_filter_failure = sched::affinity_conflict_reason;
    return out;
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const model::node& node = *nodes[i];
    if (named && !std::binary_search(named->begin(), named->end(), node.meta.name)) {
      out.refused.push_back({{sched::node_reason_code::node_affinity, std::string(sched::outside_affinity_names_reason)}});
      continue;
    }
    auto reasons = sched::filter_node(pod, requests, node, usage[i]);
    if (reasons.empty())
      for (const model::node_selector* selector : allocated) {
        const auto matches = alloc::node_selector_matches(*selector, node);
        if (!matches || !*matches) {
          reasons.push_back({sched::node_reason_code::claims, std::string(claim_elsewhere_reason)});
          break;
        }
      }
    if (reasons.empty())
      out.feasible[i] = true;
    else
      out.refused.push_back(std::move(reasons));
  }
  return out;
}

}  // namespace dra::sim::detail
