// The allocator's counting bounds: hopeless claims (too many devices over several requests, matchAttribute groups
// too small, too few distinct values) end in a few steps, claims that fit get the same devices as without bounds,
// errors the search would meet are still met, the optional step budget, and interchangeable devices tried once per
// position of the search.
#include <dra/alloc/allocator.hpp>
#include <dra/cel/selector.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

#include "outcomes.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace dra;

// One node with one slice of `devices` devices; claims built request by request.
struct node_with_devices : dra_test::test_scenario {
  const model::node& node;
  model::resource_slice& slice;
  model::resource_claim& claim;
  cel::selector_engine engine;
  alloc::ledger none;

  explicit node_with_devices(int devices)
      : node(test_scenario::node("node-1")),
        slice(test_scenario::slice("slice-1", "gpu.example.com", "pool-1", "node-1")),
        claim(add(model::claim_builder("default", "claim").build())) {
    add(model::class_builder("gpu").build());
    for (int i = 0; i < devices; ++i) device(slice, "gpu-" + std::to_string(i));
  }
  // Gives device i the attribute `name` with the value value(i).
  template <class F>
  void attribute(std::string name, F value) {
    for (std::size_t i = 0; i < slice.devices.size(); ++i)
      slice.devices[i].attributes.push_back({str(name), model::device_attribute{value(static_cast<int>(i))}});
  }
  model::exact_device_request& request(std::string name, std::int64_t count) {
    claim.spec.requests.push_back(
        dra_test::built(model::request_builder(str(std::move(name)), "gpu").count(count).build()));
    return *claim.spec.requests.back().exactly;
  }
  void constraint(bool match, std::string attribute) {
    model::device_constraint c;
    (match ? c.match_attribute : c.distinct_attribute) = str(std::move(attribute));
    claim.spec.constraints.push_back(c);
  }
  result<alloc::allocation_outcome> allocate(std::uint64_t budget = 0) {
    const auto classes = class_list();
    const auto slices = slice_list();
    alloc::basic_allocator<alloc::first_fit, cel::selector_engine> a(alloc::features::all(), none, classes, slices,
                                                                    engine);
    a.set_step_budget(budget);
    const model::resource_claim* claims[] = {&claim};
    return a.allocate(node, claims);
  }
};

std::vector<std::string> chosen(const alloc::allocation_outcome& o) {
  if (o.fit() == nullptr) return {"(does not fit)"};
  return dra_test::devices_of(o.fit()->results.at(0));
}

TEST(Bounds, OneDeviceTooManyOverFourRequestsEndsAtOnce) {
  node_with_devices n(24);
  n.request("a", 6), n.request("b", 6), n.request("c", 6), n.request("d", 7);
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->fit(), nullptr);
  EXPECT_LT(outcome->search_steps, 10u);  // without the bound: C(24,6) * C(18,6) * ... branches
}

TEST(Bounds, OneRequestTooManyForItsOwnSelectorEndsAtOnce) {
  // Two requests that fit together by count, but the second one's selector leaves it too few devices.
  node_with_devices n(24);
  n.attribute("half", [](int i) { return model::attribute_value{std::int64_t{i % 2}}; });
  n.request("any", 6);
  n.request("odd", 13).selectors.push_back({"device.attributes[\"gpu.example.com\"].half == 1"});
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->fit(), nullptr);
  EXPECT_LT(outcome->search_steps, 10u);
}

TEST(Bounds, MatchAttributeWithNoGroupLargeEnoughEndsAtOnce) {
  node_with_devices n(128);
  n.attribute("numa", [](int i) { return model::attribute_value{std::int64_t{i / 8}}; });
  n.request("a", 5), n.request("b", 4);
  n.constraint(true, "gpu.example.com/numa");
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->fit(), nullptr);
  EXPECT_LT(outcome->search_steps, 10u);
}

TEST(Bounds, MatchAttributeFixedByTheFirstDeviceCutsTheNextRequest) {
  // numa 0 has 7 devices, numa 1 has 16. Request a takes one device and b eight more of the same numa: gpu-0 to
  // gpu-6 each fix numa 0, with six left for b, and are cut when b starts instead of b enumerating them.
  node_with_devices n(23);
  n.attribute("numa", [](int i) { return model::attribute_value{std::int64_t{i < 7 ? 0 : 1}}; });
  n.request("a", 1), n.request("b", 8);
  n.constraint(true, "gpu.example.com/numa");
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->fit());
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"a=gpu-7", "b=gpu-8", "b=gpu-9", "b=gpu-10", "b=gpu-11",
                                                        "b=gpu-12", "b=gpu-13", "b=gpu-14", "b=gpu-15"}));
  EXPECT_LT(outcome->search_steps, 100u);  // without it: 2^6 subsets of numa 0 for each of gpu-0 to gpu-6
}

TEST(Bounds, DistinctAttributeWithTooFewValuesEndsAtOnce) {
  node_with_devices n(64);
  n.attribute("numa", [](int i) { return model::attribute_value{std::int64_t{i % 8}}; });
  n.request("a", 5), n.request("b", 4);
  n.constraint(false, "gpu.example.com/numa");
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->fit(), nullptr);
  EXPECT_LT(outcome->search_steps, 10u);
}

TEST(Bounds, DistinctListAttributesCountValuesNotDevices) {
  // With list types, devices {0,1}, {1,2}, {2,3}: pairwise disjoint sets of two exist ({0,1} and {2,3}), three do not.
  for (std::int64_t wanted : {2, 3}) {
    node_with_devices n(3);
    n.attribute("links", [](int i) {
      return model::attribute_value{std::vector<std::int64_t>{i, i + 1}};
    });
    n.request("a", 1), n.request("b", wanted - 1);
    n.constraint(false, "gpu.example.com/links");
    auto outcome = n.allocate();
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_EQ(outcome->fit() != nullptr, wanted == 2) << wanted;
    if (wanted == 2) {
      EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"a=gpu-0", "b=gpu-2"}));
    }
  }
}

TEST(Bounds, ClaimsThatFitGetFirstFitsDevices) {
  node_with_devices n(24);
  n.attribute("numa", [](int i) { return model::attribute_value{std::int64_t{i / 8}}; });
  n.request("a", 3), n.request("b", 5);
  n.constraint(true, "gpu.example.com/numa");
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->fit());
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"a=gpu-0", "a=gpu-1", "a=gpu-2", "b=gpu-3", "b=gpu-4",
                                                        "b=gpu-5", "b=gpu-6", "b=gpu-7"}));
}

TEST(Bounds, OnceEverySelectorIsKnownAFixedValueVisitsOnlyItsCandidates) {
  // Once the first device fixes the numa value, a search evaluates the class on every device (the node keeps
  // those results) and may visit only the devices with that value; here a first search (claim `all`) has
  // evaluated them already.
  node_with_devices n(5);
  const std::int64_t numa[] = {2, 1, 0, 1, 0};
  n.attribute("numa", [&](int i) { return model::attribute_value{numa[i]}; });
  n.request("gpus", 2);
  n.constraint(true, "gpu.example.com/numa");
  model::resource_claim all;
  all.meta.name = "all";
  all.spec.requests.push_back(n.claim.spec.requests[0]);
  all.spec.requests[0].exactly->count = 5;
  const auto classes = n.class_list();
  const auto slices = n.slice_list();
  alloc::basic_allocator<alloc::first_fit, cel::selector_engine> a(alloc::features::all(), n.none, classes, slices,
                                                                  n.engine);
  const model::resource_claim* first[] = {&all};
  ASSERT_TRUE(a.allocate(n.node, first));
  const model::resource_claim* second[] = {&n.claim};
  auto outcome = a.allocate(n.node, second);
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->fit());
  // gpu-0 (numa 2) has no partner; gpu-1 (numa 1) pairs with gpu-3, skipping gpu-2 (numa 0).
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"gpus=gpu-1", "gpus=gpu-3"}));
}

TEST(Bounds, AnErrorTheSearchWouldMeetIsNotPrunedAway) {
  // Four devices wanted, three exist: hopeless by count. Upstream takes gpu-0 and gpu-1 for `a`, then evaluates
  // b's selector on gpu-2, which has no `model` attribute: a runtime error, which dra must report too.
  node_with_devices n(3);
  n.slice.devices[0].attributes.push_back({"model", model::device_attribute{model::text("a100")}});
  n.slice.devices[1].attributes.push_back({"model", model::device_attribute{model::text("a100")}});
  n.request("a", 2);
  n.request("b", 2).selectors.push_back({"device.attributes[\"gpu.example.com\"].model == \"a100\""});
  auto outcome = n.allocate();
  ASSERT_FALSE(outcome);
  EXPECT_NE(outcome.error().message.find("gpu-2"), std::string::npos) << outcome.error().message;
  EXPECT_NE(outcome.error().message.find("CEL runtime error"), std::string::npos) << outcome.error().message;
}

// Devices with a numa value each; those with a model attribute ("a100") pass the request's selector, the others
// make it fail with a CEL runtime error.
struct numa_devices : node_with_devices {
  explicit numa_devices(std::vector<std::pair<std::int64_t, bool>> devices) : node_with_devices(int(devices.size())) {
    for (std::size_t i = 0; i < devices.size(); ++i)  // attributes sorted by name: model before numa
      if (devices[i].second)
        slice.devices[i].attributes.push_back({"model", model::device_attribute{model::text("a100")}});
    attribute("numa", [&](int i) { return model::attribute_value{devices[std::size_t(i)].first}; });
    request("gpus", 2).selectors.push_back({"device.attributes[\"gpu.example.com\"].model == \"a100\""});
    constraint(true, "gpu.example.com/numa");
  }
};

TEST(Bounds, ASelectorErrorPastTheFirstFitDoesNotStopIt) {
  // gpu-0 fixes numa 0; upstream tries gpu-1 (numa 1) and takes gpu-2, never reaching gpu-3. Evaluating the
  // selectors ahead, to visit only the numa-0 devices, meets gpu-3's error: the search must go on as upstream's.
  numa_devices n({{0, true}, {1, true}, {0, true}, {1, false}});
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"gpus=gpu-0", "gpus=gpu-2"}));
}

TEST(Bounds, ASelectorErrorBeforeTheFirstFitIsMet) {
  // gpu-0 fixes numa 0; upstream evaluates the selector on gpu-1 before reaching gpu-2, and fails there.
  numa_devices n({{0, true}, {1, false}, {0, true}});
  auto outcome = n.allocate();
  ASSERT_FALSE(outcome);
  EXPECT_NE(outcome.error().message.find("gpu-1: CEL runtime error"), std::string::npos) << outcome.error().message;
}

// The shape of the fuzzer's input `fuzzed-timeout-sorted-search`: claims that may take shared devices (one device
// for several requests) and an admin-access request come before a claim whose two GPUs must share a model, which no
// two GPUs do. Counting bounds that gave up on shared devices and admin access would leave the search to try the last
// claim under every choice of the earlier ones (28 pairs of NICs per request: 2,072,401 steps); they count a shared
// device once per request it may serve and leave admin access out of the union only. The budget makes such a search
// fail at once instead of running for seconds.
struct shared_then_hopeless : dra_test::test_scenario {
  model::resource_slice& slice;

  void device(std::string name, std::string kind, bool shared, std::string model_name) {
    model::device_builder d(str(std::move(name)));
    d.string("kind", str(std::move(kind))).string("model", str(std::move(model_name)));
    if (shared) d.allow_multiple_allocations();
    slice.devices.push_back(dra_test::built(d.build()));
  }
  void request(model::resource_claim& c, std::string name, const std::string& kind, bool admin = false) {
    model::request_builder r(str(std::move(name)), "any");
    r.count(2).selector(str("device.attributes[\"dra.example.com\"].kind == \"" + kind + "\""));
    if (admin) r.admin_access();
    c.spec.requests.push_back(dra_test::built(r.build()));
  }

  // Eight shared NICs and GPUs of the models given (a capital letter: a shared GPU); `one_more`: the GPU claim asks
  // for a third GPU of the same model in a second request.
  explicit shared_then_hopeless(std::string gpu_models, bool one_more = false)
      : slice(test_scenario::slice("slice-1", "dra.example.com", "pool-1", "node-1")) {
    add(model::class_builder("any").build());
    node("node-1");
    for (int i = 0; i < 8; ++i) device("nic-" + std::to_string(i), "nic", true, "x");
    for (std::size_t i = 0; i < gpu_models.size(); ++i) {
      const char m = gpu_models[i];
      device("gpu-" + std::to_string(i), "gpu", m >= 'A' && m <= 'Z', std::string(1, char(m | 0x20)));
    }
    auto& first = claim("default", "nics-1");
    request(first, "a", "nic"), request(first, "b", "nic");
    auto& second = claim("default", "nics-2");
    request(second, "a", "nic"), request(second, "watch", "nic", /*admin=*/true);
    auto& gpus = claim("default", "gpus");
    request(gpus, "pair", "gpu");
    if (one_more) {
      request(gpus, "one", "gpu");
      gpus.spec.requests.back().exactly->count = 1;
    }
    model::device_constraint same;
    same.match_attribute = "dra.example.com/model";
    gpus.spec.constraints.push_back(same);
  }
  // Claims without requests, which request() adds.
  model::resource_claim& claim(std::string namespace_, std::string name) {
    return add(model::claim_builder(str(std::move(namespace_)), str(std::move(name))).build());
  }
  template <class Policy>
  result<alloc::allocation_outcome> allocate() {
    const auto classes = class_list();
    const auto slices = slice_list();
    const cel::selector_engine engine;
    const alloc::ledger none;
    alloc::basic_allocator<Policy, cel::selector_engine> a(alloc::features::all(), none, classes, slices, engine);
    a.set_step_budget(10'000);
    std::vector<const model::resource_claim*> pending;
    for (const auto& c : s.claims) pending.push_back(&c.object);
    return a.allocate(s.nodes[0].object, pending);
  }
};

template <class Policy>
void expect_hopeless_after_shared_devices() {
  // No two GPUs share a model; or two do, but the claim wants three and the third GPU, though shared (it could
  // serve both requests), has another model.
  for (bool one_more : {false, true}) {
    shared_then_hopeless n(one_more ? "aaB" : "abc", one_more);
    auto outcome = n.allocate<Policy>();
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_EQ(outcome->fit(), nullptr);
    EXPECT_LT(outcome->search_steps, 10u) << one_more;
  }
}

TEST(Bounds, SharedDevicesBeforeAHopelessClaimEndAtOnceUnderFirstFit) {
  expect_hopeless_after_shared_devices<alloc::first_fit>();
}

TEST(Bounds, SharedDevicesBeforeAHopelessClaimEndAtOnceSorted) {
  expect_hopeless_after_shared_devices<alloc::sorted>();
}

TEST(Bounds, SharedDevicesBeforeAClaimThatFitsKeepTheirDevices) {
  // gpu-0 and gpu-2 share a model: the claims fit, each request with the first devices it may take (a shared NIC
  // serves several requests).
  for (bool sorted : {false, true}) {
    shared_then_hopeless n("aba");
    auto outcome = sorted ? n.allocate<alloc::sorted>() : n.allocate<alloc::first_fit>();
    ASSERT_TRUE(outcome) << outcome.error().message;
    ASSERT_TRUE(outcome->fit()) << sorted;
    std::vector<std::string> got;
    for (const auto& claim : outcome->fit()->results)
      std::ranges::copy(dra_test::devices_of(claim), std::back_inserter(got));
    EXPECT_EQ(got, (std::vector<std::string>{"a=nic-0", "a=nic-1", "b=nic-0", "b=nic-1", "a=nic-0", "a=nic-1",
                                             "watch=nic-0", "watch=nic-1", "pair=gpu-0", "pair=gpu-2"}))
        << sorted;
    EXPECT_LT(outcome->search_steps, 30u) << sorted;
  }
}

TEST(Bounds, AnExhaustedStepBudgetIsAnError) {
  node_with_devices n(4);
  n.request("a", 2);
  auto unlimited = n.allocate();
  ASSERT_TRUE(unlimited && unlimited->fit());
  auto within = n.allocate(unlimited->search_steps);
  ASSERT_TRUE(within && within->fit());
  auto exhausted = n.allocate(unlimited->search_steps - 1);
  ASSERT_FALSE(exhausted);
  EXPECT_EQ(exhausted.error().message,
            "claim default/claim, node node-1: search step budget of " + std::to_string(unlimited->search_steps - 1) +
                " exhausted");
}

// Interchangeable devices (detail/search_symmetry.hpp): once a device's branch has failed at a position, devices no
// request, constraint or taint tells apart from it are not tried there.

TEST(Symmetry, InterchangeableDevicesEndAHopelessClaimNoCountCatches) {
  // b and c need five of the four "low" devices between them, but a's sixteen of 32 leave room by every count the
  // bounds make at the start (each request alone, all three together). Upstream tries each of C(32,16) ways of
  // serving a; with the 28 "high" devices (and the four "low" ones) each one kind, a few hundred steps remain.
  node_with_devices n(32);
  n.attribute("low", [](int i) { return model::attribute_value{i < 4}; });
  n.request("a", 16);
  n.request("b", 3).selectors.push_back({"device.attributes[\"gpu.example.com\"].low"});
  n.request("c", 2).selectors.push_back({"device.attributes[\"gpu.example.com\"].low"});
  auto outcome = n.allocate(/*budget=*/20'000);
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->fit(), nullptr);
  EXPECT_LT(outcome->search_steps, 2'000u);
}

TEST(Symmetry, AClaimThatFitsAfterBacktrackingGetsFirstFitsDevices) {
  // a takes gpu-0 and gpu-1, leaving b one low device. gpu-2 is as low as gpu-1 and is skipped for a's second
  // device; gpu-3 is not, and is where upstream's search succeeds too.
  node_with_devices n(8);
  n.attribute("low", [](int i) { return model::attribute_value{i < 3}; });
  n.request("a", 2);
  n.request("b", 2).selectors.push_back({"device.attributes[\"gpu.example.com\"].low"});
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->fit());
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"a=gpu-0", "a=gpu-3", "b=gpu-1", "b=gpu-2"}));
}

TEST(Symmetry, DevicesAConstraintTellsApartAreNotInterchangeable) {
  // gpu-0 and gpu-7 pass and fail the same selectors, but sit on different NUMA nodes: a with gpu-0 fails (numa 0
  // has two good devices for b), a with gpu-7 fits (numa 1 has three).
  node_with_devices n(8);
  n.attribute("good", [](int i) { return model::attribute_value{i == 1 || i == 2 || (i >= 4 && i <= 6)}; });
  n.attribute("numa", [](int i) { return model::attribute_value{std::int64_t{i / 4}}; });
  n.request("a", 1);
  n.request("b", 3).selectors.push_back({"device.attributes[\"gpu.example.com\"].good"});
  n.constraint(true, "gpu.example.com/numa");
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->fit());
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"a=gpu-7", "b=gpu-4", "b=gpu-5", "b=gpu-6"}));
}

TEST(Symmetry, DevicesATaintTellsApartAreNotInterchangeable) {
  // gpu-1 is tainted; a tolerates the taint, b does not. a with gpu-0 leaves b one device it may take; a with
  // gpu-1 leaves it two.
  node_with_devices n(3);
  n.slice.devices[1].taints.push_back({"maintenance", "", "NoSchedule", std::nullopt});
  auto& a = n.request("a", 1);
  a.tolerations.push_back({"maintenance", model::toleration_operator::exists, "", "", std::nullopt});
  n.request("b", 2);
  auto outcome = n.allocate();
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->fit());
  EXPECT_EQ(chosen(*outcome), (std::vector<std::string>{"a=gpu-1", "b=gpu-0", "b=gpu-2"}));
}

}  // namespace
