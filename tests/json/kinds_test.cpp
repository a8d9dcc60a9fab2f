// Tests of ResourceClaimTemplates, DeviceTaintRules, pods' claim statuses, claims' reservations, annotations and other kinds, as kubectl prints them.
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using dra_test::load_fixture;

TEST(Kinds, ReadsAKubectlListWithManagedFieldsAndStatus) {
  auto doc = load_fixture("kubectl-cluster.json");
  const dra::model::scenario& s = doc.scenario();
  ASSERT_EQ(s.claim_templates.size(), 1u);
  ASSERT_EQ(s.taint_rules.size(), 2u);
  ASSERT_EQ(s.claims.size(), 1u);
  ASSERT_EQ(s.pods.size(), 1u);
  ASSERT_EQ(s.others.size(), 1u);

  const auto& t = s.claim_templates[0];
  EXPECT_EQ(t.source.index, 0u);
  EXPECT_EQ(t.source.path, "items[0]");
  EXPECT_EQ(t.object.meta.name, "single-gpu");
  EXPECT_EQ(t.object.meta.namespace_, "ml");
  EXPECT_EQ(t.object.meta.uid, "7d1c");
  ASSERT_EQ(t.object.meta.annotations.size(), 1u);
  EXPECT_EQ(t.object.meta.annotations[0].name, "kubectl.kubernetes.io/last-applied-configuration");
  EXPECT_EQ(t.object.meta.annotations[0].value, "{\"apiVersion\":\"resource.k8s.io/v1\"}\n");  // unescaped
  ASSERT_EQ(t.object.claim_meta.labels.size(), 1u);
  EXPECT_EQ(t.object.claim_meta.labels[0].name, "team");
  EXPECT_EQ(t.object.claim_meta.labels[0].value, "vision");
  ASSERT_EQ(t.object.claim_meta.annotations.size(), 1u);
  EXPECT_EQ(t.object.claim_meta.annotations[0].value, "ana");
  ASSERT_EQ(t.object.spec.requests.size(), 1u);
  EXPECT_EQ(t.object.spec.requests[0].name, "gpu");
  ASSERT_TRUE(t.object.spec.requests[0].exactly.has_value());
  EXPECT_EQ(t.object.spec.requests[0].exactly->device_class_name, "gpu.example.com");
  EXPECT_EQ(t.object.spec.requests[0].exactly->count, 1);  // defaulted

  const auto& rule = s.taint_rules[0];
  EXPECT_EQ(rule.source.index, 1u);
  EXPECT_EQ(rule.object.meta.name, "drain-pool-a");
  EXPECT_EQ(rule.object.device_selector.driver, std::optional<dra::model::text>("gpu.example.com"));
  EXPECT_EQ(rule.object.device_selector.pool, std::optional<dra::model::text>("node-a"));
  EXPECT_FALSE(rule.object.device_selector.device.has_value());
  EXPECT_EQ(rule.object.taint.key, "example.com/maintenance");
  EXPECT_EQ(rule.object.taint.value, "true");
  EXPECT_EQ(rule.object.taint.effect, "NoSchedule");
  EXPECT_EQ(rule.object.taint.time_added, std::optional<dra::model::text>("2026-11-20T11:00:00Z"));
  const auto& every = s.taint_rules[1].object;
  EXPECT_EQ(every.device_selector, dra::model::device_taint_selector{});
  EXPECT_EQ(every.taint.effect, "NoExecute");

  const auto& claim = s.claims[0].object;
  EXPECT_EQ(s.claims[0].source.index, 3u);
  EXPECT_EQ(claim.meta.name, "trainer-gpu-x7k2p");
  ASSERT_EQ(claim.meta.annotations.size(), 1u);
  EXPECT_EQ(claim.meta.annotations[0].name, "resource.kubernetes.io/pod-claim-name");
  ASSERT_TRUE(claim.allocation.has_value());
  EXPECT_EQ(claim.allocation->results.at(0).device, "gpu-0");
  ASSERT_EQ(claim.reserved_for.size(), 1u);
  EXPECT_EQ(claim.reserved_for[0], (dra::model::resource_claim_consumer_reference{"", "pods", "trainer", "p-1"}));

  const auto& pod = s.pods[0].object;
  EXPECT_EQ(pod.node_name, std::optional<dra::model::text>("node-a"));
  ASSERT_EQ(pod.resource_claims.size(), 1u);
  EXPECT_EQ(pod.resource_claims[0].resource_claim_template_name, std::optional<dra::model::text>("single-gpu"));
  ASSERT_EQ(pod.resource_claim_statuses.size(), 2u);
  EXPECT_EQ(pod.resource_claim_statuses[0],
            (dra::model::pod_resource_claim_status{"gpu", dra::model::text("trainer-gpu-x7k2p")}));
  EXPECT_EQ(pod.resource_claim_statuses[1], (dra::model::pod_resource_claim_status{"unneeded", std::nullopt}));

  const auto& other = s.others[0];
  EXPECT_EQ(other.source.index, 5u);
  EXPECT_EQ(other.object.kind, "ConfigMap");
  EXPECT_EQ(other.object.api_version, "v1");
  EXPECT_EQ(other.object.meta.name, "settings");
  EXPECT_EQ(other.object.meta.namespace_, "ml");
  EXPECT_EQ(other.source.json,
            "{\n            \"apiVersion\": \"v1\",\n            \"kind\": \"ConfigMap\",\n"
            "            \"metadata\": {\"name\": \"settings\", \"namespace\": \"ml\"},\n"
            "            \"data\": {\"a\": \"b\"}\n        }");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], "items[5]: kind \"ConfigMap\" is not used by device allocation; ignored");
}

TEST(Kinds, ConvertsAV1beta1TemplateLikeAClaim) {
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaimTemplate",
    "metadata":{"name":"t"},"spec":{"spec":{"devices":{"requests":[{"name":"r","deviceClassName":"c","count":2}]}}}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& spec = doc->scenario().claim_templates.at(0).object.spec;
  ASSERT_TRUE(spec.requests.at(0).exactly.has_value());
  EXPECT_EQ(spec.requests[0].exactly->device_class_name, "c");
  EXPECT_EQ(spec.requests[0].exactly->count, 2);
}

TEST(Kinds, RefusesADeviceTaintRuleOfAnotherApiVersion) {
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"DeviceTaintRule","metadata":{"name":"r"}})");
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().to_string(),
            "DeviceTaintRule/r: apiVersion \"resource.k8s.io/v1beta1\" is not supported: use resource.k8s.io/v1, "
            "v1beta2 or v1alpha3");
}

TEST(Kinds, NamesTheFieldOfAWrongTypeInATaintRule) {
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"r"},
    "spec":{"deviceSelector":{"pool":7}}})");
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().to_string(), "DeviceTaintRule/r: spec.deviceSelector.pool: must be a string, not a number");
}

}  // namespace
