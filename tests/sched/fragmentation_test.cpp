// sched::fragmentation_gauge (FGD's measure over devices shared by capacity) and `sorted` choosing nodes by it: the
// capacity pending pods' shapes could not use, worked out by hand.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/fragmentation.hpp>
#include <dra/sim/runner.hpp>

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
  model::device_request_allocation_result r;
  r.request = "gpu";
  r.driver = "gpu.example.com";
  r.pool = "node-a";
  r.device = device;
  r.share_id = "s";
  r.consumed_capacity = model::sorted_map<quantity>{{"gpu", *quantity::parse(share)}};
  model::allocation_result a;
  a.results.push_back(std::move(r));
  return a;
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

TEST(FragmentationGauge, CountsTheFreeCapacityAPendingShapeCannotUse) {
  // One kind of pending pod: 1 cpu and half a GPU. gpu-0 has 0.6 left, gpu-1 is idle: both can take one.
  gauge_fixture f(shared_gpu_nodes({{"node-a", "a100"}}) + gpu_template("half", "500m"));
  f.ledger.add(share_of("gpu-0", "400m"));
  sched::fragmentation_gauge<cel::selector_engine> gauge(f.doc.scenario(), f.nodes, engine);
  const std::vector<std::pair<sched::amounts, std::vector<const model::device_claim*>>> workload{
      {sched::amounts{{"cpu", 1000}}, {&f.claims[0]}}};
  gauge.set_workload(workload);
  ASSERT_TRUE(gauge.on());
  EXPECT_DOUBLE_EQ(gauge.stranded(0, {}, f.ledger), 0);
  // Half a GPU more on gpu-0 leaves it 0.1, which no such pod can use: 0.1 stranded, 100 / (1 + e^0.1) = 47.
  const sched::amounts one_cpu{{"cpu", 1000}};
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

}  // namespace
