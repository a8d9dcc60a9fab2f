// inventory_traits: third-party types with no member functions, read through specialisations, allocate as the member
// types of inventory_world.hpp do; a specialisation derived from inventory_member_traits renames one member.
#include "inventory_world.hpp"

#include <dra/alloc/inventory.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// A "third-party" library's records: data only, under its own names; a device's capacities are in a field named
// capacity, which does not matter when the traits say how to read it.
namespace fleet {
struct restriction {  // a taint, or with `match` a toleration
  std::string label, detail, impact, match;
};
struct accelerator {
  std::string serial;
  std::vector<std::pair<std::string, alloc::attribute_value_view>> properties;
  quantities capacity;
  std::map<std::string, quantities> draws;
  bool multi = false;
  std::vector<restriction> restrictions;
};
struct placement_rule {
  std::string label, relation;
  std::vector<std::string> options;
};
struct rack {
  std::string vendor, pool_id, host;
  std::vector<accelerator> units;
  std::map<std::string, quantities> budgets;
  bool published = true;
  std::vector<std::vector<placement_rule>> placement;
};
struct device_kind {
  std::string id;
  std::vector<std::string> cel;
};
struct demand {
  std::string id, kind;
  std::vector<std::string> cel;
  std::int64_t amount = 1;
  bool everything = false;
  quantities sizes;
  std::vector<restriction> tolerated;
  bool monitor = false;
  std::vector<demand> fallbacks;
};
struct workload {
  std::string id;
  std::vector<demand> demands;
  std::vector<std::string> alike;
};
struct machine {
  std::string hostname;
  std::map<std::string, std::string> tags;
};
}  // namespace fleet

}  // namespace

template <>
struct dra::alloc::inventory_traits<fleet::restriction> {
  static std::string_view key(const fleet::restriction& r) { return r.label; }
  static std::string_view value(const fleet::restriction& r) { return r.detail; }
  static std::string_view effect(const fleet::restriction& r) { return r.impact; }
  static std::string_view op(const fleet::restriction& r) { return r.match; }
};
template <>
struct dra::alloc::inventory_traits<fleet::accelerator> {
  static std::string_view name(const fleet::accelerator& a) { return a.serial; }
  static const auto& attributes(const fleet::accelerator& a) { return a.properties; }
  static const quantities& capacities(const fleet::accelerator& a) { return a.capacity; }
  static const auto& counters(const fleet::accelerator& a) { return a.draws; }
  static bool shared(const fleet::accelerator& a) { return a.multi; }
  static const auto& taints(const fleet::accelerator& a) { return a.restrictions; }
};
template <>
struct dra::alloc::inventory_traits<fleet::placement_rule> {
  static std::string_view key(const fleet::placement_rule& r) { return r.label; }
  static std::string_view op(const fleet::placement_rule& r) { return r.relation; }
  static const auto& values(const fleet::placement_rule& r) { return r.options; }
};
template <>
struct dra::alloc::inventory_traits<fleet::rack> {
  static std::string_view driver(const fleet::rack& r) { return r.vendor; }
  static std::string_view name(const fleet::rack& r) { return r.pool_id; }
  static std::string_view node(const fleet::rack& r) { return r.host; }
  static const auto& devices(const fleet::rack& r) { return r.units; }
  static const auto& counter_sets(const fleet::rack& r) { return r.budgets; }
  static bool complete(const fleet::rack& r) { return r.published; }
  static const auto& node_selector(const fleet::rack& r) { return r.placement; }
};
template <>
struct dra::alloc::inventory_traits<fleet::device_kind> {
  static std::string_view name(const fleet::device_kind& k) { return k.id; }
  static const auto& selectors(const fleet::device_kind& k) { return k.cel; }
};
template <>
struct dra::alloc::inventory_traits<fleet::demand> {
  static std::string_view name(const fleet::demand& d) { return d.id; }
  static std::string_view device_class(const fleet::demand& d) { return d.kind; }
  static const auto& selectors(const fleet::demand& d) { return d.cel; }
  static std::int64_t count(const fleet::demand& d) { return d.amount; }
  static bool all(const fleet::demand& d) { return d.everything; }
  static const quantities& capacity(const fleet::demand& d) { return d.sizes; }
  static const auto& tolerations(const fleet::demand& d) { return d.tolerated; }
  static bool admin_access(const fleet::demand& d) { return d.monitor; }
  static const auto& alternatives(const fleet::demand& d) { return d.fallbacks; }
};
template <>
struct dra::alloc::inventory_traits<fleet::workload> {
  static std::string_view name(const fleet::workload& w) { return w.id; }
  static std::string_view namespace_name(const fleet::workload&) { return "default"; }
  static const auto& requests(const fleet::workload& w) { return w.demands; }
  static const auto& match_attributes(const fleet::workload& w) { return w.alike; }
};
template <>
struct dra::alloc::inventory_traits<fleet::machine> {
  static std::string_view name(const fleet::machine& m) { return m.hostname; }
  static const auto& labels(const fleet::machine& m) { return m.tags; }
};

namespace {

static_assert(alloc::inventory<std::vector<fleet::rack>>);
static_assert(alloc::inventory_device_classes<std::vector<fleet::device_kind>>);
static_assert(alloc::inventory_claims<std::vector<fleet::workload>>);
static_assert(alloc::inventory_node<fleet::machine>);
// Without a specialisation, a record is nothing the concepts accept.
struct unmapped_record {
  std::string name;
};
static_assert(!alloc::inventory_device<unmapped_record>);

// ---- The random worlds of inventory_world.hpp, copied into the fleet's records. ----

fleet::restriction to_fleet(const mark& m) { return {m.name, m.level, m.kind, m.how}; }

std::vector<fleet::restriction> to_fleet(const std::vector<mark>& marks) {
  std::vector<fleet::restriction> out;
  for (const auto& m : marks) out.push_back(to_fleet(m));
  return out;
}

fleet::demand to_fleet(const ask& a) {
  fleet::demand out{a.id, a.kind, a.cel, a.how_many, a.every, a.amounts, to_fleet(a.passes), a.admin, {}};
  for (const auto& option : a.options) out.fallbacks.push_back(to_fleet(option));
  return out;
}

struct fleet_world {
  std::vector<fleet::rack> racks;
  std::vector<fleet::device_kind> kinds;
  std::vector<fleet::workload> workloads;
};

fleet_world to_fleet(const world& w) {
  fleet_world out;
  for (const auto& p : w.pools) {
    fleet::rack r{p.vendor, p.id, p.host, {}, p.sets, p.whole, {}};
    for (const auto& d : p.gpus) r.units.push_back({d.id, d.labels, d.memory, d.draws, d.multi, to_fleet(d.marks)});
    for (const auto& term : p.terms) {
      auto& rules = r.placement.emplace_back();
      for (const auto& rule : term) rules.push_back({rule.label, rule.how, rule.among});
    }
    out.racks.push_back(std::move(r));
  }
  for (const auto& c : w.classes) out.kinds.push_back({c.id, c.cel});
  for (const auto& j : w.jobs) {
    fleet::workload workload{j.id, {}, j.same};
    for (const auto& a : j.asks) workload.demands.push_back(to_fleet(a));
    out.workloads.push_back(std::move(workload));
  }
  return out;
}

TEST(InventoryTraits, ThirdPartyTypesAllocateAsTheMemberTypes) {
  const dra::cel::selector_engine engine;
  const fleet::machine node{"node-1", labelled_node{}.tags};
  int allocated = 0;
  for (std::uint32_t seed = 0; seed < 300; ++seed) {
    const world w = random_world(seed);
    const fleet_world f = to_fleet(w);
    const auto members = through_the_concepts(w, engine);
    ASSERT_EQ(allocate_one_by_one(f.racks, f.kinds, f.workloads, node, engine), members) << "seed " << seed;
    for (const auto& line : members) allocated += line.find(" on node-1:") != std::string::npos;
  }
  EXPECT_GT(allocated, 150);  // the worlds are those of Inventory.OwnTypesAllocateAsTheSameObjectsReadFromJson
}

// A type its user cannot edit, right but for one member: a capacity() that is its capacities.
struct legacy_gpu {
  std::string id;
  quantities memory;
  std::string_view name() const { return id; }
  std::vector<std::pair<std::string, alloc::attribute_value_view>> attributes() const { return {}; }
  const quantities& capacity() const { return memory; }
};
struct legacy_pool {
  std::vector<legacy_gpu> gpus;
  std::string_view driver() const { return "gpu.example.com"; }
  std::string_view name() const { return "legacy"; }
  std::string_view node() const { return ""; }
  const std::vector<legacy_gpu>& devices() const { return gpus; }
};

}  // namespace

template <>
struct dra::alloc::inventory_traits<legacy_gpu> : dra::alloc::inventory_member_traits<legacy_gpu> {
  static const quantities& capacities(const legacy_gpu& g) { return g.capacity(); }
};

namespace {

// Without the specialisation capacity() would not be read; with it, it is the device's capacities.
TEST(InventoryTraits, ASpecialisationDerivedFromTheMemberTraitsRenamesOneMember) {
  static_assert(alloc::inventory_device<legacy_gpu>);
  const dra::cel::selector_engine engine;
  const std::vector<legacy_pool> pools{{{{"gpu-0", {{"memory", "40Gi"}}}, {"gpu-1", {{"memory", "80Gi"}}}}}};
  const std::vector<kind_of_device> classes{{"gpu", {}}};
  const std::string at_least_64gi = R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0)";
  const ask big{"big", "gpu", {at_least_64gi}, 1, false, {}, {}, false, {}};
  const std::vector<job> jobs{{"train", {big}, {}}};
  EXPECT_EQ(allocate_one_by_one(pools, classes, jobs, labelled_node{}, engine),
            std::vector<claim_line>{"train on node-1: big=gpu.example.com/legacy/gpu-1"});
}

}  // namespace
