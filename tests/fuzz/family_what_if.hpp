// The fuzz target of the what-if family (`--drain NODE`, `--add-node NODE=K`): bytes -> a small cluster
// (cluster_bytes.hpp), one of its nodes and a change. The changed scenario's run must answer what the run of the
// cluster written with that change answers (the node gone with its slices, its pods pending again and its pools'
// claims unallocated; or K copies of it after the others), pod by pod and claim by claim; and the scenario it writes
// obeys the changed model's rules. A node the scenario lacks is an error, not a crash.
#pragma once

#include "run_checks.hpp"

#include <dra/sim/analysis/what_if.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace dra_fuzz::what_if_family {

constexpr std::string_view fuzzer = "fuzz_what_if";

template <class Policy>
void check(const dra_fuzz::cluster& c, const dra::model::scenario& s, const dra::sim::what_if_changes& changes,
           const dra_fuzz::cluster& expected, dra::sim::run_options options) {
  const auto changed = dra::sim::what_if(s, changes);
  if (!changed) dra_fuzz::fail(fuzzer, "what_if fails: " + changed.error().to_string());
  const auto report = dra_fuzz::checked_run<Policy>(fuzzer, changed->scenario, options);
  const auto written = dra_fuzz::load_or_fail(fuzzer, dra_fuzz::scenario_text(expected), "the changed cluster");
  const auto direct =
      dra::sim::run_scenario(written.scenario(), dra_fuzz::engine(), dra::alloc::features::all(), Policy{}, options);
  if (auto diff =
          dra_fuzz::difference(dra_fuzz::answer_of(changed->scenario, report),
                               dra_fuzz::answer_of(written.scenario(), direct), "the what-if", "the changed input");
      !diff.empty())
    dra_fuzz::fail(fuzzer, diff);
  std::size_t drained = 0;
  for (const auto& node : changes.drain)
    for (const auto& p : c.pods) drained += p.node == node ? 1 : 0;
  if (changed->drained_pods.size() != drained)
    dra_fuzz::fail(fuzzer, "the drain made " + std::to_string(changed->drained_pods.size()) + " pods pending, not " +
                               std::to_string(drained));
  const auto after = dra_fuzz::read_back(fuzzer, changed->scenario, report);
  if (auto wrong = dra_fuzz::judge_state(expected, after.scenario()); !wrong.empty()) dra_fuzz::fail(fuzzer, wrong);
}

// Draws a cluster (and what the family asks about it) from the bytes and checks the family's commands on it.
inline void run(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::byte_reader in({data, size});
  const dra_fuzz::cluster c = dra_fuzz::draw_cluster(in);
  const std::string node = c.nodes[static_cast<std::size_t>(in.next(static_cast<int>(c.nodes.size())))].name;
  dra::sim::what_if_changes changes;
  dra_fuzz::cluster expected;
  // Draining a cluster's only node is left out: with no node left the runner places pods on an implicit one, as it
  // does for scenarios without nodes (the upstream allocator's tests), which is not a drain's answer.
  if (c.nodes.size() == 1 || in.chance(2)) {
    const int copies = 1 + in.next(2);
    changes.add_nodes.push_back({node, static_cast<std::size_t>(copies)});
    expected = dra_fuzz::with_copies(c, node, copies);
  } else {
    changes.drain.push_back(node);
    expected = dra_fuzz::drained(c, node);
  }
  const auto how = dra_fuzz::draw_run_choice(in);
  const auto doc = dra_fuzz::load_or_fail(fuzzer, dra_fuzz::scenario_text(c), "the drawn cluster");
  if (const auto unknown = dra::sim::what_if(doc.scenario(), {.add_nodes = {}, .drain = {"no-such-node"}});
      unknown || unknown.error().code != dra::errc::not_found)
    dra_fuzz::fail(fuzzer, "draining a node the scenario lacks is not a not-found error");
  dra_fuzz::with_policy(
      how, [&](auto policy) { check<decltype(policy)>(c, doc.scenario(), changes, expected, how.options); });
}

}  // namespace dra_fuzz::what_if_family
