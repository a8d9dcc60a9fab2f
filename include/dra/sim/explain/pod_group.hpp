// What `dra explain podgroup/NAME` shows of a PodGroup after a run: its policy, where each of its pods went or why
// none did (a gang's reason first), and the group's claims (to be explained as any claim).
#pragma once

#include <dra/model/scenario.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sim {

struct pod_group_pod {
  std::string pod;                  // "ns/name"
  std::optional<std::string> node;  // where it was placed (or is bound)
  std::string unschedulable;        // when pending and not placed
};

struct pod_group_explanation {
  std::string group;   // "ns/name" as found, or as asked when not found
  bool found = false;
  std::string policy;  // "gang (minCount 4, topology rack)" or "basic"
  std::vector<pod_group_pod> pods;  // the group's pods in input order
  std::vector<std::string> claims;  // the group's claims the run allocated or tried ("ns/name")
};

// `name` is "NAME" or "NAMESPACE/NAME" (a NAME alone matches the first group of that name in any namespace).
[[nodiscard]] inline pod_group_explanation explain_pod_group(const model::scenario& s, const run_report& report,
                                                             std::string_view name) {
  pod_group_explanation out;
  out.group = std::string(name);
  const auto slash = name.find('/');
  std::optional<std::size_t> group;
  for (std::size_t g = 0; g < s.pod_groups.size() && !group; ++g) {
    const auto& meta = s.pod_groups[g].object.meta;
    if (slash == std::string_view::npos ? meta.name == name : model::namespaced_name(meta.namespace_, meta.name) == name)
      group = g;
  }
  if (!group) return out;
  const model::pod_group& pg = s.pod_groups[*group].object;
  out.found = true;
  out.group = model::namespaced_name(pg.meta.namespace_, pg.meta.name);
  if (pg.spec.gang && pg.spec.gang_min_count) {
    out.policy = "gang (minCount " + std::to_string(*pg.spec.gang_min_count);
    if (!pg.spec.topology_keys.empty()) out.policy += ", topology " + std::string(pg.spec.topology_keys.front());
    out.policy += ")";
  } else {
    out.policy = "basic";
  }
  for (std::size_t p = 0; p < s.pods.size(); ++p) {
    const model::pod& pod = s.pods[p].object;
    if (!pod.pod_group_name || *pod.pod_group_name != pg.meta.name || pod.meta.namespace_ != pg.meta.namespace_)
      continue;
    pod_group_pod entry{model::namespaced_name(pod.meta.namespace_, pod.meta.name), std::nullopt, {}};
    if (pod.node_name && !pod.node_name->empty()) entry.node = std::string(*pod.node_name);
    for (const pod_outcome& o : report.pods)
      if (o.pod == p) {
        entry.node = o.node;
        entry.unschedulable = o.unschedulable;
      }
    out.pods.push_back(std::move(entry));
  }
  for (std::size_t i = 0; i < report.subjects.size() && i < report.outcomes.size(); ++i)
    if (report.subjects[i].pod_group == *group &&
        std::find(out.claims.begin(), out.claims.end(), report.outcomes[i].claim) == out.claims.end())
      out.claims.push_back(report.outcomes[i].claim);
  return out;
}

}  // namespace dra::sim
