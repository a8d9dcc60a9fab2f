// The fuzz target of the explain family (`dra explain pod/NAME`, `dra explain` of claims): bytes -> a small cluster
// (cluster_bytes.hpp) run under first fit or best fit; then every pending pod and every claim is explained, and the
// explanation must agree with the run it explains: a placed pod's claims are allocated, on its node, with the run's
// devices, and diagnosed as fitting there against what was allocated before them; a pod refused on N nodes for its
// claims has its claims diagnosed as not fitting on at least N nodes (on every node when all refused it for them); a
// preemption's candidates agree with the node it nominated and the pods it evicted.
#pragma once

#include "run_checks.hpp"

#include <dra/sim/explain/claims.hpp>
#include <dra/sim/explain/pod.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dra_fuzz::explain_family {

constexpr std::string_view fuzzer = "fuzz_explain";
using code = dra::model::explanation_code;

inline const dra::model::claim_outcome* outcome_named(const dra::sim::run_report& report, const std::string& claim) {
  for (const auto& o : report.outcomes)
    if (o.claim == claim) return &o;
  return nullptr;
}

// A claim the run allocated: explained as allocated where the run put it, with its devices, fitting there.
inline void check_allocated(const dra::sim::claim_explanation& e, const dra::model::claim_allocated& allocated) {
  const std::string label = "explain " + e.claim + ": ";
  if (e.status != dra::model::claim_status::allocated || e.node != allocated.node)
    dra_fuzz::fail(fuzzer, label + "says " + std::string(dra::model::name_of(e.status)) + " on " +
                               e.node.value_or("-") + ", the run allocated it on " + allocated.node);
  std::vector<std::pair<std::string, std::string>> devices;
  for (const auto& r : allocated.allocation.results)
    devices.emplace_back(r.request, std::string(r.driver) + "/" + std::string(r.pool) + "/" + std::string(r.device));
  if (e.chosen != devices) dra_fuzz::fail(fuzzer, label + "chose other devices than the run");
  if (e.diagnosis.nodes.size() != 1 || e.diagnosis.nodes.front().verdict != code::fits)
    dra_fuzz::fail(fuzzer,
                   label + "the run's allocation is diagnosed as not fitting on " + allocated.node + ": " +
                       (e.diagnosis.nodes.empty() ? std::string("no node") : e.diagnosis.nodes.front().message));
}

// A pod no node took: the nodes that refused it for its claims are at most those its claims' diagnosis refuses.
inline void check_refused(const dra::sim::pod_outcome& p, const dra::sim::pod_explanation& e) {
  std::size_t for_claims = 0;
  for (const auto& r : p.reasons) for_claims += r.reason.code == dra::model::pod_reason_code::claims ? r.nodes : 0;
  if (for_claims == 0) return;
  for (const auto& claim : e.claims) {
    if (claim.status != dra::model::claim_status::unschedulable) continue;
    std::size_t refusing = 0;
    for (const auto& n : claim.diagnosis.nodes) refusing += n.verdict != code::fits ? 1 : 0;
    if (refusing < for_claims)
      dra_fuzz::fail(fuzzer, "pod " + e.pod + " was refused for its claims on " + std::to_string(for_claims) +
                                 " nodes, explain diagnoses " + claim.claim + " as not fitting on " +
                                 std::to_string(refusing));
    return;
  }
}

// A preemption as explain shows it: its candidates (kept by run_options::keep_preemption_candidates) agree with the
// run's choice: one is not set aside, the nominated node, with the run's victims; the others were set aside by the
// rule that decided or one before it; every victim is of lower priority and says who preempted it; and the nodes
// the dry run counted are the run's nodes.
inline void check_preemption(const dra::model::scenario& s, const dra::sim::run_report& report,
                             const dra::sim::pod_outcome& p, const dra::sim::pod_explanation& e) {
  const std::string label = "explain " + e.pod + "'s preemption: ";
  if (!e.preemption) dra_fuzz::fail(fuzzer, label + "missing");
  const dra::sim::preemption_explanation& x = *e.preemption;
  const dra::model::pod& preemptor = dra::sim::pod_at(s, report, p.pod);
  if (x.candidates.size() != p.preemption->candidates || x.nominated_node != p.preemption->nominated_node)
    dra_fuzz::fail(fuzzer, label + std::to_string(x.candidates.size()) + " candidates kept, the run counted " +
                               std::to_string(p.preemption->candidates));
  std::size_t chosen = 0;
  for (const auto& c : x.candidates) {
    if (c.victims.empty()) dra_fuzz::fail(fuzzer, label + "candidate " + c.node + " without victims");
    for (const auto& v : c.victims)
      if (v.priority >= preemptor.priority) dra_fuzz::fail(fuzzer, label + v.pod + " is no lower priority");
    if (c.set_aside_by) {
      if (*c.set_aside_by > x.rule || x.rule == dra::sched::preemption_rule::only_candidate)
        dra_fuzz::fail(fuzzer, label + c.node + " set aside by " + std::string(dra::sched::rule_name(*c.set_aside_by)) +
                                   ", after the deciding rule " + std::string(dra::sched::rule_name(x.rule)));
      continue;
    }
    ++chosen;
    std::vector<std::string> kept, evicted;
    for (const auto& v : c.victims) kept.push_back(v.pod);
    for (std::size_t v : p.preemption->victims) evicted.push_back(dra::model::namespaced_name(s.pods[v].object.meta));
    if (c.node != x.nominated_node || kept != evicted)
      dra_fuzz::fail(fuzzer, label + "the candidate chosen is not the node nominated with its victims");
  }
  if (chosen != 1) dra_fuzz::fail(fuzzer, label + std::to_string(chosen) + " candidates chosen");
  std::size_t counted = 0;
  for (const auto& r : x.other_nodes) counted += r.nodes;
  const std::size_t nodes = dra::sched::node_list(s).nodes.size();
  if (x.candidates.size() + x.nodes_not_tried > nodes || counted + x.candidates.size() + x.nodes_not_tried < nodes)
    dra_fuzz::fail(fuzzer, label + "the dry run's counts do not cover the " + std::to_string(nodes) + " nodes");
  for (const auto& gone : report.evictions) {
    if (gone.preemptor != p.pod) continue;
    const std::vector<std::string> victim{dra::model::namespaced_name(s.pods[gone.pod].object.meta)};
    const auto said = dra::sim::explain_pods(s, report, dra_fuzz::engine(), dra::alloc::features::all(), victim);
    if (said.front().preempted_by != e.pod)
      dra_fuzz::fail(fuzzer, "explain pod/" + victim.front() + " does not say " + e.pod + " preempted it");
  }
}

template <class Policy>
void check(const dra::model::scenario& s, dra::sim::run_options options) {
  options.keep_preemption_candidates = true;  // what explain runs with; it must not change the answers
  const auto report = dra_fuzz::checked_run<Policy>(fuzzer, s, options);
  if (!report.evictions.empty()) {
    options.keep_preemption_candidates = false;
    const auto plain = dra::sim::run_scenario(s, dra_fuzz::engine(), dra::alloc::features::all(), Policy{}, options);
    if (auto diff = dra_fuzz::difference(dra_fuzz::answer_of(s, report), dra_fuzz::answer_of(s, plain),
                                         "with the candidates kept", "without");
        !diff.empty())
      dra_fuzz::fail(fuzzer, diff);
  }
  const auto features = dra::alloc::features::all();
  for (const auto& p : report.pods) {
    const auto& pod = dra::sim::pod_at(s, report, p.pod);
    const std::vector<std::string> name{dra::model::namespaced_name(pod.meta.namespace_, pod.meta.name)};
    const auto explained = dra::sim::explain_pods(s, report, dra_fuzz::engine(), features, name);
    dra_fuzz::require_json(fuzzer, dra::sim::to_json(explained), "explain's JSON");
    const auto& e = explained.front();
    const auto expected = p.node    ? dra::sim::pod_status::placed
                          : p.gated ? dra::sim::pod_status::gated
                                    : dra::sim::pod_status::unschedulable;
    if (e.status != expected || e.node != p.node || e.unschedulable != p.unschedulable || e.reasons != p.reasons)
      dra_fuzz::fail(fuzzer, "explain pod/" + name.front() + " says " + std::string(dra::sim::name_of(e.status)) +
                                 ", not the run's answer");
    if (!p.node && !pod.pod_group_name) check_refused(p, e);
    if (p.preemption) check_preemption(s, report, p, e);
  }
  for (const auto& e : dra::sim::explain_claims(s, report, dra_fuzz::engine(), features, {})) {
    const auto* o = outcome_named(report, e.claim);
    if (o == nullptr) dra_fuzz::fail(fuzzer, "explain names claim " + e.claim + ", which the run did not decide");
    if (const auto* allocated = o->allocated())
      check_allocated(e, *allocated);
    else if (o->unschedulable() != nullptr && e.status != dra::model::claim_status::unschedulable)
      dra_fuzz::fail(fuzzer, "explain " + e.claim + ": the run refused it, explain says " +
                                 std::string(dra::model::name_of(e.status)));
  }
}

// Draws a cluster (and what the family asks about it) from the bytes and checks the family's commands on it.
inline void run(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::byte_reader in({data, size});
  const dra_fuzz::cluster c = dra_fuzz::draw_cluster(in);
  const auto how = dra_fuzz::draw_run_choice(in);
  const auto doc = dra_fuzz::load_or_fail(fuzzer, dra_fuzz::scenario_text(c), "the drawn cluster");
  dra_fuzz::with_policy(how, [&](auto policy) { check<decltype(policy)>(doc.scenario(), how.options); });
}

}  // namespace dra_fuzz::explain_family
