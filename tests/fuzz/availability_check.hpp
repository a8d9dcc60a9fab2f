// The availability view (`dra capacity` without --pod, `--by`) checked against the model the bytes drew: a class's
// devices are those of its kind, allocated those some allocation holds, available those a one-device claim could
// still get (free or shared with room, untainted, counters left), and the same per model (`--by`).
#pragma once

#include "state_check.hpp"

#include <dra/sim/analysis/availability.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dra_fuzz {

namespace detail {

struct device_state {
  std::set<std::pair<std::string, std::string>> held;              // pool, device
  std::map<std::pair<std::string, std::string>, double> consumed;  // pool, nic
};

inline device_state state_of(const dra::model::scenario& s) {
  device_state out;
  for (const auto& claim : s.claims) {
    if (!claim.object.allocation) continue;
    for (const auto& r : claim.object.allocation->results) {
      out.held.emplace(std::string(r.pool), std::string(r.device));
      if (const auto* asked = dra::model::find(r.consumed_capacity, "bandwidth"))
        out.consumed[{std::string(r.pool), std::string(r.device)}] += asked->approximate_double();
    }
  }
  return out;
}

struct expected_class {
  std::size_t devices = 0, allocated = 0, available = 0;
  std::map<std::string, std::size_t> by_model_devices, by_model_available;
};

// Whether a one-device claim could get `d` now: untainted, and free with its counters left, or shared with room.
inline bool can_take(const device_state& st, const std::string& pool, const device& d,
                     const std::vector<device>& pool_devices) {
  if (d.tainted) return false;
  if (d.kind == "nic") {
    const auto used = st.consumed.find({pool, d.name});
    return (used == st.consumed.end() ? 0.0 : used->second) < d.bandwidth;
  }
  if (st.held.contains({pool, d.name})) return false;
  int drawn = 0;
  if (!d.counter_set.empty())
    for (const auto& other : pool_devices)
      if (other.counter_set == d.counter_set && st.held.contains({pool, other.name})) drawn += other.mem;
  return drawn + d.mem <= partitioned_gpu_mem;
}

// A device of the class. In this model first fit handing a model's devices out in turn gets as many as can be taken
// one by one: every counter set holds exactly a GPU, or its two halves.
inline void count_device(expected_class& e, const device_state& st, const std::string& pool, const device& d,
                         const std::vector<device>& pool_devices) {
  ++e.devices;
  e.allocated += st.held.contains({pool, d.name}) ? 1 : 0;
  const bool available = can_take(st, pool, d, pool_devices);
  e.available += available ? 1 : 0;
  if (d.model.empty()) return;
  ++e.by_model_devices[d.model];
  e.by_model_available[d.model] += available ? 1 : 0;
}

}  // namespace detail

// Empty when `r` (availability of `s`, by gpu.example.com/model when `by_model`) says what the model does.
inline std::string judge_availability(const cluster& c, const dra::model::scenario& s,
                                      const dra::sim::availability_report& r, bool by_model) {
  const detail::device_state state = detail::state_of(s);
  for (const auto& figures : r.classes) {
    detail::expected_class e;
    for (const auto& d : c.cluster_devices)
      if (d.kind == figures.device_class) detail::count_device(e, state, "everywhere", d, c.cluster_devices);
    for (const auto& n : c.nodes)
      for (const auto& d : n.devices)
        if (d.kind == figures.device_class) detail::count_device(e, state, n.name, d, n.devices);
    const std::string label = "availability of class " + figures.device_class + ": ";
    if (figures.devices != e.devices || figures.allocated != e.allocated || figures.available != e.available)
      return label + "devices/allocated/available " + std::to_string(figures.devices) + "/" +
             std::to_string(figures.allocated) + "/" + std::to_string(figures.available) + ", the model says " +
             std::to_string(e.devices) + "/" + std::to_string(e.allocated) + "/" + std::to_string(e.available);
    if (!by_model) continue;
    std::size_t partitioned = 0;
    for (const auto& p : figures.partitions) {
      partitioned += p.devices;
      if (p.devices != e.by_model_devices[p.value] || p.available != e.by_model_available[p.value])
        return label + "model " + p.value + " devices/available " + std::to_string(p.devices) + "/" +
               std::to_string(p.available) + ", the model says " + std::to_string(e.by_model_devices[p.value]) + "/" +
               std::to_string(e.by_model_available[p.value]);
    }
    std::size_t with_model = 0;
    for (const auto& [model, count] : e.by_model_devices) with_model += count;
    if (partitioned != with_model)
      return label + "partitions hold " + std::to_string(partitioned) + " devices, not " + std::to_string(with_model);
  }
  return {};
}

}  // namespace dra_fuzz
