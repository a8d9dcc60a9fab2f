// What each claim uses of every counter set and every shared device after a run, and the device capacity the run
// leaves stranded (data only; no drawing).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sim/analysis/stranded.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace dra::sim {

// One claim's part of a counter or a capacity.
struct holding {
  std::string claim;
  double amount = 0;
};

struct counter_occupancy {
  std::string name;
  double total = 0, used = 0;
  std::vector<holding> holders;  // in the order claims were allocated
};

// A counter set of a pool (e.g. one GPU's memory slices and engines).
struct counter_set_occupancy {
  std::string node;  // the nodeName of the slice publishing it; empty when it has none
  std::string driver, pool, name;
  std::vector<counter_occupancy> counters;  // the set's counters in key order
};

// A device that allows multiple allocations: who shares it and how much of each capacity they consume.
struct shared_device_occupancy {
  std::string node, driver, pool, device;
  std::vector<std::string> claims;
  std::vector<counter_occupancy> capacity;
};

struct occupancy {
  std::vector<std::string> claims;  // every claim holding something: allocated before the run, then the run's
  std::vector<counter_set_occupancy> counter_sets;
  std::vector<shared_device_occupancy> shared_devices;
  stranded_report stranded;  // filled by the overload that takes a selector engine
};

// Counters and shared capacity as the scenario's allocated claims (but those `released`: indices into scenario.claims
// a run's evictions released) and the run's outcomes leave them. `holder_names`, when given, names the holder of each
// outcome (one per outcome; e.g. a PodGroup's claim under the group's name).
[[nodiscard]] inline occupancy compute_occupancy(const model::scenario& s,
                                                 std::span<const model::claim_outcome> outcomes,
                                                 std::span<const std::string> holder_names = {},
                                                 std::span<const std::size_t> released = {}) {
  auto kept = [&](std::size_t claim) {
    return s.claims[claim].object.allocation && std::find(released.begin(), released.end(), claim) == released.end();
  };
  occupancy out;
  using key = std::tuple<std::string_view, std::string_view, std::string_view>;
  std::map<key, std::size_t> sets, shared;
  // The devices allocations name, and only those: a cluster has hundreds of thousands, most of them free.
  std::map<key, std::optional<flatten::mixin_device_view>> devices;
  auto name_devices = [&](const model::allocation_result& allocation) {
    for (const auto& r : allocation.results)
      if (!r.admin_access.value_or(false)) devices.try_emplace(key{r.driver, r.pool, r.device});
  };
  for (std::size_t c = 0; c < s.claims.size(); ++c)
    if (kept(c)) name_devices(*s.claims[c].object.allocation);
  for (const auto& o : outcomes)
    if (const auto* allocated = o.allocated()) name_devices(allocated->allocation);
  for (const auto& located : s.slices) {
    const model::resource_slice& slice = located.object;
    const std::string node(slice.node_name.value_or(model::text{}));
    for (const auto set : flatten::counter_set_views(slice)) {
      sets.emplace(key{slice.driver, slice.pool.name, set.name()}, out.counter_sets.size());
      counter_set_occupancy entry{node, std::string(slice.driver), std::string(slice.pool.name), std::string(set.name()), {}};
      for (const auto e : set.counters()) entry.counters.push_back({std::string(e.name), e.value->approximate_double(), 0, {}});
      out.counter_sets.push_back(std::move(entry));
    }
    for (const auto view : flatten::device_views(slice)) {
      if (!devices.empty())
        if (const auto named = devices.find(key{slice.driver, slice.pool.name, view.name()}); named != devices.end())
          named->second = view;
      if (!view.base().allow_multiple_allocations.value_or(false)) continue;
      shared.emplace(key{slice.driver, slice.pool.name, view.name()}, out.shared_devices.size());
      shared_device_occupancy entry{node, std::string(slice.driver), std::string(slice.pool.name),
                                    std::string(view.name()), {}, {}};
      for (const auto c : view.capacities()) entry.capacity.push_back({std::string(c.name), c.value->value.approximate_double(), 0, {}});
      out.shared_devices.push_back(std::move(entry));
    }
  }
  auto add = [](std::vector<counter_occupancy>& list, std::string_view name, const std::string& claim, double amount) {
    for (auto& c : list)
      if (c.name == name) {
        c.used += amount;
        if (!c.holders.empty() && c.holders.back().claim == claim)
          c.holders.back().amount += amount;
        else
          c.holders.push_back({claim, amount});
      }
  };
  auto take = [&](const std::string& claim, const model::allocation_result& allocation) {
    out.claims.push_back(claim);
    for (const auto& r : allocation.results) {
      if (r.admin_access.value_or(false)) continue;
      const auto device = devices.find(key{r.driver, r.pool, r.device});
      if (device == devices.end() || !device->second) continue;
      if (auto it = shared.find(key{r.driver, r.pool, r.device}); it != shared.end()) {
        shared_device_occupancy& d = out.shared_devices[it->second];
        const bool first_share = d.claims.empty();
        d.claims.push_back(claim);
        for (const auto& c : r.consumed_capacity) add(d.capacity, c.name, claim, c.value.approximate_double());
        if (!first_share) continue;  // a shared device charges its counters once
      }
      for (const auto consumption : device->second->counter_consumptions()) {
        auto set = sets.find(key{r.driver, r.pool, consumption.counter_set()});
        if (set == sets.end()) continue;
        for (const auto e : consumption.counters())
          add(out.counter_sets[set->second].counters, e.name, claim, e.value->approximate_double());
      }
    }
  };
  for (std::size_t c = 0; c < s.claims.size(); ++c)
    if (kept(c)) take(alloc::object_name(s.claims[c].object.meta), *s.claims[c].object.allocation);
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (const auto* allocated = outcomes[i].allocated())
      take(i < holder_names.size() ? holder_names[i] : outcomes[i].claim, allocated->allocation);
  return out;
}

// As above, after a run: a PodGroup's claims are shown under the group's name ("ns/claim (podgroup ns/group)").
[[nodiscard]] inline occupancy compute_occupancy(const model::scenario& s, const run_report& report) {
  std::vector<std::string> names;
  names.reserve(report.outcomes.size());
  for (std::size_t i = 0; i < report.outcomes.size(); ++i) {
    names.push_back(report.outcomes[i].claim);
    if (i < report.subjects.size() && report.subjects[i].pod_group) {
      const auto& meta = s.pod_groups[*report.subjects[i].pod_group].object.meta;
      names.back() += " (podgroup " + model::namespaced_name(meta.namespace_, meta.name) + ")";
    }
  }
  return compute_occupancy(s, report.outcomes, names, sched::released_claims(report));
}

// As above, with the device capacity the run leaves stranded for the pods it left pending (stranded_capacity).
template <alloc::selector_engine Engine>
[[nodiscard]] occupancy compute_occupancy(const model::scenario& s, const run_report& report, const Engine& engine) {
  occupancy out = compute_occupancy(s, report);
  out.stranded = stranded_capacity(s, engine, report);
  return out;
}

}  // namespace dra::sim
