// Explanations: scenarios built for each cause code (one node and several, causes spread over nodes) assert the exact
// codes, node counts and named blockers; generated scenarios check that removing the named cause lets the unit fit.
#include "../support/made_claims.hpp"
#include "../support/named_enums.hpp"
#include "../support/source_dir.hpp"
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sim/explain/claims.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace dra;

// A scenario written as JSON, piece by piece.
struct scenario_text {
  std::vector<std::string> items;

  scenario_text() {
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},)"
                    R"("spec":{"selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}]}})");
  }
  scenario_text& node(const std::string& name) {
    items.push_back(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
                    R"(","labels":{"kubernetes.io/hostname":")" + name + R"("}}})");
    return *this;
  }
  // `devices` is the JSON of the devices array's elements; `extra` more spec fields.
  scenario_text& slice(const std::string& node, const std::string& devices, const std::string& extra = "",
                       int slice_count = 1, const std::string& driver = "gpu.example.com") {
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + node + "-" +
                    driver + std::to_string(items.size()) + R"("},"spec":{"driver":")" + driver +
                    R"(","pool":{"name":")" + node + R"(","generation":1,"resourceSliceCount":)" +
                    std::to_string(slice_count) + R"(},"nodeName":")" + node + R"(","devices":[)" + devices + "]" +
                    extra + "}}");
    return *this;
  }
  // A pending claim with one request `req` (the JSON of its "exactly"), and constraints.
  scenario_text& claim(const std::string& name, const std::string& exactly, const std::string& constraints = "") {
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":")" + name +
                    R"(","namespace":"default"},"spec":{"devices":{"requests":[{"name":"gpus","exactly":)" + exactly +
                    "}]" + (constraints.empty() ? "" : R"(,"constraints":)" + constraints) + "}}}");
    return *this;
  }
  // An allocated claim holding `devices` ("node/device" each) of driver gpu.example.com.
  scenario_text& holder(const std::string& name, const std::vector<std::string>& devices,
                        const std::string& result_extra = "") {
    std::string results;
    for (const auto& d : devices) {
      auto slash = d.find('/');
      if (!results.empty()) results += ",";
      results += R"({"request":"r","driver":"gpu.example.com","pool":")" + d.substr(0, slash) + R"(","device":")" +
                 d.substr(slash + 1) + "\"" + result_extra + "}";
    }
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":")" + name +
                    R"(","namespace":"default"},"spec":{"devices":{"requests":[{"name":"r","exactly":)"
                    R"({"deviceClassName":"gpu"}}]}},"status":{"allocation":{"devices":{"results":[)" +
                    results + "]}}}}");
    return *this;
  }
  scenario_text& pod(const std::string& name, const std::vector<std::string>& claims, const std::string& node = "") {
    std::string refs;
    for (const auto& c : claims) refs += (refs.empty() ? "" : ",") + (R"({"name":")" + c + R"(","resourceClaimName":")" + c + "\"}");
    items.push_back(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                    R"(","namespace":"default"},"spec":{)" + (node.empty() ? "" : R"("nodeName":")" + node + "\",") +
                    R"("resourceClaims":[)" + refs + "]}}");
    return *this;
  }
  // A ResourceClaimTemplate whose claims have one request `gpus` (the JSON of its "exactly").
  scenario_text& claim_template(const std::string& name, const std::string& exactly) {
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":")" + name +
                    R"(","namespace":"default"},"spec":{"spec":{"devices":{"requests":[{"name":"gpus","exactly":)" +
                    exactly + "}]}}}}");
    return *this;
  }
  // A pod whose claims come from templates: (entry name, template name) each.
  scenario_text& templated_pod(const std::string& name, const std::vector<std::pair<std::string, std::string>>& entries,
                               const std::string& node = "") {
    std::string refs;
    for (const auto& [entry, from] : entries)
      refs +=
          (refs.empty() ? "" : ",") + (R"({"name":")" + entry + R"(","resourceClaimTemplateName":")" + from + "\"}");
    items.push_back(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                    R"(","namespace":"default"},"spec":{)" + (node.empty() ? "" : R"("nodeName":")" + node + "\",") +
                    R"("resourceClaims":[)" + refs + "]}}");
    return *this;
  }
  [[nodiscard]] std::string json() const {
    std::string out = R"({"apiVersion":"v1","kind":"List","items":[)";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
    return out + "]}";
  }
};

std::string gpus(int n, const std::string& extra = "", int first = 0) {
  std::string out;
  for (int i = first; i < first + n; ++i)
    out += (out.empty() ? "" : ",") + (R"({"name":"gpu-)" + std::to_string(i) + "\"" + extra + "}");
  return out;
}

const std::string three_gpus = R"({"deviceClassName":"gpu","count":3})";

struct run_result {
  sim::run_report report;
  const model::claim_outcome* find(std::string_view claim) const {
    for (const auto& o : report.outcomes)
      if (o.claim == claim) return &o;
    return nullptr;
  }
};

run_result run(const scenario_text& t) {
  auto doc = json::load(t.json());
  EXPECT_TRUE(doc) << (doc ? "" : doc.error().to_string());
  if (!doc) return {};
  static const cel::selector_engine engine;
  return {sim::run_scenario(doc->scenario(), engine)};
}

// The explanation of `claim`, which must be unschedulable.
model::explanation explanation_of(const run_result& r, std::string_view claim) {
  const auto* o = r.find(claim);
  EXPECT_NE(o, nullptr) << claim;
  if (o == nullptr) return {};
  EXPECT_TRUE(o->unschedulable()) << claim << (o->error() ? " error: " + o->error()->to_string() : "");
  const model::claim_unschedulable* unschedulable = o->unschedulable();
  EXPECT_TRUE(unschedulable && unschedulable->why) << claim;
  return unschedulable && unschedulable->why ? *unschedulable->why : model::explanation{};
}

using reason_code = model::explanation_code;

void expect_reason(const model::explanation& e, std::size_t index, reason_code expected, std::size_t nodes,
                   std::string_view claim, std::string_view request, std::string_view message_part) {
  ASSERT_LT(index, e.reasons.size());
  const auto& r = e.reasons[index];
  EXPECT_EQ(r.code, expected) << r.message;
  EXPECT_EQ(r.nodes, nodes) << r.message;
  EXPECT_EQ(r.claim, claim);
  EXPECT_EQ(r.request, request);
  EXPECT_NE(r.message.find(message_part), std::string::npos) << r.message;
}

TEST(Explain, InUseNamesTheHoldingClaim) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(3)).holder("train", {"n1/gpu-2"}).claim("want", three_gpus);
  auto e = explanation_of(run(t), "default/want");
  EXPECT_EQ(e.nodes, 1u);
  ASSERT_EQ(e.reasons.size(), 1u);
  expect_reason(e, 0, reason_code::in_use, 1, "default/want", "gpus", "2 of 3 devices free, 3 needed (gpu-2 held by default/train)");
}

TEST(Explain, CountWhenTooFewDevicesExist) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(2)).holder("train", {"n1/gpu-1"}).claim("want", three_gpus);
  auto e = explanation_of(run(t), "default/want");
  ASSERT_EQ(e.reasons.size(), 1u);
  // Held devices do not matter: with every device free it still could not fit.
  expect_reason(e, 0, reason_code::count, 1, "default/want", "gpus", "3 devices asked, 2 exist (gpu-0 and gpu-1)");
}

TEST(Explain, ClassAndSelector) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(2), "", 1, "nic.example.com");
  t.claim("class-miss", R"({"deviceClassName":"gpu"})");
  t.slice("n1", gpus(2, R"(,"attributes":{"model":{"string":"a100"}})", 5));
  t.claim("selector-miss", R"({"deviceClassName":"gpu","selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].model == 'h100'"}}]})");
  auto r = run(t);
  const auto* ok = r.find("default/class-miss");
  ASSERT_NE(ok, nullptr);
  EXPECT_TRUE(ok->allocated());  // the gpu slice serves it
  auto e = explanation_of(r, "default/selector-miss");
  expect_reason(e, 0, reason_code::selector, 1, "default/selector-miss", "gpus", "none matches the request's selectors");

  scenario_text only_nics;
  only_nics.node("n1").slice("n1", gpus(2), "", 1, "nic.example.com").claim("want", R"({"deviceClassName":"gpu"})");
  auto c = explanation_of(run(only_nics), "default/want");
  expect_reason(c, 0, reason_code::device_class, 1, "default/want", "gpus", "none of the 2 devices matches device class gpu");
}

TEST(Explain, TaintNamesTheTaint) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(1) + "," + gpus(2, R"(,"taints":[{"key":"maintenance","value":"planned","effect":"NoSchedule"}])", 1));
  t.claim("want", three_gpus);
  auto e = explanation_of(run(t), "default/want");
  expect_reason(e, 0, reason_code::taint, 1, "default/want", "gpus", "gpu-1 and gpu-2: taint maintenance=planned:NoSchedule");
}

TEST(Explain, MatchAttributeConstraint) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(2, R"(,"attributes":{"numa":{"int":0}})") + "," +
                               gpus(2, R"(,"attributes":{"numa":{"int":1}})", 2));
  t.claim("want", three_gpus, R"([{"matchAttribute":"gpu.example.com/numa"}])");
  auto e = explanation_of(run(t), "default/want");
  expect_reason(e, 0, reason_code::constraint, 1, "default/want", "gpus",
                "at most 2 share one value of matchAttribute gpu.example.com/numa, 3 needed");
}

TEST(Explain, CountersNameTheWholeDeviceHolder) {
  const std::string counters = R"(,"sharedCounters":[{"name":"gpu-0-set","counters":{"memory-slice-0":{"value":"1"},"memory-slice-1":{"value":"1"}}}])";
  auto draws = [](const std::string& slices) {
    return R"(,"consumesCounters":[{"counterSet":"gpu-0-set","counters":{)" + slices + "}}]";
  };
  const std::string devices =
      R"({"name":"gpu-0","attributes":{"type":{"string":"gpu"}})" +
      draws(R"("memory-slice-0":{"value":"1"},"memory-slice-1":{"value":"1"})") + "}," +
      R"({"name":"gpu-0-mig-0","attributes":{"type":{"string":"mig"}})" + draws(R"("memory-slice-0":{"value":"1"})") +
      "}," + R"({"name":"gpu-0-mig-1","attributes":{"type":{"string":"mig"}})" +
      draws(R"("memory-slice-1":{"value":"1"})") + "}";
  const std::string mig = R"({"deviceClassName":"gpu","selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].type == 'mig'"}}]})";
  scenario_text whole;
  whole.node("n1").slice("n1", "", counters, 2).slice("n1", devices, "", 2).holder("full", {"n1/gpu-0"}).claim("want", mig);
  expect_reason(explanation_of(run(whole), "default/want"), 0, reason_code::counters, 1, "default/want", "gpus",
                "0 of 2 free devices have counters left, 1 needed (gpu-0 held whole by default/full)");
  scenario_text parts;
  parts.node("n1").slice("n1", "", counters, 2).slice("n1", devices, "", 2).holder("slices", {"n1/gpu-0-mig-0", "n1/gpu-0-mig-1"});
  parts.claim("want", R"({"deviceClassName":"gpu","selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].type == 'gpu'"}}]})");
  expect_reason(explanation_of(run(parts), "default/want"), 0, reason_code::counters, 1, "default/want", "gpus",
                "memory slices of gpu-0 used by default/slices");
}

TEST(Explain, FunnelsFollowTheLedgerAndMeetErrorsAgain) {
  // One builder explains twice: what it keeps of the first call (selector verdicts, the counters allocated devices
  // use) must follow an allocation made in between, and a selector error is met on every call.
  const std::string counters =
      R"(,"sharedCounters":[{"name":"gpu-0-set","counters":{"memory-slice-0":{"value":"1"}}}])";
  const std::string devices =
      R"({"name":"gpu-0","attributes":{"type":{"string":"gpu"}},"consumesCounters":[{"counterSet":"gpu-0-set",)"
      R"("counters":{"memory-slice-0":{"value":"1"}}}]},{"name":"gpu-0-mig-0","attributes":{"type":{"string":"mig"}},)"
      R"("consumesCounters":[{"counterSet":"gpu-0-set","counters":{"memory-slice-0":{"value":"1"}}}]},{"name":"odd"})";
  scenario_text t;
  t.node("n1").slice("n1", "", counters, 2).slice("n1", devices, "", 2);
  t.claim(
      "want",
      R"({"deviceClassName":"gpu","selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].type == 'gpu'"}}]})");
  auto doc = json::load(t.json());
  ASSERT_TRUE(doc) << doc.error().to_string();
  const model::scenario& s = doc->scenario();
  const cel::selector_engine engine;
  alloc::ledger state;
  const model::device_class* classes[] = {&s.classes[0].object};
  std::vector<const model::resource_slice*> slices;
  for (const auto& sl : s.slices) slices.push_back(&sl.object);
  const model::resource_claim* claims[] = {&s.claims[0].object};
  sched::funnel_builder<cel::selector_engine> funnels(alloc::features::all(), state, classes, slices, engine);
  auto fits = [](const model::node&, std::span<const model::resource_claim* const>) { return true; };
  auto first = sched::diagnose_node(funnels, s.nodes[0].object, claims, fits, false);
  EXPECT_EQ(first.verdict, reason_code::fits) << first.message;
  EXPECT_EQ(first.claims.at(0).requests.at(0).at(0).selector_errors, 1u);  // "odd" has no type
  model::allocation_result slice_taken;
  slice_taken.results.push_back({});
  slice_taken.results[0].request = "r";
  slice_taken.results[0].driver = "gpu.example.com";
  slice_taken.results[0].pool = "n1";
  slice_taken.results[0].device = "gpu-0-mig-0";
  state.add(slice_taken, "default/slices");
  auto never = [](const model::node&, std::span<const model::resource_claim* const>) { return false; };
  auto second = sched::diagnose_node(funnels, s.nodes[0].object, claims, never, false);
  EXPECT_EQ(second.verdict, reason_code::counters) << second.message;
  EXPECT_NE(second.message.find("used by default/slices"), std::string::npos) << second.message;
  EXPECT_EQ(second.claims.at(0).requests.at(0).at(0).selector_errors, 1u);
}

TEST(Explain, CapacityLeftVersusAsked) {
  scenario_text t;
  t.node("n1").slice("n1", R"({"name":"nic-0","allowMultipleAllocations":true,"capacity":{"bandwidth":{"value":"10Gi"}}})");
  t.holder("streamer", {"n1/nic-0"}, R"(,"shareID":"00000000-0000-4000-8000-000000000001","consumedCapacity":{"bandwidth":"8Gi"})");
  t.claim("want", R"({"deviceClassName":"gpu","capacity":{"requests":{"bandwidth":"4Gi"}}})");
  expect_reason(explanation_of(run(t), "default/want"), 0, reason_code::capacity, 1, "default/want", "gpus",
                "nic-0: bandwidth 2Gi left, 4Gi asked, shared by default/streamer");
}

// A shared device with an allocation already drew its counters: another share takes none (found by fuzz_alloc, where
// the funnel packed such a device into counters that its first allocation had used up, and blamed a claim that fits).
TEST(Explain, SharedDeviceWithAllocationsDrawsNoCountersAgain) {
  scenario_text t;
  const std::string counters = R"(,"sharedCounters":[{"name":"nic-set","counters":{"ports":{"value":"1"}}}])";
  t.node("n1").slice("n1", "", counters, 2);
  t.slice("n1", R"({"name":"nic-0","allowMultipleAllocations":true,)"
                R"("consumesCounters":[{"counterSet":"nic-set","counters":{"ports":{"value":"1"}}}]})",
          "", 2);
  t.holder("streamer", {"n1/nic-0"}, R"(,"shareID":"00000000-0000-4000-8000-000000000001")");
  t.claim("share", R"({"deviceClassName":"gpu"})").claim("too-many", R"({"deviceClassName":"gpu","count":2})");
  t.pod("p", {"share", "too-many"});
  auto e = explanation_of(run(t), "default/share");
  ASSERT_EQ(e.reasons.size(), 1u);
  expect_reason(e, 0, reason_code::count, 1, "default/too-many", "gpus", "2 devices asked, 1 exist");
}

// Two devices fit in the counters left when the first in order (which takes more) is skipped: the funnel must not
// stop at what taking devices in order packs (found by fuzz_alloc).
TEST(Explain, CountersFitWhenADeviceEarlierInOrderIsSkipped) {
  scenario_text t;
  const std::string counters = R"(,"sharedCounters":[{"name":"set","counters":{"units":{"value":"4"}}}])";
  auto drawing = [](const std::string& name, int units) {
    return R"({"name":")" + name + R"(","consumesCounters":[{"counterSet":"set","counters":{"units":{"value":")" +
           std::to_string(units) + R"("}}}]})";
  };
  t.node("n1").slice("n1", "", counters, 2).slice("n1", drawing("big", 3) + "," + drawing("small-0", 2) + "," +
                                                              drawing("small-1", 2), "", 2);
  t.claim("pair", R"({"deviceClassName":"gpu","count":2})").claim("too-many", R"({"deviceClassName":"gpu","count":4})");
  t.pod("p", {"pair", "too-many"});
  auto e = explanation_of(run(t), "default/pair");
  ASSERT_EQ(e.reasons.size(), 1u);
  expect_reason(e, 0, reason_code::count, 1, "default/too-many", "gpus", "4 devices asked, 3 exist");
}

// All takes only the shared devices with room for its capacity ask (as the allocator does): one without room is
// not a device the request lacks (found by fuzz_alloc).
TEST(Explain, AllNeedsOnlyTheSharedDevicesWithRoom) {
  scenario_text t;
  t.node("n1").slice("n1", R"({"name":"nic-0","allowMultipleAllocations":true,"capacity":{"bandwidth":{"value":"10Gi"}}},)"
                           R"({"name":"nic-1","allowMultipleAllocations":true,"capacity":{"bandwidth":{"value":"10Gi"}}})");
  t.holder("streamer", {"n1/nic-0"}, R"(,"shareID":"00000000-0000-4000-8000-000000000001","consumedCapacity":{"bandwidth":"8Gi"})");
  t.claim("every-nic", R"({"deviceClassName":"gpu","allocationMode":"All","capacity":{"requests":{"bandwidth":"4Gi"}}})");
  t.claim("too-many", R"({"deviceClassName":"gpu","count":3})");
  t.pod("p", {"every-nic", "too-many"});
  auto e = explanation_of(run(t), "default/every-nic");
  ASSERT_EQ(e.reasons.size(), 1u);
  expect_reason(e, 0, reason_code::count, 1, "default/too-many", "gpus", "3 devices asked, 2 exist");
}

TEST(Explain, IncompletePoolAndNodeSelection) {
  scenario_text t;
  t.node("n1").node("n2").slice("n1", gpus(2), "", 2).claim("want", R"({"deviceClassName":"gpu"})");
  auto e = explanation_of(run(t), "default/want");
  EXPECT_EQ(e.nodes, 2u);
  ASSERT_EQ(e.reasons.size(), 2u);
  expect_reason(e, 0, reason_code::pool, 1, "default/want", "gpus", "pool gpu.example.com/n1 is incomplete");
  expect_reason(e, 1, reason_code::node_selection, 1, "default/want", "gpus", "no pool offers devices to this node");
}

TEST(Explain, CausesSpreadOverNodesAreCountedPerNode) {
  scenario_text t;
  const std::string taint = R"(,"taints":[{"key":"bad","effect":"NoExecute"}])";
  for (int i = 0; i < 3; ++i) {  // held
    const std::string n = "held-" + std::to_string(i);
    t.node(n).slice(n, gpus(2)).holder("owner-" + std::to_string(i), {n + "/gpu-1"});
  }
  for (int i = 0; i < 2; ++i) {  // tainted
    const std::string n = "tainted-" + std::to_string(i);
    t.node(n).slice(n, gpus(2, taint));
  }
  t.node("empty");
  t.claim("want", R"({"deviceClassName":"gpu","count":2})");
  auto e = explanation_of(run(t), "default/want");
  EXPECT_EQ(e.nodes, 6u);
  ASSERT_EQ(e.reasons.size(), 3u);
  expect_reason(e, 0, reason_code::in_use, 3, "default/want", "gpus", "on held-0: 1 of 2 devices free, 2 needed (gpu-1 held by default/owner-0) (2 more nodes alike)");
  expect_reason(e, 1, reason_code::taint, 2, "default/want", "gpus", "taint bad:NoExecute");
  expect_reason(e, 2, reason_code::node_selection, 1, "default/want", "gpus", "no pool offers devices");
}

// The runner keeps each node's verdict for claims of one spec: a node where an allocation landed in between is
// explained afresh, the others are not, and each claim is named in its own explanation.
TEST(Explain, LikeClaimsInAQueueAreExplainedAfreshWhereAnAllocationLanded) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(3)).holder("train", {"n1/gpu-2"});
  t.node("n2").slice("n2", gpus(3)).holder("old", {"n2/gpu-0"});
  t.claim("want-1", three_gpus).claim("small", R"({"deviceClassName":"gpu"})");
  t.claim("want-2", three_gpus).claim("want-3", three_gpus);
  const auto r = run(t);
  auto first = explanation_of(r, "default/want-1");
  ASSERT_EQ(first.reasons.size(), 1u);
  expect_reason(first, 0, reason_code::in_use, 2, "default/want-1", "gpus",
                "on n1: 2 of 3 devices free, 3 needed (gpu-2 held by default/train) (1 more nodes alike)");
  ASSERT_NE(r.find("default/small"), nullptr);
  ASSERT_NE(r.find("default/small")->allocated(), nullptr);
  EXPECT_EQ(r.find("default/small")->allocated()->node, "n1");
  for (const char* later : {"default/want-2", "default/want-3"}) {
    auto e = explanation_of(r, later);
    ASSERT_EQ(e.reasons.size(), 1u) << later;
    expect_reason(e, 0, reason_code::in_use, 2, later, "gpus", "on n1: 1 of 3 devices free, 3 needed (");
    EXPECT_NE(e.reasons[0].message.find("held by default/small"), std::string::npos) << e.reasons[0].message;
    EXPECT_NE(e.reasons[0].message.find("(1 more nodes alike)"), std::string::npos) << e.reasons[0].message;
  }
}

TEST(Explain, ConflictBetweenClaimsOfOnePod) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(3));
  t.claim("first", R"({"deviceClassName":"gpu","count":2})").claim("second", R"({"deviceClassName":"gpu","count":2})");
  t.pod("p", {"first", "second"});
  auto r = run(t);
  for (auto name : {"default/first", "default/second"}) {
    auto e = explanation_of(r, name);
    expect_reason(e, 0, reason_code::conflict, 1, "default/second", "gpus", "fits alone, but not together with default/first");
  }
}

TEST(Explain, DefaultScenarioReadsAsAPersonWouldSay) {
  auto doc = json::load_file(dra_test::source_dir() + "/examples/scenarios/dgx-a100.json");
  ASSERT_TRUE(doc);
  const cel::selector_engine engine;
  run_result r{sim::run_scenario(doc->scenario(), engine)};
  auto inference = explanation_of(r, "default/inference");
  expect_reason(inference, 0, reason_code::counters, 1, "default/inference", "mig/large",
                "memory slices of gpu-0 used by default/mig-devices; gpu-1 held whole by default/full-gpu");
  auto three = explanation_of(r, "default/three-gpus");
  expect_reason(three, 0, reason_code::count, 1, "default/three-gpus", "gpus", "3 devices asked, 2 exist (gpu-0 and gpu-1)");
  // Allocated claims: explained against what was allocated before them, they fit, and their devices are usable.
  const std::vector<std::string> names{"default/mig-devices", "default/full-gpu"};
  auto explained = sim::explain_claims(doc->scenario(), r.report, engine, alloc::features::all(), names);
  ASSERT_EQ(explained.size(), 2u);
  for (const auto& e : explained) {
    EXPECT_EQ(e.status, model::claim_status::allocated);
    ASSERT_EQ(e.diagnosis.nodes.size(), 1u);
    EXPECT_EQ(e.diagnosis.nodes[0].verdict, reason_code::fits) << e.claim << ": " << e.diagnosis.nodes[0].message;
  }
  const auto& first = explained[0].diagnosis.nodes[0].claims.at(0).requests.at(0).at(0);
  EXPECT_EQ(first.selector_match, 14u);
  EXPECT_EQ(first.counters_left, 14u);
  // full-gpu: gpu-0's counters are taken by mig-devices' partitions, so gpu-1 is the one left.
  const auto& gpu = explained[1].diagnosis.nodes[0].claims.at(0).requests.at(0).at(0);
  EXPECT_EQ(gpu.free, 2u);
  EXPECT_EQ(gpu.counters_left, 1u);
}

TEST(Explain, ClaimsMadeFromTemplatesAreExplainedWithTheirPod) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(3)).node("n2").slice("n2", gpus(1));
  t.holder("owner", {"n1/gpu-0"});
  t.claim_template("two", R"({"deviceClassName":"gpu","count":2})");
  t.templated_pod("a", {{"x", "two"}, {"y", "two"}});  // 4 GPUs together: 2 free on n1, 1 on n2
  t.templated_pod("b", {{"x", "two"}}, "n1");          // then fits on n1, the node it names
  t.templated_pod("c", {{"x", "missing"}});
  auto doc = json::load(t.json());
  ASSERT_TRUE(doc) << doc.error().to_string();
  const cel::selector_engine engine;
  const auto report = sim::run_scenario(doc->scenario(), engine);
  const model::scenario& s = doc->scenario();
  const std::vector<std::string> names{dra_test::made_claim(s, "a", "y"), dra_test::made_claim(s, "b", "x"),
                                       dra_test::made_claim(s, "c", "x"), "default/nobody"};
  auto explained = sim::explain_claims(doc->scenario(), report, engine, alloc::features::all(), names);
  ASSERT_EQ(explained.size(), 4u);

  const auto& a = explained[0];
  EXPECT_EQ(a.status, model::claim_status::unschedulable);
  ASSERT_EQ(a.diagnosis.nodes.size(), 2u);
  const auto& n1 = a.diagnosis.nodes[0];
  EXPECT_EQ(n1.node, "n1");
  EXPECT_EQ(n1.verdict, reason_code::conflict) << n1.message;
  ASSERT_EQ(n1.claims.size(), 2u);  // both claims of pod a, diagnosed together
  EXPECT_EQ(n1.claims[0].claim, dra_test::made_claim(s, "a", "x"));
  EXPECT_EQ(n1.claims[1].claim, names[0]);
  EXPECT_EQ(a.diagnosis.nodes[1].verdict, reason_code::count) << a.diagnosis.nodes[1].message;

  const auto& b = explained[1];
  EXPECT_EQ(b.status, model::claim_status::allocated);
  EXPECT_EQ(b.node, "n1");
  ASSERT_EQ(b.chosen.size(), 2u);
  EXPECT_EQ(b.chosen[0].second, "gpu.example.com/n1/gpu-1");
  ASSERT_EQ(b.diagnosis.nodes.size(), 1u);
  EXPECT_EQ(b.diagnosis.nodes[0].verdict, reason_code::fits) << b.diagnosis.nodes[0].message;

  EXPECT_EQ(explained[2].status, model::claim_status::error);
  EXPECT_NE(explained[2].error.find("ResourceClaimTemplate default/missing not found"), std::string::npos)
      << explained[2].error;
  EXPECT_EQ(explained[3].status, model::claim_status::not_found);
}

TEST(Explain, ExplainedClaimsMeetTheDeviceTaintRulesTheRunMet) {
  scenario_text t;
  t.node("n1").slice("n1", gpus(1));
  t.items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"drain"},)"
                    R"("spec":{"deviceSelector":{"driver":"gpu.example.com","pool":"n1"},)"
                    R"("taint":{"key":"example.com/drain","effect":"NoSchedule"}}})");
  t.claim("want", R"({"deviceClassName":"gpu"})");
  auto doc = json::load(t.json());
  ASSERT_TRUE(doc) << doc.error().to_string();
  const cel::selector_engine engine;
  const auto report = sim::run_scenario(doc->scenario(), engine);
  const std::vector<std::string> names{"default/want"};
  auto explained = sim::explain_claims(doc->scenario(), report, engine, alloc::features::all(), names);
  ASSERT_EQ(explained.size(), 1u);
  EXPECT_EQ(explained[0].status, model::claim_status::unschedulable);
  ASSERT_EQ(explained[0].diagnosis.nodes.size(), 1u);
  const auto& node = explained[0].diagnosis.nodes[0];
  EXPECT_EQ(node.verdict, reason_code::taint) << node.message;
  EXPECT_NE(node.message.find("example.com/drain"), std::string::npos) << node.message;
}

// Generated scenarios: a few nodes of a few GPUs, some held by other claims, some tainted, and one pending claim.
struct plan {
  struct gpu {
    int numa = 0;
    bool held = false;
    bool tainted = false;
  };
  std::vector<std::vector<gpu>> nodes;
  int count = 1;
  bool match_numa = false;
  bool tolerate = false;

  static plan generate(std::mt19937& rng) {
    plan p;
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    p.nodes.resize(static_cast<std::size_t>(pick(1, 3)));
    for (auto& n : p.nodes) {
      n.resize(static_cast<std::size_t>(pick(0, 4)));
      for (auto& g : n) g = {pick(0, 1), pick(0, 9) < 3, pick(0, 9) < 3};
    }
    p.count = pick(1, 4);
    p.match_numa = pick(0, 9) < 3;
    return p;
  }
  [[nodiscard]] scenario_text text(const std::string& only_node = "") const {
    scenario_text t;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string name = "node-" + std::to_string(i);
      t.node(name);
      if (nodes[i].empty()) continue;
      std::string devices;
      for (std::size_t d = 0; d < nodes[i].size(); ++d) {
        const gpu& g = nodes[i][d];
        devices += (devices.empty() ? "" : ",") + (R"({"name":"gpu-)" + std::to_string(d) +
                                                   R"(","attributes":{"numa":{"int":)" + std::to_string(g.numa) + "}}" +
                                                   (g.tainted ? R"(,"taints":[{"key":"t","effect":"NoSchedule"}])" : "") + "}");
        if (g.held) t.holder("holder-" + std::to_string(i) + "-" + std::to_string(d), {name + "/gpu-" + std::to_string(d)});
      }
      t.slice(name, devices);
    }
    t.claim("want",
            R"({"deviceClassName":"gpu","count":)" + std::to_string(count) +
                (tolerate ? R"(,"tolerations":[{"operator":"Exists"}])" : "") + "}",
            match_numa ? R"([{"matchAttribute":"gpu.example.com/numa"}])" : "");
    t.pod("p", {"want"}, only_node);
    return t;
  }
};

// The pending claim's outcome: the code of its only reason on `node` ("" when it was allocated).
std::string code_on(const plan& p, std::size_t node, std::string* message = nullptr) {
  auto r = run(p.text("node-" + std::to_string(node)));
  const auto* o = r.find("default/want");
  if (o == nullptr || o->allocated()) return "";
  const model::claim_unschedulable* unschedulable = o->unschedulable();
  EXPECT_TRUE(unschedulable && unschedulable->why);
  if (!unschedulable || !unschedulable->why || unschedulable->why->reasons.size() != 1) return "?";
  const model::explanation_reason& reason = unschedulable->why->reasons[0];
  if (message != nullptr) *message = reason.message;
  return std::string(model::name_of(reason.code));
}

TEST(ExplainProperty, RemovingTheNamedCauseLetsTheClaimFit) {
  int fixed = 0, checked = 0;
  for (unsigned seed = 1; seed <= 150; ++seed) {
    std::mt19937 rng(seed);
    const plan p = plan::generate(rng);
    auto whole = run(p.text());
    const auto* o = whole.find("default/want");
    ASSERT_NE(o, nullptr);
    std::map<std::string, std::size_t> per_code;
    for (std::size_t n = 0; n < p.nodes.size(); ++n) {
      std::string message;
      const std::string code = code_on(p, n, &message);
      if (code.empty()) continue;
      ++per_code[code];
      plan fixed_plan = p;
      auto& gpus_here = fixed_plan.nodes[n];
      bool single_kind = true;  // only the named kind of blocker is planted on the node
      if (code == "in-use") {
        for (std::size_t d = 0; d < gpus_here.size(); ++d)
          if (gpus_here[d].held) {
            EXPECT_NE(message.find("default/holder-" + std::to_string(n) + "-" + std::to_string(d)), std::string::npos)
                << "seed " << seed << ": " << message;
            gpus_here[d].held = false;
          }
        single_kind = !fixed_plan.match_numa && std::none_of(gpus_here.begin(), gpus_here.end(), [](auto& g) { return g.tainted; });
      } else if (code == "taint") {
        EXPECT_NE(message.find("taint t:NoSchedule"), std::string::npos) << message;
        fixed_plan.tolerate = true;
        single_kind = !fixed_plan.match_numa;
      } else if (code == "constraint") {
        EXPECT_NE(message.find("gpu.example.com/numa"), std::string::npos) << message;
        fixed_plan.match_numa = false;
        single_kind = std::none_of(gpus_here.begin(), gpus_here.end(), [](auto& g) { return g.tainted || g.held; });
      } else if (code == "count" || code == "node-selection") {
        for (int i = 0; i < p.count; ++i) gpus_here.push_back({0, false, false});
        single_kind = !fixed_plan.match_numa;
      } else {
        ADD_FAILURE() << "seed " << seed << ": unexpected code " << code << ": " << message;
        continue;
      }
      const std::string after = code_on(fixed_plan, n);
      EXPECT_NE(after, code) << "seed " << seed << " node " << n << ": removing " << code << " changed nothing";
      if (single_kind) {
        EXPECT_EQ(after, "") << "seed " << seed << " node " << n << " was " << code;
      }
      ++checked;
      if (after.empty()) ++fixed;
    }
    if (o->allocated()) continue;
    // The whole run's explanation counts each node once, under its own code.
    ASSERT_TRUE(o->unschedulable() && o->unschedulable()->why) << "seed " << seed;
    const model::explanation& why = *o->unschedulable()->why;
    EXPECT_EQ(why.nodes, p.nodes.size());
    std::map<std::string, std::size_t> grouped;
    for (const auto& r : why.reasons) grouped[std::string(model::name_of(r.code))] += r.nodes;
    EXPECT_EQ(grouped, per_code) << "seed " << seed;
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(fixed, checked / 2);
}

TEST(ExplainProperty, AllocatedClaimsUseADeviceTheFunnelCallsUsable) {
  for (unsigned seed = 1; seed <= 100; ++seed) {
    std::mt19937 rng(seed);
    const plan p = plan::generate(rng);
    auto doc = json::load(p.text().json());
    ASSERT_TRUE(doc);
    const model::scenario& s = doc->scenario();
    static const cel::selector_engine engine;
    auto report = sim::run_scenario(s, engine);
    const model::claim_outcome* want = nullptr;
    for (const auto& o : report.outcomes)
      if (o.claim == "default/want") want = &o;
    ASSERT_NE(want, nullptr);
    if (!want->allocated()) continue;
    alloc::ledger state;
    std::vector<const model::device_class*> classes;
    std::vector<const model::resource_slice*> slices;
    std::vector<const model::resource_claim*> claims;
    for (const auto& c : s.claims) {
      if (c.object.allocation) state.add(*c.object.allocation, alloc::object_name(c.object.meta));
      if (c.object.meta.name == "want") claims.push_back(&c.object);
    }
    for (const auto& c : s.classes) classes.push_back(&c.object);
    for (const auto& sl : s.slices) slices.push_back(&sl.object);
    sched::funnel_builder<cel::selector_engine> funnels(alloc::features::all(), state, classes, slices, engine);
    const model::node* node = nullptr;
    for (const auto& n : s.nodes)
      if (n.object.meta.name == want->allocated()->node) node = &n.object;
    ASSERT_NE(node, nullptr);
    auto never = [](const model::node&, std::span<const model::resource_claim* const>) { return true; };
    auto d = sched::diagnose_node(funnels, *node, claims, never, true);
    EXPECT_EQ(d.verdict, reason_code::fits) << "seed " << seed << ": " << d.message;
    for (const auto& result : want->allocated()->allocation.results) {
      const std::string name = dra::concat(result.driver, "/", result.pool, "/", result.device);
      bool usable = false;
      for (const auto& dv : d.claims.at(0).requests.at(0).at(0).devices)
        if (dv.device == name) usable = dv.dropped == model::funnel_stage::usable;
      EXPECT_TRUE(usable) << "seed " << seed << ": " << name;
    }
  }
}

}  // namespace
