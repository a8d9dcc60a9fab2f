// A scenario run as the dra command prints it: the claims' results and, when the scenario has pending pods, what
// became of each pod ({"results": [...], "pods": [...]}).
#pragma once

#include <dra/json/emit.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sim/runner.hpp>

#include <cstdint>
#include <string>

namespace dra::sim {

// A refused pod's `explanation`: {"nodes": N, "reasons": [{"code", "nodes", "message"}]}.
inline void write_reason_counts(json::writer& w, std::size_t nodes, const std::vector<sched::reason_count>& reasons) {
  w.key("explanation").begin_object().field("nodes", static_cast<std::int64_t>(nodes)).key("reasons").begin_array();
  for (const auto& r : reasons)
    w.begin_object()
        .field("code", model::name_of(r.reason.code))
        .field("nodes", static_cast<std::int64_t>(r.nodes))
        .field("message", r.reason.message)
        .end_object();
  w.end_array().end_object();
}

// A pod outcome's `unschedulable` text and `explanation` (how many nodes gave each reason), when no node took it.
inline void write_pod_refusal(json::writer& w, const pod_outcome& p) {
  if (p.node) return;
  w.field("unschedulable", p.unschedulable);
  if (!p.reasons.empty()) write_reason_counts(w, p.nodes, p.reasons);
}

// One `pods` entry: {"pod": "ns/name", "node": "node-b"}, or node null with kube-scheduler's `unschedulable` text and
// an `explanation` counting the nodes that gave each reason.
inline void write_pod_outcome(json::writer& w, const model::scenario& s, const run_report& report, const pod_outcome& p) {
  const model::pod& pod = pod_at(s, report, p.pod);
  w.begin_object().field("pod", model::namespaced_name(pod.meta.namespace_, pod.meta.name));
  w.key("node");
  if (p.node)
    w.string(*p.node);
  else
    w.null();
  write_pod_refusal(w, p);
  w.end_object();
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
    w.end_array();
  }
  w.end_object();
  std::string out = std::move(w).str();
  if (indent > 0) out += '\n';
  return out;
}

}  // namespace dra::sim
