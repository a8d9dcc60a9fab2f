// The cycle's side of extended resources served through DRA (KEP-5004): which runs of nodes leave the same
// resources to DRA, and the claim kube-scheduler makes for a pod on them.
#pragma once

#include <dra/model/resource_claim.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/extended_resources.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace dra::sched::detail {

// Consecutive nodes of the node list that leave the same of a pod's DRA-served resources to DRA.
struct node_run {
  std::vector<bool> nodes;                      // per node of the list: in this run
  std::vector<sched::dra_resource> left_to_dra;  // empty: device plugins serve them all on these nodes
};

// The node list cut into such runs, in node order (first fit takes the first node that fits, run after run).
[[nodiscard]] inline std::vector<node_run> runs_by_dra_path(std::span<const model::node* const> nodes,
                                                           std::span<const sched::dra_resource> backed) {
  std::vector<node_run> runs;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::vector<sched::dra_resource> left = sched::left_to_dra(*nodes[i], backed);
    if (runs.empty() || runs.back().left_to_dra != left) runs.push_back({std::vector<bool>(nodes.size(), false), std::move(left)});
    runs.back().nodes[i] = true;
  }
  return runs;
}

// The claim for a pod's extended resources as kube-scheduler makes it: `name` in the pod's namespace, annotated as
// such, one ExactCount request per entry of `requests` (the claim views `name` and `requests`).
[[nodiscard]] inline model::resource_claim claim_for_extended_resources(const model::pod& pod, const std::string& name,
                                                                        const sched::extended_claim_requests& requests) {
  model::resource_claim claim;
  claim.meta.name = name;
  claim.meta.namespace_ = pod.meta.namespace_;
  claim.meta.annotations.push_back({sched::extended_resource_claim_annotation, "true"});
  for (const sched::extended_request& r : requests.requests) {
    model::device_request& request = claim.spec.requests.emplace_back();
    request.name = r.name;
    model::exact_device_request& exactly = request.exactly.emplace();
    exactly.device_class_name = r.device_class;
    exactly.mode = model::allocation_mode::exact_count;
    exactly.count = r.count;
  }
  return claim;
}

}  // namespace dra::sched::detail
