// Node and Pod fields that scheduling reads: taints, allocatable, declared features; node selection, tolerations,
// containers' requests, overhead, pod-level resources, priority, gates, phase — and errors naming object and field.
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

constexpr const char* node_and_pod = R"([
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"gpu": "h100"}},
 "spec": {"unschedulable": true, "taints": [{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "7910m", "memory": "31Gi", "pods": "110", "nvidia.com/gpu": 8},
            "declaredFeatures": ["DRAOptionalNodeOperations"], "capacity": {"cpu": "8"}}},
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "p", "namespace": "ml", "creationTimestamp": "2026-11-01T10:00:00Z"},
 "spec": {"nodeSelector": {"gpu": "h100"}, "priority": 100, "schedulingGates": [{"name": "example.com/quota"}],
          "tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}],
          "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
             {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}]}]},
             "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 7, "preference": {
               "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n"]}]}}]}},
          "initContainers": [{"name": "setup", "resources": {"requests": {"cpu": "1"}}},
                             {"name": "proxy", "restartPolicy": "Always", "resources": {"limits": {"memory": "1Gi"}}}],
          "containers": [{"name": "main", "resources": {"requests": {"cpu": "2", "nvidia.com/gpu": "1"}}}],
          "overhead": {"cpu": "250m"}, "resources": {"requests": {"memory": "4Gi"}}},
 "status": {"phase": "Pending"}}
])";

TEST(WorkloadFields, NodeAndPodSchedulingFieldsAreRead) {
  auto doc = dra::json::load(node_and_pod);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto& node = doc->scenario().nodes.at(0).object;
  EXPECT_TRUE(node.unschedulable);
  ASSERT_EQ(node.taints.size(), 1u);
  EXPECT_EQ(node.taints[0].key, "dedicated");
  EXPECT_EQ(node.taints[0].effect, "NoSchedule");
  ASSERT_TRUE(node.allocatable);
  ASSERT_EQ(node.allocatable->size(), 4u);  // sorted by name
  EXPECT_EQ(node.allocatable->at(0).name, "cpu");
  EXPECT_EQ(node.allocatable->at(0).value.milli_value(), 7910);
  EXPECT_EQ(node.allocatable->at(2).name, "nvidia.com/gpu");
  EXPECT_EQ(node.allocatable->at(2).value.value(), 8);
  EXPECT_EQ(node.declared_features, std::vector<dra::model::text>{"DRAOptionalNodeOperations"});

  const auto& pod = doc->scenario().pods.at(0).object;
  EXPECT_EQ(pod.meta.creation_timestamp, "2026-11-01T10:00:00Z");
  EXPECT_EQ(pod.priority, 100);
  EXPECT_EQ(pod.scheduling_gates, std::vector<dra::model::text>{"example.com/quota"});
  EXPECT_EQ(pod.node_selector.size(), 1u);
  ASSERT_EQ(pod.tolerations.size(), 1u);
  EXPECT_EQ(pod.tolerations[0].op, dra::model::toleration_operator::exists);
  ASSERT_TRUE(pod.required_node_affinity);
  EXPECT_EQ(pod.required_node_affinity->terms.at(0).match_expressions.at(0).values.size(), 2u);
  ASSERT_EQ(pod.preferred_node_affinity.size(), 1u);
  EXPECT_EQ(pod.preferred_node_affinity[0].weight, 7);
  ASSERT_EQ(pod.preferred_node_affinity[0].preference.match_fields.size(), 1u);
  EXPECT_EQ(pod.preferred_node_affinity[0].preference.match_fields[0].op, dra::model::node_selector_operator::not_in);
  ASSERT_EQ(pod.init_containers.size(), 2u);
  EXPECT_FALSE(pod.init_containers[0].sidecar);
  EXPECT_TRUE(pod.init_containers[1].sidecar);
  EXPECT_EQ(pod.init_containers[1].limits.at(0).name, "memory");
  EXPECT_EQ(pod.containers.at(0).requests.size(), 2u);
  EXPECT_EQ(pod.overhead.at(0).value.milli_value(), 250);
  ASSERT_TRUE(pod.pod_requests);
  EXPECT_EQ(pod.pod_requests->at(0).name, "memory");
  EXPECT_EQ(pod.phase, "Pending");
}

TEST(WorkloadFields, ContainerClaimsAndNodeAllocatableClaimStatusesAreRead) {
  auto doc = dra::json::load(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
    "spec": {"containers": [{"name": "a", "resources": {"claims": [{"name": "gpu"}, {"name": "cores", "request": "r"}]}}]},
    "status": {"nodeAllocatableResourceClaimStatuses": [{"resourceClaimName": "p-cores", "containers": ["a"],
      "mapping": [{"name": "cpu", "quantity": "4"}], "overhead": [{"name": "memory", "perPod": "1Gi"}]}]}})");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto& pod = doc->scenario().pods.at(0).object;
  EXPECT_EQ(pod.containers.at(0).claims, (std::vector<dra::model::text>{"gpu", "cores"}));
  ASSERT_EQ(pod.node_allocatable_claim_statuses.size(), 1u);
  const auto& status = pod.node_allocatable_claim_statuses[0];
  EXPECT_EQ(status.resource_claim_name, "p-cores");
  EXPECT_EQ(status.containers, std::vector<dra::model::text>{"a"});
  ASSERT_EQ(status.mapping.size(), 1u);
  EXPECT_EQ(status.mapping[0].name, "cpu");
  EXPECT_EQ(status.mapping[0].value.value(), 4);
  ASSERT_EQ(status.overhead.size(), 1u);
  EXPECT_EQ(status.overhead[0].per_pod->to_string(), "1Gi");
  EXPECT_FALSE(status.overhead[0].per_container);
}

TEST(WorkloadFields, BadValuesNameTheObjectAndField) {
  auto bad_quantity = dra::json::load(
      R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "lots"}}})");
  ASSERT_FALSE(bad_quantity);
  EXPECT_EQ(bad_quantity.error().object, "Node/n");
  EXPECT_EQ(bad_quantity.error().path, "status.allocatable.cpu");
  auto bad_priority = dra::json::load(
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"}, "spec": {"priority": 3000000000}})");
  ASSERT_FALSE(bad_priority);
  EXPECT_EQ(bad_priority.error().object, "Pod/d/p");
  EXPECT_EQ(bad_priority.error().path, "spec.priority");
  EXPECT_EQ(bad_priority.error().message, "is out of the range of a 32-bit integer");
  auto bad_taints = dra::json::load(
      R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": {"taints": {"key": "k"}}})");
  ASSERT_FALSE(bad_taints);
  EXPECT_EQ(bad_taints.error().path, "spec.taints");
  auto bad_weight = dra::json::load(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
    "spec": {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": "heavy"}]}}}})");
  ASSERT_FALSE(bad_weight);
  EXPECT_EQ(bad_weight.error().path, "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight");
}

}  // namespace
