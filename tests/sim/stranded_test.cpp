// sim::stranded_capacity on tests/cli/data/stranded.yaml (three nodes with one GPU each, shared by capacity), on the
// current state and after a run, and its text, JSON and Prometheus forms, worked out by hand.
#include "../support/source_dir.hpp"

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/analysis/stranded.hpp>
#include <dra/sim/output/capacity_output.hpp>
#include <dra/sim/output/stranded_output.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace stranded_tests {

using namespace dra;

const cel::selector_engine engine;

std::string fixture_text() {
  std::ifstream in(dra_test::source_dir() + "/tests/cli/data/stranded.yaml");
  return {std::istreambuf_iterator<char>(in), {}};
}

json::document load(const std::string& text) {
  auto doc = json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  return std::move(*doc);
}

// The fixture without its pending pods (the Pods that name no node).
std::string without_pending_pods(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find("\n---\n", at);
    end = end == std::string::npos ? text.size() : end + 5;
    const std::string doc = text.substr(at, end - at);
    if (doc.find("kind: Pod\n") == std::string::npos || doc.find("nodeName") != std::string::npos) out += doc;
    at = end;
  }
  return out;
}

TEST(Stranded, TheCurrentStateForThePendingShapes) {
  const auto doc = load(fixture_text());
  const sim::stranded_report r = sim::stranded_capacity(doc.scenario(), engine);
  EXPECT_EQ(r.shapes_from, sim::shape_source::pending);
  EXPECT_EQ(r.pods, 4u);
  EXPECT_EQ(r.shapes, 2u);  // half (3 pods, weight 3/4), quarter (1 pod, 1/4)
  ASSERT_EQ(r.nodes.size(), 3u);
  // node-a: busy takes its 8 cpus, no pending pod fits: its idle GPU is stranded, for either shape.
  EXPECT_EQ(r.nodes[0].node, "node-a");
  EXPECT_EQ(r.nodes[0].free, 1);
  EXPECT_EQ(r.nodes[0].stranded, 1);
  EXPECT_EQ(r.nodes[0].stranded_list.size(), 1u);
  EXPECT_EQ(r.nodes[0].fragmentation, 1);
  EXPECT_EQ(r.nodes[0].stranded_list,
            (std::vector<sim::stranded_device>{{"gpu.example.com", "node-a", "gpu-0", 1.0}}));
  // node-b: 0.3 of its GPU left (30 of 100 cores; 8 of 16Gi). The quarter pod can use it: not stranded; the half pods
  // (3/4 of the pods) cannot: fragmentation 0.225.
  EXPECT_EQ(r.nodes[1].node, "node-b");
  EXPECT_NEAR(r.nodes[1].free, 0.3, 1e-9);
  EXPECT_EQ(r.nodes[1].stranded, 0);
  EXPECT_TRUE(r.nodes[1].stranded_list.empty());
  EXPECT_NEAR(r.nodes[1].fragmentation, 0.225, 1e-9);
  // node-c: idle, every shape fits.
  EXPECT_EQ(r.nodes[2].free, 1);
  EXPECT_EQ(r.nodes[2].stranded, 0);
  EXPECT_EQ(r.nodes[2].fragmentation, 0);
  EXPECT_EQ(r.devices, 3u);
  EXPECT_NEAR(r.free, 2.3, 1e-9);
  EXPECT_EQ(r.stranded, 1);
  EXPECT_EQ(r.stranded_devices, 1u);
  EXPECT_NEAR(r.fragmentation, 1.225, 1e-9);
  EXPECT_EQ(r.not_measured, 0u);
}

TEST(Stranded, AfterARunForThePodsItLeftPending) {
  // First fit: half-1 and half-2 on node-c (node-a has no cpu, node-b 0.3 of a GPU), half-3 nowhere, quarter on node-b
  // (0.05 left: 5 cores). Pending after it: half-3 alone; node-b's 0.05 and node-a's idle GPU are stranded for it.
  const auto doc = load(fixture_text());
  const auto report = sim::run_scenario(doc.scenario(), engine, alloc::features::all(), alloc::first_fit{});
  ASSERT_EQ(report.pods.size(), 4u);
  EXPECT_EQ(report.pods[0].node, "node-c");
  EXPECT_EQ(report.pods[1].node, "node-c");
  EXPECT_FALSE(report.pods[2].node);
  EXPECT_EQ(report.pods[3].node, "node-b");
  const sim::stranded_report r = sim::stranded_capacity(doc.scenario(), engine, report);
  EXPECT_EQ(r.shapes_from, sim::shape_source::pending);
  EXPECT_EQ(r.pods, 1u);
  ASSERT_EQ(r.nodes.size(), 3u);
  EXPECT_EQ(r.nodes[0].stranded, 1);
  EXPECT_NEAR(r.nodes[1].free, 0.05, 1e-9);
  EXPECT_NEAR(r.nodes[1].stranded, 0.05, 1e-9);
  EXPECT_EQ(r.nodes[2].free, 0);
  EXPECT_NEAR(r.free, 1.05, 1e-9);
  EXPECT_NEAR(r.stranded, 1.05, 1e-9);
  EXPECT_EQ(r.stranded_devices, 2u);
  EXPECT_NEAR(r.fragmentation, 1.05, 1e-9);
  // The occupancy after the run carries the same figures.
  const sim::occupancy occ = sim::compute_occupancy(doc.scenario(), report, engine);
  EXPECT_EQ(occ.stranded.nodes, r.nodes);
}

TEST(Stranded, NothingPendingMeasuresForTheTypicalShapes) {
  // Only user's shape is left (1 cpu, 70 cores and 8Gi: 0.7 of a GPU): node-a's GPU (no cpu beside it) and node-b's
  // 0.3 are stranded, node-c's GPU is not.
  const auto doc = load(without_pending_pods(fixture_text()));
  ASSERT_EQ(doc.scenario().pods.size(), 2u);
  const sim::stranded_report r = sim::stranded_capacity(doc.scenario(), engine);
  EXPECT_EQ(r.shapes_from, sim::shape_source::typical);
  EXPECT_EQ(r.pods, 1u);
  EXPECT_NEAR(r.stranded, 1.3, 1e-9);
  EXPECT_EQ(r.stranded_devices, 2u);
  EXPECT_NEAR(r.fragmentation, 1.3, 1e-9);
  EXPECT_NEAR(r.free, 2.3, 1e-9);
}

TEST(Stranded, NoPodShapeMeasuresNothing) {
  const std::string text = fixture_text();
  const auto doc = load(text.substr(0, text.find("apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate")));
  const sim::stranded_report r = sim::stranded_capacity(doc.scenario(), engine);
  EXPECT_EQ(r.shapes_from, sim::shape_source::none);
  EXPECT_TRUE(r.nodes.empty());
  EXPECT_TRUE(sim::stranded_text(r).empty());
  EXPECT_EQ(sim::to_metrics(sim::availability_report{}).find("stranded"), std::string::npos);
}

TEST(Stranded, PartitionsAreNotMeasured) {
  // The default scenario's GPUs and their MIG partitions draw on counter sets: a share left is not what they have.
  std::ifstream in(dra_test::source_dir() + "/examples/scenarios/dgx-a100.json");
  const auto doc = load({std::istreambuf_iterator<char>(in), {}});
  const sim::stranded_report r = sim::stranded_capacity(doc.scenario(), engine);
  ASSERT_NE(r.shapes_from, sim::shape_source::none);
  ASSERT_FALSE(r.nodes.empty());
  for (const auto& n : r.nodes) {
    EXPECT_FALSE(n.measured) << n.node;
    EXPECT_EQ(n.free, 0);
  }
  EXPECT_EQ(r.not_measured, r.nodes.size());
  EXPECT_EQ(r.devices, 0u);
  EXPECT_EQ(r.free, 0);
  // Dashes and why, and no total.
  const std::string text = sim::stranded_text(r);
  EXPECT_NE(text.find("dgx-a100-1  26       -     -         -              not measured: its devices draw on "
                      "counters\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("total"), std::string::npos) << text;
  // JSON says the totals are unknown, the metrics leave them out.
  const auto view = sim::availability(doc.scenario(), engine);
  ASSERT_TRUE(view) << view.error().to_string();
  const std::string json = sim::to_json(*view);
  EXPECT_NE(json.find(R"("free": null,
    "stranded": null,
    "strandedDevices": null,
    "fragmentation": null,
    "notMeasured": 1,)"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("devices": 26,
        "measured": false
      })"),
            std::string::npos)
      << json;
  const std::string metrics = sim::to_metrics(*view);
  EXPECT_EQ(metrics.find("dra_device_capacity_free"), std::string::npos) << metrics;
  EXPECT_EQ(metrics.find("dra_node_device_capacity_free{"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\ndra_stranded_nodes_not_measured 1\n"), std::string::npos) << metrics;
}

TEST(Stranded, TextJsonAndMetrics) {
  const auto doc = load(fixture_text());
  const auto report = sim::availability(doc.scenario(), engine);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(sim::stranded_text(report->stranded),
            "stranded device capacity, in devices, for the pending pods' shapes (2 kept of 4 pods)\n"
            "NODE    DEVICES  FREE  STRANDED  FRAGMENTATION\n"
            "node-a  1        1     1 on 1    1\n"
            "node-b  1        0.3   0         0.225\n"
            "node-c  1        1     0         0\n"
            "total   3        2.3   1 on 1    1.225\n");
  const std::string json = sim::to_json(*report);
  const std::string stranded = json.substr(json.find("\n  \"stranded\": {"));
  EXPECT_EQ(stranded, R"(
  "stranded": {
    "shapes": {
      "from": "pending",
      "pods": 4,
      "kept": 2
    },
    "devices": 3,
    "free": 2.3,
    "stranded": 1,
    "strandedDevices": 1,
    "fragmentation": 1.225,
    "notMeasured": 0,
    "nodes": [
      {
        "node": "node-a",
        "devices": 1,
        "measured": true,
        "free": 1,
        "stranded": 1,
        "strandedDevices": 1,
        "fragmentation": 1,
        "strandedOn": [
          {
            "driver": "gpu.example.com",
            "pool": "node-a",
            "device": "gpu-0",
            "free": 1
          }
        ]
      },
      {
        "node": "node-b",
        "devices": 1,
        "measured": true,
        "free": 0.3,
        "stranded": 0,
        "strandedDevices": 0,
        "fragmentation": 0.225,
        "strandedOn": []
      },
      {
        "node": "node-c",
        "devices": 1,
        "measured": true,
        "free": 1,
        "stranded": 0,
        "strandedDevices": 0,
        "fragmentation": 0,
        "strandedOn": []
      }
    ]
  }
}
)");
  const std::string metrics = sim::to_metrics(*report);
  for (const char* line : {"# TYPE dra_node_device_capacity_stranded gauge\n",
                           "dra_node_device_capacity_stranded{node=\"node-a\"} 1\n",
                           "dra_node_device_capacity_stranded{node=\"node-b\"} 0\n",
                           "dra_node_device_capacity_free{node=\"node-b\"} 0.3\n",
                           "dra_node_device_fragmentation{node=\"node-b\"} 0.225\n",
                           "dra_node_devices_stranded{node=\"node-a\"} 1\n", "dra_device_capacity_free 2.3\n",
                           "dra_device_capacity_stranded 1\n", "dra_devices_stranded 1\n",
                           "dra_device_fragmentation 1.225\n", "dra_stranded_pod_shapes{source=\"pending\"} 2\n",
                           "dra_stranded_nodes_not_measured 0\n"})
    EXPECT_NE(metrics.find(line), std::string::npos) << line << "\n" << metrics;
}

}  // namespace stranded_tests
