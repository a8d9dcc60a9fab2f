// inventory_traits: third-party types with no member functions, read through specialisations, allocate as the member
// types of inventory_world.hpp do; a specialisation derived from inventory_member_traits renames one member; the
// concepts reject every near miss of an optional member's name, per kind, and only while the real member is absent.
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

// Without the specialisation capacity() would be a near miss; with it, the device's capacities are read.
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

// ---- Near misses: each name of detail/inventory_near_misses.hpp is rejected where its real member is absent. ----

// Beside the bare types of inventory_world.hpp: a node, a toleration and a node selector requirement with only their
// required members.
struct bare_node {
  std::string_view name() const { return "n"; }
};
struct bare_toleration {
  std::string_view key() const { return "k"; }
};
struct bare_rule {
  std::string_view key() const { return "zone"; }
  std::string_view op() const { return "Exists"; }
};
using counter_maps_by_set = std::map<std::string, quantities>;
using texts = std::vector<std::string>;

// Devices.
struct device_with_capacity : bare_device {
  quantities capacity() const { return {}; }
};
struct device_with_counter : bare_device {
  counter_maps_by_set counter() const { return {}; }
};
struct device_with_consumes_counters : bare_device {
  counter_maps_by_set consumes_counters() const { return {}; }
};
struct device_with_consumesCounters : bare_device {
  counter_maps_by_set consumesCounters() const { return {}; }
};
struct device_with_allow_multiple_allocations : bare_device {
  bool allow_multiple_allocations() const { return true; }
};
struct device_with_allowMultipleAllocations : bare_device {
  bool allowMultipleAllocations() const { return true; }
};
struct device_with_taint : bare_device {
  std::vector<mark> taint() const { return {}; }
};
static_assert(!alloc::inventory_device<device_with_capacity>);
static_assert(!alloc::inventory_device<device_with_counter>);
static_assert(!alloc::inventory_device<device_with_consumes_counters>);
static_assert(!alloc::inventory_device<device_with_consumesCounters>);
static_assert(!alloc::inventory_device<device_with_allow_multiple_allocations>);
static_assert(!alloc::inventory_device<device_with_allowMultipleAllocations>);
static_assert(!alloc::inventory_device<device_with_taint>);

// A near miss beside its real member is not one (an older name kept for other callers).
struct device_with_capacities_and_capacity : device_with_capacity {
  quantities capacities() const { return {}; }
};
static_assert(alloc::inventory_device<device_with_capacities_and_capacity>);

// Pools, node selector requirements and nodes.
struct pool_with_counter_set : bare_pool {
  counter_maps_by_set counter_set() const { return {}; }
};
struct pool_with_counterSets : bare_pool {
  counter_maps_by_set counterSets() const { return {}; }
};
struct pool_with_shared_counters : bare_pool {
  counter_maps_by_set shared_counters() const { return {}; }
};
struct pool_with_sharedCounters : bare_pool {
  counter_maps_by_set sharedCounters() const { return {}; }
};
struct pool_with_node_selectors : bare_pool {
  std::vector<std::vector<bare_rule>> node_selectors() const { return {}; }
};
struct pool_with_nodeSelector : bare_pool {
  std::vector<std::vector<bare_rule>> nodeSelector() const { return {}; }
};
struct rule_with_value : bare_rule {
  std::string_view value() const { return "a"; }
};
struct pool_with_rules_with_value : bare_pool {
  std::vector<std::vector<rule_with_value>> node_selector() const { return {}; }
};
struct node_with_label : bare_node {
  std::map<std::string, std::string> label() const { return {}; }
};
static_assert(!alloc::inventory_pool<pool_with_counter_set>);
static_assert(!alloc::inventory_pool<pool_with_counterSets>);
static_assert(!alloc::inventory_pool<pool_with_shared_counters>);
static_assert(!alloc::inventory_pool<pool_with_sharedCounters>);
static_assert(!alloc::inventory_pool<pool_with_node_selectors>);
static_assert(!alloc::inventory_pool<pool_with_nodeSelector>);
static_assert(!alloc::inventory_pool<pool_with_rules_with_value>);
static_assert(!alloc::inventory_node<node_with_label>);

// Requests, their tolerations, and claims.
struct request_with_selector : bare_request {
  texts selector() const { return {}; }
};
struct request_with_allocation_mode : bare_request {
  std::string_view allocation_mode() const { return "All"; }
};
struct request_with_allocationMode : bare_request {
  std::string_view allocationMode() const { return "All"; }
};
struct request_with_capacities : bare_request {
  quantities capacities() const { return {}; }
};
struct request_with_toleration : bare_request {
  std::vector<mark> toleration() const { return {}; }
};
struct toleration_with_operator_ : bare_toleration {
  std::string_view operator_() const { return "Exists"; }
};
struct request_with_tolerations_with_operator_ : bare_request {
  std::vector<toleration_with_operator_> tolerations() const { return {}; }
};
struct request_with_adminAccess : bare_request {
  bool adminAccess() const { return true; }
};
struct request_with_alternative : bare_request {
  std::vector<bare_request> alternative() const { return {}; }
};
struct request_with_first_available : bare_request {
  std::vector<bare_request> first_available() const { return {}; }
};
struct request_with_firstAvailable : bare_request {
  std::vector<bare_request> firstAvailable() const { return {}; }
};
struct request_with_subrequests : bare_request {
  std::vector<bare_request> subrequests() const { return {}; }
};
struct claim_with_namespace_ : bare_claim {
  std::string_view namespace_() const { return "default"; }
};
struct claim_with_namespaceName : bare_claim {
  std::string_view namespaceName() const { return "default"; }
};
struct claim_with_match_attribute : bare_claim {
  texts match_attribute() const { return {}; }
};
struct claim_with_matchAttributes : bare_claim {
  texts matchAttributes() const { return {}; }
};
struct claim_with_distinct_attribute : bare_claim {
  texts distinct_attribute() const { return {}; }
};
struct claim_with_distinctAttributes : bare_claim {
  texts distinctAttributes() const { return {}; }
};
static_assert(!alloc::inventory_request<request_with_selector>);
static_assert(!alloc::inventory_request<request_with_allocation_mode>);
static_assert(!alloc::inventory_request<request_with_allocationMode>);
static_assert(!alloc::inventory_request<request_with_capacities>);
static_assert(!alloc::inventory_request<request_with_toleration>);
static_assert(!alloc::inventory_request<request_with_tolerations_with_operator_>);
static_assert(!alloc::inventory_request<request_with_adminAccess>);
static_assert(!alloc::inventory_request<request_with_alternative>);
static_assert(!alloc::inventory_request<request_with_first_available>);
static_assert(!alloc::inventory_request<request_with_firstAvailable>);
static_assert(!alloc::inventory_request<request_with_subrequests>);
static_assert(!alloc::inventory_claim<claim_with_namespace_>);
static_assert(!alloc::inventory_claim<claim_with_namespaceName>);
static_assert(!alloc::inventory_claim<claim_with_match_attribute>);
static_assert(!alloc::inventory_claim<claim_with_matchAttributes>);
static_assert(!alloc::inventory_claim<claim_with_distinct_attribute>);
static_assert(!alloc::inventory_claim<claim_with_distinctAttributes>);

// Names are per kind: capacities() is a device's member and a request's near miss, capacity() the other way round;
// value() is a toleration's member and a node selector requirement's near miss.
struct device_with_capacities : bare_device {
  quantities capacities() const { return {}; }
};
struct request_with_capacity : bare_request {
  quantities capacity() const { return {}; }
};
struct toleration_with_value : bare_toleration {
  std::string_view value() const { return "v"; }
};
static_assert(alloc::inventory_device<device_with_capacities>);
static_assert(alloc::inventory_request<request_with_capacity>);
static_assert(alloc::detail::toleration_like<toleration_with_value>);
static_assert(!alloc::detail::label_requirement<rule_with_value>);

// Records read through specialisations that do not derive from inventory_member_traits, below.
struct record_with_capacity : bare_device {
  quantities capacity() const { return {}; }
};
struct record_with_counter : bare_device {};

}  // namespace

// A specialisation that does not derive from inventory_member_traits is read as written: its type's members are not
// looked at, so a member named like a near miss is none; its own static functions are looked at.
template <>
struct dra::alloc::inventory_traits<record_with_capacity> {
  static std::string_view name(const record_with_capacity&) { return "d"; }
  static std::vector<std::pair<std::string_view, attribute_value_view>> attributes(const record_with_capacity&) {
    return {};
  }
};
template <>
struct dra::alloc::inventory_traits<record_with_counter> {
  static std::string_view name(const record_with_counter&) { return "d"; }
  static std::vector<std::pair<std::string_view, attribute_value_view>> attributes(const record_with_counter&) {
    return {};
  }
  static counter_maps_by_set consumes_counters(const record_with_counter&) { return {}; }
};

static_assert(dra::alloc::inventory_device<record_with_capacity>);
static_assert(!dra::alloc::inventory_device<record_with_counter>);
