// Pool-level validation across the ResourceSlices of one pool: unique device and counter set names, and counter consumption that names existing counter sets and counters.
#pragma once

#include <dra/flatten/mixin_view.hpp>
#include <dra/model/scenario.hpp>
#include <dra/validate/detail/report.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::validate {

namespace detail {

// "Kind/name", or "Kind items[3]" for an object without a name (so that the
// problem can still be found in the input).
using model::located_label;

// The slices of one pool at its newest generation; older generations are
// ignored by every consumer, so they are not checked against the newest.
struct pool_slices {
  std::int64_t generation = std::numeric_limits<std::int64_t>::min();
  std::int64_t resource_slice_count = 0;
  std::vector<const model::located<model::resource_slice>*> slices;
};

[[nodiscard]] inline std::map<std::pair<std::string_view, std::string_view>, pool_slices> gather_pools(
    const model::scenario& scenario) {
  std::map<std::pair<std::string_view, std::string_view>, pool_slices> pools;
  for (const auto& located : scenario.slices) {
    const model::resource_slice& s = located.object;
    pool_slices& pool = pools[{s.driver, s.pool.name}];
    if (s.pool.generation > pool.generation) {
      pool.generation = s.pool.generation;
      pool.resource_slice_count = s.pool.resource_slice_count;
      pool.slices.clear();
    }
    if (s.pool.generation == pool.generation) pool.slices.push_back(&located);
  }
  return pools;
}

inline void check_pool(error_list& errors, std::string_view pool_name, const pool_slices& pool) {
  auto label = [](const model::located<model::resource_slice>& l) {
    return located_label("ResourceSlice", {}, l.object.meta.name, l.source);
  };
  auto mixins_of = [](const model::resource_slice& s) { return s.mixins ? &*s.mixins : nullptr; };

  // Device names: duplicates inside one slice are the slice's own problem.
  std::unordered_map<std::string_view, const model::located<model::resource_slice>*> device_owner;
  // Counter sets by name, with their mixins applied.
  std::unordered_map<std::string_view, flatten::mixin_counter_set_view> counter_sets;
  std::unordered_map<std::string_view, const model::located<model::resource_slice>*> counter_set_owner;
  std::size_t device_count = 0;
  for (const auto* located : pool.slices) device_count += located->object.devices.size();
  device_owner.reserve(device_count);
  for (const auto* located : pool.slices) {
    const model::resource_slice& s = located->object;
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
      auto [it, inserted] = device_owner.try_emplace(s.devices[i].name, located);
      if (!inserted && it->second != located)
        reporter(errors, label(*located))
            .add(child(index("spec.devices", i), "name"),
                 concat(duplicate(s.devices[i].name), ": also published by ", label(*it->second), " of pool ", pool_name));
    }
    for (std::size_t i = 0; i < s.shared_counters.size(); ++i) {
      const model::counter_set& set = s.shared_counters[i];
      auto [it, inserted] = counter_set_owner.try_emplace(set.name, located);
      if (inserted)
        counter_sets.emplace(set.name, flatten::mixin_counter_set_view(set, mixins_of(s)));
      else if (it->second != located)
        reporter(errors, label(*located))
            .add(child(index("spec.sharedCounters", i), "name"),
                 concat(duplicate(set.name), ": also published by ", label(*it->second), " of pool ", pool_name));
    }
  }
  // A counter set may live in a slice that is not in the input yet.
  const bool complete = static_cast<std::int64_t>(pool.slices.size()) >= pool.resource_slice_count;
  if (!complete) return;
  for (const auto* located : pool.slices) {
    const model::resource_slice& s = located->object;
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
      const flatten::mixin_device_view device(s.devices[i], mixins_of(s));
      std::size_t j = 0;
      for (const flatten::mixin_counter_consumption_view consumption : device.counter_consumptions()) {
        const field_path at = index(child(index("spec.devices", i), "consumesCounters"), j++);
        const auto set = counter_sets.find(consumption.counter_set());
        if (set == counter_sets.end()) {
          reporter(errors, label(*located))
              .add(child(at, "counterSet"),
                   invalid_text(consumption.counter_set(), concat("no counter set of this name in pool ", pool_name)));
          continue;
        }
        for (const auto counter : consumption.counters())
          if (set->second.counter(counter.name) == nullptr)
            reporter(errors, label(*located))
                .add(child(at, "counters"),
                     invalid_text(counter.name, concat("no counter of this name in counter set ",
                                                       quoted(consumption.counter_set()), " of pool ", pool_name)));
      }
    }
  }
}

}  // namespace detail

// Appends the problems that only show across the slices of a pool (newest
// generation): a device or counter set name used by two slices, and, for a
// pool whose slices are all present, counter consumption naming a counter
// set or counter that the pool does not have.
inline void validate_pools(const model::scenario& scenario, error_list& errors) {
  for (const auto& [key, pool] : detail::gather_pools(scenario))
    detail::check_pool(errors, concat(key.first, "/", key.second), pool);
}

}  // namespace dra::validate
