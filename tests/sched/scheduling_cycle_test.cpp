// The scheduling cycle as a library piece: pods run one at a time on a cluster state that is a value (a snapshot taken
// and restored gives the same answers again), and node choice (first feasible or kube-scheduler's scoring) combines
// with any device policy.
#include "../support/cluster_text.hpp"

#include <dra/alloc/best_fit.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/scheduling_cycle.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace dra;

const cel::selector_engine cycle_engine;

// Three nodes of two GPUs each (node-a has more cpu); `pods` pending pods asking one GPU each through a template.
std::string gpu_cluster(int pods) {
  std::string text;
  for (const char* node : {"node-a", "node-b", "node-c"}) {
    text += dra_test::node_text(node, {{"cpu", node == std::string("node-a") ? "16" : "8"}, {"memory", "32Gi"},
                                       {"pods", "110"}});
    text += dra_test::gpu_slice_text(std::string(node) + "-gpus", node, "gpu.example.com", 2);
  }
  text += R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
              "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}})" "\n";
  text += R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
              "metadata": {"name": "one-gpu", "namespace": "default"},
              "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}})"
          "\n";
  for (int i = 0; i < pods; ++i)
    text += R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p)" + std::to_string(i) +
            R"(", "namespace": "default"}, "spec": {"resourceClaims": [{"name": "g", "resourceClaimTemplateName":
            "one-gpu"}], "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}})" "\n";
  return text;
}

// Each pod outcome from `first` on: the node and the devices of the claims of that pod, as one string.
std::string answers_from(const sched::run_report& report, std::size_t first) {
  std::string out;
  for (std::size_t i = first; i < report.pods.size(); ++i) {
    out += std::to_string(report.pods[i].pod) + "@" + report.pods[i].node.value_or("-") + ":";
    for (std::size_t k = 0; k < report.outcomes.size(); ++k)
      if (report.subjects[k].pod == report.pods[i].pod)
        if (const auto* placed = report.outcomes[k].allocated())
          for (const auto& d : placed->allocation.results) out += std::string(d.pool) + "/" + std::string(d.device) + ",";
    out += " ";
  }
  return out;
}

TEST(SchedulingCycle, RestoringASnapshotGivesTheSameAnswersAgain) {
  auto doc = json::load(gpu_cluster(7));
  ASSERT_TRUE(doc) << doc.error().to_string();
  sched::scheduling_cycle<cel::selector_engine, alloc::first_fit> cycle(doc->scenario(), cycle_engine,
                                                                        alloc::features::all(), {});
  const auto queue = cycle.queue();
  cycle.run_pod(queue[0]);
  sched::cluster_snapshot snapshot = cycle.snapshot();
  for (std::size_t i = 1; i < queue.size(); ++i) cycle.run_pod(queue[i]);
  const std::string first_time = answers_from(cycle.report(), 1);
  // Six GPUs: the seventh pod fits nowhere, and every GPU is taken.
  EXPECT_EQ(cycle.report().pods.size(), 7u);
  EXPECT_FALSE(cycle.report().pods.back().node);
  EXPECT_EQ(cycle.state().ledger.generation() == snapshot.ledger_generation &&
                cycle.state().ledger.changes_seen() == snapshot.ledger_changes,
            false);
  cycle.restore(snapshot);
  // Back to one pod placed: its claim and outcome only, the other five GPUs free again.
  EXPECT_EQ(cycle.report().pods.size(), 1u);
  EXPECT_EQ(cycle.report().outcomes.size(), 1u);
  EXPECT_EQ(cycle.report().generated.size(), 1u);
  EXPECT_EQ(cycle.state().generated_names.size(), 1u);
  EXPECT_EQ(cycle.state().ledger.allocated({"gpu.example.com", "node-a", "gpu-1"}), false);
  for (std::size_t i = 1; i < queue.size(); ++i) cycle.run_pod(queue[i]);
  EXPECT_EQ(answers_from(cycle.report(), 1), first_time);
  EXPECT_NE(first_time.find("node-a/gpu-1"), std::string::npos) << first_time;
}

TEST(SchedulingCycle, ACopiedStateIsIndependentOfTheCycle) {
  auto doc = json::load(gpu_cluster(2));
  ASSERT_TRUE(doc) << doc.error().to_string();
  sched::scheduling_cycle<cel::selector_engine, alloc::first_fit> cycle(doc->scenario(), cycle_engine,
                                                                        alloc::features::all(), {});
  const sched::cluster_state before = cycle.state();
  for (std::size_t p : cycle.queue()) cycle.run_pod(p);
  EXPECT_FALSE(before.ledger.allocated({"gpu.example.com", "node-a", "gpu-0"}));
  EXPECT_TRUE(cycle.state().ledger.allocated({"gpu.example.com", "node-a", "gpu-0"}));
  EXPECT_TRUE(before.generated_names.empty());
  EXPECT_EQ(cycle.state().generated_names.size(), 2u);
  EXPECT_EQ(before.requests[0].pods, 0);
  EXPECT_EQ(cycle.state().requests[0].pods, 2);
}

TEST(SchedulingCycle, KubeScoringChoosesTheNodeAndBestFitTheDevices) {
  // node-a has two GPUs free and twice the cpu, node-b one GPU: first feasible takes node-a; kube-scheduler's scoring
  // takes node-a too (more cpu free); best fit on node-b would take its last GPU. Under scoring with best fit, the
  // node is the scores' choice and the device the one best fit takes there.
  std::string text = gpu_cluster(1);
  text += R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "held",
              "namespace": "default"}, "spec": {"devices": {"requests": [{"name": "gpu", "exactly":
              {"deviceClassName": "gpu"}}]}}, "status": {"allocation": {"devices": {"results": [{"request": "gpu",
              "driver": "gpu.example.com", "pool": "node-b", "device": "gpu-0"}]}, "nodeSelector":
              {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In",
              "values": ["node-b"]}]}]}}}})" "\n";
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  auto node_of_first_pod = [&](auto policy, sched::node_choice choice) {
    sched::scheduling_cycle<cel::selector_engine, decltype(policy)> cycle(
        doc->scenario(), cycle_engine, alloc::features::all(), policy, sched::run_options{.nodes = choice});
    cycle.run_pod(cycle.queue()[0]);
    return cycle.report().pods.at(0).node.value_or("-");
  };
  EXPECT_EQ(node_of_first_pod(alloc::first_fit{}, sched::node_choice::first_feasible), "node-a");
  EXPECT_EQ(node_of_first_pod(alloc::sorted{}, sched::node_choice::first_feasible), "node-b");  // best fit packs
  EXPECT_EQ(node_of_first_pod(alloc::first_fit{}, sched::node_choice::kube_score), "node-a");
  EXPECT_EQ(node_of_first_pod(alloc::sorted{}, sched::node_choice::kube_score), "node-a");  // the scores decide
}

}  // namespace
