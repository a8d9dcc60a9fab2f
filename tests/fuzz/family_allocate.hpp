// The fuzz target of the allocate family (`dra allocate`, `--output scenario`, `dra capacity` without --pod): bytes ->
// a small cluster (cluster_bytes.hpp) run under first fit or best fit, by first feasible node or kube-scheduler's
// scores. The answer is the same on one thread and three, its JSON parses, nothing is over-committed; the scenario it
// writes reads back with exactly the run's placements and obeys every rule of the model (state_check.hpp); running
// that output again places no pod the run refused; availability of it counts what the model counts; the stranded
// capacity after the run holds together.
#pragma once

#include "availability_check.hpp"
#include "run_checks.hpp"

#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/output/capacity_output.hpp>

#include <cstddef>
#include <cstdint>

namespace dra_fuzz::allocate_family {

constexpr std::string_view fuzzer = "fuzz_allocate";

template <class Policy>
void check(const dra_fuzz::cluster& c, const dra::model::scenario& s, dra::sim::run_options options) {
  const auto report = dra_fuzz::checked_run<Policy>(fuzzer, s, options);
  const auto after = dra_fuzz::read_back(fuzzer, s, report);
  if (auto wrong = dra_fuzz::judge_state(c, after.scenario()); !wrong.empty()) dra_fuzz::fail(fuzzer, wrong);
  dra_fuzz::rerun_places_nothing_new<Policy>(fuzzer, s, report, after.scenario());

  const auto view = dra::sim::availability(after.scenario(), dra_fuzz::engine());
  if (!view) dra_fuzz::fail(fuzzer, "availability fails: " + view.error().to_string());
  if (auto wrong = dra_fuzz::judge_availability(c, after.scenario(), *view, false); !wrong.empty())
    dra_fuzz::fail(fuzzer, wrong);
  dra_fuzz::require_json(fuzzer, dra::sim::to_json(*view), "availability's JSON");
  if (dra::sim::to_metrics(*view).empty()) dra_fuzz::fail(fuzzer, "availability's metrics are empty");

  const auto occupancy = dra::sim::compute_occupancy(s, report, dra_fuzz::engine());
  for (const auto& set : occupancy.counter_sets)
    for (const auto& counter : set.counters)
      if (counter.used > counter.total)
        dra_fuzz::fail(fuzzer, "occupancy: counter set " + set.name + " over its total");
  if (auto wrong = dra_fuzz::judge_stranded(occupancy.stranded); !wrong.empty())
    dra_fuzz::fail(fuzzer, "occupancy: " + wrong);
}

// Draws a cluster (and what the family asks about it) from the bytes and checks the family's commands on it.
inline void run(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::byte_reader in({data, size});
  const dra_fuzz::cluster c = dra_fuzz::draw_cluster(in);
  const auto how = dra_fuzz::draw_run_choice(in);
  const auto doc = dra_fuzz::load_or_fail(fuzzer, dra_fuzz::scenario_text(c), "the drawn cluster");
  dra_fuzz::with_policy(how, [&](auto policy) { check<decltype(policy)>(c, doc.scenario(), how.options); });
}

}  // namespace dra_fuzz::allocate_family
