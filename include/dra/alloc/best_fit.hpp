// The best-fit policy (`sorted`): packs what is already in use and keeps the largest placements of counter sets free.
#pragma once

#include <dra/alloc/concepts.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

namespace dra::alloc {

// Best fit. Within a node it tries, in this order:
//  0. devices a search may take (candidate_facts::available) before those held or short of counters, which only an
//     adminAccess request could take: a long queue would otherwise walk past every device it already filled;
//  1. shared devices that already carry allocations (as shared_capacity), the one with the least capacity left first
//     (the tightest that fits), so fresh ones stay whole and roomy ones stay roomy;
//  2. devices on counter sets already partly used (a MIG slice of a GPU that is already split
//     before one of an idle GPU), so idle GPUs stay whole;
//  3. the device that strands the fewest counters (`counters_stranded`: left wholly free, and no placement
//     still possible draws on them): a 1g slice at memory slice 6 of a GPU whose 3g at 4 is still free strands
//     slice 7, which only that 3g (or the whole GPU) uses, so the 1g goes elsewhere;
//  4. the device whose taking makes the fewest placements of its counter sets impossible
//     (`placements_lost`): a 1g slice goes where it does not block the only free 3g or 4g
//     placement, which keeps the largest contiguous free region of memory slices;
//  5. the fullest counter sets, then the smallest device; ties keep upstream's order.
// Across nodes it tries the most-used nodes first, so that the cluster packs and whole nodes
// stay free. Results are valid allocations (the search is the same as for first_fit); they
// differ from upstream's where upstream would fragment.
struct best_fit {
  // Packing by a heuristic can still place less than first fit on some queues; the runner keeps first fit's
  // answer there (guarded_by_first_fit), so best fit can be switched on blindly.
  static constexpr bool never_worse_than_first_fit = true;

  [[nodiscard]] static auto candidate_rank(const candidate_facts& f) noexcept {
    return std::tuple(f.available ? 0 : 1, f.shared && f.has_allocations ? 0 : 1, f.capacity_left,
                      f.counter_sets_free < 1 ? 0 : 1, f.counters_stranded, f.placements_lost, f.counter_sets_free,
                      f.counter_share);
  }
  void order_candidates(std::span<std::uint32_t> order, std::span<const candidate_facts> facts) const {
    // Keys made once per candidate, not once per comparison: a node may have thousands of candidates.
    std::vector<decltype(candidate_rank(facts[0]))> keys(facts.size());
    for (const std::uint32_t i : order) keys[i] = candidate_rank(facts[i]);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  }
  // The most used node first.
  [[nodiscard]] static double node_rank(const node_facts& f) noexcept { return -f.used_share; }
  void order_nodes(std::span<std::uint32_t> order, std::span<const node_facts> facts) const {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return node_rank(facts[a]) < node_rank(facts[b]); });
  }
};

// The name the dra command and the scenario format use for best fit.
using sorted = best_fit;

static_assert(node_ranking_policy<best_fit>);
static_assert(guarded_by_first_fit<best_fit>);
static_assert(ranks_by_key<best_fit>);
static_assert(ranks_nodes_by_key<best_fit>);

}  // namespace dra::alloc
