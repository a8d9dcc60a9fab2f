// The never-over-commit check: do new allocations keep every counter and consumable capacity within bounds and hand
// no exclusive device out twice?
#pragma once

#include <dra/alloc/ledger.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <tuple>

namespace dra::alloc {

namespace detail {
inline std::string device_label(const device_ref& d) {
  return std::string(d.driver) + "/" + std::string(d.pool) + "/" + std::string(d.device);
}
}  // namespace detail

// Empty when the allocations in `outcomes` (made on top of the scenario's
// already-allocated claims, but those `released` names: indices into
// scenario.claims whose allocation a run took back) over-commit nothing;
// else what they over-commit.
[[nodiscard]] inline std::string find_overcommit(const model::scenario& s,
                                                 std::span<const model::claim_outcome> outcomes,
                                                 std::span<const std::size_t> released = {}) {
  using key = std::tuple<std::string_view, std::string_view, std::string_view>;
  // Newest published form of each device, and each pool's counter sets.
  std::map<key, std::pair<std::int64_t, flatten::mixin_device_view>> devices;
  std::map<std::pair<std::string_view, std::string_view>,
           std::pair<std::int64_t, std::vector<flatten::mixin_counter_set_view>>>
      sets;
  for (const auto& located : s.slices) {
    const auto& slice = located.object;
    const std::int64_t g = slice.pool.generation;
    for (const auto view : flatten::device_views(slice)) {
      auto [slot, inserted] = devices.try_emplace(key{slice.driver, slice.pool.name, view.name()}, g, view);
      if (!inserted && g >= slot->second.first) slot->second = {g, view};
    }
    auto& pool_sets = sets[{slice.driver, slice.pool.name}];
    if (g > pool_sets.first) pool_sets = {g, {}};
    if (g == pool_sets.first)
      for (const auto view : flatten::counter_set_views(slice)) pool_sets.second.push_back(view);
  }
  ledger before, after;
  std::map<key, int> exclusive;
  for (std::size_t i = 0; i < s.claims.size(); ++i)
    if (const auto& c = s.claims[i]; c.object.allocation && std::find(released.begin(), released.end(), i) == released.end()) {
      before.add(*c.object.allocation);
      after.add(*c.object.allocation);
    }
  for (const auto& o : outcomes) {
    const auto* allocated = o.allocated();
    if (allocated == nullptr) continue;
    for (const auto& r : allocated->allocation.results) {
      if (r.admin_access.value_or(false)) continue;
      device_ref id{r.driver, r.pool, r.device};
      if (!r.share_id) {
        if (before.exclusively_allocated(id) || ++exclusive[key{r.driver, r.pool, r.device}] > 1)
          return "device " + detail::device_label(id) + " handed out twice";
      } else if (before.exclusively_allocated(id) || exclusive.contains(key{r.driver, r.pool, r.device})) {
        return "device " + detail::device_label(id) + " shared while held exclusively";
      }
    }
    after.add(allocated->allocation);
  }
  // Consumable capacity of shared devices.
  for (const auto& o : outcomes) {
    const auto* allocated = o.allocated();
    if (allocated == nullptr) continue;
    for (const auto& r : allocated->allocation.results) {
      if (!r.share_id) continue;
      device_ref id{r.driver, r.pool, r.device};
      auto it = devices.find(key{r.driver, r.pool, r.device});
      if (it == devices.end()) return "device " + detail::device_label(id) + " is not published";
      if (const auto* total = after.given_out(id))
        for (const auto& amount : *total)
          if (const auto* capacity = it->second.second.capacity(amount.name);
              capacity && amount.value > capacity->value)
            return "capacity " + std::string(amount.name) + " of " + detail::device_label(id) + " over-committed";
    }
  }
  // Counters of every pool that new allocations draw from.
  for (const auto& [pool, pool_sets] : sets) {
    std::map<std::pair<std::string_view, std::string_view>, std::pair<quantity, quantity>> used;  // before, after
    bool touched = false;
    for (const auto& [k, entry] : devices) {
      if (std::get<0>(k) != pool.first || std::get<1>(k) != pool.second) continue;
      device_ref id{std::get<0>(k), std::get<1>(k), std::get<2>(k)};
      const bool was = before.allocated(id), is = after.allocated(id);
      if (!is) continue;
      touched = touched || !was;
      for (const auto consumption : entry.second.counter_consumptions())
        for (const auto e : consumption.counters()) {
          auto& u = used[{consumption.counter_set(), e.name}];
          if (was)
            if (auto sum = u.first.add(*e.value)) u.first = *sum;
          if (auto sum = u.second.add(*e.value)) u.second = *sum;
        }
    }
    if (!touched) continue;
    for (const auto& [name, amounts] : used) {
      const quantity* limit = nullptr;
      for (const auto& set : pool_sets.second)
        if (set.name() == name.first) limit = set.counter(name.second);
      if (limit != nullptr && amounts.second > *limit && amounts.second > amounts.first)
        return "counter " + std::string(name.first) + "/" + std::string(name.second) + " of pool " +
               std::string(pool.first) + "/" + std::string(pool.second) + " over-committed";
    }
  }
  return {};
}

}  // namespace dra::alloc
