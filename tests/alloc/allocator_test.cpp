// Allocator and scenario-runner tests on scenarios built in C++ (no shared data needed).
#include <dra/cel/selector.hpp>

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/check.hpp>
#include <dra/alloc/features.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/quantity.hpp"
#include "../support/scenario.hpp"

#include "outcomes.hpp"

#include <memory>
#include <string>

namespace {

using namespace dra;

using dra_test::q;

// Scenarios of one node (node-1, labelled region=r1) and class-a (the devices of driver-a): slices on node-1, claims
// without a namespace asking in one request.
struct builder : dra_test::test_scenario {
  builder() {
    device_class("class-a", "driver-a");
    node("node-1", {{"region", "r1"}});
  }
  model::resource_slice& slice(std::string name, std::string pool = "pool-1", std::string driver = "driver-a",
                               std::int64_t count = 1) {
    return test_scenario::slice(std::move(name), std::move(driver), std::move(pool), "node-1", count);
  }
  model::resource_claim& claim(std::string name, std::int64_t count = 1, std::string request = "req-0") {
    return test_scenario::claim("", std::move(name), std::move(request), "class-a", count);
  }
  // Slice slice-1 with nic-0 and nic-1, shared, each with 10G of bandwidth.
  void shared_nics() {
    auto& sl = slice("slice-1");
    for (const char* name : {"nic-0", "nic-1"}) {
      auto& nic = device(sl, name);
      nic.allow_multiple_allocations = true;
      nic.capacity.push_back({"bandwidth", {q("10G"), std::nullopt}});
    }
  }
};

// A shared allocation (request req-0) of driver-a/pool-1/`device` consuming `bandwidth`.
model::device_request_allocation_result share_of(const char* device, const char* bandwidth) {
  model::device_request_allocation_result share;
  share.request = "req-0";
  share.driver = "driver-a";
  share.pool = "pool-1";
  share.device = device;
  share.share_id = "11111111-1111-4111-8111-111111111111";
  share.consumed_capacity = {{"bandwidth", q(bandwidth)}};
  return share;
}

// The first claim allocated on node-1 by a basic_allocator over the builder's first class and slice, nothing held.
dra::result<alloc::allocation_outcome> allocate_first_claim(const builder& b) {
  const dra::cel::selector_engine engine;
  const alloc::ledger none;
  const model::device_class* classes[] = {&b.s.classes[0].object};
  const model::resource_slice* slices[] = {&b.s.slices[0].object};
  alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> a(alloc::features::all(), none, classes, slices,
                                                                        engine);
  const model::resource_claim* claims[] = {&b.s.claims[0].object};
  return a.allocate(b.s.nodes[0].object, claims);
}

using dra_test::devices_of;

TEST(Features, Parse) {
  EXPECT_EQ(*alloc::features::parse("all"), alloc::features::all());
  EXPECT_EQ(*alloc::features::parse("none"), alloc::features::none());
  auto some = alloc::features::parse("AdminAccess, PrioritizedList");
  ASSERT_TRUE(some);
  EXPECT_TRUE(some->admin_access);
  EXPECT_TRUE(some->prioritized_list);
  EXPECT_FALSE(some->device_taints);
  EXPECT_FALSE(some->device_compatibility_groups);
  EXPECT_FALSE(alloc::features::parse("Bogus"));
  auto groups = alloc::features::parse("DeviceCompatibilityGroups");
  ASSERT_TRUE(groups);
  EXPECT_TRUE(groups->device_compatibility_groups);
  EXPECT_FALSE(alloc::served_by_stable_allocator(*groups));  // upstream needs its experimental allocator for it
}

// Upstream's compatibility_groups_test.go cases for one counter set's running intersection, as facts.
TEST(CompatibilityGroups, WhoMayJoin) {
  using groups = std::vector<model::text>;
  auto after = [](std::initializer_list<groups> members) {
    alloc::detail::group_intersection i;
    for (const auto& m : members) i.add(m);
    return i;
  };
  EXPECT_TRUE(after({}).admits(groups{"mig"}));
  EXPECT_TRUE(after({}).admits(groups{}));
  EXPECT_TRUE(after({groups{}}).admits(groups{}));
  EXPECT_FALSE(after({groups{}}).admits(groups{"mig"}));
  EXPECT_FALSE(after({groups{"mig"}}).admits(groups{}));
  EXPECT_TRUE(after({groups{"mig"}}).admits(groups{"mig"}));
  EXPECT_FALSE(after({groups{"mig"}}).admits(groups{"vgpu"}));
  EXPECT_TRUE(after({groups{"foo", "foobar"}}).admits(groups{"bar", "foobar"}));
  EXPECT_FALSE(after({groups{"foo", "foobar"}}).admits(groups{"baz"}));
  // The intersection narrows: after {foo, foobar} and {bar, foobar} only foobar is common.
  const auto narrowed = after({groups{"foo", "foobar"}, groups{"bar", "foobar"}});
  EXPECT_EQ(narrowed.groups, std::vector<std::string_view>{"foobar"});
  EXPECT_FALSE(narrowed.admits(groups{"baz"}));
  EXPECT_FALSE(narrowed.admits(groups{"foo"}));
  EXPECT_TRUE(narrowed.admits(groups{"qux", "foobar"}));
  // Any number of devices without groups stack; a grouped one is then refused.
  const auto plain = after({groups{}, groups{}, groups{}});
  EXPECT_TRUE(plain.admits(groups{}));
  EXPECT_FALSE(plain.admits(groups{"mig"}));
}

TEST(NodeMatch, Operators) {
  model::node n;
  n.meta.name = "node-1";
  n.meta.labels = {{"gpus", "8"}, {"zone", "a"}};
  using op = model::node_selector_operator;
  struct row {
    model::node_selector_requirement r;
    bool field;
    bool expected;
  };
  const std::vector<row> table = {
      {{"zone", op::in, {"a", "b"}}, false, true},
      {{"zone", op::in, {"b"}}, false, false},
      {{"zone", op::not_in, {"b"}}, false, true},
      {{"missing", op::not_in, {"b"}}, false, true},
      {{"zone", op::exists, {}}, false, true},
      {{"zone", op::does_not_exist, {}}, false, false},
      {{"gpus", op::gt, {"4"}}, false, true},
      {{"gpus", op::lt, {"4"}}, false, false},
      {{"zone", op::gt, {"4"}}, false, false},
      {{"metadata.name", op::in, {"node-1"}}, true, true},
      {{"metadata.name", op::not_in, {"node-1"}}, true, false},
  };
  for (const auto& row : table) {
    model::node_selector sel;
    model::node_selector_term term;
    (row.field ? term.match_fields : term.match_expressions).push_back(row.r);
    sel.terms.push_back(term);
    auto m = alloc::node_selector_matches(sel, n);
    ASSERT_TRUE(m) << row.r.key;
    EXPECT_EQ(*m, row.expected) << row.r.key;
  }
  model::node_selector bad{{{{{"gpus", op::gt, {"x"}}}, {}}}};
  EXPECT_FALSE(alloc::node_selector_matches(bad, n));
  auto field_exists = alloc::node_selector_matches({{{{}, {{"metadata.name", op::exists, {}}}}}}, n);
  ASSERT_FALSE(field_exists);
  EXPECT_EQ(field_exists.error().message, "\"metadata.name\": only operators In and NotIn are valid for node field selectors");
  auto two_values = alloc::node_selector_matches({{{{}, {{"metadata.name", op::in, {"a", "b"}}}}}}, n);
  ASSERT_FALSE(two_values);
  EXPECT_EQ(two_values.error().message, "unexpected number of values (2) for node field selector");
  EXPECT_FALSE(*alloc::node_selector_matches(model::node_selector{{model::node_selector_term{}}}, n));
}

TEST(Allocator, FirstFitInSliceOrderWithNodeSelector) {
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "device-1");
  b.device(sl, "device-2");
  b.claim("claim-0", 2);
  auto r = b.run();
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_EQ(devices_of(r.outcomes[0]), (std::vector<std::string>{"req-0=device-1", "req-0=device-2"}));
  ASSERT_TRUE(r.outcomes[0].allocated());
  ASSERT_TRUE(r.outcomes[0].allocated()->allocation.node_selector);
  EXPECT_EQ(r.outcomes[0].allocated()->allocation.node_selector->terms[0].match_fields[0].values[0], "node-1");
  EXPECT_EQ(r.outcomes[0].allocated()->node, "node-1");
}

TEST(Allocator, BacktracksForMatchAttribute) {
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "a").attributes = {{"numa", {std::int64_t{0}}}};
  b.device(sl, "b").attributes = {{"numa", {std::int64_t{1}}}};
  b.device(sl, "c").attributes = {{"numa", {std::int64_t{1}}}};
  auto& c = b.claim("claim-0", 2);
  c.spec.constraints.push_back({{}, model::text("driver-a/numa"), std::nullopt});
  auto r = b.run();
  EXPECT_EQ(devices_of(r.outcomes[0]), (std::vector<std::string>{"req-0=b", "req-0=c"}));
}

TEST(Allocator, ErrorsNameClaimAndRequest) {
  struct row {
    std::string name;
    void (*prepare)(builder&);
    alloc::features features;
    std::string message;
  };
  const std::vector<row> table = {
      {"unknown class", [](builder& b) { b.claim("c").spec.requests[0].exactly->device_class_name = "nope"; },
       alloc::features::all(), "claim c, request req-0: could not retrieve device class nope"},
      {"admin access off", [](builder& b) { b.claim("c").spec.requests[0].exactly->admin_access = true; },
       alloc::features::none(), "claim c, request req-0: admin access is requested, but the feature is disabled"},
      {"too many", [](builder& b) { b.claim("c", 33); }, alloc::features::all(),
       "claim c: number of requested devices 33 exceeds the claim limit of 32"},
      {"all over incomplete pool",
       [](builder& b) {
         b.slice("s", "pool-1", "driver-a", 2);
         b.claim("c").spec.requests[0].exactly->mode = model::allocation_mode::all;
       },
       alloc::features::all(), "asks for all devices, but resource pool driver-a/pool-1 is currently being updated"},
  };
  for (const auto& row : table) {
    builder b;
    row.prepare(b);
    auto r = b.run(row.features);
    ASSERT_EQ(r.outcomes.size(), 1u) << row.name;
    ASSERT_TRUE(r.outcomes[0].error()) << row.name;
    EXPECT_NE(r.outcomes[0].error()->message.find(row.message), std::string::npos)
        << r.outcomes[0].error()->to_string();
  }
}

TEST(Allocator, DistinctAttributeNeedsTheNewerAllocator) {
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "a").attributes = {{"numa", {std::int64_t{0}}}};
  b.device(sl, "b").attributes = {{"numa", {std::int64_t{0}}}};
  b.device(sl, "c").attributes = {{"numa", {std::int64_t{1}}}};
  b.claim("claim-0", 2).spec.constraints.push_back({{}, std::nullopt, model::text("driver-a/numa")});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"req-0=a", "req-0=c"}));
  auto stable = b.run(*alloc::features::parse("AdminAccess,PrioritizedList,PartitionableDevices,DeviceTaints"));
  ASSERT_TRUE(stable.outcomes[0].error());
  EXPECT_NE(stable.outcomes[0].error()->message.find("claim claim-0, constraint #0: empty constraint"),
            std::string::npos);
}

TEST(Allocator, PrioritizedListFallsBackToSecondSubrequest) {
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "device-1");
  model::resource_claim& c = b.claim("claim-0");
  model::device_request r;
  r.name = "req-0";
  model::device_sub_request big, small;
  big.name = "big";
  big.device_class_name = "class-a";
  big.count = 2;
  small.name = "small";
  small.device_class_name = "class-a";
  r.first_available = {big, small};
  c.spec.requests = {r};
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"req-0/small=device-1"}));
  auto off = b.run(alloc::features::none());
  ASSERT_TRUE(off.outcomes[0].error());
}

// Two partitions of one GPU share its counters: only one fits at a time.
builder partitioned_gpu() {
  builder b;
  auto& devices = b.slice("a-devices", "pool-1", "driver-a", 2);
  for (const char* name : {"half-0", "half-1", "whole"}) {
    auto& d = b.device(devices, name);
    d.consumes_counters.push_back({"gpu", {{"memory", q(std::string_view(name) == "whole" ? "2" : "1")}}, {}});
  }
  auto& counters = b.slice("b-counters", "pool-1", "driver-a", 2);
  counters.shared_counters.push_back({"gpu", {{"memory", q("2")}}, {}});
  return b;
}

TEST(Allocator, CountersLimitPartitions) {
  builder b = partitioned_gpu();
  b.claim("one", 2);
  b.claim("two", 1);
  auto r = b.run();
  EXPECT_EQ(devices_of(r.outcomes[0]), (std::vector<std::string>{"req-0=half-0", "req-0=half-1"}));
  EXPECT_TRUE(r.outcomes[1].unschedulable());
  // Without the feature, devices that consume counters are never allocated.
  builder off = partitioned_gpu();
  off.claim("one");
  EXPECT_TRUE(off.run(alloc::features::none()).outcomes[0].unschedulable());
}

TEST(Allocator, TaintRejectionGivesCountersBack) {
  // Fixed upstream bug (kubernetes#140431): "whole" is tainted; its counters
  // must be released when the taint rejects it, so "other" still fits.
  builder b;
  auto& devices = b.slice("a-devices", "pool-1", "driver-a", 2);
  auto& whole = b.device(devices, "whole");
  whole.consumes_counters.push_back({"gpu", {{"memory", q("2")}}, {}});
  whole.taints.push_back({"broken", "", "NoSchedule", std::nullopt});
  b.device(devices, "other").consumes_counters.push_back({"gpu", {{"memory", q("2")}}, {}});
  b.slice("b-counters", "pool-1", "driver-a", 2).shared_counters.push_back({"gpu", {{"memory", q("2")}}, {}});
  b.claim("claim-0");
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"req-0=other"}));
  // Tolerated, the tainted device comes first; without the feature, taints are ignored.
  b.s.claims[0].object.spec.requests[0].exactly->tolerations.push_back(
      {"broken", model::toleration_operator::exists, "", "", std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"req-0=whole"}));
  b.s.claims[0].object.spec.requests[0].exactly->tolerations.clear();
  auto f = alloc::features::all();
  f.device_taints = false;
  EXPECT_EQ(devices_of(b.run(f).outcomes[0]), (std::vector<std::string>{"req-0=whole"}));
}

TEST(Allocator, CountersArePerDriverAndPool) {
  // Fixed upstream bug (kubernetes#140435): two drivers with the same pool and
  // counter set names do not share counters.
  builder b;
  model::device_class other_class;
  other_class.meta.name = "class-b";
  other_class.selectors.push_back({"device.driver == \"driver-b\""});
  b.s.classes.push_back({other_class, {}});
  for (std::string driver : {"driver-a", "driver-b"}) {
    auto& devices = b.slice(driver + "-devices", "pool-1", driver, 2);
    b.device(devices, "whole").consumes_counters.push_back({"gpu", {{"memory", q("2")}}, {}});
    b.slice(driver + "-z-counters", "pool-1", driver, 2).shared_counters.push_back({"gpu", {{"memory", q("2")}}, {}});
  }
  b.claim("a");
  b.claim("b").spec.requests[0].exactly->device_class_name = "class-b";
  auto r = b.run();
  EXPECT_EQ(devices_of(r.outcomes[0]), (std::vector<std::string>{"req-0=whole"}));
  EXPECT_EQ(devices_of(r.outcomes[1]), (std::vector<std::string>{"req-0=whole"}));
}

TEST(Allocator, AdminAccessUsesDevicesInUse) {
  builder b;
  b.device(b.slice("slice-1"), "device-1");
  b.claim("user");
  b.claim("admin").spec.requests[0].exactly->admin_access = true;
  auto r = b.run();
  EXPECT_EQ(devices_of(r.outcomes[0]), (std::vector<std::string>{"req-0=device-1"}));
  ASSERT_TRUE(r.outcomes[1].allocated());
  EXPECT_EQ(r.outcomes[1].allocated()->allocation.results[0].admin_access, true);
}

TEST(Allocator, SharedDeviceConsumesRoundedCapacity) {
  builder b;
  auto& nic = b.device(b.slice("slice-1"), "nic");
  nic.allow_multiple_allocations = true;
  model::capacity_request_policy policy;
  policy.valid_range = model::capacity_range{q("1G"), std::nullopt, q("2G")};
  nic.capacity.push_back({"bandwidth", {q("10G"), policy}});
  for (int i = 0; i < 4; ++i)
    b.claim("c" + std::to_string(i)).spec.requests[0].exactly->capacity =
        model::capacity_requirements{{{"bandwidth", q("2G")}}};
  auto r = b.run();
  // 2G rounds up to 3G (1G + one 2G step): three shares fit in 10G, the fourth does not.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(r.outcomes[i].allocated()) << i;
    const auto& result = r.outcomes[i].allocated()->allocation.results[0];
    EXPECT_TRUE(result.share_id);
    ASSERT_EQ(result.consumed_capacity.size(), 1u);
    EXPECT_EQ(result.consumed_capacity[0].value, q("3G"));
  }
  EXPECT_NE(r.outcomes[0].allocated()->allocation.results[0].share_id,
            r.outcomes[1].allocated()->allocation.results[0].share_id);
  EXPECT_TRUE(r.outcomes[3].unschedulable());
}

TEST(Allocator, MixinsAllocateLikeTheirFlattenedForm) {
  builder b;
  auto& sl = b.slice("slice-1");
  model::resource_slice_mixins mixins;
  mixins.device.push_back({"numa-0", {{"numa", {std::int64_t{0}}}}, {}});
  mixins.device.push_back({"numa-1", {{"numa", {std::int64_t{1}}}}, {}});
  sl.mixins = mixins;
  b.device(sl, "a").includes = {"numa-0"};
  b.device(sl, "b").includes = {"numa-1"};
  b.device(sl, "c").includes = {"numa-1"};
  b.claim("claim-0", 2).spec.constraints.push_back({{}, model::text("driver-a/numa"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"req-0=b", "req-0=c"}));
}

TEST(Allocator, MixinCountersAllocateLikeTheirFlattenedForm) {
  // Partitions whose counter consumption and counter sets come from mixins
  // must allocate exactly as the materialized (flattened) slices do.
  auto make = [](bool flattened) {
    auto b = std::make_unique<builder>();
    auto& devices = b->slice("a-devices", "pool-1", "driver-a", 2);
    model::resource_slice_mixins mixins;
    mixins.device_counter_consumption.push_back({"half", {{"memory", q("1")}}});
    mixins.device_counter_consumption.push_back({"whole", {{"memory", q("2")}}});
    devices.mixins = mixins;
    for (const char* name : {"half-0", "whole", "half-1"}) {
      auto& d = b->device(devices, name);
      d.consumes_counters.push_back({"gpu", {}, {std::string_view(name) == "whole" ? "whole" : "half"}});
    }
    auto& counters = b->slice("b-counters", "pool-1", "driver-a", 2);
    model::resource_slice_mixins set_mixins;
    set_mixins.counter_set.push_back({"gpu-memory", {{"memory", q("2")}}});
    counters.mixins = set_mixins;
    counters.shared_counters.push_back({"gpu", {}, {"gpu-memory"}});
    if (flattened) {
      for (auto* sl : {&devices, &counters}) {
        model::resource_slice plain = *sl;
        plain.devices.clear();
        for (const auto view : flatten::device_views(*sl)) plain.devices.push_back(flatten::materialize(view));
        plain.shared_counters.clear();
        for (const auto view : flatten::counter_set_views(*sl))
          plain.shared_counters.push_back(flatten::materialize(view));
        plain.mixins.reset();
        *sl = plain;
      }
    }
    b->claim("one");
    b->claim("two", 2);
    b->claim("three");
    return b;
  };
  auto mixin_scenario = make(false), flat_scenario = make(true);  // results borrow from them
  auto with_mixins = mixin_scenario->run();
  auto flattened = flat_scenario->run();
  ASSERT_EQ(with_mixins.outcomes.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(devices_of(with_mixins.outcomes[i]), devices_of(flattened.outcomes[i])) << i;
    EXPECT_EQ(with_mixins.outcomes[i].status.index(), flattened.outcomes[i].status.index()) << i;
  }
  EXPECT_EQ(devices_of(with_mixins.outcomes[0]), (std::vector<std::string>{"req-0=half-0"}));
  EXPECT_EQ(devices_of(with_mixins.outcomes[1]), std::vector<std::string>{});  // only half-1 is left
  EXPECT_EQ(devices_of(with_mixins.outcomes[2]), (std::vector<std::string>{"req-0=half-1"}));
}

TEST(Allocator, HopelessRequestEndsQuickly) {
  builder b;
  auto& sl = b.slice("slice-1");
  for (int i = 0; i < 16; ++i) b.device(sl, "d" + std::to_string(i));
  b.claim("claim-0", 17);
  auto outcome = allocate_first_claim(b);
  ASSERT_TRUE(outcome);
  EXPECT_TRUE(std::holds_alternative<alloc::unschedulable>(outcome->result));
  EXPECT_EQ(outcome->reason(), "cannot allocate all claims");
  EXPECT_LT(outcome->search_steps, 100u);  // upstream explores 2^16 branches
}

TEST(Allocator, InvalidPoolsRuleOutTheNodeAndMakeTheClaimAnError) {
  // Two devices named alike make the pool invalid (upstream's ErrFailedAllocationOnNode): the
  // allocator says so for the node, and with no other node the claim is an error, not unschedulable.
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "device-1");
  b.device(sl, "device-1");
  b.claim("claim-0");
  auto outcome = allocate_first_claim(b);
  ASSERT_TRUE(outcome);
  EXPECT_TRUE(std::holds_alternative<alloc::invalid_pools>(outcome->result));
  EXPECT_EQ(outcome->fit(), nullptr);
  EXPECT_EQ(outcome->reason(), "invalid resource pools were encountered");

  auto r = b.run();
  ASSERT_EQ(r.outcomes.size(), 1u);
  ASSERT_TRUE(r.outcomes[0].error());
  EXPECT_EQ(r.outcomes[0].error()->code, errc::pool_unavailable);
  EXPECT_EQ(r.outcomes[0].error()->message, "invalid resource pools were encountered");
  EXPECT_EQ(r.outcomes[0].unschedulable(), nullptr);
}

TEST(Allocator, PruningNeverHidesASelectorError) {
  // Five devices wanted, three exist: hopeless, but upstream meets the
  // runtime error on device-3 first, and so must we.
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "device-1").attributes = {{"mode", {model::text("x")}}};
  b.device(sl, "device-2").attributes = {{"mode", {model::text("x")}}};
  b.device(sl, "device-3");
  b.claim("claim-0", 5)
      .spec.requests[0]
      .exactly->selectors.push_back({"device.attributes[\"driver-a\"].mode == \"x\""});
  auto r = b.run();
  ASSERT_TRUE(r.outcomes[0].error());
  EXPECT_EQ(r.outcomes[0].error()->code, errc::cel_runtime);  // the allocator's code reaches the outcome
  EXPECT_NE(r.outcomes[0].error()->message.find("selector #0 on device driver-a/pool-1/device-3: CEL runtime error"),
            std::string::npos)
      << r.outcomes[0].error()->to_string();
}

TEST(Policy, SharedCapacityPacksSharedDevices) {
  builder b;
  b.shared_nics();
  auto& earlier = b.claim("earlier");
  model::allocation_result held;
  held.results.push_back(share_of("nic-1", "1G"));
  earlier.allocation = held;
  b.claim("new").spec.requests[0].exactly->capacity = model::capacity_requirements{{{"bandwidth", q("1G")}}};
  auto first = b.run();
  auto packed = b.run(alloc::features::all(), alloc::shared_capacity{});
  EXPECT_EQ(devices_of(first.outcomes[0]), (std::vector<std::string>{"req-0=nic-0"}));
  EXPECT_EQ(devices_of(packed.outcomes[0]), (std::vector<std::string>{"req-0=nic-1"}));
}

TEST(Policy, SortedFillsPartlyUsedCounterSetsFirst) {
  // Two GPUs with two one-unit partitions each; an earlier claim holds a partition of gpu-1.
  builder b;
  auto& counters = b.slice("counters", "pool-1", "driver-a", 2);
  for (const char* gpu : {"gpu-0", "gpu-1"}) {
    model::counter_set set;
    set.name = gpu;
    set.counters = {{"mem", q("2")}};
    counters.shared_counters.push_back(set);
  }
  auto& parts = b.slice("parts", "pool-1", "driver-a", 2);
  for (auto [name, gpu] : {std::pair{"gpu-0-a", "gpu-0"}, {"gpu-0-b", "gpu-0"}, {"gpu-1-a", "gpu-1"}, {"gpu-1-b", "gpu-1"}}) {
    model::device_counter_consumption consumption;
    consumption.counter_set = gpu;
    consumption.counters = {{"mem", q("1")}};
    b.device(parts, name).consumes_counters.push_back(consumption);
  }
  b.claim("earlier").allocation = dra_test::one_device_allocation("req-0", "driver-a", "pool-1", "gpu-1-a");
  b.claim("new");
  auto first = b.run();
  auto best = b.run(alloc::features::all(), alloc::sorted{});
  EXPECT_EQ(devices_of(first.outcomes[0]), (std::vector<std::string>{"req-0=gpu-0-a"}));  // upstream's first fit
  EXPECT_EQ(devices_of(best.outcomes[0]), (std::vector<std::string>{"req-0=gpu-1-b"}));   // keeps gpu-0 whole
}

TEST(Allocator, SeesLedgerChangesBetweenCalls) {
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "device-1");
  b.device(sl, "device-2");
  b.claim("claim-0");
  dra::cel::selector_engine engine;
  alloc::ledger state;
  const auto classes = b.class_list();
  const auto slices = b.slice_list();
  alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> a(alloc::features::all(), state, classes, slices,
                                                                       engine);
  const model::resource_claim* claims[] = {&b.s.claims[0].object};
  auto device_of = [&] {
    auto outcome = a.allocate(b.s.nodes[0].object, claims);
    return outcome && outcome->fit() ? std::string(outcome->fit()->results[0].results[0].device) : std::string("none");
  };
  EXPECT_EQ(device_of(), "device-1");
  auto first = a.allocate(b.s.nodes[0].object, claims);
  ASSERT_TRUE(first && first->fit());
  EXPECT_EQ(first->reason(), "");
  state.add(first->fit()->results[0]);  // committed: device-1 is taken now
  EXPECT_EQ(device_of(), "device-2");
  alloc::ledger replacement;  // assigning a whole ledger invalidates what was cached
  state = replacement;
  EXPECT_EQ(device_of(), "device-1");
}

TEST(Allocator, SkipsAFullSharedDeviceOnlyForRequestsItCannotHold) {
  // All of nic-0's bandwidth is given out. A search for 1G learns that it may start past nic-0; that must not
  // keep a request for 0G (which still fits there) from it, nor a request for 1G in a claim whose other request
  // gave some back (a negative amount), nor any request once a ledger assigned anew frees nic-0.
  builder b;
  b.shared_nics();
  auto asking = [&](std::string name, std::vector<const char*> amounts) {
    model::resource_claim& c = b.claim(std::move(name));
    for (std::size_t i = 1; i < amounts.size(); ++i) {
      c.spec.requests.push_back(c.spec.requests[0]);
      c.spec.requests.back().name = b.str("req-" + std::to_string(i));
    }
    for (std::size_t i = 0; i < amounts.size(); ++i)
      c.spec.requests[i].exactly->capacity = model::capacity_requirements{{{"bandwidth", q(amounts[i])}}};
    return &c;
  };
  const auto* one = asking("one", {"1G"});
  const auto* none = asking("none", {"0"});
  const auto* gives_back = asking("gives-back", {"-1G", "1G"});
  dra::cel::selector_engine engine;
  alloc::ledger state;
  state.add(share_of("nic-0", "10G"));
  const auto classes = b.class_list();
  const auto slices = b.slice_list();
  alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> a(alloc::features::all(), state, classes, slices,
                                                                        engine);
  auto devices = [&](const model::resource_claim* claim) {
    const model::resource_claim* claims[] = {claim};
    auto outcome = a.allocate(b.s.nodes[0].object, claims);
    return outcome && outcome->fit() ? devices_of(outcome->fit()->results[0]) : std::vector<std::string>{};
  };
  // The first search learns the class's verdicts; the second, that nic-0 is full for 1G.
  EXPECT_EQ(devices(one), (std::vector<std::string>{"req-0=nic-1"}));
  EXPECT_EQ(devices(one), (std::vector<std::string>{"req-0=nic-1"}));
  EXPECT_EQ(devices(none), (std::vector<std::string>{"req-0=nic-0"}));
  EXPECT_EQ(devices(gives_back), (std::vector<std::string>{"req-0=nic-0", "req-1=nic-0"}));
  state = alloc::ledger{};
  EXPECT_EQ(devices(one), (std::vector<std::string>{"req-0=nic-0"}));
}

TEST(Allocator, CapacityVerdictsKeptBetweenSearchesFollowTheLedger) {
  // Best fit visits shared devices with allocations first in every search, so whether a request's capacity fits
  // beside what the ledger gave out is kept per device between searches. A device the ledger changes, or a ledger
  // assigned anew, must be judged again.
  builder b;
  b.shared_nics();
  model::resource_claim& six = b.claim("six");
  six.spec.requests[0].exactly->capacity = model::capacity_requirements{{{"bandwidth", q("6G")}}};
  dra::cel::selector_engine engine;
  alloc::ledger state;
  state.add(share_of("nic-0", "10G"));
  state.add(share_of("nic-1", "5G"));
  const auto classes = b.class_list();
  const auto slices = b.slice_list();
  alloc::basic_allocator<alloc::best_fit, dra::cel::selector_engine> a(alloc::features::all(), state, classes, slices,
                                                                       engine);
  const model::resource_claim* claims[] = {&six};
  auto device = [&] {
    auto outcome = a.allocate(b.s.nodes[0].object, claims);
    EXPECT_TRUE(outcome);
    return outcome && outcome->fit() ? std::string(outcome->fit()->results[0].results[0].device) : std::string("none");
  };
  EXPECT_EQ(device(), "none");  // 0G and 5G left: both judged too full for 6G
  alloc::ledger fresh;
  fresh.add(share_of("nic-0", "10G"));
  state = std::move(fresh);  // nic-1 has 10G again
  EXPECT_EQ(device(), "nic-1");
  state.add(share_of("nic-1", "5G"));  // judged fitting a moment ago; not any more
  EXPECT_EQ(device(), "none");
}

TEST(Runner, PodsInOrderThenUnreferencedClaims) {
  builder b;
  b.device(b.slice("slice-1"), "device-1");
  b.claim("loner");
  b.claim("wanted");
  model::pod pod;
  pod.meta.name = "pod-0";
  pod.resource_claims.push_back({"a", model::text("wanted"), std::nullopt});
  b.s.pods.push_back({pod, {}});
  auto r = b.run();
  ASSERT_EQ(r.outcomes.size(), 2u);
  EXPECT_EQ(r.outcomes[0].claim, "wanted");
  EXPECT_TRUE(r.outcomes[0].allocated());
  EXPECT_EQ(r.outcomes[1].claim, "loner");
  ASSERT_TRUE(r.outcomes[1].unschedulable());
  EXPECT_EQ(r.outcomes[1].unschedulable()->reason, "cannot allocate all claims");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Runner, AllocatedClaimsBlockTheirDevices) {
  builder b;
  auto& sl = b.slice("slice-1");
  b.device(sl, "device-1");
  b.device(sl, "device-2");
  b.claim("done").allocation = dra_test::one_device_allocation("req-0", "driver-a", "pool-1", "device-1");
  b.claim("pending");
  auto r = b.run();
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_EQ(devices_of(r.outcomes[0]), (std::vector<std::string>{"req-0=device-2"}));
}

TEST(Runner, NodesFromSliceNamesWhenNoNodeObjects) {
  builder b;
  b.s.nodes.clear();
  auto& other = b.slice("slice-2", "pool-2");
  other.node_name = model::text("node-2");
  b.device(other, "device-9");
  b.claim("claim-0");
  auto r = b.run();
  ASSERT_TRUE(r.outcomes[0].allocated());
  EXPECT_EQ(r.outcomes[0].allocated()->node, "node-2");
}

TEST(OvercommitCheck, FindsADeviceHandedOutTwice) {
  builder b;
  b.device(b.slice("slice-1"), "device-1");
  model::claim_outcome o;
  o.claim = "x";
  model::allocation_result a = dra_test::one_device_allocation("req-0", "driver-a", "pool-1", "device-1");
  a.results.push_back(a.results[0]);
  o.status = model::claim_allocated{"node-1", a};
  std::vector<model::claim_outcome> outcomes{o};
  EXPECT_NE(alloc::find_overcommit(b.s, outcomes), "");
}

}  // namespace
