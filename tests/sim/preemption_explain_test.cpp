// Preemption asked directly: `dra explain pod/NAME`'s candidate nodes, each with its victims and the rule that set it
// aside, and what the dry run said of the other nodes; `dra capacity --pod X --preempt`'s copies that fit once
// lower-priority pods may go.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/explain/pod.hpp>
#include <dra/sim/output/capacity_output.hpp>
#include <dra/sim/runner.hpp>

#include "preemption_run.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {
namespace preemption_explain_tests {  // one translation unit with the other sim tests: these names are its own

using namespace dra;
using dra_test::node;
using dra_test::pod;

const cel::selector_engine engine;

// Four full nodes, each running one batch pod of priority 100 that started at a different time; `payments`
// (priority 10000) waits for a whole node.
const std::string full_nodes = node("node-a", "4") + node("node-b", "4") + node("node-c", "4") + node("node-d", "4") +
                               pod({"batch-a", "4", 100, "node-a", "2026-11-01T01:00:00Z", {}}) +
                               pod({"batch-b", "4", 100, "node-b", "2026-11-01T03:00:00Z", {}}) +
                               pod({"batch-c", "4", 100, "node-c", "2026-11-01T02:00:00Z", {}}) +
                               pod({"batch-d", "4", 100, "node-d", "2026-11-01T00:30:00Z", {}}) +
                               pod({"payments", "4", 10000, {}, {}, {}});

dra_test::preemption_run kept(const std::string& text) {
  return dra_test::run_preemption(text, alloc::features::all(), {.keep_preemption_candidates = true});
}

std::vector<sim::pod_explanation> explain(const dra_test::preemption_run& r, std::vector<std::string> names) {
  return sim::explain_pods(r.doc->scenario(), r.report, engine, alloc::features::all(), names);
}

TEST(PreemptionExplained, EveryCandidateShowsItsVictimsAndTheRuleThatSetItAside) {
  const auto r = kept(full_nodes);
  const auto e = explain(r, {"payments", "batch-b"});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].status, sim::pod_status::placed);
  ASSERT_TRUE(e[0].preemption);
  const sim::preemption_explanation& p = *e[0].preemption;
  EXPECT_EQ(p.nominated_node, "node-b");
  EXPECT_EQ(p.rule, sched::preemption_rule::latest_start);
  ASSERT_EQ(p.candidates.size(), 4u);
  // Node order; each node ties with node-b on every rule before the start times, and its victim started earlier.
  const std::vector<std::string> victims{"default/batch-a", "default/batch-b", "default/batch-c", "default/batch-d"};
  for (std::size_t k = 0; k < 4; ++k) {
    const auto& c = p.candidates[k];
    EXPECT_EQ(c.node, std::string("node-") + static_cast<char>('a' + k));
    ASSERT_EQ(c.victims.size(), 1u);
    EXPECT_EQ(c.victims[0].pod, victims[k]);
    EXPECT_EQ(c.victims[0].priority, 100);
    EXPECT_EQ(c.set_aside_by, k == 1 ? std::nullopt : std::optional(sched::preemption_rule::latest_start));
  }
  EXPECT_TRUE(p.other_nodes.empty());
  EXPECT_EQ(p.nodes_not_tried, 0u);
  EXPECT_EQ(p.retry_node, "node-b");
  // The victim's own explanation names its preemptor.
  EXPECT_EQ(e[1].status, sim::pod_status::not_pending);
  EXPECT_EQ(e[1].preempted_by, "default/payments");
  EXPECT_EQ(e[0].preempted_by, std::nullopt);

  const std::string json = sim::to_json(e);
  EXPECT_NE(json.find(R"("rule": "latestStart")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("preemptedBy": "default/payments")"), std::string::npos) << json;
  std::size_t set_aside = 0;
  for (auto at = json.find(R"("setAsideBy": "latestStart")"); at != std::string::npos;
       at = json.find(R"("setAsideBy": "latestStart")", at + 1))
    ++set_aside;
  EXPECT_EQ(set_aside, 3u) << json;
}

TEST(PreemptionExplained, TheNodesThatAreNoCandidateAreCountedByTheDryRunsReason) {
  // node-a would lose a priority-500 pod, node-b two priority-100 pods; node-c's pod is as important as the
  // preemptor; node-d is cordoned.
  const std::string cordoned = R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-d"}, "spec": )"
                               R"({"unschedulable": true}, "status": {"allocatable": {"cpu": "4", "pods": "110"}}})"
                               "\n";
  const std::string text = node("node-a", "4") + node("node-b", "4") + node("node-c", "4") + cordoned +
                           pod({"important", "4", 500, "node-a", {}, {}}) + pod({"one", "2", 100, "node-b", {}, {}}) +
                           pod({"two", "2", 100, "node-b", {}, {}}) + pod({"peer", "4", 1000, "node-c", {}, {}}) +
                           pod({"preemptor", "3", 1000, {}, {}, {}});
  const auto e = explain(kept(text), {"preemptor"});
  ASSERT_EQ(e.size(), 1u);
  ASSERT_TRUE(e[0].preemption);
  const sim::preemption_explanation& p = *e[0].preemption;
  ASSERT_EQ(p.candidates.size(), 2u);
  EXPECT_EQ(p.candidates[0].node, "node-a");
  EXPECT_EQ(p.candidates[0].set_aside_by, sched::preemption_rule::lowest_top_priority);
  EXPECT_EQ(p.candidates[1].node, "node-b");
  EXPECT_EQ(p.candidates[1].victims.size(), 2u);
  ASSERT_EQ(p.other_nodes.size(), 2u);
  std::vector<std::pair<std::string, std::size_t>> others;
  for (const auto& o : p.other_nodes) others.emplace_back(o.reason.message, o.nodes);
  EXPECT_EQ(others,
            (std::vector<std::pair<std::string, std::size_t>>{{std::string(sched::no_preemption_victims), 1},
                                                              {std::string(sched::preemption_not_helpful), 1}}));
}

TEST(PreemptionExplained, TheDryRunStopsAtAHundredCandidatesAndCountsTheNodesItDidNotTry) {
  std::string text;
  for (int i = 0; i < 103; ++i) {
    const std::string name = "node-" + std::to_string(1000 + i);
    const std::string victim = "low-" + std::to_string(1000 + i);
    text += node(name, "1") + pod({victim, "1", 0, name, "2026-11-01T00:00:00Z", {}});
  }
  text += pod({"urgent", "1", 10, {}, {}, {}});
  const auto r = kept(text);
  const auto& o = r.outcome("urgent");
  ASSERT_TRUE(o.preemption);
  EXPECT_EQ(o.preemption->candidates, 100u);
  EXPECT_EQ(o.preemption->candidate_nodes.size(), 100u);
  EXPECT_EQ(o.preemption->nodes_not_tried, 3u);
  EXPECT_TRUE(o.preemption->other_nodes.empty());
  // Without the option a run keeps the count and the chosen node alone; explain then shows that one.
  const auto plain = dra_test::run_preemption(text);
  const auto& p = plain.outcome("urgent");
  ASSERT_TRUE(p.preemption);
  EXPECT_EQ(p.preemption->candidates, 100u);
  EXPECT_TRUE(p.preemption->candidate_nodes.empty());
  const auto e = explain(plain, {"urgent"});
  ASSERT_TRUE(e[0].preemption);
  ASSERT_EQ(e[0].preemption->candidates.size(), 1u);
  EXPECT_EQ(e[0].preemption->candidates[0].node, p.preemption->nominated_node);
}

sim::capacity_report copies_of(const model::scenario& s, std::string_view name, bool preempt) {
  auto pod = sim::find_pod(s, name);
  EXPECT_TRUE(pod) << pod.error().to_string();
  auto report = sim::capacity(s, **pod, engine, alloc::features::all(), alloc::first_fit{},
                              {.max = sim::default_max_copies, .run = {}, .preempt = preempt});
  EXPECT_TRUE(report) << report.error().to_string();
  return std::move(*report);
}

TEST(PreemptionCapacity, CopiesThatMayPreemptEvictTheLowerPriorityPodsOneNodeEach) {
  auto doc = json::load(full_nodes);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const model::scenario& s = doc->scenario();
  // The run itself evicts batch-b for payments; a copy finds no room without evicting.
  const auto plain = copies_of(s, "payments", false);
  EXPECT_EQ(plain.fits, 0u);
  ASSERT_EQ(plain.run.evictions.size(), 1u);
  ASSERT_TRUE(plain.next);
  EXPECT_EQ(plain.next->unschedulable, "0/4 nodes are available: 4 Insufficient cpu.");

  // Each copy evicts the batch pod that started last of those left, then the fifth finds only its peers.
  const auto preempting = copies_of(s, "payments", true);
  EXPECT_EQ(preempting.fits, 3u);
  std::vector<std::string> evicted;
  for (const auto& e : preempting.run.evictions)
    evicted.push_back(std::string(s.pods[e.pod].object.meta.name) + " by " +
                      std::string(sim::pod_at(s, preempting.run, e.preemptor).meta.name));
  EXPECT_EQ(evicted, (std::vector<std::string>{"batch-b by payments", "batch-c by payments-1", "batch-a by payments-2",
                                               "batch-d by payments-3"}));
  EXPECT_EQ(preempting.nodes, (std::vector<sim::node_count>{{"node-a", 1}, {"node-c", 1}, {"node-d", 1}}));
  ASSERT_TRUE(preempting.next);
  EXPECT_EQ(preempting.next->unschedulable,
            "0/4 nodes are available: 4 Insufficient cpu. no new claims to deallocate, preemption: 0/4 nodes are "
            "available: 4 No preemption victims found for incoming pod.");
  const std::string json = sim::to_json(s, preempting);
  EXPECT_NE(json.find(R"("pod": "default/batch-d",)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("preemptedBy": "default/payments-3")"), std::string::npos) << json;
}

}  // namespace preemption_explain_tests
}  // namespace
