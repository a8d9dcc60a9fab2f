// The runner's memo of nodes where a unit's shape did not fit: shapes by spec, stamps made stale by allocations in
// the pools a node reaches, and the runner skipping remembered nodes without changing any result.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/unfit_memo.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

#include <string>
#include <vector>

namespace {

using namespace dra;

// Pools of driver-a with one device each, and claims of one request, gpu, for devices of class gpu.
struct cluster : dra_test::test_scenario {
  using test_scenario::test_scenario;
  // A slice of `pool` with one device; `node` empty: available on all nodes.
  void slice(const std::string& pool, std::string node, std::string device) {
    const bool everywhere = node.empty();
    auto& sl = test_scenario::slice(pool + "-" + device, "driver-a", pool, std::move(node));
    if (everywhere) sl.all_nodes = true;
    test_scenario::device(sl, std::move(device));
  }
  static model::resource_claim claim(std::int64_t count, model::text selector = {}) {
    model::request_builder request("gpu", "gpu");
    request.count(count);
    if (!selector.empty()) request.selector(selector);
    return dra_test::built(model::claim_builder({}, {}).request(std::move(request)).build());
  }
  static model::allocation_result in_pool(model::text pool, model::text device) {
    return dra_test::one_device_allocation("gpu", "driver-a", pool, device);
  }
};

TEST(UnfitMemo, UnitsWithEqualSpecsShareAShape) {
  cluster c;
  c.node("node-a");
  sched::unfit_memo memo(c.s, c.node_list());
  auto one = cluster::claim(1), same = cluster::claim(1), two = cluster::claim(2);
  same.meta.name = "another-name";  // names do not matter, only specs
  const model::resource_claim* u1[] = {&one};
  const model::resource_claim* u2[] = {&same};
  const model::resource_claim* u3[] = {&two};
  const model::resource_claim* u4[] = {&one, &one};
  const std::size_t shape = memo.shape_of(u1);
  EXPECT_EQ(memo.shape_of(u2), shape);
  EXPECT_NE(memo.shape_of(u3), shape);
  EXPECT_NE(memo.shape_of(u4), shape);
  EXPECT_NE(memo.shape_of(u4), memo.shape_of(u3));
}

TEST(UnfitMemo, AnAllocationInAPoolOfTheNodeMakesItsAnswerStale) {
  cluster c;
  c.node("node-a");
  c.node("node-b");
  c.slice("local-a", "node-a", "dev-0");
  c.slice("local-b", "node-b", "dev-0");
  c.slice("everywhere", "", "dev-0");
  c.slice("split", "node-a", "dev-1");  // one pool published for two nodes: shared
  c.slice("split", "node-b", "dev-2");
  sched::unfit_memo memo(c.s, c.node_list());
  auto claim = cluster::claim(1);
  const model::resource_claim* unit[] = {&claim};
  const std::size_t shape = memo.shape_of(unit);
  EXPECT_FALSE(memo.known_unfit(shape, 0));
  memo.remember_unfit(shape, 0, false);
  memo.remember_unfit(shape, 1, true);
  EXPECT_EQ(memo.known_unfit(shape, 0), std::optional<bool>(false));
  EXPECT_EQ(memo.known_unfit(shape, 1), std::optional<bool>(true));  // it had invalid pools

  memo.committed(cluster::in_pool("local-b", "dev-0"));  // node-b's own pool: node-a's answer holds
  EXPECT_EQ(memo.known_unfit(shape, 0), std::optional<bool>(false));
  EXPECT_FALSE(memo.known_unfit(shape, 1));

  memo.committed(cluster::in_pool("local-a", "dev-0"));
  EXPECT_FALSE(memo.known_unfit(shape, 0));

  memo.remember_unfit(shape, 0, false);
  memo.remember_unfit(shape, 1, false);
  memo.committed(cluster::in_pool("everywhere", "dev-0"));  // reachable from every node
  EXPECT_FALSE(memo.known_unfit(shape, 0));
  EXPECT_FALSE(memo.known_unfit(shape, 1));

  memo.remember_unfit(shape, 0, false);
  memo.remember_unfit(shape, 1, false);
  memo.committed(cluster::in_pool("split", "dev-2"));
  EXPECT_FALSE(memo.known_unfit(shape, 0));
  EXPECT_FALSE(memo.known_unfit(shape, 1));
}

// Nodes node-0 to node-(n-1), each with a pool of its own (local-i), and a pool every node reaches (everywhere).
cluster& add_local_pools(cluster& c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    c.node("node-" + std::to_string(i));
    c.slice("local-" + std::to_string(i), "node-" + std::to_string(i), "dev-0");
  }
  c.slice("everywhere", "", "dev-0");
  return c;
}

// A memo over 130 such nodes (three words of bits), and the shape of a claim for one device.
struct local_pools_memo {
  static constexpr std::size_t nodes = 130;
  cluster c{nodes + 1};
  model::resource_claim claim = cluster::claim(1);
  const model::resource_claim* unit[1] = {&claim};
  sched::unfit_memo memo{add_local_pools(c, nodes).s, c.node_list()};
  std::size_t shape = memo.shape_of(unit);
};

// The bulk scan: 130 nodes (three words of bits) with a local pool each. next_open finds the first node not known
// unfit, across words; a change to a node's own pool opens that node again, a change to a shared pool every node; the
// nodes skipped for invalid pools are listed.
TEST(UnfitMemo, NextOpenSkipsKnownUnfitNodesAcrossWords) {
  local_pools_memo fixture;
  constexpr std::size_t nodes = local_pools_memo::nodes;
  sched::unfit_memo& memo = fixture.memo;
  const std::size_t shape = fixture.shape;
  EXPECT_EQ(memo.next_open(shape, 0), 0u);  // nothing remembered: every node is open
  EXPECT_EQ(memo.next_open(shape, 129), 129u);
  EXPECT_EQ(memo.next_open(shape, nodes), nodes);
  for (std::size_t i = 0; i < 128; ++i) memo.remember_unfit(shape, i, i == 70 || i == 3);
  EXPECT_EQ(memo.next_open(shape, 0), 128u);
  EXPECT_EQ(memo.next_open(shape, 129), 129u);
  std::vector<std::size_t> invalid;
  memo.for_each_invalid(shape, 0, 128, [&](std::size_t n) { invalid.push_back(n); });
  EXPECT_EQ(invalid, (std::vector<std::size_t>{3, 70}));
  invalid.clear();
  memo.for_each_invalid(shape, 4, 70, [&](std::size_t n) { invalid.push_back(n); });
  EXPECT_TRUE(invalid.empty());  // [4, 70) holds neither

  memo.committed(cluster::in_pool("local-65", "dev-0"));  // node-65's own pool: it is open again, no other
  EXPECT_EQ(memo.next_open(shape, 0), 65u);
  EXPECT_EQ(memo.next_open(shape, 66), 128u);
  memo.committed(cluster::in_pool("local-70", "dev-0"));
  invalid.clear();
  memo.for_each_invalid(shape, 0, 128, [&](std::size_t n) { invalid.push_back(n); });
  EXPECT_EQ(invalid, (std::vector<std::size_t>{3}));
  EXPECT_EQ(memo.next_open(shape, 66), 70u);

  memo.remember_unfit(shape, 129, false);
  memo.remember_unfit(shape, 128, false);
  memo.remember_unfit(shape, 65, false);
  memo.remember_unfit(shape, 70, false);
  EXPECT_EQ(memo.next_open(shape, 0), nodes);  // every node full
  memo.committed(cluster::in_pool("everywhere", "dev-0"));  // reachable from every node: all open again
  EXPECT_EQ(memo.next_open(shape, 0), 0u);
  EXPECT_EQ(memo.next_open(shape, 100), 100u);
  invalid.clear();
  memo.for_each_invalid(shape, 0, nodes, [&](std::size_t n) { invalid.push_back(n); });
  EXPECT_TRUE(invalid.empty());
}

// A copy of what is known unfit, for a scan in a ranking's order, says of every node what known_unfit says, across
// the same changes as the bulk scan: nothing remembered, nodes remembered in three words (two with invalid pools), a
// node's own pool changed, a shared pool changed.
TEST(UnfitMemo, AnUnfitCopySaysWhatKnownUnfitSaysOfEveryNode) {
  local_pools_memo fixture;
  constexpr std::size_t nodes = local_pools_memo::nodes;
  sched::unfit_memo& memo = fixture.memo;
  const std::size_t shape = fixture.shape;
  auto expect_alike = [&](const char* when) {
    const sched::unfit_memo::unfit_nodes copy = memo.unfit_now(shape);
    for (std::size_t i = 0; i < nodes; ++i) EXPECT_EQ(copy.of(i), memo.known_unfit(shape, i)) << when << ", node " << i;
  };
  expect_alike("nothing remembered");
  for (std::size_t i = 0; i < nodes; i += 3) memo.remember_unfit(shape, i, i == 66 || i == 129);
  expect_alike("remembered");
  EXPECT_EQ(memo.unfit_now(shape).of(129), std::optional<bool>(true));
  EXPECT_EQ(memo.unfit_now(shape).of(3), std::optional<bool>(false));
  EXPECT_FALSE(memo.unfit_now(shape).of(4));
  const sched::unfit_memo::unfit_nodes before = memo.unfit_now(shape);
  memo.committed(cluster::in_pool("local-66", "dev-0"));
  expect_alike("a node's own pool changed");
  EXPECT_FALSE(memo.unfit_now(shape).of(66));
  EXPECT_EQ(before.of(66), std::optional<bool>(true));  // a copy: what was known when it was taken
  memo.committed(cluster::in_pool("everywhere", "dev-0"));
  expect_alike("a shared pool changed");
  EXPECT_FALSE(memo.unfit_now(shape).of(0));
}

// Six nodes with one device each and six pods of one claim each: every pod fits on the first free node. With one
// shape the runner remembers the full nodes; with a shape per pod (selectors that mean the same) it searches them
// again for every pod. The results are the same, the search is shorter.
// The report borrows from `c`.
sim::run_report run_six(cluster& c, bool same_shape) {
  static const char* const always[] = {"true", "1 == 1", "2 == 2", "3 == 3", "4 == 4", "5 == 5"};
  c.add(model::class_builder("gpu").build());
  for (int n = 0; n < 6; ++n) {
    c.node("node-" + std::to_string(n));
    c.slice("pool-" + std::to_string(n), "node-" + std::to_string(n), "gpu-0");
  }
  for (int p = 0; p < 6; ++p) {
    auto& claim = c.add(cluster::claim(1, always[same_shape ? 0 : p]));
    claim.meta.name = c.str("claim-" + std::to_string(p));
    claim.meta.namespace_ = "default";
    c.uses_claim(c.pod("default", "pod-" + std::to_string(p)), "gpu", std::string(claim.meta.name));
  }
  return c.run();
}

TEST(UnfitMemo, TheRunnerSkipsNodesKnownNotToFitWithTheSameResults) {
  cluster one, many;
  const sim::run_report one_shape = run_six(one, true), many_shapes = run_six(many, false);
  ASSERT_EQ(one_shape.outcomes.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    ASSERT_TRUE(one_shape.outcomes[i].allocated());
    ASSERT_TRUE(many_shapes.outcomes[i].allocated());
    EXPECT_EQ(one_shape.outcomes[i].allocated()->node, "node-" + std::to_string(i));
    EXPECT_EQ(one_shape.outcomes[i].allocated()->node, many_shapes.outcomes[i].allocated()->node);
    EXPECT_EQ(one_shape.outcomes[i].allocated()->allocation.results,
              many_shapes.outcomes[i].allocated()->allocation.results);
  }
  // Pod k searches k full nodes when every pod has its own shape, and only the node filled last otherwise.
  EXPECT_LT(one_shape.search_steps, many_shapes.search_steps);
}

// Under best fit, once fewer than one node in 16 may still fit a unit's shape, only those are searched, in the
// ranking's order. 40 nodes of 4 GPUs, each with a device of its own UUID (so that no two are alike and each full
// node is searched): 38 filled by pods of 4, then node-39 (the only one labelled zone=b) given one GPU by a pod
// selecting it. The next pod of one GPU searches the full nodes (now known unfit for its shape) and takes node-39,
// the most used that fits; node-38 stays idle and unsearched. The last pod may search only node-38 and node-39: the
// ranking puts node-39 (more used) first, where the fit costs nothing, and best fit takes it, although node-38 comes
// first in the node list.
TEST(UnfitMemo, BestFitSearchesTheFewNodesLeftInItsRankingsOrder) {
  std::string text = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
    "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}})";
  for (int n = 0; n < 40; ++n) {
    const std::string name = "node-" + std::to_string(n);
    text += R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name + R"(", "labels": {"zone": ")" +
            (n == 39 ? "b" : "a") + R"("}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + name +
            R"("}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + name + R"(", "pool": {"name": ")" + name +
            R"(", "resourceSliceCount": 1}, "devices": [{"name": "gpu-0", "attributes": {"uuid": {"string": ")" +
            name + R"("}}}, {"name": "gpu-1"}, {"name": "gpu-2"}, {"name": "gpu-3"}]}})";
  }
  for (const auto& [name, count] : {std::pair{"one", 1}, std::pair{"four", 4}})
    text += std::string(R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": ")") +
            name + R"(", "namespace": "default"}, "spec": {"spec": {"devices": {"requests": [{"name": "gpu",
            "exactly": {"deviceClassName": "gpu", "count": )" + std::to_string(count) + "}}]}}}}";
  auto pod = [&](const std::string& name, const std::string& claim_template, const std::string& selector = "") {
    text += R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name +
            R"(", "namespace": "default"}, "spec": {"containers": [{"name": "c"}], "resourceClaims": [{"name": "gpu",
            "resourceClaimTemplateName": ")" + claim_template + "\"}]" + selector + "}}";
  };
  for (int p = 0; p < 38; ++p) pod("fill-" + std::to_string(p), "four");
  pod("zone-b", "one", R"(, "nodeSelector": {"zone": "b"})");
  pod("first", "one");
  pod("last", "one");
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const cel::selector_engine engine;
  const auto report = sim::run_scenario(doc->scenario(), engine, alloc::features::all(), alloc::sorted{});
  ASSERT_EQ(report.pods.size(), 41u);
  for (std::size_t p = 0; p < 38; ++p) EXPECT_EQ(report.pods[p].node.value_or("-"), "node-" + std::to_string(p));
  EXPECT_EQ(report.pods[38].node.value_or("-"), "node-39");
  EXPECT_EQ(report.pods[39].node.value_or("-"), "node-39");
  EXPECT_EQ(report.pods[40].node.value_or("-"), "node-39");
  EXPECT_EQ(report.placements, sim::run_report::answer::policy);
}

}  // namespace
