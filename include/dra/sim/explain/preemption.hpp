// What `dra explain pod/NAME` says of a pod's preemption: each candidate node DefaultPreemption's dry run found, the
// pods it would evict there, the rule that chose the nominated node and set each other one aside, and what the dry
// run said of the nodes that were no candidate.
#pragma once

#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/preemption.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sim/output/run_output.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dra::sim {

struct victim_explanation {
  std::string pod;  // namespace/name
  std::int32_t priority = 0;
};

struct preemption_candidate_explanation {
  std::string node;
  std::vector<victim_explanation> victims;  // the most important first
  std::size_t pdb_violations = 0;
  std::optional<sched::preemption_rule> set_aside_by;  // none: the nominated node
};

struct preemption_explanation {
  std::string nominated_node;
  sched::preemption_rule rule = sched::preemption_rule::only_candidate;
  std::vector<preemption_candidate_explanation> candidates;  // in node order
  std::vector<sched::reason_count> other_nodes;              // why the other nodes were no candidate
  std::size_t nodes_not_tried = 0;  // left untried once the dry run had found enough candidates
  std::optional<std::string> retry_node;
  std::string retry_unschedulable;
};

// The explanation of `p` (a run's preemption of a pod of `s`; its candidates kept with
// run_options::keep_preemption_candidates, else the nominated node alone).
[[nodiscard]] inline preemption_explanation explain_preemption(const model::scenario& s,
                                                               const sched::pod_preemption& p) {
  auto victims_of = [&s](const std::vector<std::size_t>& pods) {
    std::vector<victim_explanation> out;
    for (std::size_t v : pods)
      out.push_back({model::namespaced_name(s.pods[v].object.meta), s.pods[v].object.priority});
    return out;
  };
  preemption_explanation out;
  out.nominated_node = p.nominated_node;
  out.rule = p.rule;
  out.other_nodes = p.other_nodes;
  out.nodes_not_tried = p.nodes_not_tried;
  out.retry_node = p.retry_node;
  out.retry_unschedulable = p.retry_unschedulable;
  for (const sched::preemption_option& c : p.candidate_nodes)
    out.candidates.push_back({c.node, victims_of(c.victims), c.pdb_violations, c.set_aside_by});
  if (out.candidates.empty()) out.candidates.push_back({p.nominated_node, victims_of(p.victims), p.pdb_violations, {}});
  return out;
}

// {"nominatedNode", "rule", "candidates": [{"node", "victims": [{"pod", "priority"}], "pdbViolations", "setAsideBy"}],
// "otherNodes": [{"code", "nodes", "message"}], "nodesNotTried", "retry": {"node"} or {"unschedulable"}}; `rule` and
// `setAsideBy` as sched::rule_key names them, `setAsideBy` absent for the nominated node.
inline void write_preemption_explanation(json::writer& w, const preemption_explanation& e) {
  w.key("preemption").begin_object().field("nominatedNode", e.nominated_node).field("rule", sched::rule_key(e.rule));
  w.key("candidates").begin_array();
  for (const auto& c : e.candidates) {
    w.begin_object().field("node", c.node).key("victims").begin_array();
    for (const auto& v : c.victims)
      w.begin_object().field("pod", v.pod).field("priority", std::int64_t{v.priority}).end_object();
    w.end_array().field("pdbViolations", static_cast<std::int64_t>(c.pdb_violations));
    if (c.set_aside_by) w.field("setAsideBy", sched::rule_key(*c.set_aside_by));
    w.end_object();
  }
  w.end_array().key("otherNodes");
  write_reasons(w, e.other_nodes);
  w.field("nodesNotTried", static_cast<std::int64_t>(e.nodes_not_tried)).key("retry").begin_object();
  if (e.retry_node)
    w.field("node", *e.retry_node);
  else
    w.field("unschedulable", e.retry_unschedulable);
  w.end_object().end_object();
}

}  // namespace dra::sim
