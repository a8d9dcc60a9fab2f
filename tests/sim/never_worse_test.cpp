// Best fit never places less than first fit (alloc::guarded_by_first_fit): on random clusters and queues, the
// runner's answer under `sorted` places at least as many claims, claims before the first rejection and pods as
// first fit's; where best fit's own heuristic answer would place less, first fit's answer is reported, as it is.
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "random_cluster.hpp"

namespace {

using namespace dra;

TEST(NeverWorseThanFirstFit, SortedPlacesAtLeastWhatFirstFitPlacesOnRandomClusters) {
  const cel::selector_engine engine;
  using answer = sim::run_report::answer;
  std::size_t own = 0, hybrid = 0, first_fit = 0, better = 0;
  for (unsigned seed = 1; seed <= 100; ++seed) {
    auto doc = json::load(dra_test::random_cluster(seed));
    ASSERT_TRUE(doc) << doc.error().to_string();
    const model::scenario& s = doc->scenario();
    const sim::run_report first = sim::run_scenario(s, engine, alloc::features::all(), alloc::first_fit{});
    const sim::run_report best = sim::run_scenario(s, engine, alloc::features::all(), alloc::sorted{});
    // Best fit's own answer, without the comparison.
    const sim::run_report heuristic =
        sim::scenario_run<cel::selector_engine, alloc::sorted>(s, engine, alloc::features::all(), {}).run();
    const auto first_counts = sim::count_placements(first);
    const auto best_counts = sim::count_placements(best);
    EXPECT_FALSE(sim::places_less(best_counts, first_counts)) << "seed " << seed;
    EXPECT_EQ(first.placements, answer::policy);
    const std::string reported = json::output_document(best.outcomes);
    if (!sim::places_less(sim::count_placements(heuristic), first_counts)) {
      ++own;
      EXPECT_EQ(best.placements, answer::policy) << "seed " << seed;
      EXPECT_EQ(reported, json::output_document(heuristic.outcomes)) << "seed " << seed;
      better += sim::places_less(first_counts, best_counts) ? 1 : 0;
    } else if (best.placements == answer::first_fit_after_rejection) {
      ++hybrid;
      // Best fit's start is kept: as many claims before the first rejection as its own answer.
      EXPECT_EQ(best_counts.claims_before_first_rejection,
                sim::count_placements(heuristic).claims_before_first_rejection)
          << "seed " << seed;
    } else {
      ++first_fit;
      EXPECT_EQ(best.placements, answer::first_fit) << "seed " << seed;
      EXPECT_EQ(reported, json::output_document(first.outcomes)) << "seed " << seed;
    }
  }
  // The clusters include queues where the heuristic alone places less, so the comparison is exercised, and queues
  // where best fit places more than first fit, whose answers are kept.
  EXPECT_GT(hybrid + first_fit, 0u);
  EXPECT_GT(better, 0u);
  std::cout << "answers: best fit's own " << own << " (more than first fit: " << better
            << "), best fit's then first fit's " << hybrid << ", first fit's " << first_fit << "\n";
}

// Each pod's node and each claim's devices, in report order: what a run placed.
std::vector<std::string> placed_by(const model::scenario& s, const sim::run_report& report) {
  std::vector<std::string> out;
  for (const auto& p : report.pods)
    out.push_back(std::string(sim::pod_at(s, report, p.pod).meta.name) + " -> " + p.node.value_or("-"));
  for (const auto& o : report.outcomes) {
    std::string line = o.claim + " ->";
    if (const auto* a = o.allocated())
      for (const auto& r : a->allocation.results) line += " " + a->node + "/" + std::string(r.device);
    out.push_back(std::move(line));
  }
  return out;
}

TEST(NeverWorseThanFirstFit, CapacityUnderSortedAnswersAsTheRunWithItsCopiesPending) {
  // Whose placements run_scenario reports under best fit can change as copies join the queue (best fit's own run may
  // fall behind first fit's with them, or catch up): capacity's report is the run run_scenario answers on the cluster
  // with its copies pending (all fit but the last), whichever answer that is.
  const cel::selector_engine engine;
  std::size_t changed = 0;
  for (unsigned seed = 1; seed <= 100; ++seed) {
    const std::string cluster = dra_test::random_cluster(seed);
    auto doc = json::load(cluster);
    ASSERT_TRUE(doc) << doc.error().to_string();
    const model::scenario& s = doc->scenario();
    const sim::run_report queue_only = sim::run_scenario(s, engine, alloc::features::all(), alloc::sorted{});
    const auto copies = sim::capacity(s, s.pods.front(), engine, alloc::features::all(), alloc::sorted{});
    ASSERT_TRUE(copies) << copies.error().to_string();
    ASSERT_TRUE(copies->next) << "seed " << seed;
    if (copies->run.placements != queue_only.placements) ++changed;
    // The cluster's List with the copies after its pods: they queue last, as capacity places them.
    std::string with_copies = cluster.substr(0, cluster.size() - 2);
    for (const auto& copy : copies->run.added_pods) with_copies += "," + std::string(copy.source.json);
    auto pending = json::load(with_copies + "]}");
    ASSERT_TRUE(pending) << pending.error().to_string();
    const sim::run_report run =
        sim::run_scenario(pending->scenario(), engine, alloc::features::all(), alloc::sorted{});
    EXPECT_EQ(run.placements, copies->run.placements) << "seed " << seed;
    EXPECT_EQ(placed_by(pending->scenario(), run), placed_by(s, copies->run)) << "seed " << seed;
  }
  EXPECT_GT(changed, 0u);
}

// How many refusals a run explained: claims with the nodes that ruled them out, pods with reasons per node.
std::size_t explained_refusals(const sim::run_report& report) {
  std::size_t n = 0;
  for (const auto& o : report.outcomes)
    if (const auto* refused = std::get_if<model::claim_unschedulable>(&o.status); refused && refused->why) ++n;
  for (const auto& p : report.pods) n += p.reasons.empty() ? 0 : 1;
  return n;
}

// The guard's first-fit baseline runs without explaining its refusals (run_options::explain_refusals): it must
// place exactly as the explained run does, under either policy, and explain nothing.
template <class Policy>
void expect_unexplained_run_places_alike(const model::scenario& s, unsigned seed, std::size_t& explained) {
  const cel::selector_engine engine;
  sim::run_options unexplained;
  unexplained.explain_refusals = false;
  const sim::run_report with_reasons =
      sim::scenario_run<cel::selector_engine, Policy>(s, engine, alloc::features::all(), {}).run();
  const sim::run_report without =
      sim::scenario_run<cel::selector_engine, Policy>(s, engine, alloc::features::all(), {}, unexplained).run();
  EXPECT_EQ(placed_by(s, without), placed_by(s, with_reasons)) << "seed " << seed;
  const auto counts = sim::count_placements(without), expected = sim::count_placements(with_reasons);
  EXPECT_FALSE(sim::places_less(counts, expected) || sim::places_less(expected, counts)) << "seed " << seed;
  EXPECT_EQ(explained_refusals(without), 0u) << "seed " << seed;
  explained += explained_refusals(with_reasons);
}

TEST(NeverWorseThanFirstFit, ARunThatLeavesRefusalsUnexplainedPlacesAsTheExplainedRun) {
  std::size_t explained = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    auto doc = json::load(dra_test::random_cluster(seed));
    ASSERT_TRUE(doc) << doc.error().to_string();
    expect_unexplained_run_places_alike<alloc::first_fit>(doc->scenario(), seed, explained);
    expect_unexplained_run_places_alike<alloc::sorted>(doc->scenario(), seed, explained);
  }
  EXPECT_GT(explained, 0u);  // the clusters have refusals to explain
}

}  // namespace
