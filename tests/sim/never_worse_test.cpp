// Best fit never places less than first fit (alloc::guarded_by_first_fit): on random clusters and queues, the
// runner's answer under `sorted` places at least as many claims, claims before the first rejection and pods as
// first fit's; where best fit's own heuristic answer would place less, first fit's answer is reported, as it is.
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "random_cluster.hpp"

namespace {

using namespace dra;

TEST(NeverWorseThanFirstFit, SortedPlacesAtLeastWhatFirstFitPlacesOnRandomClusters) {
  const cel::selector_engine engine;
  std::size_t kept = 0, better = 0;
  for (unsigned seed = 1; seed <= 100; ++seed) {
    auto doc = json::load(dra_test::random_cluster(seed));
    ASSERT_TRUE(doc) << doc.error().to_string();
    const model::scenario& s = doc->scenario();
    const sim::run_report first = sim::run_scenario(s, engine, alloc::features::all(), alloc::first_fit{});
    const sim::run_report best = sim::run_scenario(s, engine, alloc::features::all(), alloc::sorted{});
    // Best fit's own answer, without the comparison.
    const sim::run_report heuristic =
        sim::detail::scenario_run<cel::selector_engine, alloc::sorted>(s, engine, alloc::features::all(), {}).run();
    const auto first_counts = sim::count_placements(first);
    EXPECT_FALSE(sim::places_less(sim::count_placements(best), first_counts)) << "seed " << seed;
    EXPECT_FALSE(first.first_fit_kept);
    if (sim::places_less(sim::count_placements(heuristic), first_counts)) {
      ++kept;
      EXPECT_TRUE(best.first_fit_kept) << "seed " << seed;
      EXPECT_EQ(json::output_document(best.outcomes), json::output_document(first.outcomes)) << "seed " << seed;
    } else {
      EXPECT_FALSE(best.first_fit_kept) << "seed " << seed;
      EXPECT_EQ(json::output_document(best.outcomes), json::output_document(heuristic.outcomes)) << "seed " << seed;
      better += sim::places_less(first_counts, sim::count_placements(best)) ? 1 : 0;
    }
  }
  // The clusters include queues where the heuristic alone places less, so the comparison is exercised, and queues
  // where best fit places more than first fit, whose answers are kept.
  EXPECT_GT(kept, 0u);
  EXPECT_GT(better, 0u);
  std::cout << "seeds where first fit's answer was kept: " << kept << ", where best fit placed more: " << better
            << "\n";
}

}  // namespace
