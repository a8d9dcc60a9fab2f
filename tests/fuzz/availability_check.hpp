// The availability view (`dra capacity` without --pod, `--by`) checked against the model the bytes drew: a class's
// devices are those of its kind, allocated those some allocation holds, available those a one-device claim could
// still get (free or shared with room, untainted, counters left), and the same per model (`--by`); the stranded
// capacity is no more than the fragmentation, which is no more than what is free, and the totals add up.
#pragma once

#include "state_check.hpp"

#include <dra/sim/analysis/availability.hpp>

#include <cmath>
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

// Empty when the stranded capacity's figures hold together: per measured node 0 <= stranded <= fragmentation <= free
// <= its devices, stranded what its stranded devices hold (each some, at most a device), the totals their sums.
inline std::string judge_stranded(const dra::sim::stranded_report& r) {
  constexpr double slack = 1e-9;
  if (r.shapes_from == dra::sim::shape_source::none && !r.nodes.empty()) return "stranded: nodes without shapes";
  double free = 0, stranded = 0, fragmentation = 0;
  std::size_t devices = 0, holding = 0, not_measured = 0;
  for (const auto& n : r.nodes) {
    const std::string label = "stranded on " + n.node + ": ";
    if (!n.measured) {
      ++not_measured;
      if (n.free != 0 || n.stranded != 0 || !n.stranded_list.empty()) return label + "figures where not measured";
      continue;
    }
    if (n.stranded < -slack || n.stranded > n.fragmentation + slack || n.fragmentation > n.free + slack ||
        n.free > static_cast<double>(n.devices) + slack)
      return label + "stranded " + std::to_string(n.stranded) + ", fragmentation " + std::to_string(n.fragmentation) +
             ", free " + std::to_string(n.free) + " of " + std::to_string(n.devices) + " devices";
    double held = 0;
    for (const auto& d : n.stranded_list) {
      if (d.free <= 0 || d.free > 1 + slack) return label + d.device + " strands " + std::to_string(d.free);
      held += d.free;
    }
    if (std::abs(held - n.stranded) > slack)
      return label + "its devices hold " + std::to_string(held) + ", not " + std::to_string(n.stranded);
    free += n.free;
    stranded += n.stranded;
    fragmentation += n.fragmentation;
    devices += n.devices;
    holding += n.stranded_list.size();
  }
  if (std::abs(free - r.free) > slack || std::abs(stranded - r.stranded) > slack ||
      std::abs(fragmentation - r.fragmentation) > slack || devices != r.devices || holding != r.stranded_devices ||
      not_measured != r.not_measured)
    return "stranded: the totals are not the nodes' sums";
  return {};
}

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
  return judge_stranded(r.stranded);
}

}  // namespace dra_fuzz
