// What `dra explain pod/NAME` computes: a pod's answer in a run (its node, or kube-scheduler's refusal with the
// nodes counted by reason; the preemption that made room for it, or evicted it) and the explanations of the claims
// its unit of work allocated or tried.
#pragma once

#include <dra/json/writer.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sim/explain/claims.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/explain/preemption.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/runner.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sim {

// What a named pod was to the run: pending and placed, pending and refused, held back by its gates, not pending
// (bound to a node or finished: the run does not schedule it), or absent.
enum class pod_status : std::uint8_t { placed, unschedulable, gated, not_pending, not_found };

[[nodiscard]] constexpr std::string_view name_of(pod_status s) noexcept {
  switch (s) {
    case pod_status::placed: return "placed";
    case pod_status::unschedulable: return "unschedulable";
    case pod_status::gated: return "scheduling gated";
    case pod_status::not_pending: return "not pending";
    case pod_status::not_found: return "not found";
  }
  return "";
}

struct pod_explanation {
  std::string pod;  // namespace/name
  pod_status status = pod_status::not_found;
  std::optional<std::string> node;            // placed: where; not pending: its spec.nodeName, if any
  std::string unschedulable;                  // kube-scheduler's text, when not placed
  std::size_t nodes = 0;                      // the nodes it was tried on
  std::vector<sched::reason_count> reasons;   // how many nodes gave each reason
  std::vector<claim_explanation> claims;      // the claims of its unit of work
  std::optional<preemption_explanation> preemption;  // the node preemption nominated it and why that one
  std::optional<std::string> preempted_by;           // the pod whose preemption evicted it (namespace/name)
};

// Explains the pods `names` (kubectl's spelling, see qualified_pod_name) of a run of `s` that produced `report`.
template <alloc::selector_engine Engine>
[[nodiscard]] std::vector<pod_explanation> explain_pods(const model::scenario& s, const run_report& report,
                                                        const Engine& engine, alloc::features features,
                                                        std::span<const std::string> names) {
  std::vector<pod_explanation> out;
  for (const std::string& name : names) {
    pod_explanation& e = out.emplace_back();
    e.pod = qualified_pod_name(name);
    const std::optional<std::size_t> index = pod_index(s, name);
    if (!index) continue;
    e.status = pod_status::not_pending;
    if (const auto& bound = s.pods[*index].object.node_name) e.node = std::string(*bound);
    for (const pod_outcome& p : report.pods) {
      if (p.pod != *index) continue;
      e.status = p.node ? pod_status::placed : p.gated ? pod_status::gated : pod_status::unschedulable;
      e.node = p.node;
      e.unschedulable = p.unschedulable;
      e.nodes = p.nodes;
      e.reasons = p.reasons;
      if (p.preemption) e.preemption = explain_preemption(s, *p.preemption);
    }
    for (const eviction& gone : report.evictions)
      if (gone.pod == *index) e.preempted_by = model::namespaced_name(pod_at(s, report, gone.preemptor).meta);
    std::vector<std::string> claims;
    for (std::size_t i = 0; i < report.outcomes.size(); ++i)
      if (report.subjects[i].pod == index) claims.push_back(report.outcomes[i].claim);
    if (!claims.empty()) e.claims = explain_claims(s, report, engine, features, claims);
  }
  return out;
}

// {"pods": [{"pod", "status", "node", "unschedulable", "explanation": {"nodes", "reasons": [{"code", "nodes",
// "message"}]}, "preemption": {as write_preemption_explanation writes it}, "preemptedBy", "claims": [as to_json's]}]};
// `claims`, when given, first as to_json writes them.
[[nodiscard]] inline std::string to_json(const std::vector<pod_explanation>& pods,
                                         const std::vector<claim_explanation>* claims = nullptr) {
  json::writer w(2);
  w.begin_object();
  if (claims != nullptr) {
    w.key("claims").begin_array();
    for (const auto& c : *claims) detail::write_claim_explanation(w, c);
    w.end_array();
  }
  w.key("pods").begin_array();
  for (const auto& e : pods) {
    w.begin_object().field("pod", e.pod).field("status", name_of(e.status));
    if (e.node) w.field("node", *e.node);
    if (!e.unschedulable.empty()) w.field("unschedulable", e.unschedulable);
    if (!e.reasons.empty()) write_reason_counts(w, e.nodes, e.reasons);
    if (e.preemption) write_preemption_explanation(w, *e.preemption);
    if (e.preempted_by) w.field("preemptedBy", *e.preempted_by);
    w.key("claims").begin_array();
    for (const auto& c : e.claims) detail::write_claim_explanation(w, c);
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return std::move(w).str() + "\n";
}

}  // namespace dra::sim
