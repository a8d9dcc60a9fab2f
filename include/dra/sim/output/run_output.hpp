// A scenario run as the dra command prints it: the claims' results and, when the scenario has pending pods, what
// became of each pod ({"results": [...], "pods": [...]}).
#pragma once

#include <dra/json/emit.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dra::sim {

// Nodes counted by reason, as an array: [{"code", "nodes", "message"}].
inline void write_reasons(json::writer& w, const std::vector<sched::reason_count>& reasons) {
  w.begin_array();
  for (const auto& r : reasons)
    w.begin_object()
        .field("code", model::name_of(r.reason.code))
        .field("nodes", static_cast<std::int64_t>(r.nodes))
        .field("message", r.reason.message)
        .end_object();
  w.end_array();
}

// A refused pod's `explanation`: {"nodes": N, "reasons": [{"code", "nodes", "message"}]}.
inline void write_reason_counts(json::writer& w, std::size_t nodes, const std::vector<sched::reason_count>& reasons) {
  w.key("explanation").begin_object().field("nodes", static_cast<std::int64_t>(nodes)).key("reasons");
  write_reasons(w, reasons);
  w.end_object();
}

// A pod outcome's `unschedulable` text and `explanation` (how many nodes gave each reason), when no node took it.
inline void write_pod_refusal(json::writer& w, const pod_outcome& p) {
  if (p.node) return;
  w.field("unschedulable", p.unschedulable);
  if (!p.reasons.empty()) write_reason_counts(w, p.nodes, p.reasons);
}

// The pods preemption evicted for one pod, "namespace/name" sorted.
[[nodiscard]] inline std::vector<std::string> victim_names(const model::scenario& s, const pod_preemption& preemption) {
  std::vector<std::string> out;
  for (std::size_t v : preemption.victims) out.push_back(model::namespaced_name(s.pods[v].object.meta));
  std::sort(out.begin(), out.end());
  return out;
}

// One `pods` entry: {"pod": "ns/name", "node": "node-b"}, or node null with kube-scheduler's `unschedulable` text and
// an `explanation` counting the nodes that gave each reason. A pod preemption nominated a node for keeps its first
// attempt's answer (node null) and adds `nominatedNode`, its `victims` (`pdbViolations`: how many of them a
// PodDisruptionBudget protected, when any) and its `retry` ({"node"} or {"unschedulable"}) once they were gone.
inline void write_pod_outcome(json::writer& w, const model::scenario& s, const run_report& report, const pod_outcome& p) {
  const model::pod& pod = pod_at(s, report, p.pod);
  w.begin_object().field("pod", model::namespaced_name(pod.meta.namespace_, pod.meta.name));
  w.key("node");
  if (p.node && !p.preemption)
    w.string(*p.node);
  else
    w.null();
  if (p.preemption) {
    w.field("unschedulable", p.unschedulable);
    if (!p.reasons.empty()) write_reason_counts(w, p.nodes, p.reasons);
    w.field("nominatedNode", p.preemption->nominated_node).key("victims").begin_array();
    for (const std::string& victim : victim_names(s, *p.preemption)) w.string(victim);
    w.end_array();
    if (p.preemption->pdb_violations > 0)
      w.key("pdbViolations").integer(static_cast<std::int64_t>(p.preemption->pdb_violations));
    w.key("retry").begin_object();
    if (p.preemption->retry_node)
      w.field("node", *p.preemption->retry_node);
    else
      w.field("unschedulable", p.preemption->retry_unschedulable);
    w.end_object();
  } else {
    write_pod_refusal(w, p);
  }
  w.end_object();
}

// A pod preemption evicted: {"pod": "ns/name", "node": null, "preemptedBy": "ns/preemptor"}.
inline void write_eviction(json::writer& w, const model::scenario& s, const run_report& report, const eviction& e) {
  const model::pod& preemptor = pod_at(s, report, e.preemptor);
  w.begin_object()
      .field("pod", model::namespaced_name(s.pods[e.pod].object.meta))
      .key("node")
      .null()
      .field("preemptedBy", model::namespaced_name(preemptor.meta))
      .end_object();
}

// The output document of a run over `s`: `results` as json::output_document writes them, then `pods` when the
// scenario had pending pods.
[[nodiscard]] inline std::string output_document(const model::scenario& s, const run_report& report, int indent = 2) {
  json::writer w(indent);
  w.begin_object();
  json::write_results(w, report.outcomes);
  if (!report.pods.empty()) {
    w.key("pods").begin_array();
    for (const auto& p : report.pods) write_pod_outcome(w, s, report, p);
    for (const auto& e : report.evictions) write_eviction(w, s, report, e);
    w.end_array();
  }
  w.end_object();
  std::string out = std::move(w).str();
  if (indent > 0) out += '\n';
  return out;
}

}  // namespace dra::sim
