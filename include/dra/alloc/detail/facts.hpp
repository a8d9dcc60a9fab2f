// The facts policies order candidates by (candidate_facts), computed from a node's candidates and counters.
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/core/quantity.hpp>
#include <dra/model/resource_slice.hpp>

#include <cassert>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dra::alloc::detail {

// One candidate device of a node as the facts need it.
struct candidate_input {
  std::uint32_t pool = 0;
  const model::resource_slice* slice = nullptr;
  flatten::mixin_device_view device;
  bool shared = false;
  bool has_allocations = false;  // shared allocations exist already (its counters are charged)
  bool in_use = false;           // held exclusively: not a placement that is still possible
  // How many pending requests could take it (1 each without a pending demand): a lost placement counts its size
  // that many times, so placements nobody waits for cost nothing.
  double demand = 1;
  std::span<const std::pair<std::uint32_t, quantity>> draws;  // counter slot, amount
  bool used_up = false;  // shared, with some capacity wholly given out
  double capacity_left = 1;  // shared: the share of its scarcest capacity not given out
};

// Candidates in upstream's order (pool by pool, slice by slice) with the counters' totals and what
// is still available of them, per slot. A lost placement counts as often as pending requests could take it
// (`demand`): never when none could, and then it keeps no counter from being stranded either. Cost: for each candidate,
// the devices sharing a counter with it (a GPU's placements) times their counters, and the devices drawing on each
// counter of its sets. A candidate's facts depend only on the candidates sharing its counter sets (its pool's), so one
// pool's may be worked out alone: its candidates, with the totals of its slots, which its draws number from
// `first_slot` on.
[[nodiscard]] inline std::vector<candidate_facts> describe_candidates(std::span<const candidate_input> candidates,
                                                                      std::span<const quantity> slot_totals,
                                                                      std::span<const quantity> slot_available,
                                                                      std::uint32_t first_slot = 0) {
  const std::size_t n = candidates.size();
  std::vector<candidate_facts> facts(n);
  std::vector<double> total(slot_totals.size()), available(slot_totals.size());
  for (std::size_t s = 0; s < slot_totals.size(); ++s) {
    total[s] = slot_totals[s].approximate_double();
    available[s] = slot_available[s].approximate_double();
  }
  std::vector<double> size(n, 0);
  std::vector<bool> possible(n, false);  // a placement that could still be taken
  // Every candidate's draws as doubles, converted once: the loops below visit each many times (a MIG placement's
  // neighbours draw on the same eight memory slices).
  std::vector<std::pair<std::uint32_t, double>> draws;
  std::vector<std::uint32_t> first_draw(n + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    first_draw[i] = static_cast<std::uint32_t>(draws.size());
    for (const auto& [slot, amount] : candidates[i].draws) {
      assert(slot >= first_slot && slot - first_slot < slot_totals.size());
      draws.emplace_back(slot - first_slot, amount.approximate_double());
    }
  }
  first_draw[n] = static_cast<std::uint32_t>(draws.size());
  auto draws_of = [&](std::uint32_t i) {
    return std::span<const std::pair<std::uint32_t, double>>(draws.data() + first_draw[i],
                                                             draws.data() + first_draw[i + 1]);
  };
  // The candidates drawing on each slot, in candidate order: one list, each slot's part from first_user[slot] on
  // (not a vector per slot: a MIG node has 72 slots, and the facts are worked out again on every change).
  std::vector<std::uint32_t> first_user(slot_totals.size() + 1, 0), user_list(draws.size());
  for (const auto& draw : draws) ++first_user[draw.first + 1];
  for (std::size_t slot = 0; slot < slot_totals.size(); ++slot) first_user[slot + 1] += first_user[slot];
  {
    std::vector<std::uint32_t> next(first_user.begin(), first_user.end() - 1);
    for (std::uint32_t i = 0; i < n; ++i)
      for (const auto& draw : draws_of(i)) user_list[next[draw.first]++] = i;
  }
  auto users = [&](std::uint32_t slot) {
    return std::span<const std::uint32_t>(user_list.data() + first_user[slot], user_list.data() + first_user[slot + 1]);
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    const candidate_input& c = candidates[i];
    candidate_facts& f = facts[i];
    f.pool_index = c.pool;
    if (i > 0 && candidates[i - 1].pool == c.pool) {
      const bool same_slice = candidates[i - 1].slice == c.slice;
      f.slice_index = facts[i - 1].slice_index + (same_slice ? 0 : 1);
      f.device_index = same_slice ? facts[i - 1].device_index + 1 : 0;
    }
    f.shared = c.shared;
    f.has_allocations = c.has_allocations;
    f.capacity_left = c.capacity_left;
    f.device = c.device;
    f.demand = c.demand;
    bool fits = !c.in_use;
    for (const auto& [slot, a] : draws_of(i)) {
      if (available[slot] < total[slot]) f.counters_in_use = true;
      if (total[slot] > 0) size[i] += a / total[slot];
      if (a > available[slot]) fits = false;
    }
    f.counter_share = size[i];
    f.available = (fits || (c.shared && c.has_allocations)) && !c.used_up;
    // A shared device that already carries allocations charges no counters when taken again.
    possible[i] = fits && !draws_of(i).empty() && !(c.shared && c.has_allocations);
  }
  // Stamps mark, per candidate, the neighbours and slots already counted and the neighbours it makes impossible.
  std::vector<std::uint32_t> seen_candidate(n, UINT32_MAX), seen_slot(slot_totals.size(), UINT32_MAX);
  std::vector<std::uint32_t> lost_by(n, UINT32_MAX);
  std::vector<std::uint32_t> set_slots;  // the slots of the candidate's counter sets
  std::vector<double> taken(slot_totals.size(), 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!possible[i]) continue;
    for (const auto& [slot, amount] : draws_of(i)) taken[slot] += amount;
    double lost = size[i], free = 0;
    set_slots.clear();
    seen_candidate[i] = i;
    auto count_slot = [&](std::uint32_t slot) {
      if (seen_slot[slot] == i) return;
      seen_slot[slot] = i;
      set_slots.push_back(slot);
      free += total[slot] > 0 ? available[slot] / total[slot] : 1;
    };
    for (const auto& [slot, amount] : draws_of(i)) {
      for (std::uint32_t d : users(slot)) {
        if (seen_candidate[d] == i) continue;
        seen_candidate[d] = i;
        for (const auto& [other_slot, other_amount] : draws_of(d)) count_slot(other_slot);
        if (!possible[d]) continue;
        for (const auto& [other_slot, other_amount] : draws_of(d))
          if (other_amount + taken[other_slot] > available[other_slot]) {
            lost += size[d] * candidates[d].demand;
            lost_by[d] = i;
            break;
          }
      }
      count_slot(slot);
    }
    // Counters left wholly free that some placement could use before and none can after: a 1g MIG slice at
    // memory slice 6 strands slice 7 once no 3g at 4 fits. A counter it draws itself is never wholly free after.
    double stranded = 0;
    for (std::uint32_t slot : set_slots) {
      if (total[slot] <= 0 || taken[slot] > 0 || available[slot] < total[slot]) continue;
      bool usable_before = false, usable_after = false;
      for (std::uint32_t d : users(slot)) {
        if (!possible[d] || candidates[d].demand <= 0 || d == i) continue;
        usable_before = true;
        if (lost_by[d] != i) usable_after = true;
      }
      if (usable_before && !usable_after) stranded += 1;
    }
    for (const auto& [slot, amount] : draws_of(i)) taken[slot] = 0;
    facts[i].placements_lost = lost;
    facts[i].counters_stranded = stranded;
    facts[i].counter_sets_free = set_slots.empty() ? 1 : free / static_cast<double>(set_slots.size());
  }
  return facts;
}

}  // namespace dra::alloc::detail
