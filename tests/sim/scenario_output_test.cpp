// `--output scenario`: the scenario written back after a run, and a second run over it that changes nothing.
#include "../support/source_dir.hpp"
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/overlay.hpp>
#include <dra/json/yaml.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace dra;

// Runs the scenario in `json` and returns it written back (empty, with a test failure, when anything fails).
std::string after(std::string_view json, sim::run_report* report_out = nullptr) {
  auto doc = json::load(json);
  EXPECT_TRUE(doc) << (doc ? "" : doc.error().to_string());
  if (!doc) return {};
  const cel::selector_engine engine;
  auto report = sim::run_scenario(doc->scenario(), engine);
  auto out = sim::scenario_after(doc->scenario(), report);
  EXPECT_TRUE(out) << (out ? "" : out.error().to_string());
  if (report_out != nullptr) {
    report_out->outcomes = report.outcomes;
    report_out->warnings = report.warnings;
  }
  return out ? *out : std::string();
}

// Compact JSON of a document, to compare with expectations written on one line.
std::string compact(std::string_view text) {
  json::writer w;
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(text);
  auto root = parser.parse(padded);
  EXPECT_FALSE(root.error()) << text;
  if (root.error()) return {};
  json::write_element(w, root.value_unsafe());
  return std::move(w).str();
}

TEST(Overlay, SetsReplacesAndAddsFieldsKeepingTheRest) {
  std::vector<json::field_override> changes = {
      {{"spec", "nodeName"}, [](json::writer& w) { w.string("node-1"); }},
      {{"status", "phase"}, [](json::writer& w) { w.string("Running"); }},
      {{"status", "conditions"}, [](json::writer& w) { w.begin_array().end_array(); }},
      {{"metadata", "labels", "new"}, [](json::writer& w) { w.integer(1); }},
      {{"kind"}, [](json::writer& w) { w.string("Other"); }},
  };
  json::writer w;
  ASSERT_TRUE(json::write_overlaid(
      w,
      R"({"kind": "Pod", "metadata": {"name": "p<1>", "labels": 3}, "spec": {"nodeName": "old", "x": [1.5, 2e30, -3, 18446744073709551615, true, null]}})",
      changes));
  EXPECT_EQ(w.str(),
            R"({"kind":"Other","metadata":{"name":"p\u003c1\u003e","labels":{"new":1}},"spec":{"nodeName":"node-1",)"
            R"("x":[1.5,2e+30,-3,18446744073709551615,true,null]},"status":{"phase":"Running","conditions":[]}})");
  json::writer bad;
  EXPECT_FALSE(json::write_overlaid(bad, "[1]", changes));
  EXPECT_FALSE(json::write_overlaid(bad, "{", changes));
}

// The List items of node-1's pool of two GPUs and of the class that selects them.
constexpr std::string_view gpu_pool_items = R"(
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s1"},
   "spec": {"driver": "gpu.example.com", "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
            "nodeName": "node-1", "devices": [{"name": "gpu-0"}, {"name": "gpu-1"}]}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
   "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}},)";

const std::string cluster_json = R"({"apiVersion": "v1", "kind": "List", "items": [)" + std::string(gpu_pool_items) + R"(
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "train", "namespace": "ml"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "loose", "namespace": "ml"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "too-big", "namespace": "ml"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu", "count": 5}}]}}},
  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer", "namespace": "ml", "uid": "uid-1"},
   "spec": {"containers": [{"name": "c", "image": "busybox"}],
            "resourceClaims": [{"name": "gpu", "resourceClaimName": "train"}]},
   "status": {"phase": "Pending"}}
]})";

TEST(ScenarioOutput, AllocationsWrittenBackAndASecondRunChangesNothing) {
  sim::run_report first;
  const std::string once = after(cluster_json, &first);
  ASSERT_EQ(first.outcomes.size(), 3u);
  const std::string alloc_train =
      R"({"devices":{"results":[{"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]},)"
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}})";
  const std::string alloc_loose =
      R"({"devices":{"results":[{"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-1"}]},)"
      R"("nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}})";
  const std::string expected =
      R"({"apiVersion":"v1","kind":"List","items":[)"
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s1"},)"
      R"("spec":{"driver":"gpu.example.com","pool":{"name":"node-1","generation":1,"resourceSliceCount":1},)"
      R"("nodeName":"node-1","devices":[{"name":"gpu-0"},{"name":"gpu-1"}]}},)"
      R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},)"
      R"("spec":{"selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}]}},)"
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"train","namespace":"ml"},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","allocationMode":"ExactCount","count":1}}]}},)"
      R"("status":{"allocation":)" + alloc_train + R"(,"reservedFor":[{"resource":"pods","name":"trainer","uid":"uid-1"}]}},)"
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"loose","namespace":"ml"},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","allocationMode":"ExactCount","count":1}}]}},)"
      R"("status":{"allocation":)" + alloc_loose + R"(}},)"
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"too-big","namespace":"ml"},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","allocationMode":"ExactCount","count":5}}]}}},)"
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-1"}},)"
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"trainer","namespace":"ml","uid":"uid-1"},)"
      R"("spec":{"containers":[{"name":"c","image":"busybox"}],"resourceClaims":[{"name":"gpu","resourceClaimName":"train"}],)"
      R"("nodeName":"node-1"},"status":{"phase":"Pending"}}]})";
  EXPECT_EQ(compact(once), expected);  // claims echoed with the API server's defaults (allocationMode, count)

  // Again: only the claim that did not fit is pending, and it still does not; nothing else changes.
  sim::run_report second;
  const std::string twice = after(once, &second);
  ASSERT_EQ(second.outcomes.size(), 1u);
  EXPECT_EQ(second.outcomes[0].claim, "ml/too-big");
  ASSERT_TRUE(second.outcomes[0].unschedulable());
  EXPECT_EQ(second.outcomes[0].unschedulable()->reason, "cannot allocate all claims");
  EXPECT_EQ(twice, once);
}

// The reservedFor entries of claim `name` in a written scenario, as "name/uid".
std::vector<std::string> reserved_for(const std::string& written, std::string_view name) {
  std::vector<std::string> out;
  auto doc = json::load(written);
  EXPECT_TRUE(doc) << (doc ? "" : doc.error().to_string());
  if (!doc) return out;
  for (const auto& c : doc->scenario().claims)
    if (c.object.meta.name == name)
      for (const auto& r : c.object.reserved_for) out.push_back(std::string(r.name) + "/" + std::string(r.uid));
  return out;
}

TEST(ScenarioOutput, AClaimIsReservedForEveryPlacedPodThatUsesIt) {
  // `shared` is allocated for `first` by the run and then used by `second`; `held` was allocated before the run, for
  // the bound pod `running`, and is used by `third`. kube-scheduler reserves each claim for each pod that uses it.
  auto pod = [](const std::string& name, const std::string& claim, const std::string& node = "") {
    return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name + R"(", "namespace": "ml", "uid": ")" +
           name + R"(-uid"}, "spec": {)" + (node.empty() ? "" : R"("nodeName": ")" + node + R"(", )") +
           R"("containers": [{"name": "c"}], "resourceClaims": [{"name": "gpu", "resourceClaimName": ")" + claim +
           R"("}]}})";
  };
  const std::string text = R"({"apiVersion": "v1", "kind": "List", "items": [)" + std::string(gpu_pool_items) + R"(
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": "ml"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "held", "namespace": "ml"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},
   "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-1",
     "device": "gpu-1"}]}, "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name",
     "operator": "In", "values": ["node-1"]}]}]}},
    "reservedFor": [{"resource": "pods", "name": "running", "uid": "running-uid"}]}},
  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"}},)" +
                           pod("running", "held", "node-1") + "," + pod("first", "shared") + "," +
                           pod("second", "shared") + "," + pod("third", "held") + "]}";
  const std::string written = after(text);
  EXPECT_EQ(reserved_for(written, "shared"), (std::vector<std::string>{"first/first-uid", "second/second-uid"}));
  EXPECT_EQ(reserved_for(written, "held"), (std::vector<std::string>{"running/running-uid", "third/third-uid"}));
}

// "claim@node: request=pool/device[ tolerates key]" per outcome.
std::vector<std::string> placements(const sim::run_report& r) {
  std::vector<std::string> out;
  for (const auto& o : r.outcomes) {
    std::string line = o.claim + "@" + (o.allocated() ? o.allocated()->node : "-") + ":";
    if (o.allocated())
      for (const auto& d : o.allocated()->allocation.results) {
        line += " " + d.request + "=" + std::string(d.pool) + "/" + std::string(d.device);
        for (const auto& t : d.tolerations) line += " tolerates " + std::string(t.key);
      }
    out.push_back(line);
  }
  return out;
}

TEST(ScenarioOutput, ClusterSnapshotWithTemplatesAndTaintRuleRoundTrips) {
  auto doc = json::load_file(std::string(dra_test::source_dir()) + "/tests/cli/data/cluster.json");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const cel::selector_engine engine;
  auto report = sim::run_scenario(doc->scenario(), engine);
  ASSERT_EQ(report.generated.size(), 2u);
  const std::string trainer_gpu(report.generated[0].claim.meta.name), debugger_gpu(report.generated[1].claim.meta.name);
  EXPECT_TRUE(trainer_gpu.starts_with("trainer-gpu-")) << trainer_gpu;
  EXPECT_TRUE(debugger_gpu.starts_with("debugger-gpu-")) << debugger_gpu;
  // node-a's pool is drained by a DeviceTaintRule: the trainer's two claims go to node-b together; the
  // debugger's template tolerates the taint and gets node-a's first device.
  EXPECT_EQ(placements(report), (std::vector<std::string>{"ml/" + trainer_gpu + "@node-b: gpu=node-b/gpu-0",
                                                          "ml/dataset-cache@node-b: gpu=node-b/gpu-1",
                                                          "ml/" + debugger_gpu + "@node-a: gpu=node-a/gpu-0 tolerates "
                                                          "example.com/maintenance"}));
  auto once = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(once) << once.error().to_string();

  auto again = json::load(*once);
  ASSERT_TRUE(again) << again.error().to_string();
  const auto& s = again->scenario();
  ASSERT_EQ(s.claims.size(), 3u);  // dataset-cache, then each pod's generated claim right after the pod
  EXPECT_EQ(s.claims[0].object.meta.name, "dataset-cache");
  EXPECT_EQ(s.claims[1].object.meta.name, trainer_gpu);
  EXPECT_EQ(s.claims[2].object.meta.name, debugger_gpu);
  EXPECT_EQ(s.claims[1].object.meta.labels, (model::sorted_map<model::text>{{"team", "vision"}}));
  EXPECT_EQ(s.claims[2].object.meta.annotations,
            (model::sorted_map<model::text>{{"owner", "ops"}, {"resource.kubernetes.io/pod-claim-name", "gpu"}}));
  // Each pod's own, as the resourceclaim controller makes them: kube-scheduler would queue the pods with them.
  EXPECT_EQ(s.claims[1].object.meta.controller_uid, s.pods[0].object.meta.uid);
  EXPECT_EQ(s.claims[2].object.meta.controller_uid, s.pods[1].object.meta.uid);
  EXPECT_FALSE(s.pods[1].object.meta.uid.empty());
  const sched::claim_resolver resolver(s, {});
  EXPECT_EQ(resolver.pre_enqueue_rejection(s.pods[0].object), std::nullopt);
  EXPECT_EQ(resolver.pre_enqueue_rejection(s.pods[1].object), std::nullopt);
  EXPECT_EQ(s.claims[1].source.index, s.pods[0].source.index + 1);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(s.claims[i].object.allocation) << i;
    const auto* allocated = report.outcomes[i == 0 ? 1 : i == 1 ? 0 : 2].allocated();
    ASSERT_TRUE(allocated) << i;
    EXPECT_EQ(*s.claims[i].object.allocation, allocated->allocation) << i;
  }
  EXPECT_EQ(s.claims[0].object.reserved_for,
            (std::vector<model::resource_claim_consumer_reference>{{"", "pods", "trainer", "p0"}}));
  EXPECT_EQ(s.pods[0].object.node_name, "node-b");
  EXPECT_EQ(s.pods[1].object.node_name, "node-a");
  EXPECT_EQ(s.pods[0].object.resource_claim_statuses,
            (std::vector<model::pod_resource_claim_status>{{"gpu", model::text(trainer_gpu)}}));
  EXPECT_EQ(s.others.size(), 1u);  // the ConfigMap

  auto second = sim::run_scenario(s, engine);
  EXPECT_TRUE(second.outcomes.empty());
  EXPECT_TRUE(second.generated.empty());
  auto twice = sim::scenario_after(s, second);
  ASSERT_TRUE(twice);
  EXPECT_EQ(*twice, *once);
}

TEST(ScenarioOutput, APodWrittenWithoutAUidGetsTheOneItsClaimsName) {
  auto doc = json::load(R"(
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "node-a"},
 "spec": {"driver": "gpu.example.com", "pool": {"name": "node-a", "generation": 1, "resourceSliceCount": 1},
  "nodeName": "node-a", "devices": [{"name": "gpu-0"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
 "metadata": {"name": "one-gpu", "namespace": "ml"},
 "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer", "namespace": "ml"},
 "spec": {"containers": [{"name": "main"}],
  "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}]}}
)");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const cel::selector_engine engine;
  const auto report = sim::run_scenario(doc->scenario(), engine);
  auto written = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(written) << written.error().to_string();
  // The claim as the resourceclaim controller creates it: generateName, its annotation, the pod as controller.
  EXPECT_NE(written->find(R"("generateName": "trainer-gpu-")"), std::string::npos) << *written;
  EXPECT_NE(written->find(R"("resource.kubernetes.io/pod-claim-name": "gpu")"), std::string::npos) << *written;
  EXPECT_NE(written->find(R"("kind": "Pod",)"), std::string::npos) << *written;
  EXPECT_NE(written->find(R"("controller": true)"), std::string::npos) << *written;

  auto again = json::load(*written);
  ASSERT_TRUE(again) << again.error().to_string();
  const auto& s = again->scenario();
  ASSERT_EQ(s.pods.size(), 1u);
  ASSERT_EQ(s.claims.size(), 1u);
  const model::text uid = s.pods[0].object.meta.uid;
  EXPECT_EQ(uid.size(), 36u) << uid;  // a UUID
  EXPECT_EQ(s.claims[0].object.meta.controller_uid, uid);
  ASSERT_EQ(s.claims[0].object.reserved_for.size(), 1u);
  EXPECT_EQ(s.claims[0].object.reserved_for[0].uid, uid);
  EXPECT_EQ(s.pods[0].object.resource_claim_statuses,
            (std::vector<model::pod_resource_claim_status>{{"gpu", s.claims[0].object.meta.name}}));
  EXPECT_EQ(sched::claim_resolver(s, {}).pre_enqueue_rejection(s.pods[0].object), std::nullopt);
  // Written again, the same text: the uid is drawn from the pod, not at random.
  auto twice = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(twice);
  EXPECT_EQ(*twice, *written);
}

TEST(ScenarioOutput, YamlInYamlOutRoundTrips) {
  auto doc = json::load_file(std::string(dra_test::source_dir()) + "/tests/cli/data/cluster.yaml");
  ASSERT_TRUE(doc) << doc.error().to_string();
  ASSERT_EQ(doc->format(), json::input_format::yaml);
  const cel::selector_engine engine;
  auto report = sim::run_scenario(doc->scenario(), engine);
  ASSERT_EQ(report.generated.size(), 2u);
  const std::string trainer_gpu(report.generated[0].claim.meta.name), debugger_gpu(report.generated[1].claim.meta.name);
  EXPECT_EQ(placements(report), (std::vector<std::string>{"ml/" + trainer_gpu + "@node-b: gpu=node-b/gpu-0",
                                                          "ml/dataset-cache@node-b: gpu=node-b/gpu-1",
                                                          "ml/" + debugger_gpu + "@node-a: gpu=node-a/gpu-0 tolerates "
                                                          "example.com/maintenance"}));
  auto written = sim::scenario_after(doc->scenario(), report);
  ASSERT_TRUE(written);
  auto once = json::to_yaml(*written);
  ASSERT_TRUE(once) << once.error().to_string();
  ASSERT_TRUE(once->starts_with("apiVersion: v1\nkind: List\nitems:\n")) << *once;

  auto again = json::load(*once);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(again->format(), json::input_format::yaml);
  ASSERT_EQ(again->scenario().claims.size(), 3u);
  for (const auto& c : again->scenario().claims) EXPECT_TRUE(c.object.allocation) << c.object.meta.name;
  auto second = sim::run_scenario(again->scenario(), engine);
  EXPECT_TRUE(second.outcomes.empty());
  auto rewritten = sim::scenario_after(again->scenario(), second);
  ASSERT_TRUE(rewritten);
  auto twice = json::to_yaml(*rewritten);
  ASSERT_TRUE(twice);
  EXPECT_EQ(*twice, *once);
}

TEST(ScenarioOutput, ObjectsWithoutSourceTextAreAnError) {
  model::scenario s;
  model::node n;
  n.meta.name = "node-1";
  s.nodes.push_back({n, {}});
  auto out = sim::scenario_after(s, {});
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().message, "object #0 has no source text to write back");
}

}  // namespace
