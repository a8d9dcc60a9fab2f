// Outcome classes: nodes that gather the same shared pools and hold no device of their own a claim picks get the same
// outcome, so the allocator gives them one id and the scenario runner searches only the first of them.
#include <dra/cel/selector.hpp>

#include <dra/alloc/allocator.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

#include <string>
#include <vector>

namespace {

using namespace dra;

// Nodes labelled dra=true (or not), one pool of driver-a devices published for the labelled nodes, and pools of
// their own for some nodes.
struct cluster : dra_test::test_scenario {
  cluster() { device_class("class-a", "driver-a"); }
  const model::node& node(std::string name, bool labelled = true) {
    if (!labelled) return test_scenario::node(std::move(name));
    return test_scenario::node(std::move(name), {{"dra", "true"}});
  }
  // A slice of `devices` devices of `driver`; on `node` when one is named, else on every node labelled dra=true.
  model::resource_slice& slice(const std::string& pool, std::string driver, int devices, std::string node = "",
                               std::int64_t slices_in_pool = 1) {
    const bool on_labelled_nodes = node.empty();
    model::resource_slice& sl =
        test_scenario::slice(pool + "-slice", std::move(driver), pool, std::move(node), slices_in_pool);
    if (on_labelled_nodes) {
      model::node_selector_term term;
      term.match_expressions.push_back({"dra", model::node_selector_operator::in, {"true"}});
      sl.node_selector = model::node_selector{{term}};
    }
    for (int d = 0; d < devices; ++d) device(sl, "dev-" + std::to_string(d));
    return sl;
  }
  // claim-<n>, not added, asking for `count` driver-a devices.
  model::resource_claim claim(std::int64_t count) {
    return dra_test::built(model::claim_builder("default", str("claim-" + std::to_string(s.claims.size())))
                               .request(model::request_builder("req", "class-a").count(count))
                               .build());
  }
  // A pod with a claim of its own for `count` driver-a devices.
  void pod(std::int64_t count) {
    const model::resource_claim& own = add(claim(count));
    uses_claim(test_scenario::pod("default", "pod-" + std::to_string(s.pods.size())), "req",
               std::string(own.meta.name));
  }
};

// The allocator over everything in `c`, with its inputs kept alive beside it.
struct allocator_over {
  explicit allocator_over(const cluster& c) : classes(c.class_list()), slices(c.slice_list()) {
    allocator.emplace(alloc::features::all(), state, classes, slices, engine);
  }
  std::optional<std::uint32_t> outcome_class(const model::node& node, const model::resource_claim& claim) {
    const model::resource_claim* claims[] = {&claim};
    return allocator->outcome_class(node, claims);
  }
  alloc::ledger state;
  cel::selector_engine engine;
  std::vector<const model::device_class*> classes;
  std::vector<const model::resource_slice*> slices;
  std::optional<alloc::basic_allocator<alloc::first_fit, cel::selector_engine>> allocator;
};

TEST(OutcomeClass, NodesWithTheSameSharedPoolsAndNoPickedDeviceOfTheirOwnShareOne) {
  cluster c;
  const auto& bare = c.node("bare");
  const auto& other_driver = c.node("other-driver");
  const auto& picked_own = c.node("picked-own");
  const auto& unlabelled = c.node("unlabelled", false);
  c.slice("shared", "driver-a", 2);
  c.slice("own-other", "driver-b", 4, "other-driver");  // the class picks none of these
  c.slice("own-picked", "driver-a", 1, "picked-own");
  const auto claim = c.claim(1);
  allocator_over a(c);

  const auto bare_class = a.outcome_class(bare, claim);
  ASSERT_TRUE(bare_class);
  EXPECT_EQ(a.outcome_class(other_driver, claim), bare_class);
  EXPECT_FALSE(a.outcome_class(picked_own, claim));  // its own device may be taken: its outcome is its own
  const auto unlabelled_class = a.outcome_class(unlabelled, claim);
  ASSERT_TRUE(unlabelled_class);  // it gathers no shared pool: a class of nodes that see nothing shared
  EXPECT_NE(*unlabelled_class, *bare_class);

  // The same nodes, the same ids, whatever the order of asking; a step budget counts every device visited, so
  // nothing is shared under one.
  EXPECT_EQ(a.outcome_class(bare, claim), bare_class);
  a.allocator->set_step_budget(1000);
  EXPECT_FALSE(a.outcome_class(bare, claim));
  EXPECT_FALSE(a.outcome_class(other_driver, claim));
}

TEST(OutcomeClass, OwnPoolsBeingUpdatedAndDevicesPlacedOneByOneKeepANodeApart) {
  cluster c;
  const auto& first = c.node("first");
  const auto& updating = c.node("updating");
  c.slice("shared", "driver-a", 2);
  c.slice("own-updating", "driver-b", 1, "updating", 2);  // one of its two slices is missing
  const auto claim = c.claim(1);
  {
    allocator_over a(c);
    EXPECT_TRUE(a.outcome_class(first, claim));
    EXPECT_FALSE(a.outcome_class(updating, claim));
  }
  c.s.slices[0].object.per_device_node_selection = true;
  c.s.slices[0].object.node_selector.reset();
  for (auto& d : c.s.slices[0].object.devices) d.all_nodes = true;
  allocator_over a(c);
  EXPECT_FALSE(a.outcome_class(first, claim));
}

// Four labelled nodes, each with a pool of its own the class does not pick, and one shared device: the first pod
// takes it, the second fits nowhere. The runner searches the first node for the second pod and skips the other three
// (same outcome class), which a single-node cluster shows: the same search steps, the same results.
template <class Policy>
sim::run_report run_cluster(cluster& c, int nodes) {
  for (int n = 0; n < nodes; ++n) {
    const std::string name = "node-" + std::to_string(n);
    c.node(name);
    c.slice("own-" + std::to_string(n), "driver-b", 3, name);
  }
  c.slice("shared", "driver-a", 1);
  c.pod(1);
  c.pod(1);
  const cel::selector_engine engine;
  return sim::run_scenario(c.s, engine, alloc::features::all(), Policy{});
}

template <class Policy>
void expect_skipped_nodes_change_nothing() {
  cluster four_nodes, one_node;
  const auto four = run_cluster<Policy>(four_nodes, 4), one = run_cluster<Policy>(one_node, 1);
  ASSERT_EQ(four.outcomes.size(), 2u);
  ASSERT_TRUE(four.outcomes[0].allocated());
  EXPECT_EQ(four.outcomes[0].allocated()->node, "node-0");
  EXPECT_EQ(four.outcomes[0].allocated()->allocation.results, one.outcomes[0].allocated()->allocation.results);
  ASSERT_TRUE(four.outcomes[1].unschedulable());
  ASSERT_TRUE(one.outcomes[1].unschedulable());
  EXPECT_EQ(four.search_steps, one.search_steps);
  // Explanations still speak of every node.
  ASSERT_TRUE(four.outcomes[1].unschedulable()->why);
  EXPECT_EQ(four.outcomes[1].unschedulable()->why->nodes, 4u);
}

TEST(OutcomeClass, TheRunnerSearchesOneNodePerClassWithTheSameResults) {
  expect_skipped_nodes_change_nothing<alloc::first_fit>();
  expect_skipped_nodes_change_nothing<alloc::best_fit>();
}

}  // namespace
