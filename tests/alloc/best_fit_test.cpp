// Best fit (`sorted`) and shared_capacity against first fit: exact placements on small nodes, and the gain on
// generated churned MIG clusters (bench/churned_mig.hpp).
#include "../../bench/churned_mig.hpp"
#include "../../bench/mig_headroom.hpp"

#include <dra/cel/selector.hpp>

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/check.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

#include <deque>
#include <string>
#include <vector>

namespace {

using namespace dra;

// "node/device" of every device each outcome got, in order; "-" for a claim that got none.
std::vector<std::string> placements(const sim::run_report& report) {
  std::vector<std::string> out;
  for (const auto& o : report.outcomes) {
    if (!o.allocated()) {
      out.emplace_back("-");
      continue;
    }
    for (const auto& r : o.allocated()->allocation.results)
      out.push_back(o.allocated()->node + "/" + std::string(r.device));
  }
  return out;
}

// A claim of one request, gpu, for a MIG partition of `profile` or ("whole") a whole GPU; the cluster owns its texts.
model::resource_claim profile_claim(dra_bench::churned_mig_cluster& cluster, std::string name,
                                    const std::string& profile) {
  const model::text selector = cluster.str("device.attributes[\"gpu.example.com\"].profile == \"" + profile + "\"");
  return dra_test::built(
      model::claim_builder({}, cluster.str(std::move(name)))
          .request(model::request_builder("gpu", profile == "whole" ? "gpu" : "mig").selector(selector))
          .build());
}

// One node of two A100s (or `gpus`), no churn; `held` partitions of gpu-0 are allocated already, then one pod per
// profile asked.
struct small_mig_node {
  dra_bench::churned_mig_cluster cluster;
  small_mig_node(std::vector<std::string> held, std::vector<const char*> asked, int gpus = 2)
      : cluster{1, {}, 1, gpus, false} {
    cluster.s.claims.clear();
    cluster.s.pods.clear();
    for (const auto& device : held) {
      model::resource_claim c;
      c.meta.name = cluster.str("held-" + device);
      c.allocation = dra_test::one_device_allocation("mig", "gpu.example.com", "node-0", cluster.str(device));
      cluster.s.claims.push_back({c, {}});
    }
    for (std::size_t i = 0; i < asked.size(); ++i)
      cluster.s.claims.push_back({profile_claim(cluster, "claim-" + std::to_string(i), asked[i]), {}});
  }
  template <class Policy>
  std::vector<std::string> run() const {
    const cel::selector_engine engine;
    auto report = sim::run_scenario(cluster.s, engine, alloc::features::all(), Policy{});
    EXPECT_EQ(alloc::find_overcommit(cluster.s, report.outcomes), "");
    return placements(report);
  }
};

TEST(BestFit, KeepsTheFreeTwoSlicePlacementOfASplitGpu) {
  // gpu-0 holds 2g partitions on memory slices 0-1 and 4-5; slices 2, 3, 6 and 7 are free.
  small_mig_node node({"gpu-0-mig-2g.10gb-0", "gpu-0-mig-2g.10gb-4"}, {"1g.5gb", "2g.10gb", "whole"});
  // First fit puts the 1g on slice 2, which blocks the only free 2g placement of gpu-0: the 2g
  // then splits gpu-1 and the whole GPU finds no GPU left.
  EXPECT_EQ(node.run<alloc::first_fit>(),
            (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-2", "node-0/gpu-1-mig-2g.10gb-0", "-"}));
  // Best fit puts the 1g on slice 6 (it blocks nothing), the 2g on slices 2-3, and gpu-1 stays whole.
  EXPECT_EQ(node.run<alloc::sorted>(),
            (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-6", "node-0/gpu-0-mig-2g.10gb-2", "node-0/gpu-1"}));
}

TEST(BestFit, TakesTheSlotThatCostsNoOtherPlacement) {
  // gpu-0 holds a 1g on slice 0. A 1g and then a 3g: first fit takes slice 1 (fine) and the 3g on gpu-0's
  // slices 4-7; best fit takes slice 1 too (it costs no other placement), not slice 6 (it would block the 3g).
  small_mig_node node({"gpu-0-mig-1g.5gb-0"}, {"1g.5gb", "1g.5gb", "3g.20gb", "whole"});
  EXPECT_EQ(node.run<alloc::first_fit>(), (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-1",
                                                                    "node-0/gpu-0-mig-1g.5gb-2",
                                                                    "node-0/gpu-0-mig-3g.20gb-4", "node-0/gpu-1"}));
  EXPECT_EQ(node.run<alloc::sorted>(), (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-1",
                                                                 "node-0/gpu-0-mig-1g.5gb-2",
                                                                 "node-0/gpu-0-mig-3g.20gb-4", "node-0/gpu-1"}));
}

TEST(BestFit, PacksTheMostUsedNodeAndKeepsIdleNodesWhole) {
  // Two nodes of one A100; node-1's GPU holds a 1g. A 1g pod: first fit splits node-0's idle GPU,
  // best fit goes to node-1, so that a later whole-GPU pod still finds node-0 whole.
  dra_bench::churned_mig_cluster cluster{1, {}, 2, 1, false};
  cluster.s.claims.clear();
  cluster.s.pods.clear();
  model::resource_claim held;
  held.meta.name = "held";
  held.allocation = dra_test::one_device_allocation("mig", "gpu.example.com", "node-1", "gpu-0-mig-1g.5gb-0");
  cluster.s.claims.push_back({held, {}});
  for (const char* profile : {"1g.5gb", "whole"})
    cluster.s.claims.push_back({profile_claim(cluster, std::string("claim-") + profile, profile), {}});
  const cel::selector_engine engine;
  EXPECT_EQ(placements(sim::run_scenario(cluster.s, engine)),
            (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-0", "-"}));
  EXPECT_EQ(placements(sim::run_scenario(cluster.s, engine, alloc::features::all(), alloc::sorted{})),
            (std::vector<std::string>{"node-1/gpu-0-mig-1g.5gb-1", "node-0/gpu-0"}));
}

// A policy that keeps upstream's order and records the facts it was given.
struct recording_policy {
  static std::vector<alloc::candidate_facts>& seen() {
    static std::vector<alloc::candidate_facts> facts;
    return facts;
  }
  void order_candidates(std::span<std::uint32_t>, std::span<const alloc::candidate_facts> facts) const {
    seen().assign(facts.begin(), facts.end());
  }
};

// A claim whose requests between them may pick every device of the cluster: a whole GPU and a MIG partition of any
// profile (on one A100 they cannot both fit; the facts are worked out before the search finds that).
const model::resource_claim& any_device_claim() {
  static const model::resource_claim claim = [] {
    model::resource_claim c;
    c.meta.name = "any-device";
    for (const char* klass : {"gpu", "mig"}) {
      model::device_request request;
      request.name = klass;
      model::exact_device_request exact;
      exact.device_class_name = klass;
      request.exactly = exact;
      c.spec.requests.push_back(request);
    }
    return c;
  }();
  return claim;
}

// The facts of one allocate() call for a claim that may pick every device (the search weighs only the candidates
// its claims may pick) on a cluster of one idle A100, called as a library user calls the allocator (no runner),
// with `demand` if given. They view the cluster's devices.
const std::vector<alloc::candidate_facts>& facts_on_one_gpu(const dra_bench::churned_mig_cluster& cluster,
                                                            const alloc::pending_demand* demand) {
  std::vector<const model::device_class*> classes;
  for (const auto& c : cluster.s.classes) classes.push_back(&c.object);
  std::vector<const model::resource_slice*> slices;
  for (const auto& sl : cluster.s.slices) slices.push_back(&sl.object);
  const cel::selector_engine engine;
  const alloc::ledger state;
  alloc::basic_allocator<recording_policy, cel::selector_engine> allocator(alloc::features::all(), state, classes,
                                                                           slices, engine);
  allocator.set_demand(demand);
  const model::resource_claim* claims[] = {&any_device_claim()};
  recording_policy::seen().clear();
  EXPECT_TRUE(allocator.allocate(cluster.s.nodes[0].object, claims).has_value());
  return recording_policy::seen();
}

TEST(BestFit, FactsNameSliceAndDevicePositions) {
  // Without a pending demand (a library user's default), every placement counts.
  const dra_bench::churned_mig_cluster cluster{1, {}, 1, 1, false};
  const auto& seen = facts_on_one_gpu(cluster, nullptr);
  ASSERT_EQ(seen.size(), 15u);  // the whole GPU and 14 MIG placements, in one slice
  EXPECT_EQ(seen[0].device.name(), "gpu-0");
  EXPECT_EQ(seen[14].slice_index, 0u);
  EXPECT_EQ(seen[14].device_index, 14u);
  EXPECT_DOUBLE_EQ(seen[0].counter_share, 9.0);  // compute 7/7 and eight memory slices of 1
  EXPECT_DOUBLE_EQ(seen[1].placements_lost, 1 + 1.0 / 7 + 2 + 2.0 / 7 + 4 + 3.0 / 7 + 4 + 4.0 / 7 + 9 + 9);
  // A 1g at slice 0 leaves memory slice 7 to the 3g at 4; a 1g at slice 6 rules that out too, and slice 7 is stranded.
  EXPECT_EQ(seen[7].device.name(), "gpu-0-mig-1g.5gb-6");
  EXPECT_DOUBLE_EQ(seen[1].counters_stranded, 0);
  EXPECT_DOUBLE_EQ(seen[7].counters_stranded, 1);
}

// A claim's spec with one request for a MIG partition of `profile`.
model::device_claim mig_claim(const char* profile) {
  static std::deque<std::string> expressions;  // the selectors view them
  model::device_claim claim;
  model::device_request request;
  request.name = "mig";
  model::exact_device_request exact;
  exact.device_class_name = "mig";
  exact.selectors.push_back(
      {expressions.emplace_back(std::string("device.attributes[\"gpu.example.com\"].profile == \"") + profile + "\"")});
  request.exactly = exact;
  claim.requests.push_back(request);
  return claim;
}

TEST(BestFit, CountsOnlyPlacementsAPendingRequestCouldTake) {
  // Only a 1g partition is pending: a 1g at slice 0 loses no other placement anybody wants, and a 1g at slice 6
  // strands nothing (only the 3g at 4 and the whole GPU draw on memory slice 7, and nobody asks for them).
  const model::device_claim one_g = mig_claim("1g.5gb"), two_g = mig_claim("2g.10gb");
  alloc::pending_demand demand;
  demand.add(one_g);
  const dra_bench::churned_mig_cluster cluster{1, {}, 1, 1, false};
  const auto& seen = facts_on_one_gpu(cluster, &demand);
  ASSERT_EQ(seen.size(), 15u);
  EXPECT_DOUBLE_EQ(seen[0].demand, 0);  // the whole GPU
  EXPECT_DOUBLE_EQ(seen[1].demand, 1);
  EXPECT_DOUBLE_EQ(seen[1].placements_lost, 1 + 1.0 / 7);  // its own size only
  EXPECT_EQ(seen[7].device.name(), "gpu-0-mig-1g.5gb-6");
  EXPECT_DOUBLE_EQ(seen[7].counters_stranded, 0);
  // Two 1g requests and a 2g: the 1g at 0 loses the 2g at 0, which one pending request could take.
  demand.add(one_g);
  demand.add(two_g);
  const auto& weighed = facts_on_one_gpu(cluster, &demand);
  EXPECT_DOUBLE_EQ(weighed[1].demand, 2);
  EXPECT_EQ(weighed[8].device.name(), "gpu-0-mig-2g.10gb-0");
  EXPECT_DOUBLE_EQ(weighed[8].demand, 1);
  EXPECT_DOUBLE_EQ(weighed[1].placements_lost, 1 + 1.0 / 7 + 2 + 2.0 / 7);
  // Once they leave, nothing is pending: no placement is wanted, and each costs only its own size.
  for (const auto* claim : {&one_g, &one_g, &two_g}) demand.remove(*claim);
  EXPECT_TRUE(demand.empty());
  const auto& none = facts_on_one_gpu(cluster, &demand);
  EXPECT_DOUBLE_EQ(none[1].demand, 0);
  EXPECT_DOUBLE_EQ(none[1].placements_lost, 1 + 1.0 / 7);
}

TEST(BestFit, KeepsThePlacementAPendingClaimAsksFor) {
  // One idle A100; a 1g, then a 4g. Counting every placement, a 1g in the upper half strands memory slice 7 (only
  // the 3g at 4 and the whole GPU use it), so best fit would put the 1g on slice 0 and the 4g would not fit, as with
  // first fit. Nobody asks for a 3g or a whole GPU: the 1g goes to slice 4, the 4g to slices 0-3.
  small_mig_node node({}, {"1g.5gb", "4g.20gb"}, 1);
  EXPECT_EQ(node.run<alloc::first_fit>(), (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-0", "-"}));
  EXPECT_EQ(node.run<alloc::sorted>(),
            (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-4", "node-0/gpu-0-mig-4g.20gb-0"}));
  // With a 3g pending behind them the 3g at 4 is wanted too, and a 1g in the upper half would strand memory slice 7:
  // the 1g goes back to slice 0, the 4g does not fit, the 3g does.
  small_mig_node wanting_3g({}, {"1g.5gb", "4g.20gb", "3g.20gb"}, 1);
  EXPECT_EQ(wanting_3g.run<alloc::sorted>(),
            (std::vector<std::string>{"node-0/gpu-0-mig-1g.5gb-0", "-", "node-0/gpu-0-mig-3g.20gb-4"}));
}

// Pools every node reaches, each one counter set of four counters drawn on by two 2-counter devices and four
// 1-counter ones (as scheduler_perf's partitionable scenario), and a shareable device of 80Gi of memory; two nodes, and
// the claims that take them: one or two 1-counter devices on one pool, a 2-counter device, 40Gi of the shared one.
std::string kept_ranking_scenario(int pools) {
  std::string out =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "dev"}, "spec": {}})"
      "\n";
  for (const char* node : {"node-a", "node-b"})
    out += R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + std::string(node) + "\"}}\n";
  for (int p = 0; p < pools; ++p) {
    const std::string pool = "pool-" + std::to_string(p);
    std::string devices;
    auto device = [&](const std::string& name, int size, const std::string& counters) {
      devices += (devices.empty() ? "" : ", ") + (R"({"name": ")" + name + R"(", "attributes": {"size": {"int": )") +
                 std::to_string(size) + R"(}, "pool": {"string": ")" + pool +
                 R"("}}, "consumesCounters": [{"counterSet": "set", "counters": {)" + counters + "}}]}";
    };
    device("big-0", 2, R"("c0": {"value": "1"}, "c1": {"value": "1"})");
    device("big-1", 2, R"("c2": {"value": "1"}, "c3": {"value": "1"})");
    for (int c = 0; c < 4; ++c)
      device("small-" + std::to_string(c), 1, R"("c)" + std::to_string(c) + R"(": {"value": "1"})");
    devices += R"(, {"name": "shared", "allowMultipleAllocations": true, "attributes": {"size": {"int": 0}, "pool": )"
               R"({"string": ")" + pool + R"("}}, "capacity": {"memory": {"value": "80Gi"}}})";
    const std::string slice = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" +
                              pool + R"(-%s"}, "spec": {"driver": "d.example.com", "allNodes": true, "pool": {"name": ")" +
                              pool + R"(", "resourceSliceCount": 2}, %s}})" + "\n";
    auto with = [&](std::string text, const std::string& name, const std::string& body) {
      text.replace(text.find("%s"), 2, name);
      text.replace(text.find("%s"), 2, body);
      return text;
    };
    out += with(slice, "counters",
                R"("sharedCounters": [{"name": "set", "counters": {"c0": {"value": "1"}, "c1": {"value": "1"}, )"
                R"("c2": {"value": "1"}, "c3": {"value": "1"}}}])");
    out += with(slice, "devices", R"("devices": [)" + devices + "]");
  }
  const char* claims[] = {
      R"("requests": [{"name": "r", "exactly": {"deviceClassName": "dev", "selectors": [{"cel": {"expression": "device.attributes['d.example.com'].size == 1"}}]}}])",
      R"("requests": [{"name": "r", "exactly": {"deviceClassName": "dev", "count": 2, "selectors": [{"cel": {"expression": "device.attributes['d.example.com'].size == 1"}}]}}], "constraints": [{"matchAttribute": "d.example.com/pool"}])",
      R"("requests": [{"name": "r", "exactly": {"deviceClassName": "dev", "selectors": [{"cel": {"expression": "device.attributes['d.example.com'].size == 2"}}]}}])",
      R"("requests": [{"name": "r", "exactly": {"deviceClassName": "dev", "selectors": [{"cel": {"expression": "device.attributes['d.example.com'].size == 0"}}], "capacity": {"requests": {"memory": "40Gi"}}}}])",
  };
  for (int i = 0; i < 4 * pools; ++i)
    out += R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "claim-)" +
           std::to_string(i) + R"(", "namespace": "ns"}, "spec": {"devices": {)" + claims[(i * 7 / 3) % 4] + "}}}\n";
  return out;
}

// A node's facts, as a policy sees them, compared field by field (the device by name).
std::vector<std::string> facts_text(std::span<const alloc::candidate_facts> facts) {
  std::vector<std::string> out;
  for (const auto& f : facts)
    out.push_back(std::string(f.device.name()) + " " + std::to_string(f.pool_index) + "/" +
                  std::to_string(f.slice_index) + "/" + std::to_string(f.device_index) + " shared " +
                  std::to_string(f.shared) + std::to_string(f.has_allocations) + " available " +
                  std::to_string(f.available) + " in use " + std::to_string(f.counters_in_use) + " share " +
                  std::to_string(f.counter_share) + " free " + std::to_string(f.counter_sets_free) + " lost " +
                  std::to_string(f.placements_lost) + " stranded " + std::to_string(f.counters_stranded) +
                  " demand " + std::to_string(f.demand));
  return out;
}

// The devices an allocate() call gave each claim, or why it gave none.
std::string outcome_text(const result<alloc::allocation_outcome>& outcome) {
  if (!outcome) return "error: " + outcome.error().message;
  const auto* fit = outcome->fit();
  if (fit == nullptr) return "none";
  std::string out;
  for (const auto& claim : fit->results)
    for (const auto& r : claim.results) out += std::string(r.pool) + "/" + std::string(r.device) + " ";
  return out;
}

TEST(BestFit, KeptRankingIsTheOneWorkedOutAfresh) {
  // An allocator keeps each node's facts and ranking between calls and works out again only the pools the ledger
  // changed since (and everything when the pending demand's weights change); a new allocator per call works out
  // everything. Claim after claim, committed on either node, both must see the same facts and place alike.
  auto doc = json::load(kept_ranking_scenario(12));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const model::scenario& s = doc->scenario();
  std::vector<const model::device_class*> classes{&s.classes[0].object};
  std::vector<const model::resource_slice*> slices;
  for (const auto& sl : s.slices) slices.push_back(&sl.object);
  const cel::selector_engine engine;
  alloc::ledger state;
  alloc::pending_demand demand;
  for (const auto& c : s.claims) demand.add(c.object.spec);
  const auto features = alloc::features::all();
  alloc::basic_allocator<alloc::best_fit, cel::selector_engine> kept(features, state, classes, slices, engine);
  alloc::basic_allocator<recording_policy, cel::selector_engine> kept_facts(features, state, classes, slices, engine);
  kept.set_demand(&demand);
  kept_facts.set_demand(&demand);
  std::size_t committed = 0;
  for (std::size_t i = 0; i < s.claims.size(); ++i) {
    const model::resource_claim* claims[] = {&s.claims[i].object};
    alloc::basic_allocator<alloc::best_fit, cel::selector_engine> fresh(features, state, classes, slices, engine);
    alloc::basic_allocator<recording_policy, cel::selector_engine> fresh_facts(features, state, classes, slices,
                                                                               engine);
    fresh.set_demand(&demand);
    fresh_facts.set_demand(&demand);
    std::optional<model::allocation_result> taken;
    for (std::size_t n = 0; n < s.nodes.size(); ++n) {
      const model::node& node = s.nodes[(i + n) % s.nodes.size()].object;
      SCOPED_TRACE("claim " + std::to_string(i) + " on " + std::string(node.meta.name));
      (void)kept_facts.allocate(node, claims);
      const auto kept_seen = facts_text(recording_policy::seen());
      (void)fresh_facts.allocate(node, claims);
      ASSERT_EQ(kept_seen, facts_text(recording_policy::seen()));
      auto placed = kept.allocate(node, claims);
      ASSERT_EQ(outcome_text(placed), outcome_text(fresh.allocate(node, claims)));
      if (!taken && placed && placed->fit() != nullptr) taken = placed->fit()->results[0];
    }
    if (taken) state.add(*taken, std::string(s.claims[i].object.meta.name)), ++committed;
    demand.remove(s.claims[i].object.spec);
  }
  // Most claims fit until the pools fill up: the kept rankings were brought up to date many times.
  EXPECT_GT(committed, 20u);
  EXPECT_LT(committed, s.claims.size());
}

TEST(BestFit, NeverPlacesLessThanFirstFitOnChurnedMigClusters) {
  // Eight of the clusters bench/README.md measures (all 20 and both mixes in Release: bench_placement), with
  // the exact optimum (bench/mig_headroom.hpp) that no policy can beat. Best fit's own placements reach the optimum
  // before the first rejection on seeds 1, 2, 3, 5, 6, 7 and 8 too (196, 124, 158, 165, 186 on 2, 3, 5, 7, 8), but on
  // those five and on seed 4 they place fewer claims in all than first fit's (which fill the fragments they leave
  // with later, smaller pods), so first fit's are reported there (alloc::guarded_by_first_fit).
  const cel::selector_engine engine;
  const std::vector<int> first_expected = {188, 178, 109, 163, 144, 196, 152, 168};
  const std::vector<int> best_expected = {197, 178, 109, 163, 144, 198, 152, 168};
  const std::vector<int> optimum_expected = {197, 196, 124, 185, 158, 198, 165, 186};
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    const dra_bench::churned_mig_cluster cluster(seed);
    const auto first = dra_bench::score<alloc::first_fit>(cluster, engine);
    const auto best = dra_bench::score<alloc::sorted>(cluster, engine);
    for (const auto* s : {&first, &best}) {
      EXPECT_EQ(s->overcommit, "") << "seed " << seed;
      EXPECT_EQ(s->error, "") << "seed " << seed;
    }
    const auto headroom = dra_bench::headroom(cluster);
    EXPECT_EQ(first.slices_before_first_rejection, first_expected[seed - 1]) << "seed " << seed;
    EXPECT_EQ(best.slices_before_first_rejection, best_expected[seed - 1]) << "seed " << seed;
    EXPECT_EQ(headroom.optimum, optimum_expected[seed - 1]) << "seed " << seed;
    EXPECT_GE(best.slices_before_first_rejection, first.slices_before_first_rejection) << "seed " << seed;
    EXPECT_LE(best.slices_before_first_rejection, headroom.optimum) << "seed " << seed;
  }
}

TEST(SharedCapacity, PackedSharedDevicesLeaveRoomForALargeClaim) {
  // Two shared NICs of 10G; nic-1 already gives 2G to an earlier claim. A 2G claim, then a 10G one.
  dra_bench::churned_mig_cluster names{1, {}, 0, 0, false};
  model::scenario& s = names.s;
  s.claims.clear();
  s.pods.clear();
  model::device_class nic;
  nic.meta.name = "nic";
  s.classes = {{nic, {}}};
  model::node node;
  node.meta.name = "node-0";
  s.nodes = {{node, {}}};
  model::resource_slice slice;
  slice.meta.name = "nics";
  slice.driver = "nic.example.com";
  slice.pool = {"node-0", 1, 1};
  slice.node_name = model::text("node-0");
  for (const char* name : {"nic-0", "nic-1"}) {
    model::device d;
    d.name = name;
    d.allow_multiple_allocations = true;
    d.capacity.push_back({"bandwidth", {*quantity::parse("10G"), std::nullopt}});
    slice.devices.push_back(d);
  }
  s.slices = {{slice, {}}};
  auto claim = [&](const char* name, const char* bandwidth) {
    model::resource_claim c;
    c.meta.name = name;
    model::device_request request;
    request.name = "nic";
    model::exact_device_request exact;
    exact.device_class_name = "nic";
    exact.capacity = model::capacity_requirements{{{"bandwidth", *quantity::parse(bandwidth)}}};
    request.exactly = exact;
    c.spec.requests.push_back(request);
    return c;
  };
  model::resource_claim earlier = claim("earlier", "2G");
  model::allocation_result a;
  model::device_request_allocation_result r;
  r.request = "nic";
  r.driver = "nic.example.com";
  r.pool = "node-0";
  r.device = "nic-1";
  r.share_id = "11111111-1111-4111-8111-111111111111";
  r.consumed_capacity = {{"bandwidth", *quantity::parse("2G")}};
  a.results.push_back(r);
  earlier.allocation = a;
  s.claims = {{earlier, {}}, {claim("small", "2G"), {}}, {claim("large", "10G"), {}}};
  const cel::selector_engine engine;
  auto first = sim::run_scenario(s, engine);
  auto packed = sim::run_scenario(s, engine, alloc::features::all(), alloc::shared_capacity{});
  auto best = sim::run_scenario(s, engine, alloc::features::all(), alloc::sorted{});
  EXPECT_EQ(placements(first), (std::vector<std::string>{"node-0/nic-0", "-"}));  // both NICs have 8G left
  EXPECT_EQ(placements(packed), (std::vector<std::string>{"node-0/nic-1", "node-0/nic-0"}));
  EXPECT_EQ(placements(best), (std::vector<std::string>{"node-0/nic-1", "node-0/nic-0"}));
  for (const auto* report : {&first, &packed, &best}) EXPECT_EQ(alloc::find_overcommit(s, report->outcomes), "");
}

}  // namespace
