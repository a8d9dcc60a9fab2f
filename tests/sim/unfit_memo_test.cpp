// The runner's memo of nodes where a unit's shape did not fit: shapes by spec, stamps made stale by allocations in
// the pools a node reaches, and the runner skipping remembered nodes without changing any result.
#include <dra/cel/selector.hpp>
#include <dra/sim/detail/unfit_memo.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

namespace {

using namespace dra;

struct cluster {
  std::deque<std::string> strings;
  model::scenario s;
  std::vector<const model::node*> nodes;

  model::text str(std::string v) { return strings.emplace_back(std::move(v)); }

  cluster() {
    s.nodes.reserve(8);
    s.slices.reserve(8);
  }
  void node(std::string name) {
    model::node n;
    n.meta.name = str(std::move(name));
    s.nodes.push_back({n, {}});
    nodes.push_back(&s.nodes.back().object);
  }
  // A slice of `pool` with one device; `node` empty: available on all nodes.
  void slice(std::string pool, std::string node, std::string device) {
    model::resource_slice sl;
    sl.meta.name = str(pool + "-" + device);
    sl.driver = "driver-a";
    sl.pool = {str(std::move(pool)), 1, 1};
    if (node.empty())
      sl.all_nodes = true;
    else
      sl.node_name = str(std::move(node));
    model::device d;
    d.name = str(std::move(device));
    sl.devices.push_back(d);
    s.slices.push_back({sl, {}});
  }
  static model::resource_claim claim(std::int64_t count, model::text selector = {}) {
    model::resource_claim c;
    model::device_request r;
    r.name = "gpu";
    model::exact_device_request e;
    e.device_class_name = "gpu";
    e.count = count;
    if (!selector.empty()) e.selectors.push_back({selector});
    r.exactly = e;
    c.spec.requests.push_back(r);
    return c;
  }
  static model::allocation_result in_pool(model::text pool, model::text device) {
    model::allocation_result a;
    a.results.push_back({"gpu", "driver-a", pool, device, {}, {}, {}, {}, {}, {}});
    return a;
  }
};

TEST(UnfitMemo, UnitsWithEqualSpecsShareAShape) {
  cluster c;
  c.node("node-a");
  sim::detail::unfit_memo memo(c.s, c.nodes);
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
  sim::detail::unfit_memo memo(c.s, c.nodes);
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

// Six nodes with one device each and six pods of one claim each: every pod fits on the first free node. With one
// shape the runner remembers the full nodes; with a shape per pod (selectors that mean the same) it searches them
// again for every pod. The results are the same, the search is shorter.
// The report borrows from `c`.
sim::run_report run_six(cluster& c, bool same_shape) {
  static const char* const always[] = {"true", "1 == 1", "2 == 2", "3 == 3", "4 == 4", "5 == 5"};
  c.s.claims.reserve(6);
  c.s.pods.reserve(6);
  model::device_class k;
  k.meta.name = "gpu";
  c.s.classes.push_back({k, {}});
  for (int n = 0; n < 6; ++n) {
    c.node("node-" + std::to_string(n));
    c.slice("pool-" + std::to_string(n), "node-" + std::to_string(n), "gpu-0");
  }
  for (int p = 0; p < 6; ++p) {
    auto claim = cluster::claim(1, always[same_shape ? 0 : p]);
    claim.meta.name = c.str("claim-" + std::to_string(p));
    claim.meta.namespace_ = "default";
    c.s.claims.push_back({claim, {}});
    model::pod pod;
    pod.meta.name = c.str("pod-" + std::to_string(p));
    pod.meta.namespace_ = "default";
    pod.resource_claims.push_back({"gpu", c.s.claims.back().object.meta.name, std::nullopt});
    c.s.pods.push_back({pod, {}});
  }
  const cel::selector_engine engine;
  return sim::run_scenario(c.s, engine);
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

}  // namespace
