// Scenario-runner tests on scenarios built in C++: claims from templates, units of work, DeviceTaintRules.
#include <dra/alloc/check.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/generated_names.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

#include <string>
#include <vector>

namespace {

using namespace dra;

// Scenarios of class-a (the devices of driver-a), one-slice pools, and claims and templates asking for devices of
// class-a in one request, req-0.
struct builder : dra_test::test_scenario {
  builder() { device_class("class-a", "driver-a"); }
  // A one-slice pool on `node` with the named devices.
  model::resource_slice& pool(const std::string& name, std::string node, std::vector<std::string> devices) {
    auto& sl = slice(name + "-slice", "driver-a", name, std::move(node));
    for (auto& d : devices) device(sl, std::move(d));
    return sl;
  }
  model::resource_claim& claim(std::string name, std::int64_t count = 1, std::string ns = "default") {
    return test_scenario::claim(std::move(ns), std::move(name), "req-0", "class-a", count);
  }
  model::resource_claim_template& claim_template(std::string name, std::int64_t count = 1,
                                                 std::string ns = "default") {
    return test_scenario::claim_template(std::move(ns), std::move(name), "req-0", "class-a", count);
  }
  model::pod& pod(std::string name, std::string ns = "default") {
    return test_scenario::pod(std::move(ns), std::move(name));
  }
};

// "claim@node: request=pool/device ..." or "claim: error: ..." / "claim: unschedulable".
std::vector<std::string> summary(const sim::run_report& r) {
  std::vector<std::string> out;
  for (const auto& o : r.outcomes) {
    std::string line = o.claim;
    if (o.error()) {
      line += ": error: " + o.error()->to_string();
    } else if (!o.allocated()) {
      line += ": unschedulable";
    } else {
      line += "@" + o.allocated()->node + ":";
      for (const auto& d : o.allocated()->allocation.results)
        line += " " + d.request + "=" + std::string(d.pool) + "/" + std::string(d.device);
    }
    out.push_back(line);
  }
  return out;
}

using lines = std::vector<std::string>;

// The claim the run makes for entry `entry` of `pod`, as its outcome names it: "namespace/name".
std::string made(const model::pod& pod, std::string_view entry) {
  return model::namespaced_name(pod.meta.namespace_, sched::generated_claim_name(pod.meta, entry));
}

TEST(Templates, ClaimGeneratedWhenTheStatusNamesNone) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  auto& t = b.claim_template("gpu-template", 2);
  t.claim_meta.labels.push_back({"app", "train"});
  t.claim_meta.annotations.push_back({"note", "from template"});
  auto& p = b.pod("trainer");
  b.uses_template(p, "gpu", "gpu-template");
  auto r = b.run();
  // Named as the controller and the API server name it: its generateName, then five characters.
  const std::string name = sched::generated_claim_name(p.meta, "gpu");
  ASSERT_EQ(name.size(), std::string("trainer-gpu-").size() + 5);
  ASSERT_TRUE(name.starts_with("trainer-gpu-"));
  EXPECT_EQ(summary(r), (lines{"default/" + name + "@node-1: req-0=pool-1/dev-0 req-0=pool-1/dev-1"}));
  ASSERT_EQ(r.generated.size(), 1u);
  const auto& g = r.generated[0];
  EXPECT_EQ(g.pod, 0u);
  EXPECT_EQ(g.entry, "gpu");
  EXPECT_EQ(g.claim_template, 0u);
  EXPECT_EQ(g.claim.meta.name, name);
  EXPECT_EQ(g.claim.meta.namespace_, "default");
  EXPECT_EQ(g.claim.meta.labels, t.claim_meta.labels);
  // The template's annotations, and the controller's naming the pod's entry.
  EXPECT_EQ(g.claim.meta.annotations,
            (model::sorted_map<model::text>{{"note", "from template"}, {"resource.kubernetes.io/pod-claim-name", "gpu"}}));
  EXPECT_EQ(g.claim.spec, t.spec);
  ASSERT_EQ(r.subjects.size(), 1u);
  EXPECT_EQ(r.subjects[0].generated, 0u);
  EXPECT_EQ(r.subjects[0].claim, std::nullopt);
  EXPECT_EQ(r.subjects[0].pod, 0u);
  // The report owns the generated names: a copy of it still names the claim.
  sim::run_report copy = r;
  r = {};
  EXPECT_EQ(copy.generated[0].claim.meta.name, name);
}

TEST(Templates, StatusNamesTheClaimKubernetesMade) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim_template("gpu-template");
  b.claim("trainer-gpu-x7k2p").meta.controller_uid = "trainer-uid";  // the pod's own
  b.claim("other-claim");
  auto& p = b.pod("trainer");
  p.meta.uid = "trainer-uid";
  b.uses_template(p, "gpu", "gpu-template");
  p.resource_claim_statuses.push_back({"gpu", model::text("trainer-gpu-x7k2p")});
  auto r = b.run();
  // The linked claim is the pod's; the other one is unreferenced and comes after.
  EXPECT_EQ(summary(r), (lines{"default/trainer-gpu-x7k2p@node-1: req-0=pool-1/dev-0",
                               "default/other-claim@node-1: req-0=pool-1/dev-1"}));
  EXPECT_TRUE(r.generated.empty());
  EXPECT_EQ(r.subjects[0].claim, 0u);
  EXPECT_EQ(r.subjects[0].pod, 0u);
  EXPECT_EQ(r.subjects[1].claim, 1u);
  EXPECT_EQ(r.subjects[1].pod, std::nullopt);
}

TEST(Templates, StatusWithoutClaimNeedsNone) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0"});
  b.claim_template("gpu-template");
  auto& p = b.pod("trainer");
  b.uses_template(p, "gpu", "gpu-template");
  p.resource_claim_statuses.push_back({"gpu", std::nullopt});
  auto r = b.run();
  EXPECT_TRUE(r.outcomes.empty());
  EXPECT_TRUE(r.generated.empty());
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Templates, LinkedClaimAlreadyAllocatedIsNoWork) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim_template("gpu-template");
  auto& linked = b.claim("trainer-gpu-x7k2p");
  linked.allocation = dra_test::one_device_allocation("req-0", "driver-a", "pool-1", "dev-0");
  linked.meta.controller_uid = "trainer-uid";
  auto& p = b.pod("trainer");
  p.meta.uid = "trainer-uid";
  b.uses_template(p, "gpu", "gpu-template");
  p.resource_claim_statuses.push_back({"gpu", model::text("trainer-gpu-x7k2p")});
  b.claim("next");
  auto r = b.run();
  EXPECT_EQ(summary(r), (lines{"default/next@node-1: req-0=pool-1/dev-1"}));
}

TEST(Templates, APodWhoseStatusNamesAMissingClaimWaits) {
  // kube-scheduler's PreEnqueue keeps it out of the queue: no node is tried, no "0/N nodes" text.
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0"});
  auto& p = b.pod("trainer");
  b.uses_template(p, "gpu", "gpu-template");
  p.resource_claim_statuses.push_back({"gpu", model::text("gone")});
  auto r = b.run();
  EXPECT_TRUE(r.outcomes.empty());
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.pods.size(), 1u);
  EXPECT_FALSE(r.pods[0].node);
  EXPECT_FALSE(r.pods[0].gated);
  EXPECT_EQ(r.pods[0].nodes, 0u);
  EXPECT_EQ(r.pods[0].unschedulable, "could not find ResourceClaim \"default/gone\"");
}

TEST(Templates, APodWhoseStatusNamesAClaimNotItsOwnWaitsAndItsOtherClaimsWithIt) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim_template("gpu-template");
  b.claim("direct");
  b.claim("someone-elses").meta.controller_uid = "other-uid";
  b.claim("nobodys");
  auto& p = b.pod("trainer");
  p.meta.uid = "trainer-uid";
  b.uses_claim(p, "first", "direct");
  b.uses_template(p, "gpu", "gpu-template");
  p.resource_claim_statuses.push_back({"gpu", model::text("someone-elses")});
  auto r = b.run();
  ASSERT_EQ(r.pods.size(), 1u);
  EXPECT_EQ(r.pods[0].unschedulable,
            "ResourceClaim default/someone-elses was not created for Pod default/trainer (Pod is not owner)");
  // The claims it names (directly, and in its status) wait with it; the one no pod names is allocated on its own.
  EXPECT_EQ(summary(r), (lines{"default/direct: unschedulable", "default/someone-elses: unschedulable",
                               "default/nobodys@node-1: req-0=pool-1/dev-0"}));
  EXPECT_EQ(r.outcomes[0].unschedulable()->reason,
            "its pod waits: ResourceClaim default/someone-elses was not created for Pod default/trainer (Pod is not "
            "owner)");

  // A claim without a controller is nobody's own either; a claim being deleted is refused first.
  p.resource_claim_statuses[0].resource_claim_name = "nobodys";
  EXPECT_EQ(b.run().pods[0].unschedulable,
            "ResourceClaim default/nobodys was not created for Pod default/trainer (Pod is not owner)");
  b.s.claims.back().object.meta.deleting = true;
  EXPECT_EQ(b.run().pods[0].unschedulable, "resourceclaim \"nobodys\" is being deleted");
}

TEST(Templates, MissingTemplateIsAnErrorForThePodsUnit) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim("direct");
  auto& p = b.pod("trainer");
  b.uses_claim(p, "first", "direct");
  b.uses_template(p, "gpu", "no-such-template");
  auto r = b.run();
  const std::string why = "pod default/trainer, claim gpu: ResourceClaimTemplate default/no-such-template not found";
  // The direct claim shares its unit's error and is not tried again on its own.
  EXPECT_EQ(summary(r), (lines{"default/direct: error: " + why, made(p, "gpu") + ": error: " + why}));
  EXPECT_TRUE(r.generated.empty());
  EXPECT_EQ(r.subjects[1].claim, std::nullopt);
  EXPECT_EQ(r.subjects[1].generated, std::nullopt);
  for (const auto& o : r.outcomes) {
    ASSERT_TRUE(o.error()) << o.claim;
    EXPECT_EQ(o.error()->code, errc::not_found) << o.claim;
  }
}

TEST(Templates, ClaimsOfOneGenerateNameGetNamesOfTheirOwn) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim_template("gpu-template", 1);
  auto& a_b = b.pod("a-b");
  b.uses_template(a_b, "c", "gpu-template");  // generateName a-b-c-
  auto& a = b.pod("a");
  b.uses_template(a, "b-c", "gpu-template");  // a-b-c- again
  auto r = b.run();
  const std::string first = sched::generated_claim_name(a_b.meta, "c");
  const std::string second = sched::generated_claim_name(a.meta, "b-c");
  ASSERT_NE(first, second);
  EXPECT_EQ(summary(r), (lines{"default/" + first + "@node-1: req-0=pool-1/dev-0",
                               "default/" + second + "@node-1: req-0=pool-1/dev-1"}));
}

TEST(Templates, ANameTakenIsDrawnAgainAsTheApiServerDoes) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim_template("gpu-template", 1);
  auto& p = b.pod("trainer");
  b.uses_template(p, "gpu", "gpu-template");
  const std::string taken = sched::generated_claim_name(p.meta, "gpu");
  b.claim(taken);  // not linked from the pod's status: not the claim Kubernetes made for it
  auto r = b.run();
  const std::string drawn_again = sched::generated_claim_name(p.meta, "gpu", 1);
  ASSERT_NE(drawn_again, taken);
  ASSERT_EQ(r.generated.size(), 1u);
  EXPECT_EQ(r.generated[0].claim.meta.name, drawn_again);
  // The existing claim is pending and no pod references it: it is allocated alone afterwards.
  EXPECT_EQ(summary(r), (lines{"default/" + drawn_again + "@node-1: req-0=pool-1/dev-0",
                               "default/" + taken + "@node-1: req-0=pool-1/dev-1"}));
}

TEST(Templates, TemplateInAnotherNamespaceIsNotFound) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0"});
  b.claim_template("gpu-template", 1, "team-b");
  b.claim("direct", 1, "team-b");
  auto& p = b.pod("trainer", "team-a");
  b.uses_template(p, "gpu", "gpu-template");
  auto r = b.run();
  EXPECT_EQ(summary(r), (lines{"team-a/" + sched::generated_claim_name(p.meta, "gpu") +
                                   ": error: pod team-a/trainer, claim gpu: ResourceClaimTemplate "
                                   "team-a/gpu-template not found",
                               "team-b/direct@node-1: req-0=pool-1/dev-0"}));
}

TEST(Templates, AClaimInAnotherNamespaceIsNotFoundAndThePodWaits) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0"});
  b.claim("direct", 1, "team-b");
  auto& p = b.pod("trainer", "team-a");
  b.uses_claim(p, "first", "direct");
  auto r = b.run();
  // The claim it names is not in its namespace: the pod waits (PreEnqueue), and team-b's claim is nobody's.
  EXPECT_EQ(summary(r), (lines{"team-b/direct@node-1: req-0=pool-1/dev-0"}));
  ASSERT_EQ(r.pods.size(), 1u);
  EXPECT_EQ(r.pods[0].unschedulable, "could not find ResourceClaim \"team-a/direct\"");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Templates, PodsClaimsArePlacedTogetherInTheirOrder) {
  // node-1 has room for one device, node-2 for two: the pod's template claim
  // and its direct claim must both go to node-2, never split.
  builder b;
  b.node("node-1");
  b.node("node-2");
  b.pool("small", "node-1", {"dev-a"});
  b.pool("big", "node-2", {"dev-b", "dev-c"});
  b.claim_template("gpu-template");
  b.claim("direct");
  auto& p = b.pod("trainer");
  b.uses_template(p, "gpu", "gpu-template");
  b.uses_claim(p, "first", "direct");
  auto r = b.run();
  EXPECT_EQ(summary(r), (lines{made(p, "gpu") + "@node-2: req-0=big/dev-b", "default/direct@node-2: req-0=big/dev-c"}));
}

TEST(Templates, EachPodGetsItsOwnClaim) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0", "dev-1"});
  b.claim_template("gpu-template");
  auto& a = b.pod("a");
  auto& bb = b.pod("b");
  auto& c = b.pod("c");
  for (model::pod* p : {&a, &bb, &c}) b.uses_template(*p, "gpu", "gpu-template");
  auto r = b.run();
  EXPECT_EQ(summary(r), (lines{made(a, "gpu") + "@node-1: req-0=pool-1/dev-0",
                               made(bb, "gpu") + "@node-1: req-0=pool-1/dev-1", made(c, "gpu") + ": unschedulable"}));
  ASSERT_EQ(r.generated.size(), 3u);
  EXPECT_EQ(r.generated[2].pod, 2u);
}

TEST(TaintRules, UntoleratedTaintOverAPoolSkipsItsDevices) {
  builder b;
  b.node("node-1");
  b.pool("tainted", "node-1", {"dev-0"});
  b.pool("clean", "node-1", {"dev-1"});
  b.taint_rule({model::text("driver-a"), model::text("tainted"), std::nullopt}, "maintenance", "NoSchedule");
  b.claim("first");
  auto& tolerant = b.claim("second");
  model::device_toleration t;
  t.key = "maintenance";
  t.op = model::toleration_operator::exists;
  tolerant.spec.requests[0].exactly->tolerations.push_back(t);
  b.claim("third");
  auto r = b.run();
  EXPECT_EQ(summary(r), (lines{"default/first@node-1: req-0=clean/dev-1", "default/second@node-1: req-0=tainted/dev-0",
                               "default/third: unschedulable"}));
  // The result records the request's tolerations, as upstream's does.
  ASSERT_TRUE(r.outcomes[1].allocated());
  EXPECT_EQ(r.outcomes[1].allocated()->allocation.results[0].tolerations, std::vector<model::device_toleration>{t});
  EXPECT_TRUE(r.outcomes[0].allocated()->allocation.results[0].tolerations.empty());
}

TEST(TaintRules, SelectorFieldsNarrowWhatTheyTaint) {
  using sel = model::device_taint_selector;
  struct row {
    sel selector;
    std::string effect;
    lines expected;
  };
  const std::vector<row> table = {
      {{}, "NoSchedule", {"default/c: unschedulable"}},  // an empty selector taints every device
      {{}, "NoExecute", {"default/c: unschedulable"}},
      {{}, "None", {"default/c@node-1: req-0=pool-1/dev-0"}},  // None informs, it does not keep devices away
      {{std::nullopt, std::nullopt, model::text("dev-0")}, "NoSchedule", {"default/c@node-1: req-0=pool-2/dev-1"}},
      {{model::text("driver-b"), std::nullopt, std::nullopt}, "NoSchedule", {"default/c@node-1: req-0=pool-1/dev-0"}},
      {{std::nullopt, model::text("pool-2"), std::nullopt}, "NoSchedule", {"default/c@node-1: req-0=pool-1/dev-0"}},
      {{model::text("driver-a"), model::text("pool-1"), model::text("dev-1")}, "NoSchedule",
       {"default/c@node-1: req-0=pool-1/dev-0"}},
  };
  for (const auto& row : table) {
    builder b;
    b.node("node-1");
    b.pool("pool-1", "node-1", {"dev-0"});
    b.pool("pool-2", "node-1", {"dev-1"});
    b.taint_rule(row.selector, "k", row.effect);
    if (row.effect == "NoSchedule" && !row.selector.driver && !row.selector.pool && !row.selector.device) {
      // Also tainted by the rule when the slice's own taints are tolerated.
      b.s.slices[0].object.devices[0].taints.push_back({"own", "", "NoSchedule", std::nullopt});
    }
    b.claim("c");
    EXPECT_EQ(summary(b.run()), row.expected) << row.effect;
  }
}

TEST(TaintRules, IgnoredWithoutTheDeviceTaintsFeature) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0"});
  b.taint_rule({}, "k", "NoSchedule");
  b.claim("c");
  auto f = alloc::features::all();
  f.device_taints = false;
  EXPECT_EQ(summary(b.run(f)), (lines{"default/c@node-1: req-0=pool-1/dev-0"}));
}

TEST(TaintRules, TolerationMustMatchTheRulesTaint) {
  builder b;
  b.node("node-1");
  b.pool("pool-1", "node-1", {"dev-0"});
  model::device_taint_rule rule;
  b.taint_rule({}, "k", "NoExecute");
  b.s.taint_rules[0].object.taint.value = "v1";
  auto& c = b.claim("c");
  model::device_toleration wrong_value{"k", model::toleration_operator::equal, "v2", "", std::nullopt};
  model::device_toleration wrong_effect{"k", model::toleration_operator::exists, "", "NoSchedule", std::nullopt};
  c.spec.requests[0].exactly->tolerations = {wrong_value, wrong_effect};
  auto& d = b.claim("d");
  model::device_toleration right{"k", model::toleration_operator::equal, "v1", "NoExecute", std::nullopt};
  d.spec.requests[0].exactly->tolerations = {right};
  EXPECT_EQ(summary(b.run()), (lines{"default/c: unschedulable", "default/d@node-1: req-0=pool-1/dev-0"}));
}

// Two pods name one claim and one GPU is free: `first` cannot take it (it waits for its gates, or no node has its
// cpu); `second` can, and gets it, as kube-scheduler tries the claim with every pod that names it. The claim has one
// outcome, the last; neither pod is placed without it.
TEST(SharedClaims, AClaimAnEarlierPodLeftUnallocatedIsTriedWithTheNextPodThatNamesIt) {
  const std::string cluster = R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"}, "status": {"allocatable": {"cpu": "2", "pods": "9"}}}
{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
 "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n0-gpus"}, "spec": {
 "driver": "gpu.example.com", "nodeName": "n0", "pool": {"name": "n0", "resourceSliceCount": 1},
 "devices": [{"name": "gpu-0"}]}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "shared", "namespace": "default"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}
)";
  auto pod = [](const std::string& name, const std::string& extra) {
    return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name +
           R"(", "namespace": "default"}, "spec": {)" + extra +
           R"("resourceClaims": [{"name": "g", "resourceClaimName": "shared"}]}})" + "\n";
  };
  const cel::selector_engine engine;
  for (const std::string first : {R"("schedulingGates": [{"name": "wait"}], "containers": [{"name": "c"}], )",
                                  R"("containers": [{"name": "c", "resources": {"requests": {"cpu": "4"}}}], )"}) {
    auto doc = json::load(cluster + pod("first", first) + pod("second", R"("containers": [{"name": "c"}], )"));
    ASSERT_TRUE(doc) << doc.error().to_string();
    const auto report = sim::run_scenario(doc->scenario(), engine);
    ASSERT_EQ(report.pods.size(), 2u);
    EXPECT_FALSE(report.pods[0].node);
    EXPECT_EQ(report.pods[1].node, "n0");
    ASSERT_EQ(report.outcomes.size(), 1u);
    EXPECT_EQ(report.outcomes[0].claim, "default/shared");
    ASSERT_NE(report.outcomes[0].allocated(), nullptr) << first;
    EXPECT_EQ(report.subjects[0].pod, 1u);
  }
}

}  // namespace
