// Stranded device capacity: the free capacity of each node's devices that no typical pod shape can use, and FGD's
// weighted fragmentation beside it, on a scenario's current state or after a run (`dra capacity`, `dra occupancy`).
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/claim_resolver.hpp>
#include <dra/sched/fragmentation.hpp>
#include <dra/sched/node_list.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>
#include <dra/sched/queue.hpp>
#include <dra/sched/run_report.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sim {

// Where the pod shapes came from: the pending pods (when one of them asks for a device), else the scenario's pods
// that use device claims, bound ones included (the typical shapes), else nowhere: nothing is measured.
enum class shape_source : std::uint8_t { pending, typical, none };

[[nodiscard]] constexpr std::string_view to_string(shape_source from) noexcept {
  switch (from) {
    case shape_source::pending:
      return "pending";
    case shape_source::typical:
      return "typical";
    case shape_source::none:
      return "none";
  }
  return "none";
}

// A device whose free capacity is stranded, and how much of it (in devices: its share left).
struct stranded_device {
  std::string driver, pool, device;
  double free = 0;
  friend bool operator==(const stranded_device&, const stranded_device&) = default;
};

// One node with devices some kept shape may take. Figures are in devices: a device's share left of its scarcest
// capacity, 1 when idle (or when exclusive and unallocated), 0 when exclusive and allocated. `measured` is false
// when one of those devices draws on counters (GPU partitions): the figures are then left at 0 and mean nothing.
struct node_stranded {
  std::string node;
  std::size_t devices = 0;           // devices some kept shape may take
  bool measured = true;
  double free = 0;                   // their free capacity
  double stranded = 0;               // what no kept shape can use
  double fragmentation = 0;          // per shape what it cannot use, weighted by its share of the pods (FGD)
  std::vector<stranded_device> stranded_list;  // the devices holding it, in slice order
  friend bool operator==(const node_stranded&, const node_stranded&) = default;
};

struct stranded_report {
  shape_source shapes_from = shape_source::none;
  std::size_t pods = 0;    // the pods the shapes were drawn from (those the measure models: no "All" requests)
  std::size_t shapes = 0;  // the shapes kept: the most common, making up 95 % of those pods
  std::vector<node_stranded> nodes;  // in node order
  // Over the measured nodes.
  std::size_t devices = 0, stranded_devices = 0;
  double free = 0, stranded = 0, fragmentation = 0;
  std::size_t not_measured = 0;  // nodes
};

namespace detail {

using pod_workload = std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>>;

// Every unfinished pod of the scenario that uses a device claim, with its requests: the typical shapes.
[[nodiscard]] inline pod_workload typical_workload(const model::scenario& s, const sched::claim_resolver& resolver) {
  pod_workload out;
  for (const auto& p : s.pods) {
    if (model::is_terminal(p.object)) continue;
    auto claims = resolver.claim_specs_of(p.object);
    if (!claims.empty()) out.emplace_back(sched::pod_requests(p.object), std::move(claims));
  }
  return out;
}

// The pending pods `pending` (scenario pod indices, in queue order) with what they ask for, as the scheduling cycle
// gives them to the fragmentation gauge: their requests and their claims not yet allocated.
[[nodiscard]] inline pod_workload pending_workload(const model::scenario& s, std::span<const std::size_t> queue,
                                                   const sched::claim_resolver& resolver,
                                                   const std::vector<bool>& pending) {
  const sched::queue_demand demand = resolver.demand_of_queue();
  pod_workload out;
  for (const std::size_t p : queue)
    if (p < pending.size() && pending[p])
      out.emplace_back(sched::pod_requests(s.pods[p].object),
                       p < demand.per_pod.size() ? demand.per_pod[p] : std::vector<const model::device_claim*>{});
  return out;
}

[[nodiscard]] inline bool asks_for_devices(const pod_workload& pods) {
  return std::ranges::any_of(pods, [](const auto& p) { return !p.second.empty(); });
}

[[nodiscard]] inline std::vector<std::size_t> scenario_queue(const model::scenario& s) {
  std::vector<const model::pod*> pods;
  pods.reserve(s.pods.size());
  for (const auto& p : s.pods) pods.push_back(&p.object);
  return sched::queue_order(pods);
}

// The figures for `ledger` and `usage` (what the nodes' pods request), the shapes drawn from the pods `pending_pods`
// marks (per scenario pod) if they ask for a device, else from the typical pods.
template <alloc::selector_engine Engine>
[[nodiscard]] stranded_report measure_stranded(const model::scenario& s, const Engine& engine,
                                               const alloc::ledger& ledger, const sched::cluster_usage& usage,
                                               const std::vector<bool>& pending_pods) {
  const std::vector<std::size_t> queue = scenario_queue(s);
  const sched::claim_resolver resolver(s, queue);
  const pod_workload pending = pending_workload(s, queue, resolver, pending_pods);
  const pod_workload typical = typical_workload(s, resolver);
  stranded_report out;
  const pod_workload* workload = nullptr;
  if (asks_for_devices(pending)) {
    out.shapes_from = shape_source::pending;
    workload = &pending;
  } else if (asks_for_devices(typical)) {
    out.shapes_from = shape_source::typical;
    workload = &typical;
  } else {
    return out;
  }
  const sched::node_list nodes(s);
  sched::fragmentation_gauge<Engine> gauge(s, nodes.nodes, engine);
  gauge.set_workload(*workload);
  out.pods = gauge.pods();
  out.shapes = gauge.shapes().size();
  for (std::size_t i = 0; i < nodes.nodes.size(); ++i) {
    const sched::node_fragments f = gauge.fragments(i, usage.of(nodes.nodes[i]->meta.name), ledger);
    if (f.devices.empty()) continue;
    node_stranded n{std::string(nodes.nodes[i]->meta.name), f.devices.size(), f.measured, 0, 0, 0, {}};
    if (!f.measured) {
      out.nodes.push_back(std::move(n));
      ++out.not_measured;
      continue;
    }
    n.free = f.free;
    n.stranded = f.stranded;
    n.fragmentation = f.fragmentation;
    for (const auto& d : f.devices)
      if (d.stranded)
        n.stranded_list.push_back({std::string(d.id.driver), std::string(d.id.pool), std::string(d.id.device), d.free});
    out.devices += n.devices;
    out.stranded_devices += n.stranded_list.size();
    out.free += n.free;
    out.stranded += n.stranded;
    out.fragmentation += n.fragmentation;
    out.nodes.push_back(std::move(n));
  }
  return out;
}

}  // namespace detail

// The scenario's current state (its claims' allocations, its bound pods' requests): per node with devices some kept
// shape may take, their free capacity, what of it no kept shape can use, and FGD's fragmentation. The shapes are the
// pending pods' (not bound, unfinished) when one of them asks for a device, else the typical shapes of the pods that
// use device claims.
template <alloc::selector_engine Engine>
[[nodiscard]] stranded_report stranded_capacity(const model::scenario& s, const Engine& engine) {
  alloc::ledger ledger;
  for (const auto& c : s.claims)
    if (c.object.allocation) ledger.add(*c.object.allocation);
  std::vector<const model::pod*> pods;
  std::vector<bool> pending(s.pods.size(), false);
  for (std::size_t p = 0; p < s.pods.size(); ++p) {
    const model::pod& pod = s.pods[p].object;
    pods.push_back(&pod);
    pending[p] = !model::is_terminal(pod) && !(pod.node_name && !pod.node_name->empty());
  }
  const sched::cluster_usage usage(pods);
  return detail::measure_stranded(s, engine, ledger, usage, pending);
}

// The same after `report`'s run of `s`: the allocations it kept and made, the pods bound before (but those it evicted)
// and those it placed; the shapes are the pods it left pending, gated ones included.
template <alloc::selector_engine Engine>
[[nodiscard]] stranded_report stranded_capacity(const model::scenario& s, const Engine& engine,
                                                const sched::run_report& report) {
  const std::vector<std::size_t> released = sched::released_claims(report);
  alloc::ledger ledger;
  for (std::size_t c = 0; c < s.claims.size(); ++c)
    if (s.claims[c].object.allocation && std::ranges::find(released, c) == released.end())
      ledger.add(*s.claims[c].object.allocation);
  for (const auto& o : report.outcomes)
    if (const auto* allocated = o.allocated()) ledger.add(allocated->allocation);
  std::vector<bool> evicted(s.pods.size(), false);
  for (const auto& e : report.evictions)
    if (e.pod < evicted.size()) evicted[e.pod] = true;
  std::vector<const model::pod*> bound;
  for (std::size_t p = 0; p < s.pods.size(); ++p)
    if (!evicted[p]) bound.push_back(&s.pods[p].object);
  sched::cluster_usage usage(bound);
  std::vector<bool> pending(s.pods.size(), false);
  for (const auto& p : report.pods) {
    if (p.pod >= s.pods.size()) continue;  // a pod placed after the scenario's own: not the scenario's shape
    if (evicted[p.pod]) continue;  // placed, then preempted: gone
    if (p.node)
      usage.place(*p.node, s.pods[p.pod].object);
    else
      pending[p.pod] = true;
  }
  return detail::measure_stranded(s, engine, ledger, usage, pending);
}

}  // namespace dra::sim
