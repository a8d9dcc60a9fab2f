// Fuzz target: bytes -> a small cluster built directly in the model, allocated under every policy; checks the
// allocator's invariants, that the policies agree on whether the claims fit, and (up to 8 devices) a brute-force
// reference written here, independently of the allocator's search, which also judges the explanation's cause.
#include "byte_reader.hpp"

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/check.hpp>
#include <dra/cel/selector.hpp>
#include <dra/sched/diagnosis.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace model = dra::model;
using dra::quantity;


constexpr std::string_view driver = "dra.test";
constexpr std::array<std::string_view, 12> device_names{"d0", "d1", "d2", "d3", "d4",  "d5",
                                                        "d6", "d7", "d8", "d9", "d10", "d11"};
constexpr std::array<std::string_view, 4> pool_names{"p0", "p1", "p2", "pall"};
constexpr std::array<std::string_view, 4> counter_slice_names{"p0-counters", "p1-counters", "p2-counters",
                                                               "pall-counters"};
constexpr std::array<std::string_view, 3> node_names{"n0", "n1", "n2"};
constexpr std::array<std::string_view, 4> claim_names{"c0", "c1", "c2", "c3"};
constexpr std::array<std::string_view, 3> models{"a", "b", "c"};
constexpr std::array<std::string_view, 3> attribute_names{"dra.test/model", "dra.test/numa", "dra.test/idx"};
constexpr std::array<std::string_view, 2> request_names{"r0", "r1"};
constexpr std::array<std::string_view, 2> sub_names{"s0", "s1"};
constexpr std::array<std::string_view, 4> full_sub_names{"r0/s0", "r0/s1", "r1/s0", "r1/s1"};

using dra_fuzz::byte_reader;

// The fuzzer's own description of the cluster; the model objects are built from it, and the brute force reads
// only this.
struct fdevice {
  int slice = 0;  // index into the slices; the last may be an all-nodes slice
  int model = 0, idx = 0, numa = 0;  // numa: bit mask of NUMA nodes, 0 = no attribute
  bool shared = false;
  int mem = 0;  // 0: no capacity
  int policy = 0;  // 0 none, 1 range {min, step, max}, 2 valid values {2, 4, 8}; both with a default
  int policy_default = 0, range_min = 0, range_step = 1, range_max = 0;  // max 0: none
  int draw = 0;                                                          // counter c0 of set cs; 0 none
  int taint = 0;  // 0 none, 1 k=v:NoSchedule, 2 k=w:NoExecute, 3 k=v:None
};

struct fspec {
  int klass = 0;      // 0: no selector, 1: idx >= 1
  int selector = -1;  // index into the menu
  int count = 1;
  bool all = false;
  int toleration = 0;  // 0 none, 1 k Exists (any effect), 2 k=v NoSchedule
  int mem_request = 0;
};

struct frequest {
  std::vector<fspec> subs;  // one entry for `exactly`
  bool first_available = false;
  bool admin = false;
};

struct fconstraint {
  bool match = true;
  int attribute = 0;  // index into attribute_names
  int scope = 0;      // 0 every request, 1 r0, 2 r1, 3 r0/s1
};

struct fclaim {
  std::vector<frequest> requests;
  std::vector<fconstraint> constraints;
  int allocated_device = -1;  // already allocated (to this device) when >= 0
  int allocated_mem = 0;
};

struct fworld {
  int nodes = 1;
  int slices = 1;
  bool all_nodes_slice = false;  // the last slice serves every node
  std::vector<int> counter_total;  // per slice
  std::vector<fdevice> devices;
  std::vector<fclaim> claims;
};

// Selectors: CEL text and what it means, evaluated here without CEL.
struct menu_entry {
  std::string_view cel;
  bool (*holds)(const fdevice&);
};
constexpr std::array<menu_entry, 8> menu{{
    {R"(device.attributes["dra.test"].model == "a")", [](const fdevice& d) { return d.model == 0; }},
    {R"(device.attributes["dra.test"].idx >= 2)", [](const fdevice& d) { return d.idx >= 2; }},
    {R"(device.attributes["dra.test"].idx % 2 == 0)", [](const fdevice& d) { return d.idx % 2 == 0; }},
    {R"("numa" in device.attributes["dra.test"])", [](const fdevice& d) { return d.numa != 0; }},
    {R"(device.driver == "dra.test")", [](const fdevice&) { return true; }},
    {R"(device.attributes["dra.test"].model != "a" || device.attributes["dra.test"].idx < 3)",
     [](const fdevice& d) { return d.model != 0 || d.idx < 3; }},
    {R"("mem" in device.capacity["dra.test"])", [](const fdevice& d) { return d.mem != 0; }},
    {R"("numa" in device.attributes["dra.test"] && 1 in device.attributes["dra.test"].numa)",
     [](const fdevice& d) { return (d.numa & 2) != 0; }},
}};
constexpr std::string_view class_selector = R"(device.attributes["dra.test"].idx >= 1)";

fspec read_spec(byte_reader& in, bool may_be_all) {
  fspec s;
  s.klass = in.next(2);
  s.selector = in.chance(2) ? -1 : in.next(static_cast<int>(menu.size()));
  s.count = 1 + in.next(2);
  s.all = may_be_all && in.chance(4);
  s.toleration = in.chance(3) ? 1 + in.next(2) : 0;
  s.mem_request = in.chance(3) ? 1 + in.next(5) : 0;
  return s;
}

fworld read_world(byte_reader& in) {
  fworld w;
  w.nodes = 1 + in.next(3);
  w.all_nodes_slice = in.chance(3);
  w.slices = w.nodes + (w.all_nodes_slice ? 1 : 0);
  for (int s = 0; s < w.slices; ++s) w.counter_total.push_back(1 + in.next(6));
  const int device_count = 1 + in.next(12);
  for (int i = 0; i < device_count; ++i) {
    fdevice d;
    d.slice = in.next(w.slices);
    d.model = in.next(3);
    d.idx = in.next(4);
    d.numa = in.chance(3) ? 0 : 1 + in.next(7);
    d.shared = in.chance(3);
    d.mem = in.chance(2) ? 0 : 1 + in.next(8);
    if (d.shared && d.mem != 0) {
      d.policy = in.next(3);
      d.policy_default = 1 + in.next(4);
      d.range_min = 1 + in.next(2);
      d.range_step = 1 + in.next(2);
      d.range_max = in.chance(2) ? 0 : d.range_min + d.range_step * in.next(4);
      // A default the policy itself allows, as validation demands: upstream exempts an amount equal to the
      // default by Go struct equality (representation, not value), which the reference does not model.
      if (d.policy == 1) {
        const int steps = d.range_max == 0 ? 3 : (d.range_max - d.range_min) / d.range_step;
        d.policy_default = d.range_min + d.range_step * in.next(steps + 1);
      } else if (d.policy == 2) {
        d.policy_default = 2 << in.next(3);
      }
    }
    d.draw = in.chance(2) ? 0 : 1 + in.next(3);
    d.taint = in.chance(4) ? 1 + in.next(3) : 0;
    w.devices.push_back(d);
  }
  const int claim_count = 1 + in.next(4);
  for (int c = 0; c < claim_count; ++c) {
    fclaim claim;
    if (in.chance(4)) {
      claim.allocated_device = in.next(device_count);
      claim.allocated_mem = 1 + in.next(4);
    }
    const int requests = 1 + in.next(2);
    for (int r = 0; r < requests; ++r) {
      frequest request;
      request.first_available = in.chance(3);
      request.admin = !request.first_available && in.chance(6);
      const int subs = request.first_available ? 2 : 1;
      for (int s = 0; s < subs; ++s) request.subs.push_back(read_spec(in, !request.first_available));
      claim.requests.push_back(request);
    }
    if (in.chance(2)) claim.constraints.push_back({in.chance(2), in.next(3), in.next(4)});
    w.claims.push_back(std::move(claim));
  }
  return w;
}

// ---- The model objects ----------------------------------------------------------------------------------------

struct built {
  model::scenario scenario;
  std::vector<model::node> nodes;
  std::vector<const model::resource_claim*> pending;
  std::vector<int> pending_index;  // index into fworld::claims
  std::vector<std::vector<std::size_t>> devices_of_slice;
};

model::device_capacity capacity_of(const fdevice& d) {
  model::device_capacity c{quantity::from_int(d.mem), {}};
  if (d.policy == 0) return c;
  model::capacity_request_policy p;
  p.default_value = quantity::from_int(d.policy_default);
  if (d.policy == 1) {
    model::capacity_range range{quantity::from_int(d.range_min), {}, quantity::from_int(d.range_step)};
    if (d.range_max != 0) range.max = quantity::from_int(d.range_max);
    p.valid_range = range;
  } else {
    p.valid_values = {quantity::from_int(2), quantity::from_int(4), quantity::from_int(8)};
  }
  c.request_policy = std::move(p);
  return c;
}

model::device device_of(const fdevice& f, std::size_t index) {
  model::device d;
  d.name = device_names[index];
  d.attributes.push_back({"idx", {std::int64_t{f.idx}}});
  d.attributes.push_back({"model", {models[static_cast<std::size_t>(f.model)]}});
  if (f.numa != 0) {
    std::vector<std::int64_t> numa;
    for (int bit = 0; bit < 3; ++bit)
      if ((f.numa >> bit) & 1) numa.push_back(bit);
    d.attributes.push_back({"numa", {std::move(numa)}});
  }
  if (f.mem != 0) d.capacity.push_back({"mem", capacity_of(f)});
  if (f.draw != 0) d.consumes_counters.push_back({"cs", {{"c0", quantity::from_int(f.draw)}}, {}, {}});
  if (f.shared) d.allow_multiple_allocations = true;
  static constexpr std::array<model::device_taint, 3> taints{{{"k", "v", "NoSchedule", {}},
                                                              {"k", "w", "NoExecute", {}},
                                                              {"k", "v", "None", {}}}};
  if (f.taint != 0) d.taints.push_back(taints[static_cast<std::size_t>(f.taint - 1)]);
  return d;
}

model::device_request_spec spec_of(const fspec& f) {
  model::device_request_spec s;
  s.device_class_name = f.klass == 0 ? "plain" : "picky";
  if (f.selector >= 0) s.selectors.push_back({menu[static_cast<std::size_t>(f.selector)].cel});
  s.mode = f.all ? model::allocation_mode::all : model::allocation_mode::exact_count;
  s.count = f.all ? 0 : f.count;
  if (f.toleration == 1) s.tolerations.push_back({"k", model::toleration_operator::exists, "", "", {}});
  if (f.toleration == 2) s.tolerations.push_back({"k", model::toleration_operator::equal, "v", "NoSchedule", {}});
  if (f.mem_request != 0) s.capacity = model::capacity_requirements{{{"mem", quantity::from_int(f.mem_request)}}};
  return s;
}

model::resource_claim claim_of(const fworld& w, std::size_t index) {
  const fclaim& f = w.claims[index];
  model::resource_claim c;
  c.meta.name = claim_names[index];
  c.meta.namespace_ = "ns";
  for (std::size_t r = 0; r < f.requests.size(); ++r) {
    const frequest& fr = f.requests[r];
    model::device_request request;
    request.name = request_names[r];
    if (fr.first_available) {
      for (std::size_t s = 0; s < fr.subs.size(); ++s) {
        model::device_sub_request sub;
        static_cast<model::device_request_spec&>(sub) = spec_of(fr.subs[s]);
        sub.name = sub_names[s];
        request.first_available.push_back(std::move(sub));
      }
    } else {
      model::exact_device_request exact;
      static_cast<model::device_request_spec&>(exact) = spec_of(fr.subs[0]);
      if (fr.admin) exact.admin_access = true;
      request.exactly = std::move(exact);
    }
    c.spec.requests.push_back(std::move(request));
  }
  for (const fconstraint& fc : f.constraints) {
    model::device_constraint constraint;
    static constexpr std::array<std::string_view, 3> scopes{"r0", "r1", "r0/s1"};
    if (fc.scope != 0) constraint.requests.push_back(scopes[static_cast<std::size_t>(fc.scope - 1)]);
    if (fc.match)
      constraint.match_attribute = attribute_names[static_cast<std::size_t>(fc.attribute)];
    else
      constraint.distinct_attribute = attribute_names[static_cast<std::size_t>(fc.attribute)];
    c.spec.constraints.push_back(std::move(constraint));
  }
  if (f.allocated_device >= 0) {
    const fdevice& d = w.devices[static_cast<std::size_t>(f.allocated_device)];
    model::device_request_allocation_result r;
    r.request = "r0";
    r.driver = driver;
    r.pool = pool_names[static_cast<std::size_t>(d.slice)];
    r.device = device_names[static_cast<std::size_t>(f.allocated_device)];
    if (d.shared) {
      r.share_id = "00000000-0000-4000-8000-00000000000" + std::to_string(index);
      if (d.mem != 0) r.consumed_capacity.push_back({"mem", quantity::from_int(std::min(f.allocated_mem, d.mem))});
    }
    c.allocation = model::allocation_result{{std::move(r)}, {}, {}, {}};
  }
  return c;
}

built build(fworld& w) {
  built b;
  // The all-nodes slice gets its own pool name.
  auto pool_of_slice = [&](int s) { return w.all_nodes_slice && s == w.slices - 1 ? 3 : s; };
  for (auto& d : w.devices) d.slice = pool_of_slice(d.slice);
  b.devices_of_slice.resize(4);
  for (int s = 0; s < w.slices; ++s) {
    const int pool = pool_of_slice(s);
    model::resource_slice slice;
    slice.meta.name = pool_names[static_cast<std::size_t>(pool)];
    slice.driver = driver;
    slice.pool = {pool_names[static_cast<std::size_t>(pool)], 1, 2};
    if (pool == 3)
      slice.all_nodes = true;
    else
      slice.node_name = node_names[static_cast<std::size_t>(pool)];
    for (std::size_t i = 0; i < w.devices.size(); ++i)
      if (w.devices[i].slice == pool) {
        slice.devices.push_back(device_of(w.devices[i], i));
        b.devices_of_slice[static_cast<std::size_t>(pool)].push_back(i);
      }
    // The counter set is published in a slice of its own, as the API requires: same pool, no devices.
    model::resource_slice counters = slice;
    counters.meta.name = counter_slice_names[static_cast<std::size_t>(pool)];
    counters.devices.clear();
    counters.shared_counters.push_back(
        {"cs", {{"c0", quantity::from_int(w.counter_total[static_cast<std::size_t>(s)])}}, {}});
    b.scenario.slices.push_back({std::move(slice), {}});
    b.scenario.slices.push_back({std::move(counters), {}});
  }
  b.scenario.classes.push_back({model::device_class{model::object_meta{.name = "plain"}, {}, {}, {}}, {}});
  b.scenario.classes.push_back(
      {model::device_class{model::object_meta{.name = "picky"}, {{class_selector}}, {}, {}}, {}});
  for (std::size_t c = 0; c < w.claims.size(); ++c) b.scenario.claims.push_back({claim_of(w, c), {}});
  for (std::size_t c = 0; c < w.claims.size(); ++c)
    if (!b.scenario.claims[c].object.allocation) {
      b.pending.push_back(&b.scenario.claims[c].object);
      b.pending_index.push_back(static_cast<int>(c));
    }
  for (int n = 0; n < w.nodes; ++n) {
    model::node node;
    node.meta.name = node_names[static_cast<std::size_t>(n)];
    b.nodes.push_back(node);
  }
  return b;
}

// ---- The reference: what a valid allocation is, checked on a complete assignment -------------------------------

// One device given to one (sub)request.
struct pick {
  int claim = 0;  // index into fworld::claims
  int request = 0;
  int sub = 0;
  int device = 0;
};

// The capacity one allocation of `d` takes for a request of `requested` (0: none), and whether the device's
// policy allows that amount (KEP-5075).
int consumed(const fdevice& d, int requested) {
  if (requested == 0) return d.policy != 0 ? d.policy_default : d.mem;
  if (d.policy == 1) {
    if (requested <= d.range_min) return d.range_min;
    const int steps = (requested - d.range_min + d.range_step - 1) / d.range_step;
    return d.range_min + steps * d.range_step;
  }
  if (d.policy == 2)
    for (int v : {2, 4, 8})
      if (requested <= v) return v;
  return requested;
}
bool allowed(const fdevice& d, int amount) {
  if (d.policy == 0 || amount == d.policy_default) return true;
  if (d.policy == 1)
    return (d.range_max == 0 || amount <= d.range_max) && (amount - d.range_min) % d.range_step == 0;
  return amount == 2 || amount == 4 || amount == 8;
}

bool tolerated(const fdevice& d, const fspec& s) {
  if (d.taint == 0 || d.taint == 3) return true;
  if (s.toleration == 1) return true;
  return s.toleration == 2 && d.taint == 1;
}
bool on_node(const fdevice& d, int node) { return d.slice == 3 || d.slice == node; }
bool selected(const fdevice& d, const fspec& s) {
  if (s.klass == 1 && d.idx < 1) return false;
  return s.selector < 0 || menu[static_cast<std::size_t>(s.selector)].holds(d);
}
// Whether the device alone can serve the spec's capacity request (ignoring other allocations).
bool capacity_alone(const fdevice& d, const fspec& s) {
  if (s.mem_request != 0 && d.mem == 0) return false;
  if (d.mem == 0) return true;
  const int amount = consumed(d, s.mem_request);
  return allowed(d, amount) && amount <= d.mem;
}

struct reference {
  const fworld& w;
  int node;
  // Per device: exclusively allocated before, capacity already given out (-1: no shared allocation).
  std::vector<bool> held_before;
  std::vector<int> given_before;
  std::vector<int> counters_used_before;  // per pool

  reference(const fworld& world, int n) : w(world), node(n) {
    held_before.assign(w.devices.size(), false);
    given_before.assign(w.devices.size(), -1);
    counters_used_before.assign(4, 0);
    std::vector<bool> holds_counters(w.devices.size(), false);
    for (const fclaim& c : w.claims) {
      if (c.allocated_device < 0) continue;
      const auto d = static_cast<std::size_t>(c.allocated_device);
      holds_counters[d] = true;
      if (!w.devices[d].shared) {
        held_before[d] = true;
      } else {
        given_before[d] = std::max(given_before[d], 0) + (w.devices[d].mem != 0 ? std::min(c.allocated_mem, w.devices[d].mem) : 0);
      }
    }
    for (std::size_t d = 0; d < w.devices.size(); ++d)
      if (holds_counters[d]) counters_used_before[static_cast<std::size_t>(w.devices[d].slice)] += w.devices[d].draw;
  }

  int counter_total(int pool) const {
    return w.counter_total[static_cast<std::size_t>(pool == 3 ? w.slices - 1 : pool)];
  }
  const fspec& spec(const pick& p) const {
    return w.claims[static_cast<std::size_t>(p.claim)].requests[static_cast<std::size_t>(p.request)].subs[static_cast<std::size_t>(p.sub)];
  }
  bool admin(const pick& p) const {
    return w.claims[static_cast<std::size_t>(p.claim)].requests[static_cast<std::size_t>(p.request)].admin;
  }
  // Devices an All request must take: selected, on the node, with capacity to spare.
  std::vector<int> all_devices(const fspec& s) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < w.devices.size(); ++i) {
      const fdevice& d = w.devices[i];
      if (!on_node(d, node) || !selected(d, s) || !capacity_alone(d, s)) continue;
      if (d.mem != 0 && d.shared && given_before[i] > 0 && given_before[i] + consumed(d, s.mem_request) > d.mem) continue;
      out.push_back(static_cast<int>(i));
    }
    return out;
  }
  // Devices an exact request may take, each judged alone.
  bool eligible(const fdevice& d, const fspec& s) const {
    return on_node(d, node) && selected(d, s) && tolerated(d, s) && capacity_alone(d, s);
  }

  enum class verdict { valid, invalid };
  verdict check(const std::vector<pick>& picks) const;
  bool constraint_holds(const fclaim& c, int claim, const fconstraint& k, const std::vector<pick>& picks) const;
};

// The values of an attribute as a set: its list, or its single value.
std::optional<std::vector<int>> attribute_values(const fdevice& d, int attribute) {
  if (attribute == 0) return std::vector<int>{d.model + 100};  // strings never equal ints: kept apart by type below
  if (attribute == 2) return std::vector<int>{d.idx};
  if (d.numa == 0) return std::nullopt;
  std::vector<int> v;
  for (int bit = 0; bit < 3; ++bit)
    if ((d.numa >> bit) & 1) v.push_back(bit);
  return v;
}

bool applies(const fconstraint& k, const pick& p) {
  switch (k.scope) {
    case 0:
      return true;
    case 1:
      return p.request == 0;
    case 2:
      return p.request == 1;
    default:
      return p.request == 0 && p.sub == 1;
  }
}

bool reference::constraint_holds(const fclaim& c, int claim, const fconstraint& k,
                                 const std::vector<pick>& picks) const {
  std::vector<std::pair<const pick*, std::vector<int>>> values;
  for (const pick& p : picks) {
    if (p.claim != claim || !applies(k, p)) continue;
    // A scope naming r0/s1 only applies when r0 has subrequests.
    if (k.scope == 3 && !c.requests[0].first_available) continue;
    auto v = attribute_values(w.devices[static_cast<std::size_t>(p.device)], k.attribute);
    if (!v) return false;
    values.emplace_back(&p, std::move(*v));
  }
  if (k.match) {
    if (values.empty()) return true;
    std::vector<int> common = values.front().second;
    for (const auto& entry : values) {
      const std::vector<int>& v = entry.second;
      std::erase_if(common, [&](int x) { return std::find(v.begin(), v.end(), x) == v.end(); });
    }
    return !common.empty();
  }
  // distinctAttribute: every two devices it covers share no value (lists: disjoint).
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t j = i + 1; j < values.size(); ++j)
      for (int x : values[i].second)
        if (std::find(values[j].second.begin(), values[j].second.end(), x) != values[j].second.end()) return false;
  return true;
}

reference::verdict reference::check(const std::vector<pick>& picks) const {
  // Exclusive use, in the order the claims and requests are written: an admin-access request may share a device
  // with other claims (even one allocated before) but not with its own claim; any other request needs a device
  // nobody holds.
  std::vector<std::vector<int>> holders(w.devices.size());
  std::vector<int> uses(w.devices.size(), 0);
  std::vector<int> given(given_before);
  std::vector<int> counters(counters_used_before);
  std::vector<bool> overdrawn(4, false);
  for (int pool = 0; pool < 4; ++pool)
    if ((pool == 3 ? w.all_nodes_slice : pool < w.nodes) &&
        counters[static_cast<std::size_t>(pool)] > counter_total(pool))
      overdrawn[static_cast<std::size_t>(pool)] = true;
  for (const pick& p : picks) {
    const auto di = static_cast<std::size_t>(p.device);
    const fdevice& d = w.devices[di];
    const fspec& s = spec(p);
    if (!on_node(d, node) || !selected(d, s) || !tolerated(d, s)) return verdict::invalid;
    if (s.mem_request != 0 && d.mem == 0) return verdict::invalid;
    auto& h = holders[di];
    if (!d.shared) {
      const bool own_claim = std::find(h.begin(), h.end(), p.claim) != h.end();
      if (admin(p) ? own_claim : (held_before[di] || !h.empty())) return verdict::invalid;
      if (!own_claim) h.push_back(p.claim);
    }
    if (d.mem != 0) {
      const int amount = consumed(d, s.mem_request);
      if (!allowed(d, amount)) return verdict::invalid;
      const int total = amount + (d.shared ? std::max(given[di], 0) : 0);
      if (total > d.mem) return verdict::invalid;
      if (d.shared) given[di] = total;
    }
    const bool charged = d.draw != 0 && !(d.shared && (given_before[di] >= 0 || uses[di] > 0));
    ++uses[di];
    if (charged) {
      if (overdrawn[static_cast<std::size_t>(d.slice)]) return verdict::invalid;
      counters[static_cast<std::size_t>(d.slice)] += d.draw;
      if (counters[static_cast<std::size_t>(d.slice)] > counter_total(d.slice)) return verdict::invalid;
    }
  }
  for (std::size_t c = 0; c < w.claims.size(); ++c)
    for (const fconstraint& k : w.claims[c].constraints)
      if (!constraint_holds(w.claims[c], static_cast<int>(c), k, picks)) return verdict::invalid;
  return verdict::valid;
}

const fworld* current_world = nullptr;
std::vector<pick> found_picks;  // the brute force's valid assignment, for failure reports

// Enumerates every assignment (subrequest choice and device set per request) of the pending claims on one node.
class brute_force {
 public:
  brute_force(const reference& ref, const std::vector<int>& pending) : ref_(ref), pending_(pending) {}

  // Whether some assignment is valid; nullopt when there were too many to try.
  std::optional<bool> any_valid() {
    const bool found = search(0, 0);
    if (budget_ < 0) return std::nullopt;
    return found;
  }

 private:
  bool search(std::size_t claim, std::size_t request) {
    if (--budget_ < 0) return false;
    if (claim == pending_.size()) {
      if (ref_.check(picks_) != reference::verdict::valid) return false;
      found_picks = picks_;
      return true;
    }
    const int c = pending_[claim];
    const fclaim& fc = ref_.w.claims[static_cast<std::size_t>(c)];
    if (request == fc.requests.size()) return search(claim + 1, 0);
    const frequest& fr = fc.requests[request];
    for (std::size_t s = 0; s < fr.subs.size(); ++s) {
      const fspec& spec = fr.subs[s];
      const pick base{c, static_cast<int>(request), static_cast<int>(s), 0};
      if (spec.all) {
        const std::vector<int> all = ref_.all_devices(spec);
        if (all.empty()) continue;
        for (int d : all) picks_.push_back({base.claim, base.request, base.sub, d});
        const bool ok = search(claim, request + 1);
        picks_.resize(picks_.size() - all.size());
        if (ok) return true;
        continue;
      }
      std::vector<int> eligible;
      for (std::size_t d = 0; d < ref_.w.devices.size(); ++d)
        if (ref_.eligible(ref_.w.devices[d], spec)) eligible.push_back(static_cast<int>(d));
      if (choose(base, eligible, 0, spec.count, claim, request)) return true;
    }
    return false;
  }
  bool choose(const pick& base, const std::vector<int>& eligible, std::size_t from, int left, std::size_t claim,
              std::size_t request) {
    if (left == 0) return search(claim, request + 1);
    for (std::size_t i = from; i < eligible.size(); ++i) {
      picks_.push_back({base.claim, base.request, base.sub, eligible[i]});
      const bool ok = choose(base, eligible, i + 1, left - 1, claim, request);
      picks_.pop_back();
      if (ok) return true;
      if (budget_ < 0) return false;
    }
    return false;
  }

  const reference& ref_;
  const std::vector<int>& pending_;
  std::vector<pick> picks_;
  long budget_ = 50000;
};

// ---- Running dra ------------------------------------------------------------------------------------------------

const dra::cel::selector_engine& engine() {
  static const dra::cel::selector_engine e;
  return e;
}

// Prints the cluster that failed, so that a finding can be read without a debugger.
void describe(const fworld& w) {
  std::fprintf(stderr, "nodes %d, slices %d (all-nodes slice: %d), counters per slice:", w.nodes, w.slices,
               w.all_nodes_slice ? 1 : 0);
  for (int t : w.counter_total) std::fprintf(stderr, " %d", t);
  std::fprintf(stderr, "\n");
  for (std::size_t i = 0; i < w.devices.size(); ++i) {
    const fdevice& d = w.devices[i];
    std::fprintf(stderr,
                 "  d%zu: pool %s model %d idx %d numa %d shared %d mem %d policy %d (default %d min %d step %d max %d) "
                 "draw %d taint %d\n",
                 i, pool_names[static_cast<std::size_t>(d.slice)].data(), d.model, d.idx, d.numa, d.shared ? 1 : 0,
                 d.mem, d.policy, d.policy_default, d.range_min, d.range_step, d.range_max, d.draw, d.taint);
  }
  for (std::size_t c = 0; c < w.claims.size(); ++c) {
    const fclaim& fc = w.claims[c];
    std::fprintf(stderr, "  claim c%zu%s\n", c,
                 fc.allocated_device >= 0 ? (" allocated to d" + std::to_string(fc.allocated_device) + " mem " +
                                             std::to_string(fc.allocated_mem)).c_str()
                                          : "");
    for (std::size_t r = 0; r < fc.requests.size(); ++r)
      for (std::size_t s = 0; s < fc.requests[r].subs.size(); ++s) {
        const fspec& sp = fc.requests[r].subs[s];
        std::fprintf(stderr,
                     "    r%zu%s%s: class %d selector %d count %d all %d toleration %d mem %d\n", r,
                     fc.requests[r].first_available ? ("/s" + std::to_string(s)).c_str() : "",
                     fc.requests[r].admin ? " admin" : "", sp.klass, sp.selector, sp.count, sp.all ? 1 : 0,
                     sp.toleration, sp.mem_request);
      }
    for (const fconstraint& k : fc.constraints)
      std::fprintf(stderr, "    %s %s scope %d\n", k.match ? "match" : "distinct",
                   attribute_names[static_cast<std::size_t>(k.attribute)].data(), k.scope);
  }
  for (const pick& p : found_picks)
    std::fprintf(stderr, "  reference picks: c%d r%d s%d d%d\n", p.claim, p.request, p.sub, p.device);
}

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_alloc: %s: %s\n", what, detail.c_str());
  if (current_world != nullptr) describe(*current_world);
  std::abort();
}

// Each search's budget. Past it a node is not compared. 200,000 let one input take 9 s of CPU under ASan (three
// policies, then the explanation's searches of claims alone, each up to the budget): over libFuzzer's 20 s
// timeout on a loaded machine.
inline constexpr std::uint64_t max_search_steps = 50'000;

struct node_outcome {
  bool error = false;
  bool over_budget = false;
  bool fits = false;
  std::vector<model::allocation_result> results;
};

// What an allocator borrows from the built cluster: the ledger of the claims allocated before, classes and slices.
struct allocator_inputs {
  dra::alloc::ledger state;
  std::vector<const model::device_class*> classes;
  std::vector<const model::resource_slice*> slices;

  explicit allocator_inputs(const built& b) {
    for (const auto& c : b.scenario.claims)
      if (c.object.allocation) state.add(*c.object.allocation);
    for (const auto& c : b.scenario.classes) classes.push_back(&c.object);
    for (const auto& s : b.scenario.slices) slices.push_back(&s.object);
  }
};

template <class Policy>
std::vector<node_outcome> run_policy(const built& b, bool interchangeable_pruning = true) {
  allocator_inputs in(b);
  dra::alloc::basic_allocator<Policy, dra::cel::selector_engine> allocator(dra::alloc::features::all(), in.state,
                                                                            in.classes, in.slices, engine());
  allocator.set_interchangeable_pruning(interchangeable_pruning);
  // Some shapes still make every policy enumerate (see docs/allocator.md); they are not compared, and the
  // inputs that find them are kept in the corpus to show which shapes remain.
  allocator.set_step_budget(max_search_steps);
  std::vector<node_outcome> out;
  for (const auto& node : b.nodes) {
    auto outcome = allocator.allocate(node, b.pending);
    node_outcome o;
    if (!outcome) {
      // The errors valid input may meet: an All request whose devices break a constraint (upstream's rule), and
      // the step budget.
      if (outcome.error().message.find("claim constraint would not be satisfied") == std::string::npos &&
          outcome.error().message.find("search step budget") == std::string::npos)
        fail("unexpected error", outcome.error().to_string());
      o.error = true;
      o.over_budget = outcome.error().code == dra::errc::search_budget;
    } else {
      if (std::holds_alternative<dra::alloc::invalid_pools>(outcome->result))
        fail("invalid pools", std::string(outcome->reason()));
      if (auto* fit = outcome->fit()) {
        o.fits = true;
        o.results = std::move(fit->results);
      }
    }
    out.push_back(std::move(o));
  }
  return out;
}

// Turns dra's results back into picks, checking the counts and that each request used one subrequest.
std::vector<pick> picks_of(const fworld& w, const built& b, const node_outcome& o, const reference& ref) {
  std::vector<pick> picks;
  for (std::size_t k = 0; k < b.pending.size(); ++k) {
    const int c = b.pending_index[k];
    const fclaim& fc = w.claims[static_cast<std::size_t>(c)];
    const model::allocation_result& result = o.results[k];
    for (std::size_t r = 0; r < fc.requests.size(); ++r) {
      const frequest& fr = fc.requests[r];
      std::vector<int> chosen_sub;
      std::vector<int> devices;
      for (const auto& res : result.results) {
        int sub = -1;
        if (!fr.first_available && res.request == request_names[r]) sub = 0;
        for (int s = 0; s < 2 && fr.first_available; ++s)
          if (res.request == full_sub_names[r * 2 + static_cast<std::size_t>(s)]) sub = s;
        if (sub < 0) continue;
        int device = -1;
        for (std::size_t d = 0; d < w.devices.size(); ++d)
          if (res.device == device_names[d] && res.pool == pool_names[static_cast<std::size_t>(w.devices[d].slice)])
            device = static_cast<int>(d);
        if (device < 0) fail("result names an unknown device", std::string(res.pool) + "/" + std::string(res.device));
        if (std::find(devices.begin(), devices.end(), device) != devices.end())
          fail("device twice in one request", std::string(res.device));
        const fdevice& fd = w.devices[static_cast<std::size_t>(device)];
        if (res.share_id.has_value() != fd.shared) fail("shareID on an exclusive device or missing", std::string(res.device));
        if (fd.shared && fd.mem != 0) {
          const quantity* q = model::find(res.consumed_capacity, "mem");
          const int want = consumed(fd, fr.subs[static_cast<std::size_t>(sub)].mem_request);
          if (q == nullptr || q->value() != want) fail("consumed capacity", std::string(res.device));
        }
        if (res.admin_access.value_or(false) != fr.admin) fail("admin access flag", std::string(res.device));
        chosen_sub.push_back(sub);
        devices.push_back(device);
        picks.push_back({c, static_cast<int>(r), sub, device});
      }
      if (chosen_sub.empty()) fail("request without devices", std::string(request_names[r]));
      if (std::adjacent_find(chosen_sub.begin(), chosen_sub.end(), std::not_equal_to<>()) != chosen_sub.end())
        fail("two subrequests used", std::string(request_names[r]));
      const fspec& spec = fr.subs[static_cast<std::size_t>(chosen_sub.front())];
      if (spec.all) {
        std::vector<int> all = ref.all_devices(spec);
        std::sort(devices.begin(), devices.end());
        if (devices != all) fail("All request without all devices", std::string(request_names[r]));
      } else if (static_cast<int>(devices.size()) != spec.count) {
        fail("wrong device count", std::string(request_names[r]));
      }
    }
  }
  return picks;
}

// The explanation of a node where no assignment exists (the only nodes a unit is explained on) agrees with the brute
// force: it names a cause; a cause in one claim (a request no device can serve, or the claim's requests together)
// means that claim alone has no assignment; a conflict naming claim k means the claims before k fit together and
// claim k alone, but not all of them: taking claim k away is what makes them fit.
void check_explanation(const built& b, int node, const reference& ref) {
  allocator_inputs in(b);
  dra::alloc::basic_allocator<dra::alloc::first_fit, dra::cel::selector_engine> allocator(
      dra::alloc::features::all(), in.state, in.classes, in.slices, engine());
  allocator.set_step_budget(max_search_steps);
  // The explanation asks the allocator about some of the claims alone. An error there (an All request breaking a
  // constraint, which depends on what the other claims took first) stops that search early, so such nodes are not
  // compared, as for the policies.
  bool erred = false;
  auto oracle = [&](const model::node& on, std::span<const model::resource_claim* const> claims) {
    auto outcome = allocator.allocate(on, claims);
    erred = erred || !outcome;
    return outcome && outcome->fit() != nullptr;
  };
  dra::sched::funnel_builder<dra::cel::selector_engine> funnels(dra::alloc::features::all(), in.state, in.classes,
                                                              in.slices, engine());
  const model::node& n = b.nodes[static_cast<std::size_t>(node)];
  const dra::sched::node_diagnosis d = dra::sched::diagnose_node(funnels, n, b.pending, oracle);
  if (erred) return;
  const std::vector<int>& pending = b.pending_index;
  if (d.verdict == model::explanation_code::fits)
    fail("the explanation finds no cause, but the reference finds no allocation", d.message);
  std::size_t named = b.pending.size();
  for (std::size_t k = 0; k < b.pending.size(); ++k)
    if (dra::alloc::object_name(b.pending[k]->meta) == d.claim) named = k;
  if (named == b.pending.size()) fail("the explanation names no pending claim", d.claim);
  const int claim = pending[named];
  if (d.verdict != model::explanation_code::conflict) {
    const std::optional<bool> alone = brute_force(ref, std::vector<int>{claim}).any_valid();
    if (alone.value_or(false)) fail("the explanation blames a claim that fits alone", d.claim + ": " + d.message);
    return;
  }
  const std::vector<int> before(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(named));
  std::vector<int> through(before);
  through.push_back(claim);
  const std::optional<bool> alone = brute_force(ref, std::vector<int>{claim}).any_valid();
  const std::optional<bool> without = brute_force(ref, before).any_valid();
  const std::optional<bool> with = brute_force(ref, through).any_valid();
  if (alone == false || without == false || with == true)
    fail("the explanation's conflict is not one the reference sees", d.claim + ": " + d.message);
}

void check_node(const fworld& w, const built& b, int node, const std::array<const node_outcome*, 3>& by_policy) {
  const reference ref(w, node);
  const std::string node_name(b.nodes[static_cast<std::size_t>(node)].meta.name);
  bool any_error = false;
  for (const node_outcome* o : by_policy) any_error = any_error || o->error;
  for (const node_outcome* o : by_policy) {
    if (!o->fits) continue;
    // Invariants: a valid assignment by the reference's rules, and nothing over-committed.
    const std::vector<pick> picks = picks_of(w, b, *o, ref);
    if (ref.check(picks) != reference::verdict::valid) fail("allocation breaks a rule", node_name);
    std::vector<model::claim_outcome> outcomes;
    for (std::size_t k = 0; k < b.pending.size(); ++k)
      outcomes.push_back({"", model::claim_allocated{"", o->results[k]}});
    if (auto over = dra::alloc::find_overcommit(b.scenario, outcomes); !over.empty()) fail("over-commit", over);
  }
  // An error stops the search where the policy's order met it, so the policies need not agree then.
  if (any_error) return;
  if (by_policy[0]->fits != by_policy[1]->fits || by_policy[0]->fits != by_policy[2]->fits)
    fail("policies disagree", node_name);
  if (w.devices.size() > 8) return;
  std::vector<int> pending(b.pending_index);
  const std::optional<bool> exists = brute_force(ref, pending).any_valid();
  if (!exists) return;
  if (*exists != by_policy[0]->fits)
    fail(*exists ? "unschedulable, but the reference finds an allocation" : "fits, but the reference finds none",
         node_name);
  if (!*exists) check_explanation(b, node, ref);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in({data, size});
  fworld w = read_world(in);
  const built b = build(w);
  current_world = &w;
  found_picks.clear();
  if (b.pending.empty()) return 0;
  const auto first = run_policy<dra::alloc::first_fit>(b);
  // Skipping devices interchangeable with one that failed changes no result, only the number of steps.
  const auto unpruned = run_policy<dra::alloc::first_fit>(b, /*interchangeable_pruning=*/false);
  for (std::size_t n = 0; n < b.nodes.size(); ++n)
    if (!first[n].over_budget && !unpruned[n].over_budget &&
        (first[n].error != unpruned[n].error || first[n].fits != unpruned[n].fits ||
         first[n].results != unpruned[n].results))
      fail("skipping interchangeable devices changed the result", std::string(b.nodes[n].meta.name));
  const auto sorted = run_policy<dra::alloc::sorted>(b);
  const auto shared = run_policy<dra::alloc::shared_capacity>(b);
  for (std::size_t n = 0; n < b.nodes.size(); ++n)
    check_node(w, b, static_cast<int>(n), {&first[n], &sorted[n], &shared[n]});
  return 0;
}
