// What is allocated and what is still free on a scenario's current state: per device class (and partition value),
// per shared device's consumable capacity, per node's cpu, memory and pods, and the device capacity stranded on each
// node (`dra capacity` without --pod).
#pragma once

#include <dra/alloc/device_checks.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/cel/selector.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/analysis/select.hpp>
#include <dra/sim/analysis/stranded.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace dra::sim {

// The devices of a class with one value of the partition attribute.
struct partition_availability {
  std::string value;
  std::size_t devices = 0;
  std::size_t available = 0;  // how many first_fit would hand out one after another, each taking its counters
  friend bool operator==(const partition_availability&, const partition_availability&) = default;
};

// A class's devices in one pool.
struct pool_availability {
  std::string node, driver, pool;  // node: the slices' nodeName ("" for none)
  std::size_t devices = 0, allocated = 0, available = 0;
  friend bool operator==(const pool_availability&, const pool_availability&) = default;
};

struct class_availability {
  std::string device_class;
  std::size_t devices = 0;                         // devices the class selects
  std::size_t allocated = 0;                       // of those, devices some claim holds
  std::size_t available = 0;                       // devices a new claim for one device of the class could get now
  std::vector<partition_availability> partitions;  // per value of the partition attribute, in order of first device
  std::vector<pool_availability> pools;            // the same figures per pool, in order of first device
  friend bool operator==(const class_availability&, const class_availability&) = default;
};

struct capacity_availability {
  std::string name;
  quantity total, consumed, available;
  friend bool operator==(const capacity_availability&, const capacity_availability&) = default;
};

// A device that allows multiple allocations, with each of its capacities.
struct shared_availability {
  std::string node, driver, pool, device;
  std::vector<capacity_availability> capacity;
  friend bool operator==(const shared_availability&, const shared_availability&) = default;
};

// A node that lists allocatable resources, and what its bound, unfinished pods request.
struct node_availability {
  std::string node;
  model::resource_list allocatable;
  model::resource_list requested;  // the pods' requests, and "pods": how many
  friend bool operator==(const node_availability&, const node_availability&) = default;
};

struct availability_report {
  std::optional<std::string> attribute;     // the partition attribute (--by), if any
  std::vector<class_availability> classes;  // in input order
  std::vector<shared_availability> shared;  // in slice order
  std::vector<node_availability> nodes;     // in node order
  stranded_report stranded;                 // free device capacity no typical pod shape can use, per node
};

namespace detail {

// A partition value as text (lists joined by commas, versions as written).
struct attribute_text_visitor {
  std::string operator()(std::int64_t v) const { return std::to_string(v); }
  std::string operator()(bool v) const { return v ? "true" : "false"; }
  std::string operator()(model::text v) const { return std::string(v); }
  std::string operator()(const model::version_value& v) const { return std::string(v.source); }
  template <class T>
  std::string operator()(const std::vector<T>& list) const {
    std::string out;
    for (const auto& item : list) out += (out.empty() ? "" : ",") + (*this)(item);
    return out;
  }
};
[[nodiscard]] inline std::string attribute_text(const model::attribute_value& value) {
  return std::visit(attribute_text_visitor{}, value);
}

using device_key = std::tuple<std::string_view, std::string_view, std::string_view>;  // driver, pool, name
struct device_key_hash {
  std::size_t operator()(const device_key& k) const noexcept {
    return alloc::device_ref_hash{}(alloc::device_ref{std::get<0>(k), std::get<1>(k), std::get<2>(k)});
  }
};

// A device as free_devices counts it, found by name once so that checking and taking it is index arithmetic: the
// partition table checks every device of a class twice and a cluster has hundreds of thousands.
struct device_slot {
  std::size_t index = 0;   // its held flag in the state
  bool ruled_out = false;  // a taint a claim without tolerations does not pass, or shared with no capacity left
  bool shared = false;     // allows multiple allocations: its counters are charged once, by the first holder
  std::size_t first_take = 0, takes = 0;  // its counter takes in the state (counters the state does not track left out)
};

// The state a new one-device claim meets: what is held, the counters left, the taints rules add.
class free_devices {
 public:
  explicit free_devices(const model::scenario& s)
      : now_(std::make_shared<const occupancy>(compute_occupancy(s, std::span<const model::claim_outcome>{}))) {
    for (const auto& c : s.claims)
      if (c.object.allocation)
        for (const auto& r : c.object.allocation->results)
          if (!r.admin_access.value_or(false)) held_before_.insert(device_key{r.driver, r.pool, r.device});
    for (const auto& set : now_->counter_sets) {
      std::vector<counter_slot>& slots = counter_sets_[{set.driver, set.pool, set.name}];
      std::size_t hint = 0;
      for (const auto& counter : set.counters)
        if (const auto* known = find_counter(slots, counter.name, hint))
          left_[known->index] = counter.total - counter.used;  // a set published twice: the last one counts
        else {
          slots.push_back({counter.name, left_.size()});
          left_.push_back(counter.total - counter.used);
        }
    }
    for (const auto& shared : now_->shared_devices) {
      bool room = true;
      for (const auto& c : shared.capacity) room = room && c.used < c.total;
      shared_room_[{shared.driver, shared.pool, shared.device}] = room;
    }
    for (const auto& r : s.taint_rules) rules_.push_back(&r.object);
  }

  // Gives the device its place in this state; each call makes a new place, so call it once a device.
  device_slot place(const model::resource_slice& slice, const flatten::mixin_device_view& device) {
    const device_key key{slice.driver, slice.pool.name, device.name()};
    device_slot out{held_.size(), false, device.base().allow_multiple_allocations.value_or(false), takes_.size(), 0};
    held_.push_back(!held_before_.empty() && held_before_.contains(key));  // most clusters run empty: no hashing then
    static const model::device_request_spec no_tolerations;
    const alloc::device_ref id{slice.driver, slice.pool.name, device.name()};
    out.ruled_out =
        alloc::blocking_taint(device.base(), alloc::taints_from_rules(rules_, id), no_tolerations) != nullptr;
    if (out.shared)
      if (const auto room = shared_room_.find(key); room != shared_room_.end() && !room->second) out.ruled_out = true;
    for (const auto consumption : device.counter_consumptions()) {
      const auto set = counter_sets_.find({slice.driver, slice.pool.name, consumption.counter_set()});
      if (set == counter_sets_.end()) continue;
      std::size_t hint = 0;
      for (const auto e : consumption.counters())
        if (const auto* counter = find_counter(set->second, e.name, hint))
          takes_.push_back({counter->index, e.value->approximate_double()});
    }
    out.takes = takes_.size() - out.first_take;
    return out;
  }

  bool held(const device_slot& device) const { return held_[device.index]; }

  // Whether a claim asking for one device (no tolerations, no capacity) could get it now.
  bool can_take(const device_slot& device) const {
    if (device.ruled_out) return false;
    if (held(device)) return device.shared;  // a shared device charges its counters once
    return std::ranges::all_of(takes_of(device), [&](const counter_take& t) { return left_[t.counter] >= t.amount; });
  }

  // Hands the device out, as an allocation of it would: held, its counters taken (until undo_takes()).
  void take(const device_slot& device) {
    if (held(device)) return;
    held_[device.index] = true;
    for (const counter_take& t : takes_of(device)) left_[t.counter] -= t.amount;
    taken_.push_back(&device);
  }

  // Gives back everything take() handed out: the state is the one it was made with again.
  void undo_takes() {
    for (const device_slot* device : taken_) {
      held_[device->index] = false;
      for (const counter_take& t : takes_of(*device)) left_[t.counter] += t.amount;
    }
    taken_.clear();
  }

 private:
  // The names below view now_'s strings, which the pointer keeps in place when this state moves.
  std::shared_ptr<const occupancy> now_;
  struct counter_slot {
    std::string_view name;
    std::size_t index;  // in left_
  };
  // A set's counters are few: found by name in a short list, once the set is found by (driver, pool, set name). The
  // search starts at `hint`, after the last one found: a device names its counters in the set's (key) order.
  static const counter_slot* find_counter(const std::vector<counter_slot>& slots, std::string_view name,
                                          std::size_t& hint) {
    for (std::size_t step = 0; step < slots.size(); ++step) {
      const std::size_t at = (hint + step) % slots.size();
      if (slots[at].name == name) {
        hint = at + 1;
        return &slots[at];
      }
    }
    return nullptr;
  }
  struct counter_take {
    std::size_t counter;  // in left_
    double amount;
  };
  std::span<const counter_take> takes_of(const device_slot& device) const {
    return std::span(takes_).subspan(device.first_take, device.takes);
  }
  std::unordered_map<device_key, std::vector<counter_slot>, device_key_hash> counter_sets_;  // driver, pool, set
  std::unordered_set<device_key, device_key_hash> held_before_;                              // by the scenario's claims
  std::unordered_map<device_key, bool, device_key_hash> shared_room_;                        // some capacity left
  std::vector<const model::device_taint_rule*> rules_;
  std::vector<bool> held_;                 // by device_slot::index
  std::vector<double> left_;               // by counter index
  std::vector<counter_take> takes_;        // every placed device's, in device_slot ranges
  std::vector<const device_slot*> taken_;  // what take() handed out, for undo_takes()
};

struct located_device {
  const model::resource_slice* slice;
  flatten::mixin_device_view view;
  device_slot slot;
};

// One class's figures; `devices` are the ones it selects, in slice order. `state` is as it was again on return.
inline class_availability class_figures(std::string name, const std::vector<const located_device*>& devices,
                                        free_devices& state, std::optional<std::string_view> by) {
  class_availability out{std::move(name), devices.size(), 0, 0, {}, {}};
  std::vector<std::pair<std::string, std::vector<const located_device*>>> values;  // in order of first device
  // The class's pools in order of first device, found by (node, driver, pool): a cluster has thousands.
  std::unordered_map<device_key, std::size_t, device_key_hash> pool_index;
  for (const located_device* d : devices) {
    const model::text node = d->slice->node_name.value_or(model::text{});
    const auto [at, added] =
        pool_index.try_emplace(device_key{node, d->slice->driver, d->slice->pool.name}, out.pools.size());
    if (added)
      out.pools.push_back({std::string(node), std::string(d->slice->driver), std::string(d->slice->pool.name)});
    pool_availability* pool = &out.pools[at->second];
    ++pool->devices;
    if (state.held(d->slot)) {
      ++out.allocated;
      ++pool->allocated;
    }
    if (state.can_take(d->slot)) {
      ++out.available;
      ++pool->available;
    }
    if (!by) continue;
    const model::device_attribute* attribute = alloc::lookup_attribute(d->view, d->slice->driver, *by);
    if (attribute == nullptr) continue;
    std::string value = attribute_text(attribute->value);
    auto it = std::ranges::find_if(values, [&](const auto& v) { return v.first == value; });
    if (it == values.end()) it = values.insert(values.end(), {std::move(value), {}});
    it->second.push_back(d);
  }
  for (const auto& [value, members] : values) {  // each value's count starts from the current state
    partition_availability p{value, members.size(), 0};
    for (const located_device* d : members)
      if (state.can_take(d->slot)) {
        state.take(d->slot);
        ++p.available;
      }
    state.undo_takes();
    out.partitions.push_back(std::move(p));
  }
  return out;
}

inline std::vector<shared_availability> shared_figures(const model::scenario& s) {
  std::vector<shared_availability> out;
  alloc::ledger held;  // what the allocated claims consume of each shared device, as the allocator counts it
  for (const auto& c : s.claims)
    if (c.object.allocation) held.add(*c.object.allocation);
  for (const auto& located : s.slices) {
    const model::resource_slice& slice = located.object;
    for (const auto view : flatten::device_views(slice)) {
      if (!view.base().allow_multiple_allocations.value_or(false)) continue;
      shared_availability entry{std::string(slice.node_name.value_or(model::text{})),
                                std::string(slice.driver),
                                std::string(slice.pool.name),
                                std::string(view.name()),
                                {}};
      const alloc::ledger::device_state* state = held.find({slice.driver, slice.pool.name, view.name()});
      for (const auto c : view.capacities()) {
        quantity used;
        if (state != nullptr && state->given_out)
          if (const auto* amount = model::find(*state->given_out, c.name)) used = *amount;
        const auto left = c.value->value.sub(used);
        entry.capacity.push_back({std::string(c.name), c.value->value, used, left ? *left : quantity()});
      }
      out.push_back(std::move(entry));
    }
  }
  return out;
}

// A scheduler amount as a quantity in its canonical form: cpu from thousandths, byte amounts in binary units.
[[nodiscard]] inline quantity resource_quantity(std::string_view name, std::int64_t amount) {
  if (name == "cpu") return quantity::from_milli(amount);
  if (name == "memory" || name == "ephemeral-storage" || name.starts_with("hugepages-"))
    return quantity::from_int(amount, quantity::format::binary_si);
  return quantity::from_int(amount);
}

inline std::vector<node_availability> node_figures(const model::scenario& s) {
  std::vector<const model::pod*> pods;
  for (const auto& p : s.pods) pods.push_back(&p.object);
  const sched::cluster_usage usage(pods);
  std::vector<node_availability> out;
  for (const auto& n : s.nodes) {
    if (!n.object.allocatable) continue;
    const sched::node_usage& used = usage.of(n.object.meta.name);
    model::resource_list requested;
    for (const auto& [name, amount] : used.requested) requested.push_back({name, resource_quantity(name, amount)});
    requested.push_back({"pods", quantity::from_int(used.pods)});
    std::ranges::sort(requested, {}, &model::keyed<quantity>::name);
    out.push_back({std::string(n.object.meta.name), *n.object.allocatable, std::move(requested)});
  }
  return out;
}

}  // namespace detail

// The scenario's current state (allocations in its claims; pending claims are not allocated first — run
// `dra allocate --output scenario` before to see the state after them): per device class, its devices, how many
// claims hold and how many a one-device claim could get now (free or shared with capacity left, counters left,
// untainted); with `by` (an attribute, qualified or not), the same per value, `available` being how many first_fit
// hands out one after another on the current state (each taking its counters: MIG instances still makeable); each
// shared device's capacity total, consumed and left; each node with allocatable: what its pods request; and the
// stranded device capacity (stranded_capacity: what no pending, else typical, pod shape can use).
[[nodiscard]] inline result<availability_report> availability(const model::scenario& s,
                                                              const cel::selector_engine& engine,
                                                              std::optional<std::string_view> by = {}) {
  availability_report out;
  if (by) out.attribute = std::string(*by);
  detail::free_devices now(s);
  // Every device by name, placed in `now` once; a node-based map keeps the devices where the classes point to them.
  std::unordered_map<detail::device_key, detail::located_device, detail::device_key_hash> devices;
  std::size_t device_count = 0;
  for (const auto& located : s.slices) device_count += located.object.devices.size();
  devices.reserve(device_count);
  for (const auto& located : s.slices)
    for (const auto view : flatten::device_views(located.object))
      devices.insert_or_assign(detail::device_key{located.object.driver, located.object.pool.name, view.name()},
                               detail::located_device{&located.object, view, now.place(located.object, view)});
  for (const auto& c : s.classes) {
    auto matches = select_devices(s, engine, "true", c.object.meta.name);
    if (!matches) return std::move(matches).error();
    std::vector<const detail::located_device*> selected;
    for (const auto& m : *matches)
      if (m.match.value_or(false))
        if (const auto it = devices.find({m.driver, m.pool, m.device}); it != devices.end())
          selected.push_back(&it->second);
    out.classes.push_back(detail::class_figures(std::string(c.object.meta.name), selected, now, by));
  }
  out.shared = detail::shared_figures(s);
  out.nodes = detail::node_figures(s);
  out.stranded = stranded_capacity(s, engine);
  return out;
}

}  // namespace dra::sim
