// `--score kube` (sched::node_choice::kube_score): among the nodes where a pending pod fits, the runner takes the one
// kube-scheduler's default scoring ranks highest; first fit takes the first. Answers worked out by hand.
#include "../support/source_dir.hpp"

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/scoring.hpp>
#include <dra/json/emit.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "random_cluster.hpp"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace dra;

const cel::selector_engine score_engine;

// Node choice by kube-scheduler's scoring (`--score kube`).
const sim::run_options kube_scored{.nodes = sim::node_choice::kube_score};

// Each pending pod's node ("-" for none), in queue order; `options` say how nodes are chosen.
template <class Policy>
std::vector<std::string> nodes_under(const std::string& text, alloc::features features = alloc::features::all(),
                                     sim::run_options options = {}) {
  auto doc = json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return {};
  const sim::run_report report = sim::run_scenario(doc->scenario(), score_engine, features, Policy{}, options);
  std::vector<std::string> out;
  for (const auto& p : report.pods) out.push_back(p.node.value_or("-"));
  return out;
}

std::vector<std::string> kube_nodes(const std::string& text, alloc::features features = alloc::features::all()) {
  return nodes_under<alloc::first_fit>(text, features, kube_scored);
}

std::string score_node(const std::string& name, const std::string& extra = "") {
  return R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name + R"(", "labels": {"zone": ")" + name +
         R"("}}, "spec": {)" + extra + R"(}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})" + "\n";
}

std::string score_pod(const std::string& name, const std::string& spec) {
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name + R"(", "namespace": "default"},
             "spec": {)" + spec + "}}\n";
}

const std::string one_cpu_pod = R"("containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}])";

TEST(KubeScore, LeastAllocatedSpreadsPodsWhereFirstFitStacksThem) {
  // Equal nodes tie (node order); then the emptier node scores higher: 81 against 62 for the second pod.
  const std::string text = score_node("a") + score_node("b") + score_pod("p1", one_cpu_pod) + score_pod("p2", one_cpu_pod) + score_pod("p3", one_cpu_pod) +
                           score_pod("p4", one_cpu_pod);
  EXPECT_EQ(nodes_under<alloc::first_fit>(text), (std::vector<std::string>{"a", "a", "a", "a"}));
  EXPECT_EQ(kube_nodes(text), (std::vector<std::string>{"a", "b", "a", "b"}));
}

TEST(KubeScore, BoundPodsMakeTheirNodeScoreLower) {
  const std::string bound = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
     "spec": {"nodeName": "a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "3"}}}]}})";
  const std::string text = score_node("a") + score_node("b") + bound + "\n" + score_pod("p", one_cpu_pod);
  EXPECT_EQ(nodes_under<alloc::first_fit>(text), std::vector<std::string>{"a"});
  EXPECT_EQ(kube_nodes(text), std::vector<std::string>{"b"});
}

TEST(KubeScore, APreferNoScheduleTaintSteersPodsAwayUnlessTolerated) {
  const std::string taint = R"("taints": [{"key": "spot", "value": "true", "effect": "PreferNoSchedule"}])";
  const std::string tolerating =
      R"("tolerations": [{"key": "spot", "operator": "Exists", "effect": "PreferNoSchedule"}], "containers": [{"name": "c"}])";
  const std::string text = score_node("a", taint) + score_node("b") + score_pod("plain", R"("containers": [{"name": "c"}])");
  EXPECT_EQ(nodes_under<alloc::first_fit>(text), std::vector<std::string>{"a"});  // the taint filters nothing
  EXPECT_EQ(kube_nodes(text), std::vector<std::string>{"b"});
  EXPECT_EQ(kube_nodes(score_node("a", taint) + score_node("b") + score_pod("tolerant", tolerating)),
            std::vector<std::string>{"a"});
}

TEST(KubeScore, PreferredNodeAffinityWinsOverEmptierNodes) {
  // b is preferred (NodeAffinity 2 × 100) though a bound pod fills half of it (NodeResourcesFit loses 25).
  const std::string bound = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
     "spec": {"nodeName": "b", "containers": [{"name": "c", "resources": {"requests": {"cpu": "2", "memory": "4Gi"}}}]}})";
  const std::string prefers_b = R"("affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
      {"weight": 10, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}}]}},)" +
                                one_cpu_pod;
  const std::string text = score_node("a") + score_node("b") + bound + "\n" + score_pod("p", prefers_b);
  EXPECT_EQ(nodes_under<alloc::first_fit>(text), std::vector<std::string>{"a"});
  EXPECT_EQ(kube_nodes(text), std::vector<std::string>{"b"});
}

// Node a publishes a small GPU, node b a large one; the claims prefer large (firstAvailable), then small.
const std::string prioritized_gpus = R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "a-gpus"},
 "spec": {"driver": "gpu.example.com", "nodeName": "a", "pool": {"name": "a", "resourceSliceCount": 1},
          "devices": [{"name": "gpu-0", "attributes": {"size": {"string": "small"}}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "b-gpus"},
 "spec": {"driver": "gpu.example.com", "nodeName": "b", "pool": {"name": "b", "resourceSliceCount": 1},
          "devices": [{"name": "gpu-0", "attributes": {"size": {"string": "large"}}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "gpu", "namespace": "default"},
 "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "firstAvailable": [
   {"name": "large", "deviceClassName": "gpu", "selectors": [{"cel": {"expression": "device.attributes['gpu.example.com'].size == 'large'"}}]},
   {"name": "small", "deviceClassName": "gpu"}]}]}}}}
)";
const std::string prioritized_pod = R"("resourceClaims": [{"name": "g", "resourceClaimTemplateName": "gpu"}], "containers": [{"name": "c"}])";

TEST(KubeScore, DynamicResourcesPrefersNodesWhereTheFirstAlternativeFits) {
  // On a the claim gets its second choice (score 7, normalised 87), on b its first (8, 100): b. The second pod finds
  // b's GPU taken and goes to a.
  const std::string text = score_node("a") + score_node("b") + prioritized_gpus + score_pod("p1", prioritized_pod) + score_pod("p2", prioritized_pod);
  EXPECT_EQ(nodes_under<alloc::first_fit>(text), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(kube_nodes(text), (std::vector<std::string>{"b", "a"}));
}

TEST(KubeScore, DynamicResourcesWeighsTwiceTheResourceScores) {
  // A pod asking for no cpu or memory (NodeResourcesFit counts 100m and 200Mi; BalancedAllocation skips it); 1540m
  // of cpu bound on b. NodeResourcesFit: a 97, b 77; DynamicResources: a 87 (second choice), b 100. Weighing
  // DynamicResources 2, as the default profile does: a 300 + 97 + 174 = 571, b 300 + 77 + 200 = 577, so b (at
  // weight 1, a would win: 484 against 477).
  const std::string bound = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
     "spec": {"nodeName": "b", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1540m"}}}]}})";
  const std::string text = score_node("a") + score_node("b") + prioritized_gpus + bound + "\n" + score_pod("p", prioritized_pod);
  EXPECT_EQ(kube_nodes(text), std::vector<std::string>{"b"});
}

TEST(KubeScore, BalancedAllocationScoresTheChangeInBalance) {
  // Two 8-cpu, 16Gi nodes running 4 cpu and 8Gi, and 1 cpu and 12Gi; the pod asks 2 cpus and 2Gi. NodeResourcesFit:
  // a 31, b 37; BalancedAllocation (the change the pod makes): a 71, b 78. a 300 + 31 + 71 = 402, b 300 + 37 + 78 = 415:
  // b, as kube-scheduler 1.36 decides (scoring the balance with the pod alone, 93 and 75, took a: 424 against 412).
  auto node = [](const std::string& name) {
    return R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name +
           R"("}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}})" + "\n";
  };
  auto bound = [](const std::string& node_name, const std::string& cpu, const std::string& memory) {
    return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "on-)" + node_name +
           R"(", "namespace": "default"}, "spec": {"nodeName": ")" + node_name +
           R"(", "containers": [{"name": "c", "resources": {"requests": {"cpu": ")" + cpu + R"(", "memory": ")" + memory +
           R"("}}}]}})" + "\n";
  };
  const std::string pod =
      score_pod("p", R"("containers": [{"name": "c", "resources": {"requests": {"cpu": "2", "memory": "2Gi"}}}])");
  const std::string text = node("a") + node("b") + bound("a", "4", "8Gi") + bound("b", "1", "12Gi") + pod;
  EXPECT_EQ(kube_nodes(text), std::vector<std::string>{"b"});
}

TEST(KubeScore, AlikeNodesAreScoredWithoutSearchingEachAndGetTheirOwnDevices) {
  // Three nodes with two GPUs each (one outcome class); a is half full of cpu. p1 ties b and c (b), p2 takes c, p3
  // ties b and c again (b), whose second GPU it gets.
  std::string text = score_node("a") + score_node("b") + score_node("c") + R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "gpu", "namespace": "default"},
 "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
 "spec": {"nodeName": "a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "2", "memory": "4Gi"}}}]}}
)";
  for (const char* n : {"a", "b", "c"})
    text += R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + std::string(n) +
            R"("}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + n + R"(", "pool": {"name": ")" + n +
            R"(", "resourceSliceCount": 1}, "devices": [{"name": "gpu-0"}, {"name": "gpu-1"}]}})" + "\n";
  const std::string spec = R"("resourceClaims": [{"name": "g", "resourceClaimTemplateName": "gpu"}],
      "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}])";
  text += score_pod("p1", spec) + score_pod("p2", spec) + score_pod("p3", spec);
  EXPECT_EQ(nodes_under<alloc::first_fit>(text), (std::vector<std::string>{"a", "a", "b"}));
  EXPECT_EQ(kube_nodes(text), (std::vector<std::string>{"b", "c", "b"}));
  auto doc = json::load(text);
  ASSERT_TRUE(doc);
  const auto report = sim::run_scenario(doc->scenario(), score_engine, alloc::features::all(), alloc::first_fit{}, kube_scored);
  std::vector<std::string> devices;
  for (const auto& o : report.outcomes) {
    ASSERT_NE(o.allocated(), nullptr);
    for (const auto& d : o.allocated()->allocation.results) devices.push_back(std::string(d.pool) + "/" + std::string(d.device));
  }
  EXPECT_EQ(devices, (std::vector<std::string>{"b/gpu-0", "c/gpu-0", "b/gpu-1"}));
}

TEST(KubeScore, ANodeWhoseDevicesAddTooMuchCpuIsPassedOver) {
  // KEP-5517: each core maps one cpu. a (4 cpus, idle) scores above b (8 cpus, 2 taken), but 1 cpu + 4 cores is 5
  // of a's 4: the pod goes to b (7 of 8).
  std::string text = R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "b"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "running", "namespace": "default"},
 "spec": {"nodeName": "b", "containers": [{"name": "c", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "cores"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'cpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "cores", "namespace": "default"},
 "spec": {"spec": {"devices": {"requests": [{"name": "cores", "exactly": {"deviceClassName": "cores", "count": 4}}]}}}}
)";
  for (const char* n : {"a", "b"}) {
    std::string devices;
    for (int d = 0; d < 6; ++d)
      devices += std::string(d ? "," : "") + R"({"name": "core-)" + std::to_string(d) +
                 R"(", "nodeAllocatableResources": {"cpu": {"mapping": {"deviceMultiplier": "1"}}}})";
    text += R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + std::string(n) +
            R"("}, "spec": {"driver": "cpu.example.com", "nodeName": ")" + n + R"(", "pool": {"name": ")" + n +
            R"(", "resourceSliceCount": 1}, "devices": [)" + devices + "]}}\n";
  }
  text += score_pod("p", R"("resourceClaims": [{"name": "c", "resourceClaimTemplateName": "cores"}],
      "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}])");
  EXPECT_EQ(kube_nodes(text), std::vector<std::string>{"b"});
  EXPECT_EQ(kube_nodes(text, *alloc::features::parse("none")), std::vector<std::string>{"a"});
}

TEST(KubeScore, ConstrainedPodsGetFirstFitsAnswersAndMessages) {
  // Where one node at most takes each pod, scoring changes nothing: nodes, claims and the 0/N texts are first fit's.
  auto doc = json::load_file(dra_test::source_dir() + "/tests/cli/data/placement.yaml");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto first = sim::run_scenario(doc->scenario(), score_engine);
  const auto scored = sim::run_scenario(doc->scenario(), score_engine, alloc::features::all(), alloc::first_fit{}, kube_scored);
  ASSERT_EQ(first.pods.size(), scored.pods.size());
  for (std::size_t i = 0; i < first.pods.size(); ++i) {
    EXPECT_EQ(first.pods[i].node, scored.pods[i].node) << i;
    EXPECT_EQ(first.pods[i].unschedulable, scored.pods[i].unschedulable) << i;
  }
  EXPECT_EQ(first.outcomes, scored.outcomes);
}

// random_cluster(seed) with cpu and memory: nodes of 4-16 cpus and 8-64Gi (a third with a PreferNoSchedule taint,
// labelled with one of three zones), pods asking 0.5-4 cpus and 1-16Gi (some nothing), half of them preferring a zone
// or two with random weights.
std::string scored_cluster(unsigned seed) {
  std::string text = dra_test::random_cluster(seed);
  std::mt19937 rng(seed * 7919u);
  auto pick = [&](int lo, int hi) { return std::to_string(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  auto replace_each = [&](const std::string& prefix, const std::string& end, auto&& with) {
    for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
      const std::size_t stop = text.find(end, at + prefix.size());
      const std::string name = text.substr(at + prefix.size(), stop - at - prefix.size());
      const std::string replacement = with(name);
      text.replace(at, stop + end.size() - at, replacement);
    }
  };
  replace_each(R"("kind":"Node","metadata":{"name":")", R"("}})", [&](const std::string& name) {
    std::string node = R"("kind":"Node","metadata":{"name":")" + name + R"(","labels":{"zone":"z)" + pick(0, 2) + R"("}})";
    if (pick(0, 2) == "0") node += R"(,"spec":{"taints":[{"key":"spot","effect":"PreferNoSchedule"}]})";
    return node + R"(,"status":{"allocatable":{"cpu":")" + pick(4, 16) + R"(","memory":")" + pick(8, 64) +
           R"(Gi","pods":"110"}}})";
  });
  replace_each(R"("resourceClaimTemplateName":")", R"("}]}})", [&](const std::string& name) {
    std::string spec = R"("resourceClaimTemplateName":")" + name + R"("}])";
    if (pick(0, 4) != "0")
      spec += R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":")" + pick(500, 4000) + R"(m","memory":")" +
              pick(1, 16) + R"(Gi"}}}])";
    if (pick(0, 1) == "0")
      spec += R"(,"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":)" +
              pick(1, 100) + R"(,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["z)" +
              pick(0, 2) + R"(","z)" + pick(0, 2) + R"("]}]}}]}})";
    return spec + "}}";
  });
  return text;
}

TEST(KubeScore, TheResourceOrderTakesTheNodeScoringEveryNodeTakes) {
  // The nodes found in the order of the resource scores (the first of each kind of node, or the first that fits
  // when nothing else differs) are those scoring every node finds, on clusters with taints and preferences.
  std::size_t spread = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    auto doc = json::load(scored_cluster(seed));
    ASSERT_TRUE(doc) << doc.error().to_string();
    const model::scenario& s = doc->scenario();
    sim::run_options every_node = kube_scored;
    every_node.score_every_node = true;
    const auto ordered = sim::run_scenario(s, score_engine, alloc::features::all(), alloc::first_fit{}, kube_scored);
    const auto scored = sim::run_scenario(s, score_engine, alloc::features::all(), alloc::first_fit{}, every_node);
    const auto first = sim::run_scenario(s, score_engine);
    ASSERT_EQ(ordered.pods.size(), scored.pods.size());
    for (std::size_t i = 0; i < ordered.pods.size(); ++i) {
      EXPECT_EQ(ordered.pods[i].node, scored.pods[i].node) << "seed " << seed << " pod " << i;
      EXPECT_EQ(ordered.pods[i].unschedulable, scored.pods[i].unschedulable) << "seed " << seed << " pod " << i;
      spread += ordered.pods[i].node != first.pods[i].node ? 1 : 0;
    }
    EXPECT_EQ(json::output_document(ordered.outcomes), json::output_document(scored.outcomes)) << "seed " << seed;
  }
  EXPECT_GT(spread, 0u);  // scoring did move pods away from first fit's nodes
}

}  // namespace
