// The PodDisruptionBudgets preemption weighs: the disruptions a budget allows (its status, or what the disruption
// controller would work out), which victims exceed a budget as kube-scheduler counts them, and evictions spending them.
#include <dra/json/ingest.hpp>
#include <dra/sched/disruption_budgets.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace dra;

struct pod_spec {
  std::string_view name;
  std::string_view labels;  // JSON object members, e.g. "app": "web"
  bool running = true;      // bound and Running; else pending
  bool controlled = true;   // has a controller ownerReference
  std::string_view namespace_ = "shop";
};

std::string pod(const pod_spec& p) {
  std::string meta = R"("name": ")" + std::string(p.name) + R"(", "namespace": ")" + std::string(p.namespace_) +
                     R"(", "labels": {)" + std::string(p.labels) + "}";
  if (p.controlled)
    meta += R"(, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-rs", "uid": "rs-uid", "controller": true}])";
  const std::string spec = p.running ? R"("nodeName": "node-a", "containers": [])" : R"("containers": [])";
  const std::string status = p.running ? R"(, "status": {"phase": "Running"})" : "";
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {)" + meta + R"(}, "spec": {)" + spec + "}" + status + "},";
}

std::string budget(std::string_view name, std::string_view spec, std::string_view status = {}) {
  std::string out = R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": ")" +
                    std::string(name) + R"(", "namespace": "shop"}, "spec": )" + std::string(spec);
  if (!status.empty()) out += R"(, "status": )" + std::string(status);
  return out + "},";
}

json::document load(std::string items) {
  items.pop_back();  // the last comma
  auto doc = json::load("[" + items + "]");
  EXPECT_TRUE(doc) << doc.error().to_string();
  return std::move(*doc);
}

std::int32_t allowed(const json::document& doc, std::size_t budget = 0) {
  return sched::disruptions_allowed(doc.scenario().disruption_budgets[budget].object, doc.scenario().pods);
}

const std::string three_web_pods_and_a_pending_one = pod({"web-1", R"("app": "web")"}) +
                                                     pod({"web-2", R"("app": "web")"}) +
                                                     pod({"web-3", R"("app": "web")"}) +
                                                     pod({"web-4", R"("app": "web")", false});

TEST(DisruptionsAllowed, MinAvailableAsACountLeavesTheHealthyPodsBeyondIt) {
  // 3 healthy of 4 selected, 2 wanted: 1 may go. The pod of another app and the one in another namespace do not count.
  const auto doc = load(three_web_pods_and_a_pending_one + pod({"db-1", R"("app": "db")"}) +
                        pod({"web-x", R"("app": "web")", true, true, "other"}) +
                        budget("web", R"({"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}})"));
  EXPECT_EQ(allowed(doc), 1);
  const auto strict = load(three_web_pods_and_a_pending_one +
                           budget("web", R"({"minAvailable": 4, "selector": {"matchLabels": {"app": "web"}}})"));
  EXPECT_EQ(allowed(strict), 0);  // 3 healthy, 4 wanted: none, never below 0
}

TEST(DisruptionsAllowed, PercentagesAndMaxUnavailableAreTakenOfTheControllersPods) {
  // 4 selected pods, 3 healthy. maxUnavailable 1: 3 wanted healthy, 0 may go; "50%" of 4 is 2: 1 may go.
  EXPECT_EQ(allowed(load(three_web_pods_and_a_pending_one +
                         budget("web", R"({"maxUnavailable": 1, "selector": {"matchLabels": {"app": "web"}}})"))),
            0);
  EXPECT_EQ(allowed(load(three_web_pods_and_a_pending_one +
                         budget("web", R"({"maxUnavailable": "50%", "selector": {"matchLabels": {"app": "web"}}})"))),
            1);
  // minAvailable "30%" of 4 rounds up to 2 wanted: 1 may go.
  EXPECT_EQ(allowed(load(three_web_pods_and_a_pending_one +
                         budget("web", R"({"minAvailable": "30%", "selector": {"matchLabels": {"app": "web"}}})"))),
            1);
  // A selected pod without a controller: the disruption controller cannot count what is wanted, and allows none.
  EXPECT_EQ(allowed(load(three_web_pods_and_a_pending_one + pod({"stray", R"("app": "web")", true, false}) +
                         budget("web", R"({"maxUnavailable": 3, "selector": {"matchLabels": {"app": "web"}}})"))),
            0);
  // A count of minAvailable needs no controller.
  EXPECT_EQ(allowed(load(three_web_pods_and_a_pending_one + pod({"stray", R"("app": "web")", true, false}) +
                         budget("web", R"({"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}})"))),
            3);
}

TEST(DisruptionsAllowed, AnEmptySelectorTakesTheNamespaceAndAnAbsentOneNothing) {
  const std::string pods = three_web_pods_and_a_pending_one + pod({"db-1", R"("app": "db")"});
  EXPECT_EQ(allowed(load(pods + budget("all", R"({"minAvailable": 1, "selector": {}})"))), 3);
  EXPECT_EQ(allowed(load(pods + budget("none", R"({"minAvailable": 0})"))), 0);  // no pod expected: none allowed
}

TEST(DisruptionBudgets, TheStatusGivenIsWhatKubeSchedulerReads) {
  const auto doc = load(three_web_pods_and_a_pending_one +
                        budget("web", R"({"minAvailable": 0, "selector": {"matchLabels": {"app": "web"}}})",
                               R"({"disruptionsAllowed": 1})"));
  const sched::disruption_budgets budgets(doc.scenario());
  EXPECT_EQ(budgets.allowed(0), 1);  // not the 3 the pods would give
}

TEST(DisruptionBudgets, VictimsSpendTheAllowanceInImportanceOrderAndThenViolate) {
  // Allowed 1: the first victim the budget selects takes it; the next ones exceed it. web-2 is being evicted already
  // (disruptedPods) and takes nothing; the db pod is not selected.
  const auto doc = load(three_web_pods_and_a_pending_one + pod({"db-1", R"("app": "db")"}) +
                        budget("web", R"({"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}})",
                               R"({"disruptionsAllowed": 1, "disruptedPods": {"web-2": "2026-11-29T10:00:00Z"}})"));
  const sched::disruption_budgets budgets(doc.scenario());
  const std::vector<std::size_t> victims{4, 1, 0, 2};  // db-1, web-2, web-1, web-3
  EXPECT_EQ(budgets.violating(victims), (std::vector<char>{0, 0, 0, 1}));
  // Each call starts from what the budgets allow: a second node's victims are counted afresh.
  EXPECT_EQ(budgets.violating(std::vector<std::size_t>{2}), (std::vector<char>{0}));
}

TEST(DisruptionBudgets, KubeSchedulerIgnoresAnEmptySelectorAndPodsWithoutLabels) {
  const auto doc = load(three_web_pods_and_a_pending_one + pod({"bare", ""}) +
                        budget("all", R"({"minAvailable": 1, "selector": {}})", R"({"disruptionsAllowed": 0})") +
                        budget("web", R"({"minAvailable": 1, "selector": {"matchExpressions": [
                            {"key": "app", "operator": "Exists"}]}})",
                               R"({"disruptionsAllowed": 0})"));
  const sched::disruption_budgets budgets(doc.scenario());
  // web-1 exceeds "web"; "all" matches every pod for the disruption controller but none for kube-scheduler.
  EXPECT_EQ(budgets.violating(std::vector<std::size_t>{0, 4}), (std::vector<char>{1, 0}));
}

TEST(DisruptionBudgets, AnEvictionSpendsOneDisruptionOfEachBudgetThatSelectsTheHealthyPod) {
  const auto doc = load(three_web_pods_and_a_pending_one +
                        budget("web", R"({"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}})"));
  sched::disruption_budgets budgets(doc.scenario());
  ASSERT_EQ(budgets.allowed(0), 2);
  budgets.evicted(3);  // web-4 is pending: not healthy, nothing spent
  EXPECT_FALSE(budgets.spent(0));
  budgets.evicted(0);
  EXPECT_TRUE(budgets.spent(0));
  EXPECT_EQ(budgets.allowed(0), 1);
  budgets.evicted(1);
  budgets.evicted(2);
  EXPECT_EQ(budgets.allowed(0), 0);  // never below 0
  EXPECT_EQ(budgets.violating(std::vector<std::size_t>{2}), (std::vector<char>{1}));
}

}  // namespace
