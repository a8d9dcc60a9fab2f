// The concept boundary: a scheduler's own inventory and claim types (no model:: in sight) allocate through
// alloc::inventory_allocator, with the same results as the same objects read from JSON and allocated by
// basic_allocator; what the concepts accept and reject; errors naming the pool and field.
#include "inventory_world.hpp"

#include <dra/alloc/inventory.hpp>
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

static_assert(alloc::inventory_device<gpu_record>);
static_assert(alloc::inventory_pool<host_pool>);
static_assert(alloc::inventory<std::vector<host_pool>>);
static_assert(alloc::inventory_device_classes<std::vector<kind_of_device>>);
static_assert(alloc::inventory_request<ask>);
static_assert(alloc::inventory_claim<job>);
static_assert(alloc::inventory_claims<std::vector<job>>);
static_assert(alloc::inventory_device<bare_device>);
static_assert(alloc::inventory_pool<bare_pool>);
static_assert(alloc::inventory_claim<bare_claim>);

// Missing a required member, or an optional member of the wrong shape: rejected, not ignored.
struct nameless_device {
  std::vector<std::pair<std::string_view, alloc::attribute_value_view>> attributes() const { return {}; }
};
struct device_with_numeric_capacities : bare_device {
  std::vector<int> capacities() const { return {}; }
};
struct device_with_text_sharing : bare_device {
  std::string shared() const { return "yes"; }
};
struct device_with_double_attributes : bare_device {
  std::vector<std::pair<std::string_view, std::vector<double>>> attributes() const { return {}; }
};
struct pool_of_numbers : bare_pool {
  std::vector<int> devices() const { return {}; }
};
struct classless_request {
  std::string_view name() const { return "r"; }
};
struct request_with_text_count : bare_request {
  std::string count() const { return "2"; }
};
struct claim_of_numbers : bare_claim {
  std::vector<int> requests() const { return {}; }
};
struct device_with_numeric_taints : bare_device {
  std::vector<int> taints() const { return {}; }
};
struct effectless_taint {
  std::string_view key() const { return "k"; }
};
struct device_with_effectless_taints : bare_device {
  std::vector<effectless_taint> taints() const { return {}; }
};
struct keyless_toleration {
  std::string_view op() const { return "Exists"; }
};
struct request_with_keyless_tolerations : bare_request {
  std::vector<keyless_toleration> tolerations() const { return {}; }
};
struct request_with_numeric_alternatives : bare_request {
  std::vector<int> alternatives() const { return {}; }
};
struct request_with_text_admin_access : bare_request {
  std::string admin_access() const { return "yes"; }
};
static_assert(!alloc::inventory_device<device_with_numeric_taints>);
static_assert(!alloc::inventory_device<device_with_effectless_taints>);
static_assert(!alloc::inventory_request<request_with_keyless_tolerations>);
static_assert(!alloc::inventory_request<request_with_text_admin_access>);
static_assert(!alloc::inventory_request<request_with_numeric_alternatives>);
static_assert(!alloc::inventory_device<nameless_device>);
static_assert(!alloc::inventory_device<device_with_numeric_capacities>);
static_assert(!alloc::inventory_device<device_with_text_sharing>);
static_assert(!alloc::inventory_device<device_with_double_attributes>);
static_assert(!alloc::inventory_device<int>);
static_assert(!alloc::inventory_pool<pool_of_numbers>);
static_assert(!alloc::inventory<std::vector<bare_device>>);
static_assert(!alloc::inventory_request<classless_request>);
static_assert(!alloc::inventory_request<request_with_text_count>);
static_assert(!alloc::inventory_claim<claim_of_numbers>);
static_assert(!alloc::inventory_claims<bare_claim>);

// ---- The random world as a JSON scenario. ----

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string quantity_map(const quantities& q, bool wrap_value) {
  std::string out = "{";
  for (const auto& [name, amount] : q) {
    if (out.size() > 1) out += ",";
    out += json_string(name) + ":" + (wrap_value ? "{\"value\":" + json_string(amount) + "}" : json_string(amount));
  }
  return out + "}";
}

std::string counter_maps(const std::map<std::string, quantities>& sets, const char* key) {
  std::string out = "[";
  for (const auto& [name, counters] : sets) {
    if (out.size() > 1) out += ",";
    out += "{\"" + std::string(key) + "\":" + json_string(name) + ",\"counters\":" + quantity_map(counters, true) + "}";
  }
  return out + "]";
}

std::string taints_json(const std::vector<mark>& marks) {
  std::string out;
  for (const auto& m : marks)
    out += (out.empty() ? "" : ",") + ("{\"key\":" + json_string(m.name) + ",\"value\":" + json_string(m.level) +
                                       ",\"effect\":" + json_string(m.kind) + "}");
  return out.empty() ? "" : ",\"taints\":[" + out + "]";
}

std::string tolerations_json(const std::vector<mark>& marks) {
  std::string out;
  for (const auto& m : marks)
    out += (out.empty() ? "" : ",") + ("{\"key\":" + json_string(m.name) + ",\"operator\":" + json_string(m.how) +
                                       (m.level.empty() ? "" : ",\"value\":" + json_string(m.level)) +
                                       (m.kind.empty() ? "" : ",\"effect\":" + json_string(m.kind)) + "}");
  return out.empty() ? "" : ",\"tolerations\":[" + out + "]";
}

// A request's or subrequest's fields but its name (and admin access).
std::string request_fields_json(const ask& a) {
  std::string selectors;
  for (const auto& s : a.cel)
    selectors += (selectors.empty() ? "" : ",") + ("{\"cel\":{\"expression\":" + json_string(s) + "}}");
  return "\"deviceClassName\":" + json_string(a.kind) + ",\"selectors\":[" + selectors + "]," +
         (a.every ? "\"allocationMode\":\"All\""
                  : "\"allocationMode\":\"ExactCount\",\"count\":" + std::to_string(a.how_many)) +
         (a.amounts.empty() ? "" : ",\"capacity\":{\"requests\":" + quantity_map(a.amounts, false) + "}") +
         tolerations_json(a.passes);
}

std::string node_selector_json(const std::vector<std::vector<label_rule>>& terms) {
  std::string out;
  for (const auto& term : terms) {
    std::string rules;
    for (const auto& r : term) {
      std::string values;
      for (const auto& v : r.among) values += (values.empty() ? "" : ",") + json_string(v);
      rules +=
          (rules.empty() ? "" : ",") + ("{\"key\":" + json_string(r.label) + ",\"operator\":" + json_string(r.how) +
                                        (r.among.empty() ? "" : ",\"values\":[" + values + "]") + "}");
    }
    out += (out.empty() ? "" : ",") + ("{\"matchExpressions\":[" + rules + "]}");
  }
  return "{\"nodeSelectorTerms\":[" + out + "]}";
}

// The same world as a scenario document, read by the JSON path (written independently of the adapter).
std::string as_json(const world& w) {
  std::string items;
  auto add = [&](const std::string& item) { items += (items.empty() ? "" : ",") + item; };
  for (const auto& p : w.pools) {
    std::string devices;
    for (const auto& d : p.gpus) {
      std::string attributes;
      for (const auto& [name, value] : d.labels) {
        if (!attributes.empty()) attributes += ",";
        attributes += json_string(name) + ":";
        if (const auto* i = std::get_if<std::int64_t>(&value)) attributes += "{\"int\":" + std::to_string(*i) + "}";
        if (const auto* b = std::get_if<bool>(&value))
          attributes += std::string("{\"bool\":") + (*b ? "true" : "false") + "}";
        if (const auto* s = std::get_if<std::string_view>(&value)) attributes += "{\"string\":" + json_string(*s) + "}";
        if (const auto* v = std::get_if<alloc::version_text>(&value))
          attributes += "{\"version\":" + json_string(v->text) + "}";
        if (const auto* list = std::get_if<std::span<const std::int64_t>>(&value)) {
          std::string items;
          for (std::int64_t i : *list) items += (items.empty() ? "" : ",") + std::to_string(i);
          attributes += "{\"ints\":[" + items + "]}";
        }
        if (const auto* list = std::get_if<std::span<const bool>>(&value)) {
          std::string items;
          for (bool b : *list) items += std::string(items.empty() ? "" : ",") + (b ? "true" : "false");
          attributes += "{\"bools\":[" + items + "]}";
        }
        if (const auto* list = std::get_if<std::span<const std::string_view>>(&value)) {
          std::string items;
          for (std::string_view t : *list) items += (items.empty() ? "" : ",") + json_string(t);
          attributes += "{\"strings\":[" + items + "]}";
        }
      }
      devices += std::string(devices.empty() ? "" : ",") + "{\"name\":" + json_string(d.id) + ",\"attributes\":{" +
                 attributes + "},\"capacity\":" + quantity_map(d.memory, true) +
                 (d.draws.empty() ? "" : ",\"consumesCounters\":" + counter_maps(d.draws, "counterSet")) +
                 (d.multi ? ",\"allowMultipleAllocations\":true" : "") + taints_json(d.marks) + "}";
    }
    add("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":" +
        json_string(p.vendor + "-" + p.id) + "},\"spec\":{\"driver\":" + json_string(p.vendor) +
        ",\"pool\":{\"name\":" + json_string(p.id) +
        ",\"generation\":1,\"resourceSliceCount\":" + (p.whole ? "1" : "2") + "}," +
        (!p.terms.empty() ? "\"nodeSelector\":" + node_selector_json(p.terms)
         : p.host.empty() ? "\"allNodes\":true"
                          : "\"nodeName\":" + json_string(p.host)) +
        (p.sets.empty() ? "" : ",\"sharedCounters\":" + counter_maps(p.sets, "name")) + ",\"devices\":[" + devices +
        "]}}");
  }
  for (const auto& c : w.classes) {
    std::string selectors;
    for (const auto& s : c.cel)
      selectors += (selectors.empty() ? "" : ",") + ("{\"cel\":{\"expression\":" + json_string(s) + "}}");
    add("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":" + json_string(c.id) +
        "},\"spec\":{\"selectors\":[" + selectors + "]}}");
  }
  for (const auto& j : w.jobs) {
    std::string requests;
    for (const auto& a : j.asks) {
      std::string alternatives;
      for (const auto& sub : a.options)
        alternatives += (alternatives.empty() ? "" : ",") +
                        ("{\"name\":" + json_string(sub.id) + "," + request_fields_json(sub) + "}");
      requests += std::string(requests.empty() ? "" : ",") + "{\"name\":" + json_string(a.id) +
                  (a.options.empty()
                       ? ",\"exactly\":{" + request_fields_json(a) + (a.admin ? ",\"adminAccess\":true" : "") + "}}"
                       : ",\"firstAvailable\":[" + alternatives + "]}");
    }
    std::string constraints;
    for (const auto& s : j.same)
      constraints += (constraints.empty() ? "" : ",") + ("{\"matchAttribute\":" + json_string(s) + "}");
    add("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":" +
        json_string(j.id) + ",\"namespace\":\"default\"},\"spec\":{\"devices\":{\"requests\":[" + requests +
        "],\"constraints\":[" + constraints + "]}}}");
  }
  return "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" + items + "]}";
}

struct nameless_node {
  std::map<std::string, std::string> labels() const { return {}; }
};
struct node_with_numeric_labels {
  std::string_view name() const { return "n"; }
  std::vector<std::pair<std::string, int>> labels() const { return {}; }
};
struct pool_with_text_selector : bare_pool {
  std::vector<std::string> node_selector() const { return {}; }  // terms must hold requirements, not characters
};
static_assert(alloc::inventory_node<labelled_node>);
static_assert(!alloc::inventory_node<nameless_node>);
static_assert(!alloc::inventory_node<node_with_numeric_labels>);
static_assert(!alloc::inventory_node<std::string>);
static_assert(!alloc::inventory_pool<pool_with_text_selector>);

std::vector<claim_line> through_json(const world& w, const dra::cel::selector_engine& engine) {
  auto doc = dra::json::load(as_json(w));
  if (!doc) return {"load: " + doc.error().to_string()};
  const dra::model::scenario& s = doc->scenario();
  std::vector<const dra::model::resource_slice*> slices;
  for (const auto& x : s.slices) slices.push_back(&x.object);
  std::vector<const dra::model::device_class*> classes;
  for (const auto& x : s.classes) classes.push_back(&x.object);
  dra::model::node node;
  node.meta.name = "node-1";
  node.meta.labels = {{"generation", "4"}, {"zone", "a"}};
  alloc::ledger state;
  std::vector<dra::model::allocation_result> kept;
  kept.reserve(s.claims.size());  // the ledger borrows from the results it is given
  alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> allocator(alloc::features::all(), state, classes,
                                                                                slices, engine);
  std::vector<claim_line> out;
  for (const auto& c : s.claims) {
    const dra::model::resource_claim* claims[] = {&c.object};
    auto outcome = allocator.allocate(node, claims);
    std::string name(c.object.meta.name);
    if (!outcome) {
      out.push_back(name + ": error: " + outcome.error().message);
    } else if (auto* fit = outcome->fit()) {
      std::vector<alloc::device_choice> devices;
      for (const auto& r : fit->results[0].results) {
        alloc::device_choice d{r.request, std::string(r.driver), std::string(r.pool), std::string(r.device), r.share_id,
                               {}};
        for (const auto& used : r.consumed_capacity) d.consumed.emplace_back(std::string(used.name), used.value);
        devices.push_back(std::move(d));
      }
      out.push_back(name + " on node-1:" + describe(devices));
      state.add(kept.emplace_back(std::move(fit->results[0])));
    } else {
      out.push_back(name + ": " + std::string(outcome->reason()));
    }
  }
  return out;
}

TEST(Inventory, OwnTypesAllocateAsTheSameObjectsReadFromJson) {
  const dra::cel::selector_engine engine;
  int allocated = 0, unschedulable = 0, shared = 0, tolerated = 0, first_choice = 0, second_choice = 0, updating = 0,
      by_selector = 0;
  for (std::uint32_t seed = 0; seed < 300; ++seed) {
    const world w = random_world(seed);
    const auto mine = through_the_concepts(w, engine);
    ASSERT_EQ(mine, through_json(w, engine)) << "seed " << seed << "\n" << as_json(w);
    std::vector<std::string> tainted;  // devices no request may have without a toleration
    for (const auto& d : w.pools.front().gpus)
      if (!d.marks.empty() && d.marks.front().kind != "None") tainted.push_back("/node-1-gpus/" + d.id);
    for (const auto& line : mine) {
      allocated += line.find(" on node-1:") != std::string::npos;
      unschedulable += line.find(": cannot allocate all claims") != std::string::npos;
      shared += line.find('#') != std::string::npos;
      by_selector += w.pools.size() > 1 && !w.pools.back().terms.empty() && line.find("/fabric/") != std::string::npos;
      first_choice += line.find("/many=") != std::string::npos;
      updating += line.find("is currently being updated") != std::string::npos;
      second_choice += line.find("/fewer=") != std::string::npos;
      tolerated += std::ranges::any_of(tainted, [&](const std::string& device) {
        const auto at = line.find(device);
        return at != std::string::npos && (at + device.size() == line.size() || line[at + device.size()] == ' ');
      });
    }
  }
  // The cases cover every kind of outcome, shared devices, tainted devices given to tolerating requests and both
  // alternatives of firstAvailable requests, incomplete pools, pools picked by node selectors.
  EXPECT_GT(allocated, 150);
  EXPECT_GT(unschedulable, 50);
  EXPECT_GT(shared, 10);
  EXPECT_GT(tolerated, 5);
  EXPECT_GT(first_choice, 4);
  EXPECT_GT(second_choice, 10);
  EXPECT_GT(updating, 0);     // a request for all devices of an incomplete pool
  EXPECT_GT(by_selector, 3);  // devices of a pool whose node selector picks node-1
}

TEST(Inventory, BareTypesAllocate) {
  const dra::cel::selector_engine engine;
  const std::vector<kind_of_device> classes{{"c", {}}};
  auto allocator = alloc::inventory_allocator<>::make(std::vector<bare_pool>{bare_pool{}}, classes, engine);
  ASSERT_TRUE(allocator) << allocator.error().to_string();
  auto outcome = allocator->allocate("any-node", std::vector<bare_claim>{bare_claim{}});
  ASSERT_TRUE(outcome) << outcome.error().to_string();
  ASSERT_TRUE(outcome->fit());
  EXPECT_EQ(outcome->fit()->node, "any-node");
  ASSERT_EQ(outcome->fit()->claims.size(), 1u);
  EXPECT_EQ(describe(outcome->fit()->claims[0]), " r=x.example.com/p/d");
  EXPECT_EQ(outcome->reason(), "");
}

TEST(Inventory, CommitTakesTheDevicesAndTheOutcomeSaysWhy) {
  const dra::cel::selector_engine engine;
  host_pool pool{"gpu.example.com", "node-1-gpus", "node-1", {}, {}, true, {}};
  pool.gpus.push_back({"gpu-0", {}, {}, {}, false, {}});
  const std::vector<kind_of_device> classes{{"gpu", {}}};
  auto allocator = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_TRUE(allocator);
  const std::vector<job> one{{"first", {ask{"gpu", "gpu", {}, 1, false, {}, {}, false, {}}}, {}}};
  auto first = allocator->allocate("node-1", one);
  ASSERT_TRUE(first && first->fit());
  auto again = allocator->allocate("node-1", one);  // not committed: the device is still free
  ASSERT_TRUE(again && again->fit());
  allocator->commit(*first->fit());
  // A placement of another allocator over the same inventory counts by device name, and stays valid after
  // that allocator is gone.
  std::optional<alloc::placement> placed_elsewhere;
  {
    auto other = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
    ASSERT_TRUE(other);
    auto there = other->allocate("node-1", one);
    ASSERT_TRUE(there && there->fit());
    placed_elsewhere = *there->fit();
  }
  auto fresh = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_TRUE(fresh);
  fresh->commit(*placed_elsewhere);
  auto taken = fresh->allocate("node-1", one);
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->fit(), nullptr);
  auto after = allocator->allocate("node-1", one);
  ASSERT_TRUE(after);
  EXPECT_TRUE(std::holds_alternative<alloc::unschedulable>(after->result));
  EXPECT_EQ(after->reason(), "cannot allocate all claims");
  auto elsewhere = allocator->allocate("node-2", one);  // the pool is node-1's
  ASSERT_TRUE(elsewhere);
  EXPECT_EQ(elsewhere->fit(), nullptr);
}

TEST(Inventory, MalformedValuesAreErrorsNamingThePoolAndField) {
  const dra::cel::selector_engine engine;
  const std::vector<kind_of_device> classes{{"gpu", {}}};
  host_pool pool{"gpu.example.com", "node-1-gpus", "node-1", {}, {}, true, {}};
  pool.gpus.push_back({"gpu-0", {}, {{"memory", "80 gigs"}}, {}, false, {}});
  auto bad_quantity = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(bad_quantity);
  EXPECT_EQ(bad_quantity.error().object, "pool gpu.example.com/node-1-gpus");
  EXPECT_EQ(bad_quantity.error().path, "devices.gpu-0.capacity.memory.value");

  pool.gpus[0].memory.clear();
  pool.gpus[0].labels.emplace_back("driverVersion", alloc::version_text{"v550"});
  auto bad_version = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(bad_version);
  EXPECT_EQ(bad_version.error().object, "pool gpu.example.com/node-1-gpus");
  EXPECT_EQ(bad_version.error().path, "devices.gpu-0.attributes.driverVersion.version");

  static constexpr alloc::version_text listed[] = {{"1.0.0"}, {"1.x"}};
  pool.gpus[0].labels = {{"driverVersions", std::span<const alloc::version_text>(listed)}};
  auto bad_listed = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(bad_listed);
  EXPECT_EQ(bad_listed.error().path, "devices.gpu-0.attributes.driverVersions.versions[1]");

  pool.gpus[0].labels = {{"model", std::string_view("a")}, {"model", std::string_view("b")}};
  auto twice = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().to_string().find("model"), std::string::npos) << twice.error().to_string();

  pool.gpus[0].labels.clear();
  pool.terms = {{{"zone", "In", {"a"}}}};  // and node-1: one or the other
  auto both = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(both);
  EXPECT_EQ(both.error().object, "pool gpu.example.com/node-1-gpus");
  EXPECT_EQ(both.error().path, "nodeSelector");
  pool.host.clear();
  pool.terms = {{{"zone", "In", {"a"}}}, {{"zone", "In", {"b"}}, {"rack", "Near", {"r1"}}}};
  auto bad_operator = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(bad_operator);
  EXPECT_EQ(bad_operator.error().path, "nodeSelector.nodeSelectorTerms[1].matchExpressions[1].operator");
  EXPECT_EQ(bad_operator.error().code, dra::errc::invalid_object);
  pool.host = "node-1";
  pool.terms.clear();

  auto allocator = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_TRUE(allocator);
  const std::vector<job> greedy{{"greedy", {ask{"gpu", "gpu", {}, 1, false, {{"memory", "lots"}}, {}, false, {}}}, {}}};
  auto asked = allocator->allocate("node-1", greedy);
  ASSERT_FALSE(asked);
  EXPECT_EQ(asked.error().object, "claim default/greedy");
  EXPECT_EQ(asked.error().path, "requests.gpu.capacity.memory");
  const std::vector<job> unknown{{"lost", {ask{"gpu", "no-such-class", {}, 1, false, {}, {}, false, {}}}, {}}};
  auto lost = allocator->allocate("node-1", unknown);
  ASSERT_FALSE(lost);  // an unknown class is broken input, as on the model path
  EXPECT_EQ(lost.error().code, dra::errc::not_found) << lost.error().to_string();

  ask odd{"gpu", "gpu", {}, 1, false, {}, {{"maintenance", "", "", "Matches"}}, false, {}};
  auto odd_operator = allocator->allocate("node-1", std::vector<job>{{"odd", {odd}, {}}});
  ASSERT_FALSE(odd_operator);
  EXPECT_EQ(odd_operator.error().object, "claim default/odd");
  EXPECT_EQ(odd_operator.error().path, "requests.gpu.tolerations[0].operator");
  EXPECT_EQ(odd_operator.error().code, dra::errc::invalid_object);

  ask choosy{"gpu", "gpu", {}, 1, false, {}, {}, false, {}};
  choosy.options = {choosy, choosy};
  choosy.options[1].id = "big";
  choosy.options[1].amounts = {{"memory", "lots"}};
  auto bad_subrequest = allocator->allocate("node-1", std::vector<job>{{"choosy", {choosy}, {}}});
  ASSERT_FALSE(bad_subrequest);
  EXPECT_EQ(bad_subrequest.error().object, "claim default/choosy");
  EXPECT_EQ(bad_subrequest.error().path, "requests.gpu.firstAvailable.big.capacity.memory");

  pool.gpus[0].marks = {{"maintenance", "", "NoSchedule"}, {"maintenance", "", "Sometimes"}};
  auto odd_effect = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_FALSE(odd_effect);
  EXPECT_EQ(odd_effect.error().object, "pool gpu.example.com/node-1-gpus");
  EXPECT_EQ(odd_effect.error().path, "devices.gpu-0.taints[1].effect");
}

// A tainted device is given only to requests that tolerate the taint; admin access takes a device in use.
TEST(Inventory, TaintsTolerationsAndAdminAccess) {
  const dra::cel::selector_engine engine;
  const std::vector<kind_of_device> classes{{"gpu", {}}};
  host_pool pool{"gpu.example.com", "node-1-gpus", "node-1", {}, {}, true, {}};
  pool.gpus.push_back({"gpu-0", {}, {}, {}, false, {{"maintenance", "soon", "NoSchedule"}}});
  pool.gpus.push_back({"gpu-1", {}, {}, {}, false, {}});
  auto allocator = alloc::inventory_allocator<>::make(std::vector<host_pool>{pool}, classes, engine);
  ASSERT_TRUE(allocator);
  auto device_for = [&](const ask& a) -> std::string {
    auto outcome = allocator->allocate("node-1", std::vector<job>{{"j", {a}, {}}});
    if (!outcome) return "error: " + outcome.error().to_string();
    const auto* placed = outcome->fit();
    return placed != nullptr ? placed->claims.at(0).at(0).device : "none";
  };
  const ask plain{"gpu", "gpu", {}, 1, false, {}, {}, false, {}};
  ask tolerant = plain;
  tolerant.passes = {{"maintenance", "", "", "Exists"}};
  ask wrong_value = plain;
  wrong_value.passes = {{"maintenance", "later", "", "Equal"}};
  ask other_effect = plain;
  other_effect.passes = {{"maintenance", "soon", "NoExecute", "Equal"}};
  EXPECT_EQ(device_for(plain), "gpu-1");
  EXPECT_EQ(device_for(tolerant), "gpu-0");
  EXPECT_EQ(device_for(wrong_value), "gpu-1");
  EXPECT_EQ(device_for(other_effect), "gpu-1");

  auto taken = allocator->allocate("node-1", std::vector<job>{{"owner", {plain}, {}}});
  ASSERT_TRUE(taken && taken->fit());
  allocator->commit(*taken->fit());  // gpu-1 is in use from now on
  EXPECT_EQ(device_for(plain), "none");
  ask monitor = plain;
  monitor.admin = true;
  EXPECT_EQ(device_for(monitor), "gpu-1");
}

}  // namespace
