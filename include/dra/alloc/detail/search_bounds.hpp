// Counting bounds that prove a branch of the search hopeless before it is enumerated (implementation; included by
// search.hpp): too few devices for the requests still to be served, together or one by one, and too few devices
// sharing a value (matchAttribute) or too few distinct values (distinctAttribute) for the devices a constraint needs.
#pragma once

#include <dra/alloc/allocator.hpp>

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace dra::alloc {

namespace detail {

// A set of attribute values as keys that compare equal exactly when the allocator's constraints call the values equal.
[[nodiscard]] inline std::vector<std::string> value_keys(const attribute_set& s) {
  std::vector<std::string> keys;
  switch (s.type) {
    case attribute_set::kind::ints:
      for (auto v : s.ints) keys.push_back("i" + std::to_string(v));
      break;
    case attribute_set::kind::bools:
      for (bool v : s.bools) keys.push_back(v ? "b1" : "b0");
      break;
    case attribute_set::kind::strings:
      for (auto v : s.strings) keys.push_back("s" + std::string(v));
      break;
    case attribute_set::kind::versions:
      for (auto v : s.strings) keys.push_back("v" + std::string(v));
      break;
    case attribute_set::kind::none:
      break;
  }
  return keys;
}

// The keys of candidate `ix`'s attribute for a constraint: none when no constraint can take the device (missing,
// or an empty list); without list types, a list (which equals nothing, not even itself) gets a key of its own.
[[nodiscard]] inline std::vector<std::string> constraint_keys(const model::device_attribute* a, bool list_types,
                                                              std::uint32_t ix) {
  if (a == nullptr) return {};
  if (!list_types && scalar_kind(*a) == 0) return {"#" + std::to_string(ix)};
  return value_keys(attribute_set::of(a));
}

}  // namespace detail

// Whether no way of completing the current branch serves every request still to come: the rest of the current
// request (`needed` devices from position `start`) and every later request of the unit. Usability is judged
// optimistically (a selector not evaluated yet counts as a match, counters as they are now, which only get scarcer
// deeper), so a branch with a solution is never cut and the first solution found stays upstream's. Shared devices,
// admin access and `All` requests are left to the search, and so is every branch in which a selector still to be
// evaluated fails with an error: upstream's search may meet that error, so dra must too.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::unit_hopeless(std::size_t ci, std::size_t ri, request_data& rd,
                                                            std::size_t needed, std::size_t start) {
  struct demand {
    std::size_t claim = 0;
    std::vector<request_data*> alternatives;  // a firstAvailable request: any one of them
    std::size_t need = 0;
    std::vector<std::uint32_t> usable;  // candidates usable for at least one alternative
  };
  std::vector<demand> demands;
  std::size_t total = needed;
  demands.push_back({ci, {&rd}, needed, {}});
  for (std::size_t c = ci; c < claims_.size(); ++c) {
    if (!within_result_limit_[c]) return false;
    for (std::size_t r = c == ci ? ri + 1 : 0; r < requests_[c].size(); ++r) {
      demand d{c, {}, std::numeric_limits<std::size_t>::max(), {}};
      for (auto& alternative : requests_[c][r]) {
        d.alternatives.push_back(&alternative);
        d.need = std::min(d.need, alternative.num_devices);
      }
      total += d.need;
      demands.push_back(std::move(d));
    }
  }
  if (total < 2) return false;  // one device: the search's own loop is as cheap as any bound

  auto usable = [&](const request_data& r, std::size_t claim, std::uint32_t ix, bool& shared) {
    const candidate& c = candidates_[ix];
    if (in_use(c) || r.selectable[ix] == 0) return false;
    if (!f_.device_binding_and_status && !c.st->view.base().binding_conditions.empty()) return false;
    if (f_.device_taints && detail::taint_prevents(c.st->view.base(), c.st->rule_taints, *r.spec)) return false;
    if (c.st->shared) {
      shared = true;  // one device may serve several requests: counting devices proves nothing
      return false;
    }
    if (f_.consumable_capacity && !capacity_fits(r, c)) return false;
    if (c.st->consumes_counters) {
      if (!f_.partitionable_devices || pool_overdrawn_[c.st->pool]) return false;
      for (const auto& [slot, amount] : c.st->draws) {
        auto sum = slots_[slot].consumed.add(amount);
        if (!sum || *sum > slots_[slot].available) return false;
      }
    }
    const std::string_view sub = r.is_sub ? r.name : std::string_view{};
    for (const auto& constraint : constraints_[claim])
      if (constraint.applies(r.base_name, sub) &&
          detail::lookup_attribute(c.st->view, c.st->slice->driver, constraint.attribute) == nullptr)
        return false;
    return true;
  };
  for (const demand& d : demands)
    for (const request_data* r : d.alternatives)
      if (r->all_mode || r->admin_access) return false;
  // Selectors not evaluated yet are evaluated now (each once per search, as the search itself would on its first
  // pass), so that a later request's selector bounds the branches of the requests before it. An error leaves the
  // device unknown, which counts as usable; the search meets the error where upstream does.
  for (std::size_t di = 0; di < demands.size(); ++di)
    for (request_data* r : demands[di].alternatives)
      for (std::size_t p = di == 0 ? start : 0; p < order_.size(); ++p)
        if (r->selectable[order_[p]] < 0 && !in_use(candidates_[order_[p]]))
          (void)is_selectable(*r, demands[di].claim, order_[p]);
  std::vector<char> in_union(candidates_.size(), 0);
  std::size_t union_size = 0;
  for (std::size_t di = 0; di < demands.size(); ++di) {
    demand& d = demands[di];
    for (std::size_t p = di == 0 ? start : 0; p < order_.size(); ++p) {
      const std::uint32_t ix = order_[p];
      bool any = false, shared = false;
      for (const request_data* r : d.alternatives) any = usable(*r, d.claim, ix, shared) || any;
      if (shared) return false;
      if (!any) continue;
      d.usable.push_back(ix);
      if (!in_union[ix]) in_union[ix] = 1, ++union_size;
    }
  }
  bool hopeless = union_size < total;
  for (const demand& d : demands) hopeless = hopeless || d.usable.size() < d.need;
  if (!hopeless) hopeless = constraints_hopeless(ci, demands);
  if (!hopeless) return false;
  // Upstream's search would evaluate selectors on its way to failing; an error it could meet must not be pruned away.
  for (std::size_t di = 0; di < demands.size(); ++di)
    for (request_data* r : demands[di].alternatives)
      for (std::size_t p = di == 0 ? start : 0; p < order_.size(); ++p) {
        const std::uint32_t ix = order_[p];
        if (r->selectable[ix] >= 0 || in_use(candidates_[ix])) continue;
        if (!is_selectable(*r, demands[di].claim, ix)) return false;
      }
  return true;
}

// The constraints' part of unit_hopeless: for each constraint, the devices of the requests it binds must share a
// value (matchAttribute: the largest group by value, or the value the devices taken so far fixed) or have distinct
// ones (distinctAttribute: the number of distinct values not taken yet).
template <allocation_policy Policy, selector_engine Engine>
template <class Demand>
bool basic_allocator<Policy, Engine>::search::constraints_hopeless(std::size_t ci, const std::vector<Demand>& demands) {
  for (std::size_t c = ci; c < claims_.size(); ++c)
    for (const detail::constraint_state& constraint : constraints_[c]) {
      std::size_t need = 0;
      std::vector<std::uint32_t> devices;
      for (const Demand& d : demands) {
        if (d.claim != c) continue;
        const bool binds = std::all_of(d.alternatives.begin(), d.alternatives.end(), [&](const request_data* r) {
          return constraint.applies(r->base_name, r->is_sub ? r->name : std::string_view{});
        });
        if (!binds) continue;
        need += d.need;
        devices.insert(devices.end(), d.usable.begin(), d.usable.end());
      }
      const bool fresh = c != ci || (constraint.is_match ? constraint.count == 0 : constraint.taken.empty());
      if (need == 0 || (fresh && need < 2)) continue;
      std::sort(devices.begin(), devices.end());
      devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
      std::unordered_set<std::string> taken;  // matchAttribute: the values still possible; distinct: values taken
      if (!fresh) {
        std::vector<std::string> keys;
        if (constraint.is_match && constraint.list_types)
          keys = detail::value_keys(constraint.intersection);
        else if (constraint.is_match && detail::scalar_kind(*constraint.first) != 0)
          keys = detail::value_keys(detail::attribute_set::of(constraint.first));
        if (!constraint.is_match)
          for (const auto* a : constraint.taken)
            if (constraint.list_types || detail::scalar_kind(*a) != 0)
              for (auto& k : detail::value_keys(detail::attribute_set::of(a))) keys.push_back(std::move(k));
        taken.insert(keys.begin(), keys.end());
      }
      std::unordered_map<std::string, std::size_t> per_value;
      for (const std::uint32_t ix : devices) {
        const candidate& cand = candidates_[ix];
        auto keys = detail::constraint_keys(
            detail::lookup_attribute(cand.st->view, cand.st->slice->driver, constraint.attribute),
            constraint.list_types, ix);
        if (constraint.is_match) {
          for (auto& k : keys)
            if (fresh || taken.contains(k)) ++per_value[std::move(k)];
        } else {
          if (std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return taken.contains(k); })) continue;
          for (auto& k : keys) ++per_value[std::move(k)];
        }
      }
      std::size_t best = 0;
      if (constraint.is_match)
        for (const auto& entry : per_value) best = std::max(best, entry.second);
      else
        best = per_value.size();
      if (best < need) return true;
    }
  return false;
}

}  // namespace dra::alloc
