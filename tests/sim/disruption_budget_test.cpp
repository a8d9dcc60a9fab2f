// Preemption with PodDisruptionBudgets, as kube-scheduler's DefaultPreemption weighs them: the node whose victims
// exceed fewer budgets wins, victims a budget protects are given back first, a violation is reported when nothing
// else makes room, and evictions spend the budgets for later preemptors and in the cluster written back.
#include <dra/json/ingest.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/output/scenario_output.hpp>
#include <dra/sim/runner.hpp>

#include "preemption_run.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

namespace {
namespace budget_tests {  // one translation unit with the other sim tests: these names are its own

using namespace dra;

std::string node(std::string_view name) {
  return R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + std::string(name) +
         R"("}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}})" + "\n";
}

// A pod of `cpu` cpus labelled app=`app` (none when empty); bound to `node` and running since `start` when given.
std::string pod(std::string_view name, std::string_view cpu, int priority, std::string_view app,
                std::string_view node = {}, std::string_view start = {}) {
  std::string meta = R"("name": ")" + std::string(name) + R"(", "namespace": "default", "uid": "uid-)" +
                     std::string(name) + R"(")";
  if (!app.empty()) meta += R"(, "labels": {"app": ")" + std::string(app) + R"("})";
  std::string spec = R"("priority": )" + std::to_string(priority) + ", ";
  if (!node.empty()) spec += R"("nodeName": ")" + std::string(node) + R"(", )";
  spec += R"("containers": [{"name": "main", "resources": {"requests": {"cpu": ")" + std::string(cpu) + R"("}}}])";
  std::string status;
  if (!node.empty()) status = R"(, "status": {"phase": "Running", "startTime": ")" + std::string(start) + R"("})";
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {)" + meta + R"(}, "spec": {)" + spec + "}" + status +
         "}\n";
}

// A budget over app=`app`; with `allowed`, the status the disruption controller wrote.
std::string budget(std::string_view app, std::string_view spec_field, std::optional<int> allowed = std::nullopt) {
  std::string out = R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": ")" +
                    std::string(app) + R"(", "namespace": "default"}, "spec": {)" + std::string(spec_field) +
                    R"(, "selector": {"matchLabels": {"app": ")" + std::string(app) + R"("}}})";
  if (allowed) out += R"(, "status": {"disruptionsAllowed": )" + std::to_string(*allowed) + "}";
  return out + "}\n";
}

using run = dra_test::preemption_run;

run run_text(const std::string& text, alloc::features features = alloc::features::all()) {
  return dra_test::run_preemption(text, features);
}

// Two full nodes: node-a's pod started later, so without budgets node-a's is the victim (latest start).
const std::string two_full_nodes = node("node-a") + node("node-b") +
                                   pod("web-a", "4", 100, "web", "node-a", "2026-11-01T05:00:00Z") +
                                   pod("batch-b", "4", 100, "batch", "node-b", "2026-11-01T01:00:00Z");

TEST(DisruptionBudgetPreemption, TheNodeWhoseVictimsExceedNoBudgetWins) {
  const run without = run_text(two_full_nodes + pod("payments", "4", 1000, {}));
  ASSERT_TRUE(without.outcome("payments").preemption);
  EXPECT_EQ(without.outcome("payments").preemption->nominated_node, "node-a");
  EXPECT_EQ(without.outcome("payments").preemption->rule, sched::preemption_rule::latest_start);

  // web may lose no pod: node-a's victim would exceed the budget, node-b's exceeds none.
  const run r = run_text(two_full_nodes + budget("web", R"("minAvailable": 1)") + pod("payments", "4", 1000, {}));
  const sim::pod_outcome& o = r.outcome("payments");
  ASSERT_TRUE(o.preemption);
  EXPECT_EQ(o.preemption->nominated_node, "node-b");
  EXPECT_EQ(o.preemption->rule, sched::preemption_rule::fewest_pdb_violations);
  EXPECT_EQ(o.preemption->pdb_violations, 0u);
  ASSERT_EQ(o.preemption->victims.size(), 1u);
  EXPECT_EQ(r.pod_name(o.preemption->victims[0]), "batch-b");
  EXPECT_EQ(o.node, "node-b");
}

TEST(DisruptionBudgetPreemption, AVictimABudgetProtectsIsGivenBackFirst) {
  // One node, two 2-cpu pods of equal priority; the preemptor needs 2 cpu. Without a budget the more important
  // (earlier) web pod is given back and batch goes; with a budget that lets no batch pod go, batch is given back
  // first and web goes, more important or not.
  const std::string pods = node("node-a") + pod("web", "2", 100, "web", "node-a", "2026-11-01T01:00:00Z") +
                           pod("batch", "2", 100, "batch", "node-a", "2026-11-01T02:00:00Z");
  const run plain = run_text(pods + pod("payments", "2", 1000, {}));
  ASSERT_TRUE(plain.outcome("payments").preemption);
  ASSERT_EQ(plain.outcome("payments").preemption->victims.size(), 1u);
  EXPECT_EQ(plain.pod_name(plain.outcome("payments").preemption->victims[0]), "batch");

  const run r = run_text(pods + budget("batch", R"("minAvailable": 1)") + pod("payments", "2", 1000, {}));
  const sim::pod_outcome& o = r.outcome("payments");
  ASSERT_TRUE(o.preemption);
  ASSERT_EQ(o.preemption->victims.size(), 1u);
  EXPECT_EQ(r.pod_name(o.preemption->victims[0]), "web");
  EXPECT_EQ(o.preemption->pdb_violations, 0u);
  EXPECT_EQ(o.node, "node-a");
}

TEST(DisruptionBudgetPreemption, WhenOnlyAProtectedPodMakesRoomItGoesAndTheViolationIsReported) {
  const std::string text = node("node-a") + pod("web", "4", 100, "web", "node-a", "2026-11-01T01:00:00Z") +
                           budget("web", R"("minAvailable": 1)") + pod("payments", "4", 1000, {});
  const run r = run_text(text);
  const sim::pod_outcome& o = r.outcome("payments");
  ASSERT_TRUE(o.preemption);  // budgets are weighed, not obeyed: kube-scheduler deletes the pod all the same
  EXPECT_EQ(o.preemption->pdb_violations, 1u);
  EXPECT_EQ(o.node, "node-a");
  const std::string json = sim::output_document(r.doc->scenario(), r.report);
  EXPECT_NE(json.find(R"("pdbViolations": 1)"), std::string::npos) << json;
  // Nothing was allowed, nothing is spent: the budget is written back as it was.
  EXPECT_TRUE(r.report.budgets.empty());
}

TEST(DisruptionBudgetPreemption, EvictionsSpendTheBudgetForTheNextPreemptorAndTheClusterWrittenBack) {
  // web allows one disruption (its status says so). Both web pods started after batch-c: the first preemptor takes
  // web-a's node (latest start) and spends the disruption; the second then finds web-b protected and takes node-c.
  const std::string text = node("node-a") + node("node-b") + node("node-c") +
                           pod("web-a", "4", 100, "web", "node-a", "2026-11-01T05:00:00Z") +
                           pod("web-b", "4", 100, "web", "node-b", "2026-11-01T04:00:00Z") +
                           pod("batch-c", "4", 100, "batch", "node-c", "2026-11-01T01:00:00Z") +
                           budget("web", R"("minAvailable": 1)", 1) + pod("first", "4", 1000, {}) +
                           pod("second", "4", 1000, {});
  const run r = run_text(text);
  ASSERT_TRUE(r.outcome("first").preemption);
  EXPECT_EQ(r.outcome("first").preemption->nominated_node, "node-a");
  EXPECT_EQ(r.outcome("first").preemption->rule, sched::preemption_rule::latest_start);
  ASSERT_TRUE(r.outcome("second").preemption);
  EXPECT_EQ(r.outcome("second").preemption->nominated_node, "node-c");
  EXPECT_EQ(r.outcome("second").preemption->rule, sched::preemption_rule::fewest_pdb_violations);
  ASSERT_EQ(r.report.budgets.size(), 1u);
  EXPECT_EQ(r.report.budgets[0].disruptions_allowed, 0);
  auto written = sim::scenario_after(r.doc->scenario(), r.report);
  ASSERT_TRUE(written) << written.error().to_string();
  EXPECT_NE(written->find(R"("disruptionsAllowed": 0)"), std::string::npos) << *written;
  // Read back, the budget still protects web-b: a third preemptor evicts it only as a violation.
  const run again = run_text(*written + "\n" + pod("third", "4", 1000, {}));
  ASSERT_TRUE(again.outcome("third").preemption);
  EXPECT_EQ(again.outcome("third").preemption->nominated_node, "node-b");
  EXPECT_EQ(again.outcome("third").preemption->pdb_violations, 1u);
}

TEST(DisruptionBudgetPreemption, ABudgetWithoutStatusAllowsWhatTheDisruptionControllerWould) {
  // Two web pods, minAvailable 1: one may go. Evicting it leaves none, written back as the controller would.
  const std::string text = node("node-a") + node("node-b") +
                           pod("web-a", "4", 100, "web", "node-a", "2026-11-01T05:00:00Z") +
                           pod("web-b", "4", 100, "web", "node-b", "2026-11-01T04:00:00Z") +
                           budget("web", R"("minAvailable": 1)") + pod("first", "4", 1000, {});
  const run r = run_text(text);
  ASSERT_TRUE(r.outcome("first").preemption);
  EXPECT_EQ(r.outcome("first").preemption->pdb_violations, 0u);
  ASSERT_EQ(r.report.budgets.size(), 1u);
  EXPECT_EQ(r.report.budgets[0].disruptions_allowed, 0);
}

}  // namespace budget_tests
}  // namespace
