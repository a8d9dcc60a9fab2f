// Taking one device for a request and giving it back (implementation; included by search.hpp): selectors, consumable
// capacity, counters, taints, the device's state in the search and constraint groups.
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/device_checks.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace dra::alloc {

template <allocation_policy Policy, selector_engine Engine>
result<bool> basic_allocator<Policy, Engine>::search::selectors_match(
    std::size_t ci, const request_data& rd, const model::device_class* klass,
    std::span<const model::device_selector> selectors, std::span<const compiled* const> programs,
    std::span<std::vector<detail::selector_verdict>* const> verdicts, std::uint32_t ix) {
  const candidate& c = candidates_[ix];
  // Upstream names only the class or the claim; the request is added so that users find the culprit.
  // Built only for an error: this runs for every candidate the search meets.
  auto owner = [&] {
    std::string o = "claim " + claim_name(ci) + ", request " + rd.full_name;
    if (klass != nullptr) o += ": class " + std::string(klass->meta.name);
    return o;
  };
  // A device of a slice without a node name reaches every node: its results are kept for all of them.
  const bool reaches_every_node = !c.st->slice->node_name || c.st->slice->node_name->empty();
  for (std::size_t i = 0; i < selectors.size(); ++i) {
    const compiled& program = *programs[i];
    if (!program.program)
      return dra::error{owner() + ": selector #" + std::to_string(i) + ": CEL compile error: " + program.error, "", "",
                        errc::cel_compile};
    detail::selector_verdict& known = (*verdicts[i])[ix];
    if (known == detail::selector_verdict::unknown && reaches_every_node)
      if (auto kept = a_.selector_results_.find(std::pair{&program, &c.st->view.base()});
          kept != a_.selector_results_.end())
        known = kept->second ? detail::selector_verdict::selected : detail::selector_verdict::rejected;
    if (known == detail::selector_verdict::rejected) return false;
    if (known == detail::selector_verdict::selected) continue;
    auto matches = a_.engine_->matches(*program.program, c.st->view, c.st->slice->driver);
    if (!matches)
      return dra::error{owner() + ": selector #" + std::to_string(i) + " on device " + std::string(c.st->id.driver) +
                            "/" + std::string(c.st->id.pool) + "/" + std::string(c.st->id.device) +
                            ": CEL runtime error: " + matches.error().message,
                        "", "", matches.error().code};
    known = *matches ? detail::selector_verdict::selected : detail::selector_verdict::rejected;
    if (reaches_every_node) a_.selector_results_.emplace(std::pair{&program, &c.st->view.base()}, *matches);
    if (!*matches) return false;
  }
  return true;
}

template <allocation_policy Policy, selector_engine Engine>
result<bool> basic_allocator<Policy, Engine>::search::is_selectable(request_data& rd, std::size_t ci,
                                                                    std::uint32_t ix) {
  const candidate& c = candidates_[ix];
  if (!f_.device_binding_and_status && !c.st->view.base().binding_conditions.empty()) return false;
  if (rd.selectable[ix] != detail::selector_verdict::unknown)
    return rd.selectable[ix] == detail::selector_verdict::selected;
  auto decide = [&](bool v) {
    rd.selectable[ix] = v ? detail::selector_verdict::selected : detail::selector_verdict::rejected;
    return v;
  };
  if (rd.klass != nullptr) {
    auto m = selectors_match(ci, rd, rd.klass, rd.klass->selectors, rd.class_programs, rd.class_verdicts, ix);
    if (!m) return m.error();
    if (!*m) return decide(false);
  }
  auto m = selectors_match(ci, rd, nullptr, rd.spec->selectors, rd.own_programs, rd.own_verdicts, ix);
  if (!m) return m.error();
  if (!*m) return decide(false);
  if (c.st->slice->per_device_node_selection.value_or(false)) {
    const model::device& d = c.st->view.base();
    auto n = node_matches(node_, d.node_name.value_or(model::text{}), d.all_nodes.value_or(false),
                          d.node_selector ? &*d.node_selector : nullptr);
    if (!n) return n.error();
    if (!*n) return decide(false);
  }
  return decide(true);
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::capacity_fits(const request_data& rd, const candidate& c,
                                                            capacity_counted counted) const {
  if (counted == capacity_counted::none) return !capacity_shortfall_of(c.st->view, *rd.spec, nullptr);
  const capacity_holdings held{c.given_out, counted == capacity_counted::ledger ? nullptr : &c.allocating};
  return !capacity_shortfall_of(c.st->view, *rd.spec, &held);
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::capacity_fits_now(const request_data& rd, std::uint32_t ix) const {
  const candidate& c = candidates_[ix];
  // With no share of it taken in this search, what the ledger gave out is all that counts (what deallocate gave
  // back leaves zero amounts in `allocating`, which add nothing).
  if (c.shares != 0) return capacity_fits(rd, c);
  auto& known = layout_->capacity_in_state[rd.capacity_verdicts].fits[ix];
  if (known.first != c.ledger_stamp) known = {c.ledger_stamp, capacity_fits(rd, c, capacity_counted::ledger)};
  return known.second;
}

template <allocation_policy Policy, selector_engine Engine>
std::size_t basic_allocator<Policy, Engine>::search::capacity_verdicts_for(const model::device_request_spec& spec) {
  std::span<const model::keyed<quantity>> asks;
  if (spec.capacity) asks = spec.capacity->requests;
  auto& entries = layout_->capacity_in_state;
  // Quantities compared as identical, not equal: a request policy's default is matched by its exact form.
  auto same = [&](const typename node_pools::capacity_verdicts& e) {
    return std::ranges::equal(e.asks, asks, [](const auto& known, const auto& ask) {
      return known.first == ask.name && known.second.identical(ask.value);
    });
  };
  if (const auto it = std::ranges::find_if(entries, same); it != entries.end())
    return static_cast<std::size_t>(it - entries.begin());
  auto& added = entries.emplace_back();
  for (const auto& ask : asks) added.asks.emplace_back(std::string(ask.name), ask.value);
  // Stamps start at 0 and only grow: the largest marks a verdict not yet worked out.
  added.fits.assign(candidates_.size(), {std::numeric_limits<std::uint64_t>::max(), false});
  return entries.size() - 1;
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::reserve_counters(const candidate& c) {
  if (pool_overdrawn_[c.st->pool]) return false;
  std::size_t added = 0;
  bool fits = true;
  for (; added < c.st->draws.size(); ++added) {
    auto& slot = slots_[c.st->draws[added].first];
    auto sum = slot.consumed.add(c.st->draws[added].second);
    if (!sum) {
      fits = false;
      break;
    }
    slot.consumed = *sum;
    if (slot.consumed > slot.available) fits = false;
  }
  if (fits) return true;
  for (std::size_t i = 0; i < added; ++i) {
    auto& slot = slots_[c.st->draws[i].first];
    if (auto rest = slot.consumed.sub(c.st->draws[i].second)) slot.consumed = *rest;
  }
  return false;
}

template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::release_counters(const candidate& c) {
  for (const auto& [slot, amount] : c.st->draws)
    if (auto rest = slots_[slot].consumed.sub(amount)) slots_[slot].consumed = *rest;
}

template <allocation_policy Policy, selector_engine Engine>
result<bool> basic_allocator<Policy, Engine>::search::allocate_device(std::size_t ci, request_data& rd,
                                                                      std::uint32_t ix, bool must) {
  candidate& c = candidates_[ix];
  const bool shared = c.st->shared;
  auto held_by_claim = [&] {
    return std::find(c.exclusive_for.begin(), c.exclusive_for.end(), ci) != c.exclusive_for.end();
  };
  if (!shared && rd.admin_access && held_by_claim()) return false;
  if (!rd.admin_access && in_use(c)) return false;
  if (!f_.partitionable_devices && c.st->consumes_counters) return false;
  const bool capacity_in_use = c.given_out != nullptr || c.shares > 0;
  bool charged = false;
  if (!(shared && capacity_in_use) && c.st->consumes_counters) {
    if (!reserve_counters(c)) return false;
    charged = true;
  }
  const std::size_t groups_before = group_undo_.size();
  if (!join_groups(c)) {
    if (charged) release_counters(c);
    return false;
  }
  auto give_back_counters = [&] {
    leave_groups(groups_before);
    if (charged) release_counters(c);
  };
  if (f_.device_taints && blocking_taint(c.st->view.base(), c.st->rule_taints, *rd.spec) != nullptr) {
    give_back_counters();
    return false;
  }
  const std::string_view sub = rd.is_sub ? rd.name : std::string_view{};
  auto& constraints = constraints_[ci];
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    // Looked up only where the constraint applies: a derived attribute is evaluated for the requests it binds.
    if (!constraints[i].applies(rd.base_name, sub)) continue;
    auto attribute = attribute_for(ci, rd, ix, constraints[i].attribute);
    if (!attribute) return std::move(attribute).error();
    if (constraints[i].add(*attribute)) continue;
    if (must)
      return dra::error{"claim " + claim_name(ci) + ", request " + std::string(rd.name) + ": cannot add device " +
                            std::string(c.st->id.driver) + "/" + std::string(c.st->id.pool) + "/" +
                            std::string(c.st->id.device) + " because a claim constraint would not be satisfied",
                        "", "", errc::constraint_conflict};
    for (std::size_t e = 0; e < i; ++e) constraints[e].remove(rd.base_name, sub);
    give_back_counters();
    return false;
  }
  const bool newly_held = !shared && !held_by_claim();
  if (newly_held) c.exclusive_for.push_back(static_cast<std::uint32_t>(ci));
  device_result r;
  r.candidate = ix;
  r.request = &rd;
  r.counters_charged = charged;
  r.groups_joined = static_cast<std::uint32_t>(group_undo_.size() - groups_before);
  if (f_.consumable_capacity) {
    if (!capacity_fits(rd, c)) {
      for (auto& constraint : constraints) constraint.remove(rd.base_name, sub);
      if (newly_held) c.exclusive_for.pop_back();
      give_back_counters();
      return false;
    }
    if (shared) {
      const model::capacity_requirements* wanted = rd.spec->capacity ? &*rd.spec->capacity : nullptr;
      for (const auto e : c.st->view.capacities()) {
        const quantity* requested = wanted != nullptr ? model::find(wanted->requests, e.name) : nullptr;
        quantity amount = consumed_amount(requested, *e.value);
        negative_amounts_ = negative_amounts_ || amount.sign() < 0;
        r.consumed.push_back({e.name, amount});
        detail::add_amount(c.allocating, e.name, amount);
      }
    }
  }
  if (shared) ++c.shares;
  results_[ci].push_back(std::move(r));
  return true;
}

template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::deallocate(std::size_t ci, std::uint32_t ix) {
  candidate& c = candidates_[ix];
  device_result r = std::move(results_[ci].back());
  results_[ci].pop_back();
  const request_data& rd = *r.request;
  const std::string_view sub = rd.is_sub ? rd.name : std::string_view{};
  for (auto& constraint : constraints_[ci]) constraint.remove(rd.base_name, sub);
  if (c.st->shared) {
    for (const auto& e : r.consumed)
      for (auto& held : c.allocating)
        if (held.name == e.name)
          if (auto rest = held.value.sub(e.value)) held.value = *rest;
    --c.shares;
  } else {
    std::erase(c.exclusive_for, static_cast<std::uint32_t>(ci));
  }
  leave_groups(group_undo_.size() - r.groups_joined);
  if (r.counters_charged) release_counters(c);
}

template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::join_groups(const candidate& c) {
  const std::size_t before = group_undo_.size();
  for (const auto& [slot, declared] : c.st->group_sets) {
    if (!group_state_[slot].admits(declared)) {
      leave_groups(before);
      return false;
    }
    group_undo_.emplace_back(slot, group_state_[slot]);
    group_state_[slot].add(declared);
  }
  return true;
}

template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::leave_groups(std::size_t undo_size) {
  for (; group_undo_.size() > undo_size; group_undo_.pop_back())
    group_state_[group_undo_.back().first] = std::move(group_undo_.back().second);
}

template <allocation_policy Policy, selector_engine Engine>
result<const model::device_attribute*> basic_allocator<Policy, Engine>::search::attribute_for(std::size_t ci,
                                                                                              const request_data& rd,
                                                                                              std::uint32_t ix,
                                                                                              std::string_view name) {
  const candidate& c = candidates_[ix];
  for (std::size_t d = 0; d < rd.derived.size(); ++d) {
    if (rd.derived[d].first != name) continue;
    auto where = [&] {
      return "claim " + claim_name(ci) + ", request " + rd.full_name + ": derived attribute " + std::string(name);
    };
    const compiled& program = *rd.derived[d].second;
    if (!program.program)
      return dra::error{where() + ": CEL compile error: " + program.error, "", "", errc::cel_compile};
    if constexpr (derived_attribute_engine<Engine>) {
      const auto key = std::tuple{&rd, ix, d};
      if (auto kept = derived_values_.find(key); kept != derived_values_.end()) return &kept->second.attribute();
      auto value = a_.engine_->derive(*program.program, c.st->view, c.st->slice->driver);
      if (!value)
        return dra::error{where() + " on device " + std::string(c.st->id.driver) + "/" + std::string(c.st->id.pool) +
                              "/" + std::string(c.st->id.device) + ": CEL runtime error: " + value.error().message,
                          "", "", value.error().code};
      return &derived_values_.emplace(key, std::move(value).value()).first->second.attribute();
    } else {
      return dra::error{where() + ": this selector engine cannot evaluate derived attributes", "", "",
                        errc::unsupported};
    }
  }
  return lookup_attribute(c.st->view, c.st->slice->driver, name);
}

}  // namespace dra::alloc
