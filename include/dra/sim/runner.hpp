// The run driver of the dra command: a scenario's pods through the scheduling cycle in queue order (gangs as one),
// then the pods preemption nominated, then the claims no pod names; for a policy guarded by first fit, the run whose
// answer is reported.
#pragma once

#include <dra/alloc/check.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/gang.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sched/scheduling_cycle.hpp>
#include <dra/sched/until_first_rejection.hpp>

#include <cassert>
#include <cstddef>
#include <future>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

namespace dra::sim {

// The cycle's report and options are the run's.
using sched::answer_note;
using sched::count_placements;
using sched::eviction;
using sched::generated_claim;
using sched::node_choice;
using sched::outcome_subject;
using sched::placement_counts;
using sched::places_less;
using sched::pod_at;
using sched::pod_outcome;
using sched::pod_preemption;
using sched::released_claim;
using sched::run_options;
using sched::run_report;

// One run over a scenario: the queue's pods, each through the scheduling cycle (a gang's pods together), then the
// claims no pod names. It keeps its state after the queue, for more pods placed on it (place).
// Its members are defined out of the class, so that they are not inline: a program that links the runs compiled
// once (dra/sim/runs.hpp) instantiates none of them.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy = alloc::first_fit>
class scenario_run {
 public:
  scenario_run(const model::scenario& s, const Engine& engine, alloc::features features, Policy policy,
               run_options options = {});

  run_report run() &&;

  // Schedules the scenario's pods in queue order, then the claims no pod references (what run() does).
  void run_queue();

  // Places one more pending pod on the state the run left (sched::scheduling_cycle::place); with `preempt`, it may
  // evict lower-priority pods as the queue's pods may.
  const pod_outcome& place(model::located<model::pod> pod, bool preempt = false);

  [[nodiscard]] const run_report& report() const;
  run_report take_report() &&;

 private:
  using cycle_type = sched::scheduling_cycle<Engine, Policy>;
  cycle_type cycle_;
};

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
scenario_run<Engine, Policy>::scenario_run(const model::scenario& s, const Engine& engine, alloc::features features,
                                           Policy policy, run_options options)
    : cycle_(s, engine, features, std::move(policy), options) {}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
run_report scenario_run<Engine, Policy>::run() && {
  run_queue();
  return std::move(cycle_).take_report();
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scenario_run<Engine, Policy>::run_queue() {
  const model::scenario& s = cycle_.scenario();
  const sched::pod_group_index& groups = cycle_.resolver().groups();
  std::vector<bool> gang_placed(s.pod_groups.size(), false);
  for (std::size_t p : cycle_.queue()) {
    // A gang's pods are placed as one when the queue reaches its first pod.
    if (const auto group = groups.of(s.pods[p].object).group; group && groups.is_gang(*group)) {
      if (!gang_placed[*group]) {
        gang_placed[*group] = true;
        sched::gang_placement<cycle_type>(cycle_, *group).run();
        for (std::size_t member : groups.members(*group)) cycle_.finish_pod(member);
      }
      continue;
    }
    cycle_.run_pod(p, sched::post_filters::preempt);
    cycle_.finish_pod(p);
  }
  cycle_.retry_nominated();
  cycle_.place_unreferenced_claims();
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
const pod_outcome& scenario_run<Engine, Policy>::place(model::located<model::pod> pod, bool preempt) {
  return cycle_.place(std::move(pod), preempt ? sched::post_filters::preempt : sched::post_filters::off);
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
const run_report& scenario_run<Engine, Policy>::report() const {
  return cycle_.report();
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
run_report scenario_run<Engine, Policy>::take_report() && {
  return std::move(cycle_).take_report();
}

namespace detail {

// The runs behind a guarded policy's answer: the policy's own, or the hybrid (the policy until the queue's first
// rejection, first fit after it), or first fit's (its report only: runs are rebuilt from it when needed).
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
struct guarded_runs {
  using hybrid_policy = sched::until_first_rejection<Policy>;
  run_report::answer answer = run_report::answer::policy;
  std::unique_ptr<scenario_run<Engine, Policy>> policy;       // when the answer is the policy's
  std::unique_ptr<scenario_run<Engine, hybrid_policy>> hybrid;  // when it is the hybrid's
  run_report first_fit;                                         // when it is first fit's
};

// Runs a policy guarded by first fit (alloc::guarded_by_first_fit) and first fit, and keeps the run whose answer is
// reported: the policy's unless it places less than first fit by some count; then the hybrid, if that does not;
// else first fit's.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
guarded_runs<Engine, Policy> run_guarded(const model::scenario& s, const Engine& engine, alloc::features features,
                                         Policy policy, run_options options) {
  // With threads to spare, first fit's run goes beside the policy's: both only read the scenario and the engine.
  // Its placements are only counted unless they are the answer: its refusals are explained only then, in a run of
  // its own (explaining changes no placement).
  auto first_fit_run = [&](bool explained) {
    run_options first_fit_options = options;
    first_fit_options.explain_refusals = explained;
    return scenario_run<Engine, alloc::first_fit>(s, engine, features, {}, first_fit_options).run();
  };
  std::future<run_report> first_fit_aside;
  if (options.threads > 1) {
    try {
      first_fit_aside = std::async(std::launch::async, first_fit_run, false);
    } catch (const std::system_error&) {  // no thread to be had: run it after
    }
  }
  guarded_runs<Engine, Policy> out;
  out.policy = std::make_unique<scenario_run<Engine, Policy>>(s, engine, features, policy, options);
  out.policy->run_queue();
  const placement_counts first_fit_counts =
      count_placements(first_fit_aside.valid() ? first_fit_aside.get() : first_fit_run(false));
  if (!places_less(count_placements(out.policy->report()), first_fit_counts)) return out;
  // Packing often wins before the first rejection and loses after it, where first fit fills the fragments it left
  // with later, smaller claims: keep the policy's start and first fit's end, if that beats first fit.
  out.policy.reset();
  using hybrid_policy = typename guarded_runs<Engine, Policy>::hybrid_policy;
  out.hybrid = std::make_unique<scenario_run<Engine, hybrid_policy>>(s, engine, features, hybrid_policy{policy}, options);
  out.hybrid->run_queue();
  if (!places_less(count_placements(out.hybrid->report()), first_fit_counts)) {
    out.answer = run_report::answer::first_fit_after_rejection;
    return out;
  }
  out.hybrid.reset();
  out.answer = run_report::answer::first_fit;
  out.first_fit = first_fit_run(options.explain_refusals);
  return out;
}

}  // namespace detail

// Allocates every pending claim of the scenario as kube-scheduler's DRA
// plugin would (see the scenario format): pods in input order, each pod's
// pending claims — named directly, through its status, or generated from a
// template — together in one unit of work, then the claims no pod
// references; each success is committed before the next unit of work.
// DeviceTaintRules add their taints to the devices they select. A policy guarded by first fit
// (alloc::guarded_by_first_fit, e.g. best fit) never reports less than first fit would place.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy = alloc::first_fit>
[[nodiscard]] run_report run_scenario(const model::scenario& s, const Engine& engine,
                                      alloc::features features = alloc::features::all(), Policy policy = {},
                                      run_options options = {}) {
  if constexpr (!alloc::guarded_by_first_fit<Policy>) {
    run_report report = scenario_run<Engine, Policy>(s, engine, features, policy, options).run();
    // Debug builds re-check the promise on every run.
    assert(alloc::find_overcommit(s, report.outcomes, sched::released_claims(report)).empty());
    return report;
  } else {
    auto runs = detail::run_guarded(s, engine, features, std::move(policy), options);
    run_report report = runs.policy   ? std::move(*runs.policy).take_report()
                        : runs.hybrid ? std::move(*runs.hybrid).take_report()
                                      : std::move(runs.first_fit);
    report.placements = runs.answer;
    assert(alloc::find_overcommit(s, report.outcomes, sched::released_claims(report)).empty());
    return report;
  }
}

}  // namespace dra::sim
