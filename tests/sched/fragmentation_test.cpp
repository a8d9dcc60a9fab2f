// sched::fragmentation_gauge (FGD's measure over devices shared by capacity) and `sorted` choosing nodes by it: the
// capacity pending pods' shapes could not use, and what no shape can use (fragments), worked out by hand.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/cluster_state.hpp>
#include <dra/sched/fragmentation.hpp>
#include <dra/sim/runner.hpp>

#include "../support/shared_allocation.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using namespace dra;

const cel::selector_engine engine;

// Nodes `names` (8 cpu, 32Gi each), each with two GPUs shared by capacity (1 GPU each) of the given model.
std::string shared_gpu_nodes(const std::vector<std::pair<std::string, std::string>>& names) {
  std::string out = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
    "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
)";
  for (const auto& [name, model] : names) {
    out += R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name +
           R"("}, "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + name +
           R"("}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + name + R"(", "pool": {"name": ")" + name +
           R"(", "resourceSliceCount": 1}, "devices": [)";
    for (int g = 0; g < 2; ++g)
      out += std::string(g ? "," : "") + R"({"name": "gpu-)" + std::to_string(g) +
             R"(", "allowMultipleAllocations": true, "attributes": {"model": {"string": ")" + model +
             R"("}}, "capacity": {"gpu": {"value": "1"}}})";
    out += "]}}\n";
  }
  return out;
}

// A claim template asking for `share` of one GPU (or, with `count`, whole ones), optionally of one model.
std::string gpu_template(const std::string& name, const std::string& share, int count = 1,
                         const std::string& model = "") {
  std::string selectors;
  if (!model.empty())
    selectors = R"(, "selectors": [{"cel": {"expression": "device.attributes['gpu.example.com'].model == ')" + model +
                R"('"}}])";
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": ")" + name +
         R"(", "namespace": "default"}, "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
         "deviceClassName": "gpu", "count": )" + std::to_string(count) + R"(, "capacity": {"requests": {"gpu": ")" +
         share + "\"}}" + selectors + "}}]}}}}\n";
}

// A pending pod requesting `cpu`, with a claim from `template_name` unless empty.
std::string pod(const std::string& name, const std::string& cpu, const std::string& template_name = "",
                const std::string& node = "") {
  std::string spec = R"("containers": [{"name": "c", "resources": {"requests": {"cpu": ")" + cpu + R"("}}}])";
  if (!template_name.empty())
    spec += R"(, "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": ")" + template_name + R"("}])";
  if (!node.empty()) spec += R"(, "nodeName": ")" + node + "\"";
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "default"}, "spec": {)" + spec + "}}\n";
}

// What one claim allocates on node-a: `share` of GPU `device`.
model::allocation_result share_of(std::string_view device, std::string_view share) {
  return dra_test::shared_allocation("node-a", device, "gpu", share);
}

struct gauge_fixture {
  json::document doc;
  std::vector<const model::node*> nodes;
  alloc::ledger ledger;
  std::vector<model::device_claim> claims;

  explicit gauge_fixture(const std::string& text) : doc(*json::load(text)) {
    for (const auto& n : doc.scenario().nodes) nodes.push_back(&n.object);
    for (const auto& t : doc.scenario().claim_templates) claims.push_back(t.object.spec);
  }
};

// One kind of pending pod: 1 cpu and half a GPU. gpu-0 has 0.6 left, gpu-1 is idle: both can take one.
struct half_gpu_pods {
  gauge_fixture f{shared_gpu_nodes({{"node-a", "a100"}}) + gpu_template("half", "500m")};
  sched::fragmentation_gauge<cel::selector_engine> gauge{f.doc.scenario(), f.nodes, engine};

  half_gpu_pods() {
    f.ledger.add(share_of("gpu-0", "400m"));
    const std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload{
        {sched::amounts{{"cpu", 1000}}, {&f.claims[0]}}};
    gauge.set_workload(workload);
  }
};

TEST(FragmentationGauge, CountsTheFreeCapacityAPendingShapeCannotUse) {
  half_gpu_pods pods;
  auto& [f, gauge] = pods;
  ASSERT_TRUE(gauge.on());
  EXPECT_DOUBLE_EQ(gauge.stranded(0, {}, f.ledger), 0);
  // Half a GPU more on gpu-0 leaves it 0.1, which no such pod can use: 0.1 stranded, 100 / (1 + e^0.1) = 47.
  const sched::cpu_and_memory one_cpu{1000, 0};
  const std::vector<model::allocation_result> on_gpu0{share_of("gpu-0", "500m")};
  const std::vector<model::allocation_result> on_gpu1{share_of("gpu-1", "500m")};
  EXPECT_EQ(gauge.score(0, {}, one_cpu, on_gpu0, f.ledger), 47);
  // On the idle gpu-1 it leaves 0.6 and 0.5, both usable: unchanged, 50.
  EXPECT_EQ(gauge.score(0, {}, one_cpu, on_gpu1, f.ledger), 50);
  // With 7.5 of its 8 cpus taken, no such pod fits the node: all 1.6 GPUs it has free are stranded.
  sched::node_usage busy;
  busy.add(sched::amounts{{"cpu", 7500}});
  EXPECT_DOUBLE_EQ(gauge.stranded(0, busy, f.ledger), 1.6);
}

TEST(FragmentationGauge, AScoreIsWorkedOutAgainOnceTheNodesPodsTakeMoreCpu) {
  // As above, half a GPU on the idle gpu-1 changes nothing (50). Once the node's pods take 7.5 of its 8 cpus, no such
  // pod fits before (1.6 stranded) nor after (1.1: 0.6 and 0.5 left): it lowers fragmentation by 0.5, 62.
  half_gpu_pods pods;
  auto& [f, gauge] = pods;
  const sched::cpu_and_memory one_cpu{1000, 0};
  const std::vector<model::allocation_result> on_gpu1{share_of("gpu-1", "500m")};
  EXPECT_EQ(gauge.score(0, {}, one_cpu, on_gpu1, f.ledger), 50);
  EXPECT_EQ(gauge.score(0, {7500, 0}, one_cpu, on_gpu1, f.ledger), 62);
  EXPECT_EQ(gauge.score(0, {}, one_cpu, on_gpu1, f.ledger), 50);
}

TEST(FragmentationGauge, ShapesWeighByHowManyPodsAskAndModelsNarrowWhatTheyCanUse) {
  // Three pods ask for a whole a100, one for a whole t4: on an a100 node with 0.6 and 1 left, the a100 pods cannot use
  // 0.6 (3/4 of it counts) and the t4 pod can use none of the node (all 1.6 count, 1/4 of it): 0.45 + 0.4.
  gauge_fixture f(shared_gpu_nodes({{"node-a", "a100"}}) + gpu_template("a100", "1", 1, "a100") +
                  gpu_template("t4", "1", 1, "t4"));
  f.ledger.add(share_of("gpu-0", "400m"));
  sched::fragmentation_gauge<cel::selector_engine> gauge(f.doc.scenario(), f.nodes, engine);
  const sched::amounts none;
  std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload(3, {none, {&f.claims[0]}});
  workload.push_back({none, {&f.claims[1]}});
  gauge.set_workload(workload);
  EXPECT_NEAR(gauge.stranded(0, {}, f.ledger), 0.75 * 0.6 + 0.25 * 1.6, 1e-9);
}

TEST(FragmentationGauge, ShapesAskingForTheSameDevicesDifferOnlyInWhetherTheirCpuFits) {
  // gpu-0 has 0.6 left, gpu-1 is idle. Pending, most common first: three pods of 1 cpu and 0.7 of a GPU (only gpu-1
  // can take one: 0.6 stranded), two of 1 cpu and half a GPU (both can: none), one of 2 cpu and 0.7 of a GPU (as the
  // first kind when its 2 cpu fit; else all 1.6 stranded).
  gauge_fixture f(shared_gpu_nodes({{"node-a", "a100"}}) + gpu_template("most", "700m") +
                  gpu_template("half", "500m") + gpu_template("most-again", "700m"));
  f.ledger.add(share_of("gpu-0", "400m"));
  sched::fragmentation_gauge<cel::selector_engine> gauge(f.doc.scenario(), f.nodes, engine);
  const sched::amounts one_cpu{{"cpu", 1000}}, two_cpu{{"cpu", 2000}};
  std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload(3, {one_cpu, {&f.claims[0]}});
  workload.insert(workload.end(), 2, {one_cpu, {&f.claims[1]}});
  workload.push_back({two_cpu, {&f.claims[2]}});
  gauge.set_workload(workload);
  ASSERT_EQ(gauge.shapes().size(), 3u);
  sched::node_usage four_left, one_left;
  four_left.add(sched::amounts{{"cpu", 4000}});
  one_left.add(sched::amounts{{"cpu", 7000}});
  EXPECT_NEAR(gauge.stranded(0, four_left, f.ledger), 3.0 / 6 * 0.6 + 1.0 / 6 * 0.6, 1e-9);
  EXPECT_NEAR(gauge.stranded(0, one_left, f.ledger), 3.0 / 6 * 0.6 + 1.0 / 6 * 1.6, 1e-9);
}

TEST(FragmentationGauge, FragmentsSayWhatNoShapeCanUse) {
  // gpu-0 has 0.3 left, gpu-1 is idle. Pending: three pods asking half a GPU, one a quarter.
  gauge_fixture f(shared_gpu_nodes({{"node-a", "a100"}}) + gpu_template("half", "500m") +
                  gpu_template("quarter", "250m"));
  f.ledger.add(share_of("gpu-0", "700m"));
  sched::fragmentation_gauge<cel::selector_engine> gauge(f.doc.scenario(), f.nodes, engine);
  const sched::amounts one_cpu{{"cpu", 1000}};
  std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload(3,
                                                                                          {one_cpu, {&f.claims[0]}});
  // Only half-GPU pods: gpu-0's 0.3 is stranded, gpu-1 is not; both measures say 0.3.
  gauge.set_workload(workload);
  sched::node_fragments only_halves = gauge.fragments(0, {}, f.ledger);
  EXPECT_TRUE(only_halves.measured);
  EXPECT_NEAR(only_halves.free, 1.3, 1e-9);
  EXPECT_NEAR(only_halves.stranded, 0.3, 1e-9);
  EXPECT_NEAR(only_halves.fragmentation, 0.3, 1e-9);
  ASSERT_EQ(only_halves.devices.size(), 2u);
  EXPECT_EQ(only_halves.devices[0].id.device, "gpu-0");
  EXPECT_TRUE(only_halves.devices[0].stranded);
  EXPECT_NEAR(only_halves.devices[0].free, 0.3, 1e-9);
  EXPECT_FALSE(only_halves.devices[1].stranded);
  EXPECT_NEAR(gauge.stranded(0, {}, f.ledger), only_halves.fragmentation, 1e-12);
  // A quarter-GPU pod can use gpu-0's 0.3: nothing is stranded, yet 3/4 of the pods cannot use it (0.225).
  workload.push_back({one_cpu, {&f.claims[1]}});
  gauge.set_workload(workload);
  EXPECT_EQ(gauge.shapes().size(), 2u);
  EXPECT_EQ(gauge.pods(), 4u);
  EXPECT_EQ(gauge.kept_pods(), 4u);
  const sched::node_fragments with_quarter = gauge.fragments(0, {}, f.ledger);
  EXPECT_NEAR(with_quarter.stranded, 0, 1e-9);
  EXPECT_NEAR(with_quarter.fragmentation, 0.75 * 0.3, 1e-9);
  // With 7.5 of the 8 cpus taken no pod fits: all 1.3 is stranded, on both GPUs.
  sched::node_usage busy;
  busy.add(sched::amounts{{"cpu", 7500}});
  const sched::node_fragments full = gauge.fragments(0, busy, f.ledger);
  EXPECT_NEAR(full.stranded, 1.3, 1e-9);
  EXPECT_NEAR(full.fragmentation, 1.3, 1e-9);
  EXPECT_TRUE(full.devices[0].stranded && full.devices[1].stranded);
}

TEST(FragmentationGauge, ExclusiveDevicesAreStrandedWholeAndPartitionsAreNotMeasured) {
  // node-a: two exclusive GPUs, gpu-0 allocated, and every cpu taken by its pods; node-b: a GPU partition drawing on a
  // counter set.
  const std::string text = R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a"},
 "status": {"allocatable": {"cpu": "4", "memory": "16Gi"}}}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-b"},
 "status": {"allocatable": {"cpu": "4", "memory": "16Gi"}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"}, "spec": {}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-a"},
 "spec": {"driver": "gpu.example.com", "nodeName": "node-a", "pool": {"name": "node-a", "resourceSliceCount": 1},
  "devices": [{"name": "gpu-0"}, {"name": "gpu-1"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-b"},
 "spec": {"driver": "gpu.example.com", "nodeName": "node-b", "pool": {"name": "node-b", "resourceSliceCount": 1},
  "sharedCounters": [{"name": "gpu-0", "counters": {"memory": {"value": "40Gi"}}}],
  "devices": [{"name": "gpu-0-half", "consumesCounters": [{"counterSet": "gpu-0",
    "counters": {"memory": {"value": "20Gi"}}}]}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
 "metadata": {"name": "one", "namespace": "default"},
 "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}}
)";
  gauge_fixture f(text);
  model::device_request_allocation_result held;
  held.request = "gpu";
  held.driver = "gpu.example.com";
  held.pool = "node-a";
  held.device = "gpu-0";
  f.ledger.add(held);
  sched::fragmentation_gauge<cel::selector_engine> gauge(f.doc.scenario(), f.nodes, engine);
  const std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload{
      {sched::amounts{{"cpu", 1000}}, {&f.claims[0]}}};
  gauge.set_workload(workload);
  sched::node_usage full;
  full.add(sched::amounts{{"cpu", 4000}});
  const sched::node_fragments a = gauge.fragments(0, full, f.ledger);
  EXPECT_TRUE(a.measured);
  EXPECT_EQ(a.free, 1);
  EXPECT_EQ(a.stranded, 1);
  ASSERT_EQ(a.devices.size(), 2u);
  EXPECT_EQ(a.devices[0].free, 0);
  EXPECT_FALSE(a.devices[0].stranded);  // allocated: nothing free to strand
  EXPECT_TRUE(a.devices[1].stranded);
  // With cpus to spare the pod could take gpu-1.
  EXPECT_EQ(gauge.fragments(0, {}, f.ledger).stranded, 0);
  EXPECT_FALSE(gauge.fragments(1, {}, f.ledger).measured);
}

TEST(FragmentationGauge, StaysOffWithoutDevicesSharedByCapacity) {
  const std::string exclusive = R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"}, "spec": {}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n"},
 "spec": {"driver": "gpu.example.com", "nodeName": "n", "pool": {"name": "n", "resourceSliceCount": 1}, "devices": [{"name": "gpu-0"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
 "metadata": {"name": "one", "namespace": "default"},
 "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}}
)";
  gauge_fixture f(exclusive);
  sched::fragmentation_gauge<cel::selector_engine> gauge(f.doc.scenario(), f.nodes, engine);
  const std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload{{{}, {&f.claims[0]}}};
  gauge.set_workload(workload);
  EXPECT_FALSE(gauge.on());
}

TEST(RequestedCpuAndMemory, ReadsANodesRequestsAgainOnceTheyHaveAnotherRevision) {
  sched::cluster_state state;
  state.requests.resize(2);
  state.change_requests(0).add(sched::amounts{{"cpu", 2000}, {"memory", 4096}});
  sched::requested_cpu_and_memory kept(2);
  const auto at_revision = [&](std::size_t i) { return kept.of(i, state.requests[i], state.usage_revision[i]); };
  EXPECT_EQ(at_revision(0).cpu, 2000);
  EXPECT_EQ(at_revision(0).memory, 4096);
  EXPECT_EQ(at_revision(1).cpu, 0);  // never changed: revision 0, read all the same
  state.change_requests(0).add(sched::amounts{{"cpu", 500}});
  state.change_requests(1).add(sched::amounts{{"memory", 1024}});
  EXPECT_EQ(at_revision(0).cpu, 2500);
  EXPECT_EQ(at_revision(1).memory, 1024);
  // A state assigned back (a gang's trial rolled back) has the revisions its requests had: those are read again.
  sched::cluster_state before;
  before.requests.resize(2);
  before.change_requests(0).add(sched::amounts{{"cpu", 100}});
  state.assign_all_but_ledger(before);
  EXPECT_EQ(at_revision(0).cpu, 100);
  EXPECT_EQ(at_revision(1).memory, 0);
}

TEST(SortedFragmentation, APodWithoutDevicesGoesWhereItStrandsNoGpu) {
  // node-a runs a pod holding one GPU and 6 of its 8 cpus; node-b is idle. A pod asking 2 cpus and no device, then
  // three asking 2 cpus and a whole GPU. First fit puts the first on node-a, whose last GPU then has no cpu beside it:
  // the third GPU pod fits nowhere. Best fit sees that node-a's GPU would be stranded for the GPU pods and puts the
  // cpu pod on node-b: every pod fits.
  const std::string text = shared_gpu_nodes({{"node-a", "a100"}, {"node-b", "a100"}}) +
                           gpu_template("whole", "1") + pod("running", "6", "whole", "node-a") +
                           pod("cpu-only", "2") + pod("gpu-1", "2", "whole") + pod("gpu-2", "2", "whole") +
                           pod("gpu-3", "2", "whole");
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  auto nodes_of = [](const sim::run_report& report) {  // the pending pods'
    std::vector<std::string> out;
    for (const auto& p : report.pods) out.push_back(p.node.value_or("-"));
    return out;
  };
  const auto first_fit = sim::run_scenario(doc->scenario(), engine, alloc::features::all(), alloc::first_fit{});
  EXPECT_EQ(nodes_of(first_fit), (std::vector<std::string>{"node-a", "node-b", "node-b", "-"}));
  const auto sorted = sim::run_scenario(doc->scenario(), engine, alloc::features::all(), alloc::sorted{});
  EXPECT_EQ(nodes_of(sorted), (std::vector<std::string>{"node-b", "node-a", "node-b", "node-b"}));
  EXPECT_EQ(sorted.placements, sim::run_report::answer::policy);
}

TEST(SortedFragmentation, APodWithoutDevicesThatOneOfAlikeNodesAdmitsGoesThere) {
  // node-a and node-b are alike (same devices, allocatable and pods) but for a label only node-b has, which the pod
  // without devices selects: its filters read more than what alike nodes share, so node-a's refusal is not node-b's.
  std::string text = shared_gpu_nodes({{"node-a", "a100"}, {"node-b", "a100"}}) + gpu_template("half", "0.5") +
                     pod("cpu-only", "2") + pod("gpu-1", "2", "half");
  const std::string node_b = R"("metadata": {"name": "node-b"})";
  text.replace(text.find(node_b), node_b.size(), R"("metadata": {"name": "node-b", "labels": {"pool": "blue"}})");
  const std::string cpu_only = R"("spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]})";
  const std::size_t at = text.find(cpu_only);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + cpu_only.size() - 1, R"(, "nodeSelector": {"pool": "blue"})");
  auto doc = json::load(text);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto sorted = sim::run_scenario(doc->scenario(), engine, alloc::features::all(), alloc::sorted{});
  ASSERT_EQ(sorted.pods.size(), 2u);
  EXPECT_EQ(sorted.pods[0].node.value_or("-"), "node-b");
  EXPECT_EQ(sorted.placements, sim::run_report::answer::policy);
}

}  // namespace
