// What `dra explain` computes: for named claims of a run, the whole funnel on every node tried — why unschedulable
// claims fit nowhere, and for allocated ones which candidates were passed over on their node and for what.
#pragma once

#include <dra/json/writer.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <deque>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sim {

struct claim_explanation {
  std::string claim;
  model::claim_status status = model::claim_status::not_found;
  std::optional<std::string> node;
  std::vector<std::pair<std::string, std::string>> chosen;  // request, driver/pool/device
  std::optional<model::explanation> summary;                // unschedulable: the grouped reasons
  std::string error;
  sched::unit_diagnosis diagnosis;  // every node tried (allocated: the node it got), devices included
};

namespace detail {

// The claim the run's outcome `at` is about: one of the scenario's, or one the run made from a template; nullptr
// for a template that does not exist.
[[nodiscard]] inline const model::resource_claim* claim_of(const model::scenario& s, const run_report& report,
                                                           std::size_t at) {
  const outcome_subject& subject = report.subjects[at];
  if (subject.claim) return &s.claims[*subject.claim].object;
  if (subject.generated) return &report.generated[*subject.generated].claim;
  return nullptr;
}

// The outcomes of the unit the outcome `at` belongs to: its pod's pending claims, which the run allocated together
// (and so reported one after another), or the claim alone when no pod asked for it.
[[nodiscard]] inline std::vector<std::size_t> unit_of(const run_report& report, std::size_t at) {
  const auto pod = report.subjects[at].pod;
  if (!pod) return {at};
  std::size_t first = at, last = at + 1;
  while (first > 0 && report.subjects[first - 1].pod == pod) --first;
  while (last < report.subjects.size() && report.subjects[last].pod == pod) ++last;
  std::vector<std::size_t> unit(last - first);
  std::iota(unit.begin(), unit.end(), first);
  return unit;
}

// The node a pod names in spec.nodeName (one of the scenario's, else a bare node of that name kept in `made`), or
// nullptr.
[[nodiscard]] inline const model::node* pinned_node(const model::scenario& s, std::optional<std::size_t> pod,
                                                    const sched::node_list& nodes, std::deque<model::node>& made) {
  if (!pod || *pod >= s.pods.size() || !s.pods[*pod].object.node_name) return nullptr;  // pods placed after the run name none
  return nodes.named(*s.pods[*pod].object.node_name, made);
}

// For a name no claim has: the claims the run made from templates whose name is `name`, a hyphen and the API
// server's five characters (a user naming such a claim by its pod and entry), as a hint; empty when none.
[[nodiscard]] inline std::string made_as(const run_report& report, std::string_view name) {
  std::string out;
  for (const auto& g : report.generated) {
    const std::string made = model::namespaced_name(g.claim.meta);
    if (made.size() == name.size() + 6 && made.starts_with(name) && made[name.size()] == '-')
      out += (out.empty() ? "claims made from templates end in five characters of their own: did you mean " : ", ") +
             made;
  }
  return out.empty() ? out : out + "?";
}

}  // namespace detail

// Explains `names` ("namespace/name"; every pending claim when empty) of a run of `s` that produced `report`.
// Each claim is diagnosed against what was allocated before its unit, as the run saw it.
template <alloc::selector_engine Engine>
[[nodiscard]] std::vector<claim_explanation> explain_claims(const model::scenario& s, const run_report& report,
                                                            const Engine& engine, alloc::features features,
                                                            std::span<const std::string> names) {
  std::vector<const model::device_class*> classes;
  for (const auto& c : s.classes) classes.push_back(&c.object);
  std::vector<const model::resource_slice*> slices;
  for (const auto& sl : s.slices) slices.push_back(&sl.object);
  std::vector<const model::device_taint_rule*> rules;
  for (const auto& r : s.taint_rules) rules.push_back(&r.object);
  sched::node_list nodes(s);
  std::vector<std::string> wanted(names.begin(), names.end());
  if (wanted.empty())
    for (const auto& o : report.outcomes) wanted.push_back(o.claim);
  std::vector<claim_explanation> out;
  for (const auto& name : wanted) {
    claim_explanation e;
    e.claim = name;
    std::size_t at = report.outcomes.size();
    for (std::size_t i = 0; i < report.outcomes.size(); ++i)
      if (report.outcomes[i].claim == name) at = i;
    if (at == report.outcomes.size()) {
      const bool exists =
          std::ranges::any_of(s.claims, [&](const auto& c) { return alloc::object_name(c.object.meta) == name; });
      e.status = exists ? model::claim_status::already_allocated : model::claim_status::not_found;
      if (!exists) e.error = detail::made_as(report, name);
      out.push_back(std::move(e));
      continue;
    }
    const model::claim_outcome& o = report.outcomes[at];
    if (detail::claim_of(s, report, at) == nullptr) {  // its pod names a template that does not exist
      e.status = model::claim_status::error;
      if (const auto* failure = o.error()) e.error = failure->to_string();
      out.push_back(std::move(e));
      continue;
    }
    const model::claim_allocated* allocated = o.allocated();
    const std::vector<std::size_t> unit =
        allocated != nullptr ? std::vector<std::size_t>{at} : detail::unit_of(report, at);
    // What was allocated before: the scenario's own allocations (but those preemption released before the unit),
    // then the run's, up to this claim's unit.
    const std::size_t before = unit.front();
    alloc::ledger state;
    for (std::size_t c = 0; c < s.claims.size(); ++c)
      if (const auto& claim = s.claims[c].object; claim.allocation && !sched::released_before(report, c, before))
        state.add(*claim.allocation, alloc::object_name(claim.meta));
    for (std::size_t i = 0; i < before; ++i)
      if (const auto* earlier = report.outcomes[i].allocated())
        state.add(earlier->allocation, report.outcomes[i].claim);
    alloc::basic_allocator<alloc::first_fit, Engine> allocator(features, state, classes, slices, engine);
    allocator.set_taint_rules(rules);
    sched::funnel_builder<Engine> funnels(features, state, classes, slices, engine);
    funnels.set_taint_rules(rules);
    funnels.read_from(allocator);
    sched::allocator_oracle<decltype(allocator)> oracle{&allocator};
    std::vector<const model::resource_claim*> claims;
    for (auto u : unit)
      if (const auto* member = detail::claim_of(s, report, u)) claims.push_back(member);
    std::vector<const model::node*> tried;
    std::deque<model::node> owned;
    if (allocated != nullptr) {
      e.status = model::claim_status::allocated;
      e.node = allocated->node;
      for (const auto* n : nodes.nodes)
        if (n->meta.name == allocated->node) tried.push_back(n);
      for (const auto& r : allocated->allocation.results)
        e.chosen.emplace_back(r.request, dra::concat(r.driver, "/", r.pool, "/", r.device));
    } else {
      if (const auto* failure = o.error()) {
        e.status = model::claim_status::error;
        e.error = failure->to_string();
      } else {
        e.status = model::claim_status::unschedulable;
        e.summary = o.unschedulable()->why;
      }
      if (const auto* pinned = detail::pinned_node(s, report.subjects[at].pod, nodes, owned))
        tried.push_back(pinned);
      else
        tried = nodes.nodes;
    }
    e.diagnosis = sched::diagnose_unit(funnels, tried, claims, oracle, true);
    out.push_back(std::move(e));
  }
  return out;
}

namespace detail {

// One claim's explanation as a JSON object (an element of to_json's `claims`).
inline void write_claim_explanation(json::writer& w, const claim_explanation& e) {
  auto count = [](std::size_t v) { return static_cast<std::int64_t>(v); };
  w.begin_object().field("claim", e.claim).field("status", model::name_of(e.status));
  if (e.node) w.field("node", *e.node);
  if (!e.error.empty()) w.field("error", e.error);
  if (!e.chosen.empty()) {
    w.key("devices").begin_array();
    for (const auto& [request, device] : e.chosen)
      w.begin_object().field("request", request).field("device", device).end_object();
    w.end_array();
  }
  if (e.summary) {
    w.key("explanation").begin_object().field("nodes", count(e.summary->nodes)).key("reasons").begin_array();
    for (const auto& r : e.summary->reasons)
      w.begin_object().field("code", model::name_of(r.code)).field("nodes", count(r.nodes)).field("claim", r.claim)
          .field("request", r.request).field("message", r.message).end_object();
    w.end_array().end_object();
  }
  w.key("nodes").begin_array();
  for (const auto& n : e.diagnosis.nodes) {
    w.begin_object().field("node", n.node).field("code", model::name_of(n.verdict));
    if (n.verdict != model::explanation_code::fits) w.field("claim", n.claim).field("request", n.request);
    w.field("message", n.message).key("requests").begin_array();
    for (const auto& c : n.claims)
      for (const auto& alternatives : c.requests)
        for (const auto& f : alternatives) {
          w.begin_object().field("claim", f.claim).field("request", f.request).field("needed", count(f.needed));
          w.key("funnel").begin_object().field("reachable", count(f.reachable))
              .field("inUsablePools", count(f.in_usable_pools)).field("class", count(f.class_match))
              .field("selectors", count(f.selector_match)).field("selectorErrors", count(f.selector_errors))
              .field("free", count(f.free)).field("countersLeft", count(f.counters_left))
              .field("capacityLeft", count(f.capacity_left)).field("tolerated", count(f.tolerated)).end_object();
          if (!f.constraint.empty())
            w.key("constraint").begin_object().field("constraint", f.constraint)
                .field("best", count(f.constraint_best)).end_object();
          w.field("code", model::name_of(f.verdict)).field("message", f.message).key("devices").begin_array();
          for (const auto& d : f.devices) {
            w.begin_object().field("device", d.device).field("stage", model::name_of(d.dropped));
            if (!d.why.empty()) w.field("why", d.why);
            w.end_object();
          }
          w.end_array().end_object();
        }
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

}  // namespace detail

// {"claims": [{"claim", "status", "node", "devices", "explanation", "nodes": [{"node", "code", …, "requests": […]}]}]}
[[nodiscard]] inline std::string to_json(const std::vector<claim_explanation>& explanations) {
  json::writer w(2);
  w.begin_object().key("claims").begin_array();
  for (const auto& e : explanations) detail::write_claim_explanation(w, e);
  w.end_array().end_object();
  return std::move(w).str() + "\n";
}

}  // namespace dra::sim
