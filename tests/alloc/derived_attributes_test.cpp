// Derived attributes (KEP-6080) in the allocator: constraints see a request's computed attributes per device.
#include <dra/cel/selector.hpp>

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/features.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

#include "outcomes.hpp"

#include <string>
#include <vector>

namespace {

using namespace dra;

// Scenarios of one node with classes class-a (driver-a) and class-b (driver-b), and one claim whose requests a test
// adds.
struct derived_scenario : dra_test::test_scenario {
  derived_scenario() {
    for (const std::string driver : {"a", "b"}) device_class("class-" + driver, "driver-" + driver);
    node("node-1");
  }
  model::resource_slice& slice(const std::string& driver) {
    return test_scenario::slice("slice-" + driver, driver, "pool-" + driver, "node-1");
  }
  // A device with one int attribute (unqualified: the driver's own domain).
  void device(model::resource_slice& sl, std::string name, std::string attribute, std::int64_t value) {
    test_scenario::device(sl, std::move(name)).attributes = {{str(std::move(attribute)), {value}}};
  }
  // claim-0, without requests.
  model::resource_claim& claim() { return add(model::claim_builder({}, "claim-0").build()); }
  // An `exactly` request for `count` devices of `klass`, with derived attributes (name, expression) pairs.
  static model::device_request request(model::text name, model::text klass, std::int64_t count,
                                       const std::vector<model::device_derived_attribute>& derived = {}) {
    model::request_builder r(name, klass);
    r.count(count);
    for (const auto& d : derived) r.derived_attribute(d.name, d.expression);
    return dra_test::built(r.build());
  }
};

using dra_test::devices_of;

std::string error_of(const model::claim_outcome& o) { return o.error() ? o.error()->message : std::string("(none)"); }

// Cores 0, 5 and 6: a derived socket (core / 4) of 0, 1, 1.
void three_cores(derived_scenario& b) {
  auto& sl = b.slice("driver-a");
  b.device(sl, "core-0", "core", 0);
  b.device(sl, "core-5", "core", 5);
  b.device(sl, "core-6", "core", 6);
}

const model::device_derived_attribute socket{"socket", "device.attributes[\"driver-a\"].core / 4"};

TEST(DerivedAttributes, FeatureSwitch) {
  auto only = alloc::features::parse("DerivedAttributes");
  ASSERT_TRUE(only);
  EXPECT_TRUE(only->derived_attributes);
  EXPECT_FALSE(alloc::features::none().derived_attributes);
  EXPECT_TRUE(alloc::features::all().derived_attributes);
  EXPECT_FALSE(alloc::served_by_stable_allocator(*only));  // upstream needs its experimental allocator for it
}

TEST(DerivedAttributes, MatchAttributeComparesTheComputedValue) {
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 2, {socket}));
  c.spec.constraints.push_back({{}, model::text("socket"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu=core-5", "cpu=core-6"}));
}

TEST(DerivedAttributes, DistinctAttributeComparesTheComputedValue) {
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 3, {socket}));
  c.spec.constraints.push_back({{}, std::nullopt, model::text("socket")});
  // Three devices over two sockets cannot be distinct; two can (cores 0 and 5, first fit).
  EXPECT_FALSE(b.run().outcomes[0].allocated());
  c.spec.requests[0].exactly->count = 2;
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu=core-0", "cpu=core-5"}));
}

TEST(DerivedAttributes, EachRequestComputesItsOwnValue) {
  // A GPU publishes `numa`, a NIC `socket` counted from 10: each request maps its vendor's attribute to one key.
  derived_scenario b;
  auto& gpus = b.slice("driver-a");
  b.device(gpus, "gpu-0", "numa", 0);
  b.device(gpus, "gpu-1", "numa", 1);
  auto& nics = b.slice("driver-b");
  b.device(nics, "nic-10", "socket", 10);
  b.device(nics, "nic-11", "socket", 11);
  auto& c = b.claim();
  c.spec.requests.push_back(
      derived_scenario::request("gpu", "class-a", 1, {{"numa", "device.attributes[\"driver-a\"].numa"}}));
  c.spec.requests.push_back(
      derived_scenario::request("nic", "class-b", 1, {{"numa", "device.attributes[\"driver-b\"].socket - 10"}}));
  c.spec.constraints.push_back({{}, model::text("numa"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"gpu=gpu-0", "nic=nic-10"}));
  // Only gpu-1 left for the GPU: the NIC must then be nic-11.
  b.s.slices[0].object.devices.erase(b.s.slices[0].object.devices.begin());
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"gpu=gpu-1", "nic=nic-11"}));
}

TEST(DerivedAttributes, ShadowTheDevicesAttributeOfTheSameName) {
  // The devices' own driver-a/core differs; a derived driver-a/core of the request is the same for all.
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 2, {{"driver-a/core", "7"}}));
  c.spec.constraints.push_back({{}, model::text("driver-a/core"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu=core-0", "cpu=core-5"}));
  // A request without it sees the devices' attribute: no two cores are equal.
  c.spec.requests[0].exactly->derived_attributes.clear();
  EXPECT_FALSE(b.run().outcomes[0].allocated());
}

TEST(DerivedAttributes, AreIgnoredWithTheFeatureOff) {
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 2, {socket}));
  c.spec.constraints.push_back({{}, model::text("socket"), std::nullopt});
  alloc::features f = alloc::features::all();
  f.derived_attributes = false;
  // As if the API server had dropped the field: no device has an attribute `socket`.
  const auto r = b.run(f);
  EXPECT_FALSE(r.outcomes[0].allocated()) << error_of(r.outcomes[0]);
  EXPECT_FALSE(r.outcomes[0].error()) << error_of(r.outcomes[0]);
}

TEST(DerivedAttributes, ListValuesFollowListTypeSemantics) {
  // Each core belongs to its socket and to a shared "pool" 9: as lists they intersect in 9 for every pair.
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  c.spec.requests.push_back(
      derived_scenario::request("cpu", "class-a", 3, {{"groups", "[device.attributes[\"driver-a\"].core / 4, 9]"}}));
  c.spec.constraints.push_back({{}, model::text("groups"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu=core-0", "cpu=core-5", "cpu=core-6"}));
  // distinctAttribute: the lists must be disjoint, and 9 is in all of them.
  c.spec.constraints[0] = {{}, std::nullopt, model::text("groups")};
  c.spec.requests[0].exactly->count = 2;
  EXPECT_FALSE(b.run().outcomes[0].allocated());
}

TEST(DerivedAttributes, EvaluatedOnlyForRequestsTheConstraintBinds) {
  // The nic request's expression fails on every device, but no constraint looks it up for the nic.
  derived_scenario b;
  three_cores(b);
  auto& nics = b.slice("driver-b");
  b.device(nics, "nic-0", "socket", 0);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 2, {socket}));
  c.spec.requests.push_back(
      derived_scenario::request("nic", "class-b", 1, {{"socket", "device.attributes[\"driver-b\"].missing"}}));
  c.spec.constraints.push_back({{model::text("cpu")}, model::text("socket"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu=core-5", "cpu=core-6", "nic=nic-0"}));
  // Bound to both requests, the nic's expression runs and its error ends the allocation.
  c.spec.constraints[0].requests.clear();
  const auto r = b.run();
  ASSERT_TRUE(r.outcomes[0].error());
  EXPECT_NE(error_of(r.outcomes[0])
                .find("claim claim-0, request nic: derived attribute socket on device "
                      "driver-b/pool-driver-b/nic-0: CEL runtime error: "),
            std::string::npos)
      << error_of(r.outcomes[0]);
  EXPECT_EQ(r.outcomes[0].error()->code, errc::cel_runtime);
}

TEST(DerivedAttributes, EvaluatedOnlyOnDevicesTheSelectorsPick) {
  // core-x has no `core`: the expression would fail on it, but the request's selector rejects it first.
  derived_scenario b;
  three_cores(b);
  auto& sl = b.s.slices[0].object;
  model::device odd;
  odd.name = "core-x";
  sl.devices.insert(sl.devices.begin(), odd);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 2, {socket}));
  c.spec.requests[0].exactly->selectors.push_back({"\"core\" in device.attributes[\"driver-a\"]"});
  c.spec.constraints.push_back({{}, model::text("socket"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu=core-5", "cpu=core-6"}));
  c.spec.requests[0].exactly->selectors.clear();
  EXPECT_TRUE(b.run().outcomes[0].error());
}

TEST(DerivedAttributes, NoShortcutHidesAnEvaluationError) {
  // Four cores wanted, three exist: upstream still tries core-0 first, and its expression fails there. The counting
  // shortcuts would call the claim unschedulable without trying a device.
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  c.spec.requests.push_back(derived_scenario::request(
      "cpu", "class-a", 4,
      {{"socket", "device.attributes[\"driver-a\"].core == 0 ? device.attributes[\"driver-a\"].missing : 1"}}));
  c.spec.constraints.push_back({{}, model::text("socket"), std::nullopt});
  const auto r = b.run();
  ASSERT_TRUE(r.outcomes[0].error()) << (r.outcomes[0].allocated() ? "allocated" : "unschedulable");
  EXPECT_NE(error_of(r.outcomes[0]).find("on device driver-a/pool-driver-a/core-0: CEL runtime error"),
            std::string::npos)
      << error_of(r.outcomes[0]);
  // Without a derived attribute the shortcut may answer: nothing to evaluate, nothing to hide.
  c.spec.requests[0].exactly->derived_attributes.clear();
  c.spec.constraints[0].match_attribute = model::text("driver-a/core");
  const auto plain = b.run();
  EXPECT_TRUE(plain.outcomes[0].unschedulable()) << error_of(plain.outcomes[0]);
}

TEST(DerivedAttributes, BadResultsAreErrors) {
  struct row {
    std::string expression;
    std::string message;
    errc code;
  };
  const std::vector<row> table = {
      {"1.5", "derived attribute socket: CEL compile error: must evaluate to a string, int, bool or semver",
       errc::cel_compile},
      {"device.attributes[", "derived attribute socket: CEL compile error: ", errc::cel_compile},
      {"dyn(1.5)", "CEL runtime error: CEL result of type double cannot be a derived attribute", errc::cel_runtime},
      {"[dyn(1), dyn('a')]", "CEL runtime error: CEL result is a list that mixes int and string elements",
       errc::cel_runtime},
      {"dyn([])", "CEL runtime error: CEL result is an empty list", errc::cel_runtime},
  };
  for (const auto& row : table) {
    derived_scenario b;
    three_cores(b);
    auto& c = b.claim();
    c.spec.requests.push_back(derived_scenario::request("cpu", "class-a", 2, {{"socket", b.str(row.expression)}}));
    c.spec.constraints.push_back({{}, model::text("socket"), std::nullopt});
    const auto r = b.run();
    ASSERT_TRUE(r.outcomes[0].error()) << row.expression;
    EXPECT_NE(error_of(r.outcomes[0]).find(row.message), std::string::npos) << error_of(r.outcomes[0]);
    EXPECT_EQ(r.outcomes[0].error()->code, row.code) << row.expression;
  }
}

TEST(DerivedAttributes, SubrequestsDefineTheirOwn) {
  // The first subrequest's value can never match (each core its own); the second groups by socket.
  derived_scenario b;
  three_cores(b);
  auto& c = b.claim();
  model::device_request r;
  r.name = "cpu";
  model::device_sub_request own;
  own.name = "own";
  own.device_class_name = "class-a";
  own.count = 2;
  own.derived_attributes = {{"socket", "device.attributes[\"driver-a\"].core"}};
  model::device_sub_request grouped = own;
  grouped.name = "grouped";
  grouped.derived_attributes = {socket};
  r.first_available = {own, grouped};
  c.spec.requests.push_back(r);
  c.spec.constraints.push_back({{}, model::text("socket"), std::nullopt});
  EXPECT_EQ(devices_of(b.run().outcomes[0]), (std::vector<std::string>{"cpu/grouped=core-5", "cpu/grouped=core-6"}));
}

}  // namespace
