// Pods asking for extended resources in their containers, served through DRA where a DeviceClass maps the name and
// the node's allocatable has none of it (KEP-5004): the claim kube-scheduler makes, where it goes, what is written.
#include "../support/cluster_text.hpp"
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using namespace dra;

const cel::selector_engine extended_engine;

std::string gpu_class(std::string_view name, std::string_view driver, std::string_view created = "2026-01-01T00:00:00Z") {
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": ")" + std::string(name) +
         R"(", "creationTimestamp": ")" + std::string(created) +
         R"("}, "spec": {"extendedResourceName": "example.com/gpu", "selectors": [{"cel": {"expression": "device.driver == ')" +
         std::string(driver) + R"('"}}]}})" + "\n";
}

std::string gpu_node(std::string_view name, std::string_view gpus = "") {
  dra_test::text_pairs allocatable{{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "110"}};
  if (!gpus.empty()) allocatable.emplace_back("example.com/gpu", gpus);
  return dra_test::node_text(name, allocatable);
}

std::string gpu_slice(std::string_view node, int devices, std::string_view driver = "gpu.example.com") {
  return dra_test::gpu_slice_text(std::string(node) + "-" + std::string(driver), node, driver, devices);
}

std::string gpu_pod(std::string_view name, std::string_view gpus, std::string_view resource = "example.com/gpu") {
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + std::string(name) +
         R"(", "namespace": "default", "uid": "uid-)" + std::string(name) +
         R"("}, "spec": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1", ")" + std::string(resource) +
         R"(": ")" + std::string(gpus) + R"("}, "limits": {")" + std::string(resource) + R"(": ")" + std::string(gpus) +
         "\"}}}]}}\n";
}

struct extended_run {
  std::optional<json::document> doc;
  sim::run_report report;
};

extended_run run_extended(const std::string& text) {
  extended_run out;
  auto doc = json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return out;
  out.doc.emplace(std::move(*doc));
  out.report = sim::run_scenario(out.doc->scenario(), extended_engine);
  return out;
}

std::vector<std::string> devices_of(const model::claim_outcome& o) {
  std::vector<std::string> out;
  if (const auto* a = o.allocated())
    for (const auto& r : a->allocation.results)
      out.push_back(r.request + " " + std::string(r.driver) + "/" + std::string(r.device));
  return out;
}

TEST(ExtendedResources, APureDraNodeGetsTheClaim) {
  const auto r = run_extended(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a") + gpu_slice("node-a", 2) +
                     gpu_pod("trainer", "2"));
  ASSERT_EQ(r.report.pods.size(), 1u);
  EXPECT_EQ(r.report.pods[0].node, "node-a");
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  EXPECT_EQ(r.report.outcomes[0].claim, "default/trainer-extended-resources");
  // Sorted requests of the container: cpu, example.com/gpu: the request is its second.
  EXPECT_EQ(devices_of(r.report.outcomes[0]),
            (std::vector<std::string>{"container-0-request-1 gpu.example.com/gpu-0",
                                      "container-0-request-1 gpu.example.com/gpu-1"}));
}

TEST(ExtendedResources, ADevicePluginNodeKeepsNodeResourcesFit) {
  const auto r = run_extended(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a", "4") + gpu_slice("node-a", 2) +
                     gpu_pod("trainer", "3") + gpu_pod("second", "2"));
  ASSERT_EQ(r.report.pods.size(), 2u);
  EXPECT_EQ(r.report.pods[0].node, "node-a");
  EXPECT_TRUE(r.report.outcomes.empty());  // no claim where the device plugin serves the resource
  EXPECT_EQ(r.report.pods[1].unschedulable,
            "0/1 nodes are available: 1 Insufficient example.com/gpu. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod.");
}

TEST(ExtendedResources, InAMixedClusterTheNodeOrderDecides) {
  const std::string classes = gpu_class("gpu.example.com", "gpu.example.com");
  // The device-plugin node first, too small: the DRA node after it takes the pod with a claim.
  auto r = run_extended(classes + gpu_node("plugin", "1") + gpu_node("dra") + gpu_slice("dra", 2) + gpu_pod("trainer", "2"));
  ASSERT_EQ(r.report.pods.size(), 1u);
  EXPECT_EQ(r.report.pods[0].node, "dra");
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  EXPECT_EQ(r.report.outcomes[0].allocated()->node, "dra");
  // The DRA node first, too small: the device-plugin node after it takes the pod, and no claim is made.
  r = run_extended(classes + gpu_node("dra") + gpu_slice("dra", 1) + gpu_node("plugin", "4") + gpu_pod("trainer", "2"));
  EXPECT_EQ(r.report.pods[0].node, "plugin");
  EXPECT_TRUE(r.report.outcomes.empty());
  // Neither fits: each node's own reason; the claim keeps the DRA node's answer.
  r = run_extended(classes + gpu_node("dra") + gpu_slice("dra", 1) + gpu_node("plugin", "1") + gpu_pod("trainer", "2"));
  EXPECT_EQ(r.report.pods[0].unschedulable,
            "0/2 nodes are available: 1 Insufficient example.com/gpu, 1 cannot allocate all claims. still not "
            "schedulable, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 "
            "Preemption is not helpful for scheduling.");
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  EXPECT_EQ(r.report.outcomes[0].claim, "default/trainer-extended-resources");
  ASSERT_NE(r.report.outcomes[0].unschedulable(), nullptr);
  ASSERT_EQ(r.report.generated.size(), 1u);
  EXPECT_TRUE(r.report.generated[0].extended);
}

TEST(ExtendedResources, NoClassAndNoNodeMeansInsufficient) {
  const auto r = run_extended(gpu_node("node-a") + gpu_slice("node-a", 2) + gpu_pod("trainer", "1"));
  // No DeviceClass serves the resource: the pod has no claim for DynamicResources to speak of.
  EXPECT_EQ(r.report.pods[0].unschedulable,
            "0/1 nodes are available: 1 Insufficient example.com/gpu. no new claims to deallocate, preemption: 0/1 "
            "nodes are available: 1 No preemption victims found for incoming pod.");
  EXPECT_TRUE(r.report.outcomes.empty());
}

TEST(ExtendedResources, TheClassCreatedLastServesTheName) {
  const std::string slices = gpu_slice("node-a", 1, "old.example.com") + gpu_slice("node-a", 1, "new.example.com");
  auto r = run_extended(gpu_class("old", "old.example.com", "2026-01-01T00:00:00Z") +
               gpu_class("new", "new.example.com", "2026-03-01T00:00:00Z") + gpu_node("node-a") + slices +
               gpu_pod("trainer", "1"));
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  EXPECT_EQ(devices_of(r.report.outcomes[0]), (std::vector<std::string>{"container-0-request-1 new.example.com/gpu-0"}));
  // Created at once: the first name.
  r = run_extended(gpu_class("b-class", "new.example.com", "2026-01-01T00:00:00Z") +
          gpu_class("a-class", "old.example.com", "2026-01-01T00:00:00Z") + gpu_node("node-a") + slices +
          gpu_pod("trainer", "1"));
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  EXPECT_EQ(devices_of(r.report.outcomes[0]), (std::vector<std::string>{"container-0-request-1 old.example.com/gpu-0"}));
}

TEST(ExtendedResources, TheImplicitNameServesToo) {
  const auto r = run_extended(gpu_class("gpu", "gpu.example.com") + gpu_node("node-a") + gpu_slice("node-a", 1) +
                     gpu_pod("trainer", "1", "deviceclass.resource.kubernetes.io/gpu"));
  EXPECT_EQ(r.report.pods[0].node, "node-a");
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  // Sorted requests: cpu, deviceclass.resource.kubernetes.io/gpu.
  EXPECT_EQ(devices_of(r.report.outcomes[0]), (std::vector<std::string>{"container-0-request-1 gpu.example.com/gpu-0"}));
}

TEST(ExtendedResources, InitContainersShareTheClaim) {
  const std::string pod = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
 "spec": {"initContainers": [{"name": "setup", "resources": {"limits": {"example.com/gpu": "1"}}},
                             {"name": "load", "resources": {"requests": {"memory": "1Gi"}, "limits": {"example.com/gpu": "3"}}}],
          "containers": [{"name": "main", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"example.com/gpu": "2"}}}]}}
)";
  const auto r = run_extended(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a") + gpu_slice("node-a", 3) + pod);
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  // setup (0) uses main's 2 devices; load (1) needs 1 more of its own (example.com/gpu sorts before memory); main is
  // container 2 (cpu, example.com/gpu, memory).
  EXPECT_EQ(devices_of(r.report.outcomes[0]),
            (std::vector<std::string>{"container-1-request-0 gpu.example.com/gpu-0",
                                      "container-2-request-1 gpu.example.com/gpu-1",
                                      "container-2-request-1 gpu.example.com/gpu-2"}));
}

TEST(ExtendedResources, TheScenarioRecordsTheClaimAndThePodsStatus) {
  const auto r = run_extended(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a") + gpu_slice("node-a", 1) +
                     gpu_pod("trainer", "1"));
  auto after = sim::scenario_after(r.doc->scenario(), r.report);
  ASSERT_TRUE(after) << after.error().to_string();
  EXPECT_NE(after->find(R"("extendedResourceClaimStatus": {
          "requestMappings": [
            {
              "containerName": "main",
              "resourceName": "example.com/gpu",
              "requestName": "container-0-request-1"
            }
          ],
          "resourceClaimName": "trainer-extended-resources"
        })"),
            std::string::npos)
      << *after;
  EXPECT_NE(after->find(R"("resource.kubernetes.io/extended-resource-claim": "true")"), std::string::npos) << *after;
  EXPECT_NE(after->find(R"("deviceClassName": "gpu.example.com",)"), std::string::npos) << *after;
  // Run again: the pod is bound and its claim allocated, nothing is left to do.
  auto again = json::load(*after);
  ASSERT_TRUE(again) << again.error().to_string();
  const auto second = sim::run_scenario(again->scenario(), extended_engine);
  EXPECT_TRUE(second.outcomes.empty());
  EXPECT_TRUE(second.pods.empty());
}

TEST(ExtendedResources, AClaimInThePodsStatusIsUsed) {
  const std::string claim = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
 "metadata": {"name": "trainer-extended-resources-x1y2z", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "container-0-request-1", "exactly": {"deviceClassName": "gpu.example.com", "count": 1}}]}}}
)";
  const std::string pod = R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer", "namespace": "default"},
 "spec": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "1"}, "limits": {"example.com/gpu": "1"}}}]},
 "status": {"extendedResourceClaimStatus": {"resourceClaimName": "trainer-extended-resources-x1y2z",
   "requestMappings": [{"containerName": "main", "resourceName": "example.com/gpu", "requestName": "container-0-request-1"}]}}}
)";
  const auto r = run_extended(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a") + gpu_slice("node-a", 1) + claim + pod);
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  EXPECT_EQ(r.report.outcomes[0].claim, "default/trainer-extended-resources-x1y2z");
  EXPECT_TRUE(r.report.subjects[0].pod);  // allocated in the pod's unit of work, not as a claim no pod uses
  EXPECT_TRUE(r.report.generated.empty());
  EXPECT_EQ(r.report.pods[0].node, "node-a");
}

// The claim names of a capacity run's allocated claims, in the order they were allocated.
std::vector<std::string> allocated_claims(const sim::run_report& report) {
  std::vector<std::string> out;
  for (const auto& o : report.outcomes)
    if (o.allocated()) out.push_back(o.claim);
  return out;
}

TEST(ExtendedResources, CapacityCountsCopiesByTheDevicesEachAsksFor) {
  // Copies are pods the scenario does not have (their indexes run past its pods): each copy's extended-resource
  // claim is its own, `<copy>-extended-resources`, and a node with `devices` GPUs takes devices / asked copies.
  struct size {
    int devices, asked;
  };
  for (const size z : {size{4, 2}, size{4, 1}, size{8, 3}}) {
    SCOPED_TRACE(std::to_string(z.devices) + " devices, " + std::to_string(z.asked) + " asked");
    auto cluster = json::load(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a") +
                              gpu_slice("node-a", z.devices));
    auto pod = json::load(gpu_pod("ext", std::to_string(z.asked)));
    ASSERT_TRUE(cluster && pod);
    const auto report = sim::capacity(cluster->scenario(), pod->scenario().pods[0], extended_engine);
    ASSERT_TRUE(report) << report.error().to_string();
    const std::size_t fits = static_cast<std::size_t>(z.devices / z.asked);
    EXPECT_EQ(report->fits, fits);
    EXPECT_EQ(report->nodes, (std::vector<sim::node_count>{{"node-a", fits}}));
    std::vector<std::string> expected;
    for (std::size_t n = 1; n <= fits; ++n)
      expected.push_back("default/ext-" + std::to_string(n) + "-extended-resources");
    EXPECT_EQ(allocated_claims(report->run), expected);
    ASSERT_TRUE(report->next);
    ASSERT_EQ(report->next_claims.size(), 1u);
    EXPECT_EQ(report->run.outcomes[report->next_claims[0]].claim,
              "default/ext-" + std::to_string(fits + 1) + "-extended-resources");
  }
}

TEST(ExtendedResources, CapacityOfAPendingPodCountsCopiesAfterIt) {
  // The pod copied is pending in the scenario: it takes its GPUs first (its claim named after it), the copies share
  // what is left: (8 - 3) / 3 = 1 copy.
  auto doc = json::load(gpu_class("gpu.example.com", "gpu.example.com") + gpu_node("node-a") + gpu_slice("node-a", 8) +
                        gpu_pod("ext", "3"));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto report = sim::capacity(doc->scenario(), doc->scenario().pods[0], extended_engine);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(report->fits, 1u);
  EXPECT_EQ(allocated_claims(report->run),
            (std::vector<std::string>{"default/ext-extended-resources", "default/ext-1-extended-resources"}));
  ASSERT_EQ(report->next_claims.size(), 1u);
  EXPECT_EQ(report->run.outcomes[report->next_claims[0]].claim, "default/ext-2-extended-resources");
}

// kubernetes PR #141898: a request for all devices of a pool being updated rules out that node only.
TEST(AllDevices, AnIncompletePoolRulesOutItsNodeOnly) {
  const std::string incomplete = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "a"},
 "spec": {"driver": "gpu.example.com", "nodeName": "node-a", "pool": {"name": "node-a", "resourceSliceCount": 2}, "devices": [{"name": "gpu-0"}]}}
)";
  const std::string claim = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "all", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {"deviceClassName": "gpu.example.com", "allocationMode": "All"}}]}}}
)";
  const std::string cls = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"}}
)";
  auto r = run_extended(cls + incomplete + gpu_slice("node-b", 2) + claim);
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  ASSERT_NE(r.report.outcomes[0].allocated(), nullptr) << r.report.outcomes[0].error()->message;
  EXPECT_EQ(r.report.outcomes[0].allocated()->node, "node-b");
  // Alone, the node's message is the claim's error, as before.
  r = run_extended(cls + incomplete + claim);
  ASSERT_EQ(r.report.outcomes.size(), 1u);
  ASSERT_NE(r.report.outcomes[0].error(), nullptr);
  EXPECT_EQ(r.report.outcomes[0].error()->code, errc::pool_unavailable);
  EXPECT_EQ(r.report.outcomes[0].error()->message,
            "claim default/all, request gpus: asks for all devices, but resource pool gpu.example.com/node-a is currently "
            "being updated");
}

}  // namespace
