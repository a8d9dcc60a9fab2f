// Pods found by the name a user gives them (dra capacity --pod, dra explain pod/NAME): kubectl's spellings, a pod
// written without a namespace being in the default one.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/explain/pod.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace find_pod_tests {

using namespace dra;

// solo: no namespace; web twice, in default and in team.
constexpr std::string_view three_pods = R"(
apiVersion: v1
kind: Pod
metadata: {name: solo}
spec: {containers: [{name: main}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: main}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: team}
spec: {containers: [{name: main}]}
)";

json::document load_three_pods() {
  auto doc = json::load(three_pods);
  EXPECT_TRUE(doc) << doc.error().to_string();
  return std::move(*doc);
}

TEST(FindPod, TakesKubectlSpellingsWithoutANamespaceBeingDefault) {
  const auto doc = load_three_pods();
  const model::scenario& s = doc.scenario();
  EXPECT_EQ(sim::pod_index(s, "solo"), 0u);
  EXPECT_EQ(sim::pod_index(s, "default/solo"), 0u);
  EXPECT_EQ(sim::pod_index(s, "web"), 1u);
  EXPECT_EQ(sim::pod_index(s, "default/web"), 1u);
  EXPECT_EQ(sim::pod_index(s, "team/web"), 2u);
  EXPECT_EQ(sim::pod_index(s, "team/solo"), std::nullopt);
  EXPECT_EQ(sim::pod_index(s, "other/web"), std::nullopt);
  const auto missing = sim::find_pod(s, "team/solo");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, errc::not_found);
  EXPECT_EQ(missing.error().to_string(), "pod team/solo not found");
  const auto found = sim::find_pod(s, "team/web");
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, &s.pods[2]);
}

TEST(FindPod, ExplainPodsFindsThePodsFindPodFinds) {
  const auto doc = load_three_pods();
  const cel::selector_engine engine;
  const auto report = sim::run_scenario(doc.scenario(), engine);
  const std::vector<std::string> names{"solo", "default/solo", "team/web", "team/solo"};
  const auto pods = sim::explain_pods(doc.scenario(), report, engine, alloc::features::all(), names);
  ASSERT_EQ(pods.size(), 4u);
  EXPECT_EQ(pods[0].pod, "default/solo");
  EXPECT_NE(pods[0].status, sim::pod_status::not_found);
  EXPECT_NE(pods[1].status, sim::pod_status::not_found);
  EXPECT_NE(pods[2].status, sim::pod_status::not_found);
  EXPECT_EQ(pods[3].pod, "team/solo");
  EXPECT_EQ(pods[3].status, sim::pod_status::not_found);
}

}  // namespace find_pod_tests
