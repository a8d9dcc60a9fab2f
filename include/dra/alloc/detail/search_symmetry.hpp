// Interchangeable candidates (implementation; included by search.hpp): once a candidate's whole branch has failed at
// a position of the search, a candidate that every request, constraint and counter of the unit sees the same way
// would fail there too, so the search does not try it.
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/detail/constraints.hpp>
#include <dra/alloc/device_checks.hpp>

#include <algorithm>

namespace dra::alloc {

// Why skipping is safe (docs/allocator.md, "Interchangeable devices"): let d at position p fail with every way of
// completing the unit, and d' at a later position p' be interchangeable with d. Swapping d and d' maps every branch
// below d' onto a branch below d: the same request's later devices come from positions after p', which are after p
// too, and every other choice is unchanged. The swap changes nothing any check reads — selector verdicts, taints,
// capacity, constraint values, the ledger's and the search's hold on them — so each mapped branch ends as the
// original would (fits, runs past the results limit, or meets the same error). Since none below d ended but in
// failure, none below d' would; the first solution found, the errors met and upstream's early stop are unchanged.
// Left out, so that the argument stays simple: `All` requests (they take a fixed list of devices) and claims whose
// constraints name a derived attribute (evaluated per request and device, and may fail).
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::symmetry_applies() const {
  if (std::ranges::any_of(claim_derives_, [](char derives) { return derives != 0; })) return false;
  for (const auto& claim_requests : requests_)
    for (const auto& entries : claim_requests)
      if (std::ranges::any_of(entries, &request_data::all_mode)) return false;
  return true;
}

// Candidates that draw no counters, join no compatibility group, are not shared and are held by nobody in this search
// or the ledger's capacity records: what makes them usable is then their own (selectors, taints, capacity, attributes)
// and whether the ledger holds them.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::may_be_interchangeable(const candidate& c) const {
  return !c.st->shared && !c.st->consumes_counters && c.st->draws.empty() && c.st->group_sets.empty() &&
         c.given_out == nullptr && c.shares == 0 && c.exclusive_for.empty();
}

// Whether candidates a and b are interchangeable for every request and constraint of the unit. Selectors not yet
// evaluated on them are evaluated now (their verdicts are kept as the search's would be); one that fails with an error
// makes them not interchangeable, and the search meets the error where it would have.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::interchangeable(std::uint32_t a, std::uint32_t b) {
  const candidate& x = candidates_[a];
  const candidate& y = candidates_[b];
  if (!may_be_interchangeable(x) || !may_be_interchangeable(y) || x.exclusive_in_state != y.exclusive_in_state)
    return false;
  for (std::size_t ci = 0; ci < claims_.size(); ++ci) {
    for (auto& entries : requests_[ci])
      for (request_data& rd : entries) {
        const auto picks_x = is_selectable(rd, ci, a);
        const auto picks_y = is_selectable(rd, ci, b);
        if (!picks_x || !picks_y || *picks_x != *picks_y) return false;
        if (!*picks_x) continue;
        if (f_.device_taints && (blocking_taint(x.st->view.base(), x.st->rule_taints, *rd.spec) == nullptr) !=
                                    (blocking_taint(y.st->view.base(), y.st->rule_taints, *rd.spec) == nullptr))
          return false;
        if (f_.consumable_capacity && capacity_fits(rd, x) != capacity_fits(rd, y)) return false;
      }
    for (const detail::constraint_state& constraint : constraints_[ci]) {
      const auto* of_x = lookup_attribute(x.st->view, x.st->slice->driver, constraint.attribute);
      const auto* of_y = lookup_attribute(y.st->view, y.st->slice->driver, constraint.attribute);
      if ((of_x == nullptr) != (of_y == nullptr) || (of_x != nullptr && !(of_x->value == of_y->value))) return false;
    }
  }
  return true;
}

}  // namespace dra::alloc
