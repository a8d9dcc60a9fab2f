// How many more of a pod fit: copies of it placed one after another on the state a scenario run leaves, per node,
// and why the next one does not fit (`dra capacity --pod`).
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/node_list.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/analysis/what_if.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dra::sim {

// Without a limit of its own, a count stops after this many copies (a pod that asks for nothing limited fits
// without end).
inline constexpr std::size_t default_max_copies = 100'000;

struct capacity_options {
  std::size_t max = default_max_copies;  // copies placed at most
  run_options run;
};

struct node_count {
  std::string node;
  std::size_t fits = 0;
  friend bool operator==(const node_count&, const node_count&) = default;
};

// The answer: the run (the scenario's pending pods, then the copies: run.added_pods), how many copies fit and where,
// and what became of the first copy that did not fit. Borrows from the scenario; owns the copies' names and texts.
struct capacity_report {
  std::string pod;  // the pod copied, "namespace/name"
  std::size_t fits = 0;
  std::vector<node_count> nodes;         // nodes that took a copy, in node order
  std::optional<pod_outcome> next;       // the first copy that did not fit; absent when `max` stopped the count
  std::vector<std::size_t> next_claims;  // its claims' outcomes: indexes into run.outcomes
  run_report run;
  string_store strings;  // the copies' names and texts
};

namespace detail {

// Copy `n` of `pod`, pending: named `<pod>-<n>`, without a node, claim statuses, uid, phase or scheduling gates, so
// that its templates make it claims of its own (`<pod>-<n>-<entry>`); claims it names directly stay shared.
inline result<model::located<model::pod>> pod_copy(const model::located<model::pod>& pod, std::size_t n,
                                                   capacity_report& out) {
  model::located<model::pod> copy = pod;
  copy.object.meta.name = out.strings.own(std::string(pod.object.meta.name) + "-" + std::to_string(n));
  copy.object.meta.uid = {};
  copy.object.node_name.reset();
  copy.object.resource_claim_statuses.clear();
  copy.object.scheduling_gates.clear();
  copy.object.phase = {};
  std::vector<json::field_override> changes{string_at({"metadata", "name"}, copy.object.meta.name),
                                            {{"status"}, [](json::writer& w) { w.begin_object().end_object(); }}};
  auto json = rewritten_json(pod.source.json, std::move(changes),
                             {{"metadata", "uid"}, {"spec", "nodeName"}, {"spec", "schedulingGates"}});
  if (!json) return std::move(json).error().within(model::object_label("Pod", pod.object.meta));
  copy.source.json = out.strings.own(std::move(*json));
  return copy;
}

}  // namespace detail

namespace detail {

// Copies of `pod` placed one after another on what `run` left, until one does not fit or `options.max` are placed.
template <class Run>
result<capacity_report> place_copies(Run& run, const model::scenario& s, const model::located<model::pod>& pod,
                                     const capacity_options& options, run_report::answer answer) {
  capacity_report out;
  out.pod = model::namespaced_name(pod.object.meta.namespace_, pod.object.meta.name);
  std::map<std::string, std::size_t, std::less<>> per_node;
  for (std::size_t n = 1; n <= options.max; ++n) {
    auto copy = pod_copy(pod, n, out);
    if (!copy) return std::move(copy).error();
    const pod_outcome& placed = run.place(std::move(*copy));
    if (!placed.node) {
      out.next = placed;
      break;
    }
    ++out.fits;
    ++per_node[*placed.node];
  }
  const sched::node_list nodes(s);
  for (const model::node* node : nodes.nodes)
    if (const auto it = per_node.find(node->meta.name); it != per_node.end())
      out.nodes.push_back({it->first, it->second});
  out.run = std::move(run).take_report();
  out.run.placements = answer;
  if (out.next)  // the claims of the copy that did not fit, found once the report is final
    for (std::size_t k = 0; k < out.run.subjects.size(); ++k)
      if (out.run.subjects[k].pod == out.next->pod) out.next_claims.push_back(k);
  return out;
}

}  // namespace detail

// Schedules `s`'s pending pods and claims as run_scenario does (a guarded policy's answer included: the copies go on
// the run whose answer run_scenario reports), then copies of `pod` (a pod of `s`, or one whose templates `s` has) one
// after another on what that left, each committed before the next, as kube-scheduler would schedule replicas: until
// one does not fit or `options.max` copies are placed. One run serves every copy (its caches included), not a run
// per copy.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy = alloc::first_fit>
[[nodiscard]] result<capacity_report> capacity(const model::scenario& s, const model::located<model::pod>& pod,
                                               const Engine& engine, alloc::features features = alloc::features::all(),
                                               Policy policy = {}, capacity_options options = {}) {
  if constexpr (alloc::guarded_by_first_fit<Policy>) {
    auto runs = detail::run_guarded(s, engine, features, std::move(policy), options.run);
    if (runs.policy) return detail::place_copies(*runs.policy, s, pod, options, runs.answer);
    if (runs.hybrid) return detail::place_copies(*runs.hybrid, s, pod, options, runs.answer);
    scenario_run<Engine, alloc::first_fit> run(s, engine, features, {}, options.run);
    run.run_queue();
    return detail::place_copies(run, s, pod, options, runs.answer);
  } else {
    scenario_run<Engine, Policy> run(s, engine, features, std::move(policy), options.run);
    run.run_queue();
    return detail::place_copies(run, s, pod, options, run_report::answer::policy);
  }
}

}  // namespace dra::sim
