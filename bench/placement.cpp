// Placement quality, not speed: memory slices each policy places on 20 churned MIG clusters before a pod
// queue's first rejection (bench/churned_mig.hpp), and the headroom: the most any policy could place
// (bench/mig_headroom.hpp); the table in bench/README.md comes from here.
#include "churned_mig.hpp"
#include "mig_headroom.hpp"

#include <dra/alloc/allocator.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace dra;

// Counters: slices placed before the first rejection and in all over all clusters, and how many clusters did worse
// than first fit before the first rejection (0 for sorted, by construction: alloc::guarded_by_first_fit).
template <alloc::allocation_policy Policy>
void BM_ChurnedMigClusters(benchmark::State& state) {
  const cel::selector_engine engine;
  const dra_bench::request_mix mix = state.range(0) == 0 ? dra_bench::request_mix{} : dra_bench::request_mix{4, 3, 2, 1};
  double placed = 0, worse = 0, all = 0;
  for (auto _ : state) {
    placed = worse = all = 0;
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
      const dra_bench::churned_mig_cluster cluster(seed, mix);
      const auto score = dra_bench::score<Policy>(cluster, engine);
      if (!score.overcommit.empty() || !score.error.empty()) state.SkipWithError("an invariant broke");
      placed += score.slices_before_first_rejection;
      all += score.slices_placed;
      if (score.slices_before_first_rejection <
          dra_bench::score<alloc::first_fit>(cluster, engine).slices_before_first_rejection)
        ++worse;
    }
  }
  state.counters["slices_before_first_rejection"] = placed;
  state.counters["clusters_worse_than_first_fit"] = worse;
  state.counters["slices_placed"] = all;
  state.SetLabel(state.range(0) == 0 ? "mix 1g:2g:3g:whole = 1:1:1:1" : "mix 1g:2g:3g:whole = 4:3:2:1");
}
// The headroom, no policy: free memory slices at the start and the exact optimum (the most slices any choice
// of placements could place before the first rejection, knowing the whole queue; bench/mig_headroom.hpp).
void BM_ChurnedMigHeadroom(benchmark::State& state) {
  const dra_bench::request_mix mix =
      state.range(0) == 0 ? dra_bench::request_mix{} : dra_bench::request_mix{4, 3, 2, 1};
  double free = 0, optimum = 0;
  for (auto _ : state) {
    free = optimum = 0;
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
      const auto headroom = dra_bench::headroom(dra_bench::churned_mig_cluster(seed, mix));
      free += headroom.free_slices;
      optimum += headroom.optimum;
    }
  }
  state.counters["free_slices"] = free;
  state.counters["optimum"] = optimum;
  state.SetLabel(state.range(0) == 0 ? "mix 1g:2g:3g:whole = 1:1:1:1" : "mix 1g:2g:3g:whole = 4:3:2:1");
}
BENCHMARK(BM_ChurnedMigHeadroom)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ChurnedMigClusters<alloc::first_fit>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ChurnedMigClusters<alloc::shared_capacity>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ChurnedMigClusters<alloc::sorted>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

// Best fit's own placements, without the comparison with first fit's that `sorted` is reported after
// (alloc::guarded_by_first_fit): what the heuristic alone places.
struct best_fit_alone : alloc::best_fit {
  static constexpr bool never_worse_than_first_fit = false;
};
static_assert(!alloc::guarded_by_first_fit<best_fit_alone>);
BENCHMARK(BM_ChurnedMigClusters<best_fit_alone>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
