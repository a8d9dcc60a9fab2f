// Best fit never places less than first fit (alloc::guarded_by_first_fit): on random clusters and queues, the
// runner's answer under `sorted` places at least as many claims, claims before the first rejection and pods as
// first fit's; where best fit's own heuristic answer would place less, first fit's answer is reported, as it is.
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <span>
#include <string>
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

TEST(NeverWorseThanFirstFit, CapacityUnderSortedCountsOnTheReportedRun) {
  // Where best fit's own run places less than first fit, run_scenario reports another run: capacity counts copies on
  // that run's state, with its policy, and reports its placements.
  const cel::selector_engine engine;
  using answer = sim::run_report::answer;
  // Each claim's node and devices, in order.
  auto where = [](std::span<const model::claim_outcome> outcomes) {
    std::vector<std::string> out;
    for (const auto& o : outcomes) {
      std::string line = o.claim + " ->";
      if (const auto* a = o.allocated())
        for (const auto& r : a->allocation.results) line += " " + a->node + "/" + std::string(r.device);
      out.push_back(std::move(line));
    }
    return out;
  };
  std::size_t guarded = 0;
  for (unsigned seed = 1; seed <= 100; ++seed) {
    auto doc = json::load(dra_test::random_cluster(seed));
    ASSERT_TRUE(doc) << doc.error().to_string();
    const model::scenario& s = doc->scenario();
    const sim::run_report best = sim::run_scenario(s, engine, alloc::features::all(), alloc::sorted{});
    if (best.placements == answer::policy) continue;
    ++guarded;
    const auto& pod = s.pods.front();
    auto sorted = sim::capacity(s, pod, engine, alloc::features::all(), alloc::sorted{});
    ASSERT_TRUE(sorted) << sorted.error().to_string();
    auto reported = best.placements == answer::first_fit
                        ? sim::capacity(s, pod, engine, alloc::features::all(), alloc::first_fit{})
                        : sim::capacity(s, pod, engine, alloc::features::all(),
                                        sched::until_first_rejection<alloc::sorted>{});
    ASSERT_TRUE(reported) << reported.error().to_string();
    EXPECT_EQ(sorted->run.placements, best.placements) << "seed " << seed;
    // The queue's outcomes come first in the capacity run, the copies' after them.
    ASSERT_GE(sorted->run.outcomes.size(), best.outcomes.size()) << "seed " << seed;
    EXPECT_EQ(where(std::span(sorted->run.outcomes).first(best.outcomes.size())), where(best.outcomes))
        << "seed " << seed;
    EXPECT_EQ(sorted->fits, reported->fits) << "seed " << seed;
    EXPECT_EQ(sorted->nodes, reported->nodes) << "seed " << seed;
  }
  EXPECT_GT(guarded, 0u);
}

}  // namespace
