// The fuzz target of the capacity family (`dra capacity --pod`, `--by`): bytes -> a small cluster (cluster_bytes.hpp)
// and one of its pods; how many copies of it fit, up to a limit. Its JSON parses, nothing is over-committed, the
// scenario it writes obeys the model's rules; and it answers what the run of the cluster with the copies added answers:
// when capacity says N copies fit, the cluster with N copies pending places them all on the nodes capacity names, and
// with N + 1 one of them is refused with the text capacity printed. Availability by GPU model counts what the
// model counts.
#pragma once

#include "availability_check.hpp"
#include "run_checks.hpp"

#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/output/capacity_output.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace dra_fuzz::capacity_family {

constexpr std::string_view fuzzer = "fuzz_capacity";

// Capacity places its copies after everything the scenario has pending: its pods, the pods preemption nominated, then
// the claims no pod names. A run with the copies pending is the same question only when they queue last: no pending
// pod of lower priority, no unallocated claim that no pod names (allocated after every pod), and no pod nominated
// (tried again after the queue, so after the copies; checked on the run).
inline bool copies_queue_last(const dra_fuzz::cluster& c, const dra_fuzz::pod& copied) {
  for (const auto& p : c.pods)
    if (p.node.empty() && !p.gated && p.priority < copied.priority) return false;
  for (const auto& claim : c.claims) {
    bool named = false;
    for (const auto& p : c.pods)
      for (const auto& e : p.claims) named = named || e.claim == claim.name;
    if (claim.node.empty() && !named) return false;
  }
  return !copied.in_group;
}

template <class Policy>
void check_against_copies(const dra_fuzz::cluster& c, std::size_t at, const dra::sim::capacity_report& r,
                          dra::sim::run_options options) {
  const auto fits = static_cast<int>(r.fits);
  const auto with = dra_fuzz::load_or_fail(fuzzer, dra_fuzz::scenario_text(dra_fuzz::with_pod_copies(c, at, fits)),
                                           "the cluster with the copies");
  const auto run =
      dra::sim::run_scenario(with.scenario(), dra_fuzz::engine(), dra::alloc::features::all(), Policy{}, options);
  const auto answer = dra_fuzz::answer_of(with.scenario(), run);
  std::map<std::string, std::size_t> per_node;
  for (int k = 1; k <= fits; ++k) {
    const std::string copy = "pod default/" + c.pods[at].name + "-" + std::to_string(k);
    const auto placed = answer.find(copy);
    if (placed == answer.end() || placed->second.starts_with("- "))
      dra_fuzz::fail(fuzzer, "capacity says " + std::to_string(fits) + " copies fit; with them pending, " + copy +
                                 " is " + (placed == answer.end() ? std::string("missing") : placed->second));
    ++per_node[placed->second];
  }
  for (const auto& n : r.nodes)
    if (per_node[n.node] != n.fits)
      dra_fuzz::fail(fuzzer, "capacity puts " + std::to_string(n.fits) + " copies on " + n.node + ", the run " +
                                 std::to_string(per_node[n.node]));
  if (!r.next) return;
  const auto one_more = dra_fuzz::load_or_fail(
      fuzzer, dra_fuzz::scenario_text(dra_fuzz::with_pod_copies(c, at, fits + 1)), "the cluster with one more copy");
  const auto refused =
      dra::sim::run_scenario(one_more.scenario(), dra_fuzz::engine(), dra::alloc::features::all(), Policy{}, options);
  const auto said = dra_fuzz::answer_of(one_more.scenario(), refused);
  for (int k = 1; k <= fits + 1; ++k) {  // the first copy refused (a guarded policy's hybrid may refuse an early one)
    const auto copy = said.find("pod default/" + c.pods[at].name + "-" + std::to_string(k));
    if (copy == said.end() || !copy->second.starts_with("- ")) continue;
    // The copies preempt nobody (preemptionPolicy Never in the run): their text is capacity's, then the PostFilters'.
    const std::string said_by_capacity = "- " + r.next->unschedulable;
    const bool same = copy->second == said_by_capacity ||
                      (copy->second.starts_with(said_by_capacity + " ") &&
                       copy->second.ends_with(dra::sched::preemption_policy_never));
    if (!same)
      dra_fuzz::fail(fuzzer, "capacity says a copy is refused (" + r.next->unschedulable + "); with " +
                                 std::to_string(fits + 1) + " pending the run refuses copy " + std::to_string(k) +
                                 ": " + copy->second);
    return;
  }
  dra_fuzz::fail(fuzzer, "capacity says copy " + std::to_string(fits + 1) + " is refused (" + r.next->unschedulable +
                             "); with it pending the run places every copy");
}

// With --preempt: the copies place at least as many as without (each tries to fit before it preempts), and a copy
// evicts only pods of lower priority that the input has running.
template <class Policy>
void check_preempting_copies(const dra::model::scenario& s, const dra::model::located<dra::model::pod>& pod,
                             const dra::sim::capacity_report& r, std::size_t max, dra::sim::run_options options) {
  const dra::model::pod& copied = pod.object;
  const auto plain = dra::sim::capacity(s, pod, dra_fuzz::engine(), dra::alloc::features::all(), Policy{},
                                        {.max = max, .run = options});
  if (!plain) dra_fuzz::fail(fuzzer, "capacity without --preempt fails: " + plain.error().to_string());
  if (r.fits < plain->fits)
    dra_fuzz::fail(fuzzer, "with --preempt " + std::to_string(r.fits) + " copies fit, without " +
                               std::to_string(plain->fits));
  for (const auto& e : r.run.evictions) {
    if (e.preemptor < s.pods.size()) continue;  // the run's own preemption, before the copies
    const dra::model::pod& victim = s.pods[e.pod].object;
    if (victim.priority >= copied.priority || !victim.node_name || !dra::model::preempts_lower_priority(copied))
      dra_fuzz::fail(fuzzer, "copy " + std::to_string(e.preemptor) + " of priority " + std::to_string(copied.priority) +
                                 " evicts " + std::string(victim.meta.name) + " of priority " +
                                 std::to_string(victim.priority));
  }
}

template <class Policy>
void check(const dra_fuzz::cluster& c, std::size_t at, const dra::model::scenario& s, std::size_t max,
           dra::sim::run_options options, bool preempt) {
  const auto* pod =
      &*std::ranges::find_if(s.pods, [&](const auto& p) { return p.object.meta.name == c.pods[at].name; });
  const auto r = dra::sim::capacity(s, *pod, dra_fuzz::engine(), dra::alloc::features::all(), Policy{},
                                    {.max = max, .run = options, .preempt = preempt});
  if (!r) dra_fuzz::fail(fuzzer, "capacity of " + c.pods[at].name + " fails: " + r.error().to_string());
  dra_fuzz::require_json(fuzzer, dra::sim::to_json(s, *r), "capacity's JSON");
  if (r->fits > max || (r->fits < max && !r->next))
    dra_fuzz::fail(fuzzer, "capacity stops short of --max without a reason");
  if (auto over = dra::alloc::find_overcommit(s, r->run.outcomes, dra::sched::released_claims(r->run)); !over.empty())
    dra_fuzz::fail(fuzzer, "over-commit: " + over);
  const auto after = dra_fuzz::read_back(fuzzer, s, r->run);
  if (auto wrong = dra_fuzz::judge_state(c, after.scenario()); !wrong.empty()) dra_fuzz::fail(fuzzer, wrong);
  if (preempt)
    check_preempting_copies<Policy>(s, *pod, *r, max, options);
  else if (copies_queue_last(c, c.pods[at]) && r->run.evictions.empty())
    check_against_copies<Policy>(c, at, *r, options);

  const auto view = dra::sim::availability(after.scenario(), dra_fuzz::engine(), "gpu.example.com/model");
  if (!view) dra_fuzz::fail(fuzzer, "availability --by fails: " + view.error().to_string());
  if (auto wrong = dra_fuzz::judge_availability(c, after.scenario(), *view, true); !wrong.empty())
    dra_fuzz::fail(fuzzer, wrong);
}

// Draws a cluster (and what the family asks about it) from the bytes and checks the family's commands on it.
inline void run(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::byte_reader in({data, size});
  const dra_fuzz::cluster c = dra_fuzz::draw_cluster(in);
  const auto at = static_cast<std::size_t>(in.next(static_cast<int>(c.pods.size())));
  const auto max = static_cast<std::size_t>(1 + in.next(6));
  const auto how = dra_fuzz::draw_run_choice(in);
  const bool preempt = in.next(2) == 1;  // drawn last: an input that ends before asks without --preempt
  const auto doc = dra_fuzz::load_or_fail(fuzzer, dra_fuzz::scenario_text(c), "the drawn cluster");
  dra_fuzz::with_policy(
      how, [&](auto policy) { check<decltype(policy)>(c, at, doc.scenario(), max, how.options, preempt); });
}

}  // namespace dra_fuzz::capacity_family
