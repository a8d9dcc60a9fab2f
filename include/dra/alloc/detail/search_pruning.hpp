// What lets the search skip work without changing a result (implementation; included by search.hpp): candidates
// the ledger has taken, candidates a fixed matchAttribute value rules out, and counting bounds that prove a branch
// hopeless before it is enumerated (too few devices for the requests still to be served, together or one by one;
// too few devices sharing a value for matchAttribute; too few distinct values for distinctAttribute).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/device_checks.hpp>

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace dra::alloc {

// Whether no way of completing the current branch serves every request still to come: the rest of the current
// request (`needed` devices from position `start`) and every later request of the unit. Usability is judged
// optimistically (counters as they are now, which only get scarcer deeper; a selector that fails with an error
// counts as a match), so a branch with a solution is never cut and the first solution found stays upstream's.
// Each request alone needs enough usable devices (a request never takes one device twice, shared or not), and each
// matchAttribute constraint a value that enough of every request's usable devices carry. Counts over several
// requests (their union, a matchAttribute group) count a shared device once per request it may serve, as it may
// serve each of them; the union leaves out admin-access requests, which may take a device another claim holds.
// `All` requests are left to the search, and so is every branch in which a selector fails with an error: upstream's
// search may meet that error, so dra must too.
// One pass over the candidates, stopped as soon as every count is reached, so that a claim that fits pays little.
// One request still to come in unit_hopeless's count: the rest of the current request, or a later one.
template <allocation_policy Policy, selector_engine Engine>
struct basic_allocator<Policy, Engine>::search::unit_demand {
  std::size_t claim = 0;
  std::vector<request_data*> alternatives;  // a firstAvailable request: any one of them
  std::size_t need = 0;
  std::size_t from = 0;   // the first position of order_ it may take
  std::size_t found = 0;  // candidates usable for at least one alternative
  bool admin = false;     // may take devices other claims hold: left out of the union
};

// A constraint in unit_hopeless's count: the demands it binds, the devices they need, and the values seen so far.
template <allocation_policy Policy, selector_engine Engine>
struct basic_allocator<Policy, Engine>::search::unit_bound {
  const detail::constraint_state* constraint = nullptr;
  std::vector<std::size_t> binds;  // indices into demands
  std::size_t need = 0;
  bool fresh = true;
  std::unordered_set<std::string> known;  // matchAttribute: the values still possible; distinct: values taken
  struct group {
    std::size_t slots = 0;   // the devices that may join it, a shared one per request it may serve
    std::size_t served = 0;  // where its counts of devices usable for each bound demand start in `served`
  };
  std::unordered_map<std::string, group> per_value;  // distinct: only the values seen
  std::size_t best = 0;                              // the largest group, or the number of distinct values
  bool each_served = false;         // matchAttribute: some value has enough usable devices for each bound demand
  std::vector<std::size_t> served;  // per group, per bound demand (one vector: no allocation per value)
};

// Whether no way of completing the current branch serves every request still to come: the rest of the current
// request (`needed` devices from position `start`) and every later request of the unit. Usability is judged
// optimistically (counters as they are now, which only get scarcer deeper; a selector that fails with an error
// counts as a match), so a branch with a solution is never cut and the first solution found stays upstream's.
// Each request alone needs enough usable devices (a request never takes one device twice, shared or not), and each
// matchAttribute constraint a value that enough of every request's usable devices carry. Counts over several
// requests (their union, a matchAttribute group) count a shared device once per request it may serve, as it may
// serve each of them; the union leaves out admin-access requests, which may take a device another claim holds.
// `All` requests are left to the search, and so is every branch in which a selector fails with an error: upstream's
// search may meet that error, so dra must too.
// One pass over the candidates, stopped as soon as every count is reached, so that a claim that fits pays little.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::unit_hopeless(std::size_t ci, std::size_t ri, request_data& rd,
                                                            std::size_t needed, std::size_t start) {
  if (std::any_of(claim_derives_.begin() + static_cast<std::ptrdiff_t>(ci), claim_derives_.end(),
                  [](char derives) { return derives != 0; }))
    return false;
  std::vector<unit_demand> demands;
  if (!gather_unit_demands(ci, ri, rd, needed, start, demands)) return false;
  std::size_t exclusive_total = 0;      // what the union must hold: the devices of requests without admin access
  bool gives_back = negative_amounts_;  // a negative amount may give a shared device's capacity back deeper
  for (const unit_demand& d : demands) {
    if (!d.admin) exclusive_total += d.need;
    for (const request_data* r : d.alternatives) {
      if (r->all_mode) return false;
      if (r->spec->capacity)
        for (const auto& wanted : r->spec->capacity->requests) gives_back = gives_back || wanted.value.sign() < 0;
    }
  }
  std::vector<unit_bound> bounds = unit_bounds(ci, demands);
  if (unit_satisfiable(demands, bounds, exclusive_total, gives_back)) return false;
  // Hopeless: unless a selector failed with an error the search could meet on its way to failing.
  return !selector_error_ahead(demands);
}

// unit_hopeless's demands: the rest of the current request, then every later request of the unit. False when no
// count applies: a claim may stop early at the result limit, or a single device is all that is needed.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::gather_unit_demands(std::size_t ci, std::size_t ri, request_data& rd,
                                                                  std::size_t needed, std::size_t start,
                                                                  std::vector<unit_demand>& demands) {
  std::size_t total = needed;
  demands.push_back({ci, {&rd}, needed, start, 0, rd.admin_access});
  for (std::size_t c = ci; c < claims_.size(); ++c) {
    if (!within_result_limit_[c]) return false;
    for (std::size_t r = c == ci ? ri + 1 : 0; r < requests_[c].size(); ++r) {
      unit_demand d{c, {}, std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max(), 0, false};
      for (auto& alternative : requests_[c][r]) {
        d.alternatives.push_back(&alternative);
        d.need = std::min(d.need, alternative.num_devices);
        // What the ledger leaves unusable stays so in this search: a later request starts where its search would.
        d.from = std::min(d.from, first_live(alternative));
        d.admin = d.admin || alternative.admin_access;
      }
      total += d.need;
      demands.push_back(std::move(d));
    }
  }
  return total >= 2;  // one device: the search's own loop is as cheap as any bound
}

// The constraints of the unit's claims that bind demands needing enough devices to be worth counting.
template <allocation_policy Policy, selector_engine Engine>
auto basic_allocator<Policy, Engine>::search::unit_bounds(std::size_t ci, const std::vector<unit_demand>& demands)
    -> std::vector<unit_bound> {
  std::vector<unit_bound> bounds;
  for (std::size_t c = ci; c < claims_.size(); ++c)
    for (const detail::constraint_state& constraint : constraints_[c]) {
      unit_bound b;
      b.constraint = &constraint;
      for (std::size_t di = 0; di < demands.size(); ++di) {
        const unit_demand& d = demands[di];
        const bool binds = d.claim == c && std::all_of(d.alternatives.begin(), d.alternatives.end(), [&](auto* r) {
          return constraint.applies(r->base_name, r->is_sub ? r->name : std::string_view{});
        });
        if (binds) b.binds.push_back(di), b.need += d.need;
      }
      b.fresh = c != ci || (constraint.is_match ? constraint.count == 0 : constraint.taken.empty());
      if (b.need == 0 || (b.fresh && b.need < 2)) continue;
      if (!b.fresh) b.known = taken_values(constraint);
      // With one demand bound, its group's size is what it needs: `best` says it all.
      b.each_served = !constraint.is_match || b.binds.size() == 1;
      b.per_value.reserve(16);  // a node rarely has more values: no rehash while counting
      bounds.push_back(std::move(b));
    }
  return bounds;
}

// With every amount asked non-negative, only a device's own capacity or default can make an amount negative.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::negative_default(const candidate& c) {
  for (const auto e : c.st->view.capacities()) {
    const auto& policy = e.value->request_policy;
    if (e.value->value.sign() < 0 || (policy && policy->default_value && policy->default_value->sign() < 0))
      return true;
  }
  return false;
}

// Whether alternative `r` of demand `d` may still take candidate `ix`, judged optimistically (see unit_hopeless).
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::unit_usable(request_data& r, const unit_demand& d, std::uint32_t ix,
                                                          bool gives_back) {
  const candidate& c = candidates_[ix];
  // Admin access may take a device other claims hold, not one its own claim holds.
  if (d.admin ? std::find(c.exclusive_for.begin(), c.exclusive_for.end(), d.claim) != c.exclusive_for.end()
              : in_use(c))
    return false;
  if (r.selectable[ix] == detail::selector_verdict::unknown)
    (void)is_selectable(r, d.claim, ix);  // an error leaves it unknown: usable
  if (r.selectable[ix] == detail::selector_verdict::rejected) return false;
  if (!f_.device_binding_and_status && !c.st->view.base().binding_conditions.empty()) return false;
  // A shared device's capacity only shrinks deeper unless some amount is negative: then only its policy counts.
  const bool capacity_now = !c.st->shared || !(gives_back || negative_default(c));
  return may_still_take(d.claim, r, ix, capacity_now);
}

// The one pass of unit_hopeless: whether every count is reached, stopping as soon as it is.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::unit_satisfiable(std::vector<unit_demand>& demands,
                                                               std::vector<unit_bound>& bounds,
                                                               std::size_t exclusive_total, bool gives_back) {
  std::size_t union_size = 0;  // the devices the requests without admin access may take, a shared one per request
  std::vector<char> usable_for(demands.size(), 0);
  auto satisfied = [&] {
    return union_size >= exclusive_total &&
           std::all_of(demands.begin(), demands.end(), [](const unit_demand& d) { return d.found >= d.need; }) &&
           std::all_of(bounds.begin(), bounds.end(),
                       [](const unit_bound& b) { return b.each_served && b.best >= b.need; });
  };
  const std::size_t first =
      std::min_element(demands.begin(), demands.end(), [](const unit_demand& a, const unit_demand& b) {
        return a.from < b.from;
      })->from;
  for (std::size_t p = first; p < order_.size(); ++p) {
    const std::uint32_t ix = order_[p];
    const candidate& c = candidates_[ix];
    std::size_t exclusive_uses = 0;  // requests without admin access that may take it
    if (!mark_usable(demands, p, ix, gives_back, usable_for, exclusive_uses)) continue;
    if (exclusive_uses > 0) union_size += c.st->shared ? exclusive_uses : 1;
    for (unit_bound& b : bounds) count_values(b, c, ix, demands, usable_for);
    if (satisfied()) return true;
  }
  return satisfied();
}

// Sets `usable_for` (per demand: whether it may take the candidate at position `p`) and counts what it serves; false
// when no demand may take it.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::mark_usable(std::vector<unit_demand>& demands, std::size_t p,
                                                          std::uint32_t ix, bool gives_back,
                                                          std::vector<char>& usable_for, std::size_t& exclusive_uses) {
  bool any = false;
  for (std::size_t di = 0; di < demands.size(); ++di) {
    unit_demand& d = demands[di];
    usable_for[di] = 0;
    if (p < d.from) continue;
    for (request_data* r : d.alternatives)
      if (unit_usable(*r, d, ix, gives_back)) {
        usable_for[di] = 1;
        break;
      }
    if (!usable_for[di]) continue;
    ++d.found, any = true;
    if (!d.admin) ++exclusive_uses;
  }
  return any;
}

// Adds candidate `ix`'s values to the groups (matchAttribute) or distinct values (distinctAttribute) of bound `b`.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::count_values(unit_bound& b, const candidate& c, std::uint32_t ix,
                                                           const std::vector<unit_demand>& demands,
                                                           const std::vector<char>& usable_for) {
  if (std::none_of(b.binds.begin(), b.binds.end(), [&](std::size_t di) { return usable_for[di] != 0; })) return;
  auto keys = detail::constraint_keys(lookup_attribute(c.st->view, c.st->slice->driver, b.constraint->attribute),
                                      b.constraint->list_types, ix);
  if (b.constraint->is_match) {
    // Slots of the group this device may fill: one, or for a shared device one per bound request.
    const std::size_t slots =
        c.st->shared ? static_cast<std::size_t>(std::count_if(b.binds.begin(), b.binds.end(),
                                                              [&](std::size_t di) { return usable_for[di] != 0; }))
                     : 1;
    for (auto& k : keys) {
      if (!b.fresh && !b.known.contains(k)) continue;
      auto [at, added] = b.per_value.try_emplace(std::move(k));
      auto& group = at->second;
      b.best = std::max(b.best, group.slots += slots);
      if (b.each_served) continue;
      if (added) {
        group.served = b.served.size();
        b.served.resize(b.served.size() + b.binds.size());
      }
      bool all_served = true;
      for (std::size_t i = 0; i < b.binds.size(); ++i) {
        std::size_t& count = b.served[group.served + i];
        if (usable_for[b.binds[i]]) ++count;
        all_served = all_served && count >= demands[b.binds[i]].need;
      }
      b.each_served = all_served;
    }
  } else if (std::none_of(keys.begin(), keys.end(), [&](const std::string& k) { return b.known.contains(k); })) {
    for (auto& k : keys) b.per_value.try_emplace(std::move(k));
    b.best = b.per_value.size();
  }
}

// Whether a selector the search could meet on its way to failing fails with an error (so no branch may be cut).
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::selector_error_ahead(const std::vector<unit_demand>& demands) {
  for (std::size_t di = 0; di < demands.size(); ++di)
    for (request_data* r : demands[di].alternatives)
      for (std::size_t p = demands[di].from; p < order_.size(); ++p) {
        const std::uint32_t ix = order_[p];
        const candidate& c = candidates_[ix];
        const bool taken = demands[di].admin ? std::find(c.exclusive_for.begin(), c.exclusive_for.end(),
                                                         demands[di].claim) != c.exclusive_for.end()
                                             : in_use(c);
        if (r->selectable[ix] != detail::selector_verdict::unknown || taken) continue;
        if (!is_selectable(*r, demands[di].claim, ix)) return true;
      }
  return false;
}

// What a constraint's devices taken so far allow: for matchAttribute the values every later device may share (the
// first device's, or the intersection of lists), for distinctAttribute the values later devices must avoid.
template <allocation_policy Policy, selector_engine Engine>
std::unordered_set<std::string> basic_allocator<Policy, Engine>::search::taken_values(
    const detail::constraint_state& constraint) {
  std::vector<std::string> keys;
  if (constraint.is_match && constraint.list_types)
    keys = detail::value_keys(constraint.intersection);
  else if (constraint.is_match && detail::scalar_kind(*constraint.first))
    keys = detail::value_keys(detail::attribute_set::of(constraint.first));
  if (!constraint.is_match)
    for (const auto* a : constraint.taken)
      if (constraint.list_types || detail::scalar_kind(*a))
        for (auto& k : detail::value_keys(detail::attribute_set::of(a))) keys.push_back(std::move(k));
  return {keys.begin(), keys.end()};
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::short_of_counters_in_state(const candidate& c) const {
  // A shared device with allocations draws no counters again; any other draws them on every allocation.
  if (!c.st->consumes_counters || (c.st->shared && c.given_out != nullptr)) return false;
  if (!f_.partitionable_devices || layout_->overdrawn[c.st->pool]) return true;
  return std::any_of(c.st->draws.begin(), c.st->draws.end(), [&](const auto& draw) {
    return draw.second > layout_->slots[draw.first].available;
  });
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::short_of_capacity_in_state(const request_data& rd,
                                                                         const candidate& c) const {
  // Only what the ledger has given out of a shared device changes whether the request's capacity fits.
  return f_.consumable_capacity && c.given_out != nullptr && !capacity_fits(rd, c, capacity_counted::ledger);
}

template <allocation_policy Policy, selector_engine Engine>
std::size_t basic_allocator<Policy, Engine>::search::first_live(request_data& rd) {
  // Only first_fit's order is the same in every search, and admin access may take devices the ledger holds. The
  // capacity this search gives out only adds to what the ledger gave out, unless some request asked for a negative
  // amount.
  if (!keeps_upstream_order<Policy> || rd.admin_access || negative_amounts_) return 0;
  auto& first = *rd.first_live;
  while (first < candidates_.size()) {
    const candidate& c = candidates_[first];
    const detail::selector_verdict picked = rd.selectable[first];
    if (!(c.exclusive_in_state || picked == detail::selector_verdict::rejected ||
          (picked == detail::selector_verdict::selected &&
           (short_of_counters_in_state(c) || short_of_capacity_in_state(rd, c)))))
      break;
    ++first;
  }
  return first;
}

template <allocation_policy Policy, selector_engine Engine>
const std::vector<std::uint32_t>* basic_allocator<Policy, Engine>::search::with_fixed_value(std::size_t ci,
                                                                                            request_data& rd) {
  // Once a matchAttribute constraint has its value, a candidate without it fails when the constraint is added,
  // after checks that have no error to report once every selector of the request is known: first_fit (whose
  // order is the candidates' own) may then visit only the candidates with the value, in order. Selectors not yet
  // known are evaluated first, once per selection (their verdicts are kept); if one has an error, the full loop
  // meets it where upstream does.
  if (!keeps_upstream_order<Policy> || claim_derives_[ci]) return nullptr;
  auto every_selector_known = [&] {
    using coverage = typename node_pools::selection::coverage;
    if (rd.selection->evaluated == coverage::partly) {
      rd.selection->evaluated = coverage::fully;
      for (std::uint32_t ix = 0; ix < candidates_.size(); ++ix)
        if (rd.selectable[ix] == detail::selector_verdict::unknown && !is_selectable(rd, ci, ix)) {
          rd.selection->evaluated = coverage::failed;
          break;
        }
    }
    return rd.selection->evaluated == coverage::fully;
  };
  const std::string_view sub = rd.is_sub ? rd.name : std::string_view{};
  for (const detail::constraint_state& constraint : constraints_[ci]) {
    if (!constraint.is_match || constraint.count == 0 || !constraint.applies(rd.base_name, sub)) continue;
    const auto keys = taken_values(constraint);
    if (keys.size() != 1) continue;  // no value (nothing can join) or several: left to the full loop
    if (!every_selector_known()) return nullptr;
    auto& by_value = layout_->attribute_index[std::string(constraint.attribute)];
    if (!by_value.built) {
      for (std::uint32_t ix = 0; ix < candidates_.size(); ++ix) {
        const candidate& c = candidates_[ix];
        for (auto& key : detail::constraint_keys(
                 lookup_attribute(c.st->view, c.st->slice->driver, constraint.attribute),
                 constraint.list_types, ix))
          by_value.candidates[std::move(key)].push_back(ix);
      }
      by_value.built = true;
    }
    static const std::vector<std::uint32_t> none;
    auto it = by_value.candidates.find(*keys.begin());
    return it == by_value.candidates.end() ? &none : &it->second;
  }
  return nullptr;
}

// Whether the device, not in use and picked by the request's selectors, could still be taken for it deeper in this
// branch: capacity, taints and each applying constraint's attribute do not change there, and counters only get
// scarcer (exclusive devices always draw them; a shared one only when it has no allocation yet).
// With `capacity_now` false, capacity is judged by the device's policy alone (what is given out may shrink deeper).
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::may_still_take(std::size_t ci, const request_data& rd, std::uint32_t ix,
                                                             bool capacity_now) const {
  const candidate& c = candidates_[ix];
  if (f_.consumable_capacity &&
      !(capacity_now ? capacity_fits_now(rd, ix) : capacity_fits(rd, c, capacity_counted::none)))
    return false;
  if (f_.device_taints && blocking_taint(c.st->view.base(), c.st->rule_taints, *rd.spec) != nullptr) return false;
  if (c.st->consumes_counters && !(c.st->shared && (c.given_out != nullptr || c.shares > 0))) {
    if (!f_.partitionable_devices || pool_overdrawn_[c.st->pool]) return false;
    for (const auto& [slot, amount] : c.st->draws) {
      auto sum = slots_[slot].consumed.add(amount);
      if (!sum || *sum > slots_[slot].available) return false;
    }
  }
  const std::string_view sub = rd.is_sub ? rd.name : std::string_view{};
  for (const auto& constraint : constraints_[ci])
    if (constraint.applies(rd.base_name, sub) &&
        lookup_attribute(c.st->view, c.st->slice->driver, constraint.attribute) == nullptr)
      return false;
  return true;
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::hopeless(std::size_t ci, request_data& rd, std::size_t needed,
                                                       std::size_t start) {
  // Within one request the search only moves forward, and nothing it does
  // deeper changes whether a later candidate is in use, selectable or has
  // capacity; so fewer usable candidates than devices still needed means
  // this branch cannot succeed. Unknown selector results are evaluated
  // first (in upstream's order) so that pruning never hides an error.
  if (claim_derives_[ci]) return false;
  auto usable = [&](std::uint32_t ix, bool unknown_counts) {
    const candidate& c = candidates_[ix];
    if (rd.admin_access ? std::find(c.exclusive_for.begin(), c.exclusive_for.end(), ci) != c.exclusive_for.end()
                        : in_use(c))
      return false;
    if (!f_.device_binding_and_status && !c.st->view.base().binding_conditions.empty()) return false;
    if (rd.selectable[ix] == detail::selector_verdict::rejected ||
        (rd.selectable[ix] == detail::selector_verdict::unknown && !unknown_counts))
      return false;
    return may_still_take(ci, rd, ix);
  };
  std::size_t possible = 0;
  for (std::size_t p = start; p < order_.size(); ++p)
    if (usable(order_[p], true) && ++possible >= needed) return false;
  for (std::size_t p = start; p < order_.size(); ++p) {
    std::uint32_t ix = order_[p];
    if (rd.selectable[ix] != detail::selector_verdict::unknown) continue;
    const candidate& c = candidates_[ix];
    if (rd.admin_access ? std::find(c.exclusive_for.begin(), c.exclusive_for.end(), ci) != c.exclusive_for.end()
                        : in_use(c))
      continue;
    if (!is_selectable(rd, ci, ix)) return false;  // an error: let the search meet it where upstream does
  }
  return true;
}

}  // namespace dra::alloc
