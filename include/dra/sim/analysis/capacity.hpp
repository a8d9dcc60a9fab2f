// How many more of a pod fit: copies of it placed one after another on the state a scenario run leaves, per node,
// and why the next one does not fit (`dra capacity --pod`).
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/node_list.hpp>
#include <dra/sched/until_first_rejection.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/analysis/what_if.hpp>

#include <range/v3/algorithm/any_of.hpp>
#include <range/v3/view/drop.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dra::sim {

// Without a limit of its own, a count stops after this many copies (a pod that asks for nothing limited fits
// without end).
inline constexpr std::size_t default_max_copies = 100'000;

struct capacity_options {
  std::size_t max = default_max_copies;  // copies placed at most
  run_options run;
  // A copy no node takes may evict lower-priority pods as DefaultPreemption would (the victims are the input's
  // bound pods, as in a run), and is tried again at once; off, copies fit only where room is left.
  bool preempt = false;
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
// that its templates make it claims of its own (`<pod>-<n>-<entry>-…`); claims it names directly stay shared.
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

// count_placements of a report that only grows, one copy at a time: each update counts only what was added since the
// last, unless an added outcome is about a scenario claim (a claim the pod names directly, perhaps tried before),
// which recounts all.
class growing_counts {
 public:
  const placement_counts& update(const run_report& report) {
    const bool retries = ::ranges::any_of(report.subjects | ::ranges::views::drop(counted_outcomes_),
                                          [](const outcome_subject& s) { return s.claim.has_value(); });
    if (!counted_ || retries) recount(report);
    for (std::size_t i = counted_outcomes_; i < report.outcomes.size(); ++i) add(report.outcomes[i]);
    for (std::size_t i = counted_pods_; i < report.pods.size(); ++i) counts_.pods += report.pods[i].node ? 1 : 0;
    counted_outcomes_ = report.outcomes.size();
    counted_pods_ = report.pods.size();
    return counts_;
  }
  [[nodiscard]] const placement_counts& counts() const { return counts_; }

 private:
  void recount(const run_report& report) {
    counts_ = count_placements(report);
    const std::vector<bool> last = final_outcomes(report);
    rejected_ = false;
    for (std::size_t i = 0; i < report.outcomes.size() && !rejected_; ++i)
      rejected_ = last[i] && std::holds_alternative<model::claim_unschedulable>(report.outcomes[i].status);
    counted_outcomes_ = report.outcomes.size();
    counted_pods_ = report.pods.size();
    counted_ = true;
  }
  void add(const model::claim_outcome& outcome) {
    if (outcome.allocated() != nullptr) {
      ++counts_.claims;
      if (!rejected_) ++counts_.claims_before_first_rejection;
    } else if (std::holds_alternative<model::claim_unschedulable>(outcome.status)) {
      rejected_ = true;
    }
  }

  placement_counts counts_;
  bool rejected_ = false;
  bool counted_ = false;
  std::size_t counted_outcomes_ = 0;
  std::size_t counted_pods_ = 0;
};

// One run and the copies placed on it so far: where each went, and what the run has placed in all.
template <class Run>
struct run_with_copies {
  std::unique_ptr<Run> run;
  std::vector<std::optional<std::string>> nodes;  // per copy, in order
  std::size_t placed = 0;
  growing_counts counts;

  explicit run_with_copies(std::unique_ptr<Run> r) : run(std::move(r)) { counts.update(run->report()); }
  void add(model::located<model::pod> copy, bool preempt) {
    const pod_outcome& outcome = run->place(std::move(copy), preempt);
    nodes.push_back(outcome.node);
    placed += outcome.node ? 1 : 0;
    counts.update(run->report());
  }
  [[nodiscard]] bool all_placed() const { return placed == nodes.size(); }
};

// The report, once the answer that placed `out.fits` copies is known (`nodes`: where its copies went) and the run
// whose report it is (with one more copy, the first refused, unless the count stopped at `max`).
inline void copies_report(capacity_report& out, const model::scenario& s,
                          std::span<const std::optional<std::string>> nodes, run_report run,
                          run_report::answer answer) {
  std::map<std::string_view, std::size_t, std::less<>> per_node;
  for (const auto& node : nodes.first(out.fits)) ++per_node[*node];
  for (const model::node* node : sched::node_list(s).nodes)
    if (const auto it = per_node.find(node->meta.name); it != per_node.end())
      out.nodes.push_back({std::string(it->first), it->second});
  out.run = std::move(run);
  out.run.placements = answer;
  const auto refused = std::ranges::find_if(out.run.pods, [&](const pod_outcome& p) {
    return p.pod >= s.pods.size() && !p.node;  // a copy: placed after the scenario's pods
  });
  if (refused == out.run.pods.end()) return;
  out.next = *refused;
  for (std::size_t k = 0; k < out.run.subjects.size(); ++k)
    if (out.run.subjects[k].pod == out.next->pod) out.next_claims.push_back(k);
}

// The runs a policy's answer comes from and the copies on each, added together: for a guarded policy the answer
// with n copies pending is chosen among its runs as run_scenario chooses (run_guarded), by what each placed with
// those n copies, so each run takes every copy; the hybrid is started only once the policy places less than first
// fit.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
class copies_runs {
 public:
  copies_runs(const model::scenario& s, const Engine& engine, alloc::features features, Policy policy,
              run_options options, bool preempt)
      : s_(s), engine_(engine), features_(features), policy_(std::move(policy)), options_(options), preempt_(preempt),
        own_(started(policy_)) {
    if constexpr (guarded) first_fit_.emplace(started(alloc::first_fit{}));
  }

  void add(const model::located<model::pod>& copy) {
    own_.add(copy, preempt_);
    if constexpr (guarded) {
      copies_.push_back(copy);  // for the hybrid, should it be needed
      first_fit_->add(copy, preempt_);
      if (hybrid_) hybrid_->add(copy, preempt_);
    }
  }

  // Whose placements run_scenario would report with the copies added so far pending.
  [[nodiscard]] run_report::answer answer() {
    if constexpr (guarded) {
      if (!places_less(own_.counts.counts(), first_fit_->counts.counts())) return run_report::answer::policy;
      if (!hybrid_) {
        hybrid_.emplace(started(hybrid_policy{policy_}));
        for (const auto& copy : copies_) hybrid_->add(copy, preempt_);
      }
      if (!places_less(hybrid_->counts.counts(), first_fit_->counts.counts()))
        return run_report::answer::first_fit_after_rejection;
      return run_report::answer::first_fit;
    } else {
      return run_report::answer::policy;
    }
  }

  // Calls f with the run (run_with_copies) behind an answer.
  template <class F>
  decltype(auto) with(run_report::answer a, F&& f) {
    if constexpr (guarded) {
      if (a == run_report::answer::first_fit_after_rejection) return f(*hybrid_);
      if (a == run_report::answer::first_fit) return f(*first_fit_);
    }
    return f(own_);
  }

 private:
  static constexpr bool guarded = alloc::guarded_by_first_fit<Policy>;
  using hybrid_policy = sched::until_first_rejection<Policy>;
  template <class P>
  using run_of = run_with_copies<scenario_run<Engine, P>>;

  template <class P>
  run_of<P> started(P policy) const {
    auto run = std::make_unique<scenario_run<Engine, P>>(s_, engine_, features_, std::move(policy), options_);
    run->run_queue();
    return run_of<P>(std::move(run));
  }

  const model::scenario& s_;
  const Engine& engine_;
  alloc::features features_;
  Policy policy_;
  run_options options_;
  bool preempt_ = false;
  std::vector<model::located<model::pod>> copies_;
  run_of<Policy> own_;
  std::optional<run_of<alloc::first_fit>> first_fit_;
  std::optional<run_of<hybrid_policy>> hybrid_;
};

}  // namespace detail

// Schedules `s`'s pending pods and claims as run_scenario does, then copies of `pod` (a pod of `s`, or one whose
// templates `s` has) one after another on what that left, each committed before the next, as kube-scheduler would
// schedule replicas: until one does not fit or `options.max` copies are placed. The count is what run_scenario
// would answer with the copies pending: n copies fit when its answer with n copies places them all, and the report
// is its run with one more (a guarded policy's answer included, which can change with the copies). One run per
// answer serves every copy (its caches included), not a run per copy. With `options.preempt`, a copy no node takes
// preempts as a queue's pod would, and is tried again before the next copy (its victims are then gone); the report's
// evictions say whom each copy evicted.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy = alloc::first_fit>
[[nodiscard]] result<capacity_report> capacity(const model::scenario& s, const model::located<model::pod>& pod,
                                               const Engine& engine, alloc::features features = alloc::features::all(),
                                               Policy policy = {}, capacity_options options = {}) {
  capacity_report out;
  out.pod = model::namespaced_name(pod.object.meta.namespace_, pod.object.meta.name);
  detail::copies_runs<Engine, Policy> runs(s, engine, features, std::move(policy), options.run, options.preempt);
  run_report::answer reported = runs.answer();
  run_report::answer fitted = reported;  // the answer that placed out.fits copies
  while (out.fits < options.max) {
    auto copy = detail::pod_copy(pod, out.fits + 1, out);
    if (!copy) return std::move(copy).error();
    runs.add(*copy);
    reported = runs.answer();
    if (!runs.with(reported, [](const auto& r) { return r.all_placed(); })) break;
    fitted = reported;
    ++out.fits;
  }
  auto nodes = runs.with(fitted, [](auto& r) { return std::move(r.nodes); });
  auto report = runs.with(reported, [](auto& r) { return std::move(*r.run).take_report(); });
  detail::copies_report(out, s, nodes, std::move(report), reported);
  return out;
}

}  // namespace dra::sim
