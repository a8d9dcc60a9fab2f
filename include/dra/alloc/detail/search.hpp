// The backtracking search behind basic_allocator::allocate (implementation; included by allocator.hpp).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/detail/facts.hpp>

#include <array>

namespace dra::alloc {

template <allocation_policy Policy, selector_engine Engine>
auto basic_allocator<Policy, Engine>::search::enter_node() -> result<node_pools*> {
  auto gathered = a_.node_entry(node_);
  if (!gathered) return gathered.error();
  const auto cached = *gathered;
  pools_ = cached->second.pools.get();
  if (!cached->second.laid_out) {
    lay_out(cached->second);
    cached->second.laid_out = true;
  }
  node_pools& layout = cached->second;
  layout_ = &layout;
  if (layout.searching) {  // a search was cut short (by an exception): its leftovers go
    for (candidate& c : layout.live) c.exclusive_for.clear(), c.shares = 0, c.allocating.clear();
    for (counter_slot& slot : layout.slots) slot.consumed = quantity{};
  }
  // Refresh what the ledger says about the devices added since the last search on this node.
  if (layout.ledger_generation != a_.state_->generation()) {
    refresh_all(layout);
  } else if (const auto changes = a_.state_->changed_devices_since(layout.changes_seen); changes.size() <= pools_->size()) {
    for (const device_ref& changed : changes) refresh_changed(layout, changed);
  } else {
    refresh_moved_pools(layout, changes);
  }
  layout.ledger_generation = a_.state_->generation();
  layout.changes_seen = a_.state_->changes_seen();
  candidates_ = layout.live;
  slots_ = layout.slots;
  pool_overdrawn_ = layout.overdrawn;
  return &layout;
}

// An allocated device's draws come off its pool's counters.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::charge(node_pools& layout, std::uint32_t h) {
  const counter_holder& holder = layout.counter_holders[h];
  layout.charged[h] = 1;
  if constexpr (uses_facts<Policy>) layout.ranking.pool_moved(holder.pool);
  for (const auto& [slot, amount] : holder.draws)
    if (auto rest = layout.slot_available[slot].sub(amount)) layout.slot_available[slot] = *rest;
  const auto [first_slot, last_slot] = layout.pool_slots[holder.pool];
  layout.overdrawn[holder.pool] = 0;
  for (std::uint32_t i = first_slot; i < last_slot; ++i) {
    layout.slots[i].available = layout.slot_available[i];
    if (layout.slot_available[i].sign() < 0) layout.overdrawn[holder.pool] = 1;
  }
}

// Takes in what the ledger says of the device at `place` (`held`: its state there, or null).
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::refresh(node_pools& layout, const device_place& place,
                                                      const ledger::device_state* held) {
  if (place.candidate != device_place::npos) {
    candidate& c = layout.live[place.candidate];
    ++c.ledger_stamp;
    if constexpr (uses_facts<Policy>) layout.ranking.pool_moved(c.st->pool);
    c.exclusive_in_state = held != nullptr && held->exclusive;
    c.given_out = held != nullptr && held->given_out ? &*held->given_out : nullptr;
  }
  if (place.holder != device_place::npos && !layout.charged[place.holder] && held != nullptr && held->allocated())
    charge(layout, place.holder);
}

// A ledger assigned anew: every device of the node is looked up again.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::refresh_all(node_pools& layout) {
  // A ledger assigned anew may hold less than before (claims replaced): what a first_live skipped may be free.
  layout.ranking.valid = false;
  for (auto& entry : layout.selections) entry.second.first_live.clear();
  layout.slot_available = layout.slot_values;
  for (std::size_t i = 0; i < layout.slots.size(); ++i) layout.slots[i].available = layout.slot_values[i];
  std::ranges::fill(layout.overdrawn, 0);
  std::ranges::fill(layout.charged, 0);
  // Devices of pools the ledger never added to are looked up no further (a node is often searched first empty).
  std::vector<char> added_to(pools_->size());
  for (std::size_t p = 0; p < pools_->size(); ++p)
    added_to[p] = a_.state_->pool_version((*pools_)[p].key.driver, (*pools_)[p].key.pool) != 0;
  auto held = [&](std::uint32_t pool, const device_ref& id) {
    return added_to[pool] ? a_.state_->find(id) : nullptr;
  };
  for (std::uint32_t i = 0; i < layout.candidates.size(); ++i)
    refresh(layout, {i, device_place::npos}, held(layout.candidates[i].pool, layout.candidates[i].id));
  for (std::uint32_t h = 0; h < layout.counter_holders.size(); ++h)
    refresh(layout, {device_place::npos, h}, held(layout.counter_holders[h].pool, layout.counter_holders[h].id));
  layout.pool_versions.resize(pools_->size());
  for (std::size_t p = 0; p < pools_->size(); ++p)
    layout.pool_versions[p] = a_.state_->pool_version((*pools_)[p].key.driver, (*pools_)[p].key.pool);
}

// One device the ledger logged as changed: each of its places on the node (none when it is not there).
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::refresh_changed(node_pools& layout, const device_ref& changed) {
  const auto [first, last] = layout.places.equal_range(changed);
  if (first == last) return;
  const ledger::device_state* held = a_.state_->find(changed);
  for (auto it = first; it != last; ++it) refresh(layout, it->second, held);
}

// More changes than the node has pools (a node searched again after many pods went elsewhere): only changes to its
// own pools matter, so compare the pools' versions and look up (hash) only changes in pools that moved.
// (The versions kept may be older than the changes replayed by refresh_changed: a pool is then taken for moved, never
// missed.)
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::refresh_moved_pools(node_pools& layout,
                                                                  std::span<const device_ref> changes) {
  std::vector<std::uint32_t> moved;
  for (std::uint32_t p = 0; p < pools_->size(); ++p) {
    const auto& key = (*pools_)[p].key;
    const std::uint64_t version = a_.state_->pool_version(key.driver, key.pool);
    if (version != layout.pool_versions[p]) moved.push_back(p);
    layout.pool_versions[p] = version;
  }
  // Many moved pools (pools every node sees): telling changes apart by pool would cost more than looking them up.
  const bool filter_by_pool = moved.size() <= 8;
  if (!moved.empty())
    for (const device_ref& changed : changes) {
      const bool in_moved_pool = !filter_by_pool || std::ranges::any_of(moved, [&](std::uint32_t p) {
        return (*pools_)[p].key.pool == changed.pool && (*pools_)[p].key.driver == changed.driver;
      });
      if (in_moved_pool) refresh_changed(layout, changed);
    }
}

template <allocation_policy Policy, selector_engine Engine>
result<allocation_outcome> basic_allocator<Policy, Engine>::search::run() {
  auto entered = enter_node();
  if (!entered) return std::move(entered).error();
  node_pools& layout = **entered;
  layout.searching = true;
  // Compatibility groups of allocated devices, read from their slices as upstream does.
  group_state_.assign(layout.group_slots, {});
  group_undo_.clear();
  for (const auto& holder : layout.group_holders)
    if (a_.state_->allocated(holder.id))
      for (const auto& [slot, declared] : holder.group_sets) group_state_[slot].add(declared);
  order_ = layout.identity;
  auto outcome = search_and_build();
  // The search undid every device it tried and gave back; what the chosen ones took goes back too.
  for (std::size_t ci = results_.size(); ci-- > 0;)
    while (!results_[ci].empty()) deallocate(ci, results_[ci].back().candidate);
  layout.searching = false;
  return outcome;
}

// The candidates in the policy's order of their facts, as the node keeps them (node_pools::kept_ranking): worked out
// for every candidate when the pending demand's weights changed, else again only for the pools the ledger changed
// since. Every candidate is weighed, not only those some request of these claims picks: a candidate's facts depend on
// its neighbours' draws, not on which of them are picked, so the order of the picked ones is the same, and the
// ranking serves every shape of claim.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::rank_candidates() {
  node_pools& layout = *layout_;
  const std::uint64_t epoch = a_.demand_ != nullptr ? a_.demand_->epoch() : 0;
  const auto& kept = layout.ranking;
  if (!kept.valid || kept.demand_epoch != epoch)
    rank_all_candidates(layout);
  else if (!kept.moved_pools.empty())
    rank_moved_candidates(layout);
  facts_ = kept.facts;
  order_ = kept.order;
}

template <allocation_policy Policy, selector_engine Engine>
detail::candidate_input basic_allocator<Policy, Engine>::search::facts_input(std::uint32_t ix) const {
  const candidate& c = candidates_[ix];
  // A shared device with some capacity wholly given out takes nothing more (every allocation consumes some of each
  // capacity, unless it asks for none).
  const bool used_up = c.given_out != nullptr && std::ranges::any_of(c.st->view.capacities(), [&](const auto e) {
                         const quantity* given = model::find(*c.given_out, e.name);
                         return given != nullptr && e.value->value.sign() > 0 && !(*given < e.value->value);
                       });
  double left = 1;
  if (c.given_out != nullptr)
    for (const auto e : c.st->view.capacities()) {
      const double total = e.value->value.approximate_double();
      if (const quantity* given = model::find(*c.given_out, e.name); given != nullptr && total > 0)
        left = std::min(left, std::max(0.0, 1 - given->approximate_double() / total));
    }
  return {c.st->pool,  c.st->slice, c.st->view, c.st->shared, c.given_out != nullptr, c.exclusive_in_state,
          layout_->ranking.demand[ix], c.st->draws, used_up, left};
}

template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::rank_all_candidates(node_pools& layout) {
  auto& kept = layout.ranking;
  kept.demand = demand_per_candidate();
  std::vector<detail::candidate_input> inputs;
  inputs.reserve(candidates_.size());
  for (std::uint32_t i = 0; i < candidates_.size(); ++i) inputs.push_back(facts_input(i));
  kept.facts = detail::describe_candidates(inputs, layout.slot_values, layout.slot_available);
  kept.order = layout.identity;
  a_.policy_.order_candidates(kept.order, kept.facts);
  // Candidates come pool by pool (upstream's order), and the node's layout never changes: their ranges once.
  if (kept.pool_candidates.empty()) {
    kept.pool_candidates.assign(pools_->size(), {0, 0});
    for (std::uint32_t i = 0; i < candidates_.size(); ++i) {
      auto& range = kept.pool_candidates[candidates_[i].st->pool];
      if (range.first == range.second) range.first = i;
      assert(range.second == 0 || range.second == i);
      range.second = i + 1;
    }
  }
  kept.moved.assign(pools_->size(), 0);
  kept.moved_pools.clear();
  kept.demand_epoch = a_.demand_ != nullptr ? a_.demand_->epoch() : 0;
  kept.valid = true;
}

template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::rank_moved_candidates(node_pools& layout) {
  auto& kept = layout.ranking;
  std::vector<std::uint32_t> moved;  // the candidates of moved pools
  std::vector<detail::candidate_input> inputs;
  for (const std::uint32_t p : kept.moved_pools) {
    const auto [first, last] = kept.pool_candidates[p];
    if (first == last) continue;
    inputs.clear();
    for (std::uint32_t i = first; i < last; ++i) {
      inputs.push_back(facts_input(i));
      moved.push_back(i);
    }
    const std::uint32_t first_slot = layout.pool_slots[p].first, slot_count = layout.pool_slots[p].second - first_slot;
    const auto slots = [&](const std::vector<quantity>& all) {
      return std::span<const quantity>(all).subspan(first_slot, slot_count);
    };
    auto facts =
        detail::describe_candidates(inputs, slots(layout.slot_values), slots(layout.slot_available), first_slot);
    std::ranges::copy(facts, kept.facts.begin() + first);
  }
  if constexpr (ranks_by_key<Policy>) {
    // The others keep their places: take the moved out, sort them, and merge them back in.
    auto before = [&](std::uint32_t a, std::uint32_t b) {
      const auto ra = a_.policy_.candidate_rank(kept.facts[a]), rb = a_.policy_.candidate_rank(kept.facts[b]);
      return ra < rb || (!(rb < ra) && a < b);
    };
    std::vector<char> is_moved(candidates_.size(), 0);
    for (const std::uint32_t i : moved) is_moved[i] = 1;
    std::erase_if(kept.order, [&](std::uint32_t i) { return is_moved[i] != 0; });
    std::ranges::sort(moved, before);
    std::vector<std::uint32_t> merged;
    merged.reserve(candidates_.size());
    auto from = kept.order.begin();
    for (const std::uint32_t i : moved) {
      const auto at = std::lower_bound(from, kept.order.end(), i, before);
      merged.insert(merged.end(), from, at);
      merged.push_back(i);
      from = at;
    }
    merged.insert(merged.end(), from, kept.order.end());
    kept.order = std::move(merged);
  } else {
    kept.order = layout.identity;
    a_.policy_.order_candidates(kept.order, kept.facts);
  }
  for (const std::uint32_t p : kept.moved_pools) kept.moved[p] = 0;
  kept.moved_pools.clear();
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::picks_no_own_device() {
  auto entered = enter_node();
  if (!entered) return false;
  const node_pools& layout = **entered;
  if (!prepare_requests()) return false;
  for (std::uint32_t c = 0; c < candidates_.size(); ++c) {
    if (!layout.own_pools[layout.candidates[c].pool]) continue;
    for (std::size_t ci = 0; ci < requests_.size(); ++ci)
      for (auto& entries : requests_[ci])
        for (request_data& rd : entries)
          if (const auto picked = is_selectable(rd, ci, c); !picked || *picked) return false;
  }
  return true;
}

template <allocation_policy Policy, selector_engine Engine>
status basic_allocator<Policy, Engine>::search::prepare_requests() {
  // Check every request as upstream does before searching.
  requests_.resize(claims_.size());
  constraints_.resize(claims_.size());
  results_.resize(claims_.size());
  within_result_limit_.assign(claims_.size(), false);
  claim_derives_.assign(claims_.size(), 0);
  for (std::size_t ci = 0; ci < claims_.size(); ++ci) {
    const model::resource_claim& claim = *claims_[ci];
    std::size_t min_devices = 0, max_devices = 0;
    for (const auto& request : claim.spec.requests) {
      const bool has_subs = !request.first_available.empty();
      if (!f_.prioritized_list && has_subs)
        return dra::error{"claim " + claim_name(ci) + ", request " + std::string(request.name) +
                              ": has subrequests, but the DRAPrioritizedList feature is disabled",
                          "", "", errc::unsupported};
      if (!f_.consumable_capacity) {
        if (request.exactly && request.exactly->capacity)
          return dra::error{"claim " + claim_name(ci) + ", request " + std::string(request.name) +
                                ": has capacity requests, but the DRAConsumableCapacity feature is disabled",
                            "", "", errc::unsupported};
        for (const auto& sub : request.first_available)
          if (sub.capacity)
            return dra::error{"claim " + claim_name(ci) + ", subrequest " + std::string(sub.name) +
                                  ": has capacity requests, but the DRAConsumableCapacity feature is disabled",
                              "", "", errc::unsupported};
      }
      std::vector<request_data> entries;
      if (has_subs) {
        std::size_t fewest = std::numeric_limits<std::size_t>::max(), most = 0;
        for (const auto& sub : request.first_available) {
          auto rd = validate_request(ci, request, sub, true, sub.name, false);
          if (!rd) return rd.error();
          fewest = std::min(fewest, rd->num_devices);
          most = std::max(most, rd->num_devices);
          entries.push_back(std::move(rd).value());
        }
        min_devices += fewest;
        max_devices += most;
      } else {
        static const model::exact_device_request missing{};
        const model::exact_device_request& exact = request.exactly ? *request.exactly : missing;
        auto rd = validate_request(ci, request, exact, false, request.name, exact.admin_access.has_value());
        if (!rd) return rd.error();
        min_devices += rd->num_devices;
        max_devices += rd->num_devices;
        entries.push_back(std::move(rd).value());
      }
      requests_[ci].push_back(std::move(entries));
    }
    if (min_devices > allocation_results_max_size)
      return dra::error{"claim " + claim_name(ci) + ": number of requested devices " + std::to_string(min_devices) +
                            " exceeds the claim limit of " + std::to_string(allocation_results_max_size),
                        "", "", errc::limit_exceeded};
    within_result_limit_[ci] = max_devices <= allocation_results_max_size;
    for (std::size_t i = 0; i < claim.spec.constraints.size(); ++i) {
      const auto& c = claim.spec.constraints[i];
      detail::constraint_state state;
      state.requests.assign(c.requests.begin(), c.requests.end());
      state.list_types = f_.list_type_attributes;
      if (c.match_attribute) {
        state.attribute = *c.match_attribute;
      } else if (c.distinct_attribute && !served_by_stable_allocator(f_)) {
        state.is_match = false;
        state.attribute = *c.distinct_attribute;
      } else {
        return dra::error{"claim " + claim_name(ci) + ", constraint #" + std::to_string(i) +
                              ": empty constraint (unsupported constraint type?)",
                          "", "", errc::unsupported};
      }
      for (const auto& entries : requests_[ci])
        for (const auto& rd : entries)
          for (const auto& derived : rd.derived)
            state.names_derived = state.names_derived || derived.first == state.attribute;
      claim_derives_[ci] = static_cast<char>(claim_derives_[ci] || state.names_derived);
      constraints_[ci].push_back(std::move(state));
    }
  }

  return {};
}

template <allocation_policy Policy, selector_engine Engine>
result<allocation_outcome> basic_allocator<Policy, Engine>::search::search_and_build() {
  if (auto prepared = prepare_requests(); !prepared) {
    if (prepared.error().code != errc::pool_unavailable) return std::move(prepared).error();
    // All devices of a pool being updated or invalid: this node is out, others may still take the claims.
    allocation_outcome out;
    out.result = invalid_pools{prepared.error().message};
    return out;
  }
  if constexpr (uses_facts<Policy>) rank_candidates();
  symmetric_ = a_.interchangeable_pruning_ && symmetry_applies();
  auto found = allocate_one(0, 0, 0, 0, detail::alternative::undecided, 0);
  if (!found) return found.error();
  allocation_outcome outcome;
  outcome.search_steps = steps_;
  if (*found != step::done) {
    if (std::ranges::any_of(*pools_, &pool::invalid))
      outcome.result = invalid_pools{};
    else
      outcome.result = unschedulable{};
    return outcome;
  }
  allocated fit;
  for (const auto& claim_results : results_)
    for (const auto& r : claim_results)
      if (r.candidate < facts_.size()) {
        fit.counters_stranded += facts_[r.candidate].counters_stranded;
        fit.placements_lost += facts_[r.candidate].placements_lost;
      }
  for (std::size_t ci = 0; ci < claims_.size(); ++ci) {
    auto built = build_result(ci);
    if (!built) return built.error();
    fit.results.push_back(std::move(built).value());
  }
  outcome.result = std::move(fit);
  return outcome;
}

template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::lay_out(node_pools& layout) {
  // Candidates in upstream's visiting order, and the pools' counters; none of
  // this depends on what is allocated, so it is kept per node.
  layout.pool_slots.resize(layout.pools->size());
  for (std::uint32_t p = 0; p < layout.pools->size(); ++p) lay_out_pool(layout, p);
  layout.places.reserve(layout.candidates.size() + layout.counter_holders.size());
  for (std::uint32_t i = 0; i < layout.candidates.size(); ++i)
    layout.places.emplace(layout.candidates[i].id, device_place{i, device_place::npos});
  for (std::uint32_t h = 0; h < layout.counter_holders.size(); ++h)
    layout.places.emplace(layout.counter_holders[h].id, device_place{device_place::npos, h});
  layout.charged.assign(layout.counter_holders.size(), 0);
  layout.slot_available = layout.slot_values;
  layout.live.resize(layout.candidates.size());
  for (std::size_t i = 0; i < layout.candidates.size(); ++i) layout.live[i].st = &layout.candidates[i];
  for (const auto& value : layout.slot_values) layout.slots.push_back({value, quantity{}});
  layout.overdrawn.assign(layout.pools->size(), 0);
  layout.identity.resize(layout.candidates.size());
  std::iota(layout.identity.begin(), layout.identity.end(), 0u);
}

// Pool `p`'s counters, candidates, counter holders and group holders, appended to the node's layout.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::lay_out_pool(node_pools& layout, std::uint32_t p) {
  const features& f = a_.features_;
  const pool& pl = (*layout.pools)[p];
  const auto next = static_cast<std::uint32_t>(layout.slot_values.size());
  layout.pool_slots[p] = {next, next};
  if (pl.incomplete || pl.invalid) return;
  if (f.partitionable_devices)
    for (const auto& set : pl.counter_sets)
      for (const auto e : set.counters()) layout.slot_values.push_back(*e.value);
  layout.pool_slots[p].second = static_cast<std::uint32_t>(layout.slot_values.size());
  const counter_numbering slot_numbers(pl, next);
  const bool has_slots = layout.pool_slots[p].second != next;
  auto draws_of = [&](const flatten::mixin_device_view& view) {
    std::vector<std::pair<std::uint32_t, quantity>> draws;
    if (f.partitionable_devices)
      slot_numbers.for_each_draw(
          view, [&](std::uint32_t slot, const quantity& amount) { draws.emplace_back(slot, amount); });
    return draws;
  };
  // KEP-5963: one group slot per counter set drawn from, in pools where some device declares groups.
  auto declares_groups = [](const model::resource_slice* slice) {
    return detail::declares_compatibility_groups(*slice);
  };
  const bool tracks_groups =
      f.device_compatibility_groups && (std::ranges::any_of(pl.device_slices, declares_groups) ||
                                        std::ranges::any_of(pl.other_slices, declares_groups));
  std::vector<std::string_view> group_set_names;
  auto group_sets_of = [&](const model::device& d) {
    std::vector<std::pair<std::uint32_t, std::span<const model::text>>> sets;
    if (!tracks_groups) return sets;
    for (const auto& consumption : d.consumes_counters) {
      auto it = std::find(group_set_names.begin(), group_set_names.end(), consumption.counter_set);
      if (it == group_set_names.end()) it = group_set_names.insert(it, consumption.counter_set);
      sets.emplace_back(layout.group_slots + static_cast<std::uint32_t>(it - group_set_names.begin()),
                        consumption.compatibility_groups);
    }
    return sets;
  };
  const std::size_t first_candidate = layout.candidates.size();
  for (const auto* slice : pl.device_slices)
    for (const auto view : flatten::device_views(*slice)) {
      candidate_layout c;
      c.pool = p;
      c.slice = slice;
      c.view = view;
      c.id = device_ref{slice->driver, slice->pool.name, view.name()};
      c.shared = f.consumable_capacity && view.base().allow_multiple_allocations.value_or(false);
      c.consumes_counters = !view.base().consumes_counters.empty();
      c.draws = draws_of(view);
      c.group_sets = group_sets_of(view.base());
      c.rule_taints = taints_from_rules(a_.taint_rules_, c.id);
      layout.candidates.push_back(std::move(c));
    }
  // Every device of the pool that may hold counters when allocated (the device slices' devices were laid out
  // above, in this order).
  if (has_slots) {
    std::size_t next_candidate = first_candidate;
    for (const auto* group : {&pl.device_slices, &pl.other_slices})
      for (const auto* slice : *group)
        for (const auto view : flatten::device_views(*slice)) {
          std::span<const std::pair<std::uint32_t, quantity>> draws;
          if (group == &pl.device_slices)
            draws = layout.candidates[next_candidate++].draws;
          else if (auto own = draws_of(view); !own.empty())
            draws = layout.other_draws.emplace_back(std::move(own));
          if (!draws.empty())
            layout.counter_holders.push_back({p, device_ref{slice->driver, slice->pool.name, view.name()}, draws});
        }
  }
  if (tracks_groups)
    for (const auto* group : {&pl.device_slices, &pl.other_slices})
      for (const auto* slice : *group)
        for (const auto& d : slice->devices)
          if (auto sets = group_sets_of(d); !sets.empty())
            layout.group_holders.push_back({device_ref{slice->driver, slice->pool.name, d.name}, std::move(sets)});
  layout.group_slots += static_cast<std::uint32_t>(group_set_names.size());
}

template <allocation_policy Policy, selector_engine Engine>
auto basic_allocator<Policy, Engine>::search::validate_request(std::size_t ci, const model::device_request& request,
                                                               const model::device_request_spec& spec, bool is_sub,
                                                               std::string_view name, bool has_admin_access)
    -> result<request_data> {
  // Built only when an error needs it: this runs for every request on every node tried.
  auto where = [&] { return "claim " + claim_name(ci) + ", request " + std::string(name); };
  request_data rd;
  rd.request = &request;
  rd.spec = &spec;
  rd.is_sub = is_sub;
  rd.name = name;
  rd.base_name = request.name;
  rd.full_name = is_sub ? std::string(request.name) + "/" + std::string(name) : std::string(name);
  if (!is_sub && request.exactly) rd.admin_access = request.exactly->admin_access.value_or(false);
  for (std::size_t i = 0; i < spec.selectors.size(); ++i)
    if (spec.selectors[i].cel_expression.empty())
      return dra::error{
          where() + ", selector #" + std::to_string(i) + ": CEL expression empty (unsupported selector type?)", "", "",
          errc::unsupported};
  if (!f_.admin_access && has_admin_access)
    return dra::error{where() + ": admin access is requested, but the feature is disabled", "", "", errc::unsupported};
  if (spec.device_class_name.empty())
    return dra::error{where() + ": missing device class name (unsupported request type?)", "", "", errc::unsupported};
  auto klass = a_.classes_.find(spec.device_class_name);
  if (klass == a_.classes_.end())
    return dra::error{where() + ": could not retrieve device class " + std::string(spec.device_class_name) +
                          ": deviceclass.resource.k8s.io \"" + std::string(spec.device_class_name) + "\" not found",
                      "", "", errc::not_found};
  rd.klass = klass->second;
  std::vector<const void*> key{rd.klass};
  for (const auto& selector : rd.klass->selectors) rd.class_programs.push_back(&a_.compile(selector.cel_expression));
  for (const auto& selector : spec.selectors) rd.own_programs.push_back(&a_.compile(selector.cel_expression));
  // With the feature off the field is ignored, as the API server drops it. A compile error, like an evaluation,
  // surfaces only where a constraint looks the attribute up.
  if (f_.derived_attributes)
    for (const auto& derived : spec.derived_attributes)
      rd.derived.emplace_back(derived.name, &a_.compile_derived(derived.expression));
  key.insert(key.end(), rd.own_programs.begin(), rd.own_programs.end());
  auto verdicts_of = [&](const compiled* program) {
    auto& verdicts = layout_->selector_verdicts[program];
    if (verdicts.empty()) verdicts.assign(candidates_.size(), detail::selector_verdict::unknown);
    return &verdicts;
  };
  for (const compiled* program : rd.class_programs) rd.class_verdicts.push_back(verdicts_of(program));
  for (const compiled* program : rd.own_programs) rd.own_verdicts.push_back(verdicts_of(program));
  auto& selection = layout_->selections[std::move(key)];
  if (selection.values.empty()) selection.values.assign(candidates_.size(), detail::selector_verdict::unknown);
  rd.selectable = selection.values;
  rd.selection = &selection;
  rd.first_live = &selection.first_live[detail::capacity_key(spec)];
  rd.capacity_verdicts = capacity_verdicts_for(spec);
  switch (spec.mode) {
    case model::allocation_mode::exact_count:
      rd.num_devices = spec.count > 0 ? static_cast<std::size_t>(spec.count) : 0;
      break;
    case model::allocation_mode::all:
      rd.all_mode = true;
      for (const auto& p : *pools_) {
        if (p.incomplete)
          return dra::error{where() + ": asks for all devices, but resource pool " + pool_name(p.key) +
                                " is currently being updated",
                            "", "", errc::pool_unavailable};
        if (p.invalid)
          return dra::error{where() + ": asks for all devices, but resource pool " + pool_name(p.key) +
                                " is currently invalid",
                            "", "", errc::pool_unavailable};
      }
      for (std::uint32_t c = 0; c < candidates_.size(); ++c) {
        auto selectable = is_selectable(rd, ci, c);
        if (!selectable) return selectable.error();
        if (!*selectable) continue;
        if (f_.consumable_capacity && !capacity_fits(rd, candidates_[c])) continue;
        rd.all_devices.push_back(c);
      }
      rd.num_devices = rd.all_devices.size();
      break;
    default:
      return dra::error{where() + ": unsupported count mode " + std::string(spec.mode_name), "", "", errc::unsupported};
  }
  return rd;
}

template <allocation_policy Policy, selector_engine Engine>
auto basic_allocator<Policy, Engine>::search::allocate_one(std::size_t ci, std::size_t ri, std::size_t si,
                                                           std::size_t di, detail::alternative within,
                                                           std::size_t start) -> result<step> {
  if (++steps_ > a_.step_budget_ && a_.step_budget_ != 0)
    return dra::error{"claim " + claim_name(std::min(ci, claims_.size() - 1)) + ", node " +
                          std::string(node_.meta.name) + ": search step budget of " + std::to_string(a_.step_budget_) +
                          " exhausted",
                      "", "", errc::search_budget};
  if (ci >= claims_.size()) return step::done;
  if (ri >= requests_[ci].size()) {
    auto next = allocate_one(ci + 1, 0, 0, 0, detail::alternative::undecided, 0);
    if (next && *next == step::max_exceeded) return step::failed;
    return next;
  }
  auto& entries = requests_[ci][ri];
  if (within == detail::alternative::undecided && entries.front().is_sub) {
    bool all_exceeded = true;
    for (std::size_t s = 0; s < entries.size(); ++s) {
      auto r = allocate_one(ci, ri, s, di, detail::alternative::chosen, 0);
      if (!r) return r;
      if (*r == step::max_exceeded) continue;
      all_exceeded = false;
      if (*r == step::done) {
        entries.front().selected_sub = s;
        return step::done;
      }
    }
    return all_exceeded ? step::max_exceeded : step::failed;
  }
  request_data& rd = entries[si];
  if (rd.all_mode && rd.all_devices.empty()) return step::failed;
  if (di >= rd.num_devices) return allocate_one(ci, ri + 1, 0, 0, detail::alternative::undecided, 0);
  if (results_[ci].size() + rd.num_devices - di > allocation_results_max_size) return step::max_exceeded;
  if (rd.all_mode) {
    std::uint32_t ix = rd.all_devices[di];
    auto ok = allocate_device(ci, rd, ix, true);
    if (!ok) return ok.error();
    if (!*ok) return step::failed;
    auto r = allocate_one(ci, ri, si, di + 1, within, 0);
    if (!r || *r != step::done) deallocate(ci, ix);
    return r;
  }
  start = std::max(start, first_live(rd));
  if (di == 0 && unit_hopeless(ci, ri, rd, rd.num_devices, start)) return step::failed;
  if (rd.num_devices - di >= 2 && hopeless(ci, rd, rd.num_devices - di, start)) return step::failed;
  // Candidates whose whole branch failed at this position: one interchangeable with them would fail there too
  // (detail/search_symmetry.hpp). A few are kept: most positions see one or two kinds of device fail.
  std::array<std::uint32_t, 8> failed_here{};
  std::size_t failed_count = 0;
  // Tries the candidate at position p: a step to return, or nullopt to go on with the next one.
  auto attempt = [&](std::size_t p) -> std::optional<result<step>> {
    const std::uint32_t ix = order_[p];
    // A candidate the request's selectors are known to reject is passed over before its state is read: a ranked
    // order puts every device of the used pools first, and most of them are another request's.
    if (rd.selectable[ix] == detail::selector_verdict::rejected) return std::nullopt;
    const candidate& c = candidates_[ix];
    if (rd.admin_access) {
      if (std::find(c.exclusive_for.begin(), c.exclusive_for.end(), ci) != c.exclusive_for.end()) return std::nullopt;
    } else if (in_use(c)) {
      return std::nullopt;
    }
    auto selectable = is_selectable(rd, ci, ix);
    if (!selectable) return selectable.error();
    if (!*selectable) return std::nullopt;
    if (f_.consumable_capacity && !capacity_fits_now(rd, ix)) return std::nullopt;
    if (failed_count != 0 && may_be_interchangeable(c))
      for (std::size_t k = 0; k < failed_count; ++k)
        if (interchangeable(failed_here[k], ix)) return std::nullopt;
    auto ok = allocate_device(ci, rd, ix, false);
    if (!ok) return ok.error();
    if (!*ok) return std::nullopt;
    auto r = allocate_one(ci, ri, si, di + 1, within, p + 1);
    if (r && *r == step::done) return step::done;
    deallocate(ci, ix);
    if (!r || *r == step::max_exceeded) return r;
    if (symmetric_ && failed_count < failed_here.size() && may_be_interchangeable(c)) failed_here[failed_count++] = ix;
    return std::nullopt;
  };
  if (const std::vector<std::uint32_t>* only = with_fixed_value(ci, rd)) {
    for (auto it = std::lower_bound(only->begin(), only->end(), start); it != only->end(); ++it)
      if (auto r = attempt(*it)) return *r;
    return step::failed;
  }
  for (std::size_t p = start; p < order_.size(); ++p)
    if (auto r = attempt(p)) return *r;
  return step::failed;
}

}  // namespace dra::alloc

#include <dra/alloc/detail/search_demand.hpp>
#include <dra/alloc/detail/search_device.hpp>
#include <dra/alloc/detail/search_pruning.hpp>
#include <dra/alloc/detail/search_result.hpp>
#include <dra/alloc/detail/search_symmetry.hpp>
