// PodGroup and Workload (scheduling.k8s.io v1beta1, v1alpha3) and a pod's spec.schedulingGroup under ingest.
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

constexpr const char* pod_group_scenario = R"([
{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": "train", "namespace": "ml"},
 "spec": {"schedulingPolicy": {"gang": {"minCount": 4}},
          "schedulingConstraints": {"topology": [{"key": "topology.kubernetes.io/rack"}]},
          "resourceClaims": [{"name": "fabric", "resourceClaimTemplateName": "imex"},
                             {"name": "slice", "resourceClaimName": "tpu-slice"}]},
 "status": {"resourceClaimStatuses": [{"name": "fabric", "resourceClaimName": "train-fabric"}]}},
{"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload", "metadata": {"name": "job", "namespace": "ml"},
 "spec": {"podGroupTemplates": [{"name": "workers", "schedulingPolicy": {"basic": {}}}]}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "w0", "namespace": "ml"},
 "spec": {"schedulingGroup": {"podGroupName": "train"}}}
])";

TEST(PodGroupFields, PodGroupWorkloadAndSchedulingGroupAreRead) {
  auto doc = dra::json::load(pod_group_scenario);
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto& s = doc->scenario();
  ASSERT_EQ(s.pod_groups.size(), 1u);
  const auto& group = s.pod_groups[0].object;
  EXPECT_EQ(group.meta.name, "train");
  EXPECT_TRUE(group.spec.gang);
  EXPECT_FALSE(group.spec.basic);
  EXPECT_EQ(group.spec.gang_min_count, 4);
  EXPECT_EQ(group.spec.topology_keys, std::vector<dra::model::text>{"topology.kubernetes.io/rack"});
  ASSERT_EQ(group.spec.resource_claims.size(), 2u);
  EXPECT_EQ(group.spec.resource_claims[0].resource_claim_template_name, "imex");
  EXPECT_EQ(group.spec.resource_claims[1].resource_claim_name, "tpu-slice");
  ASSERT_EQ(group.resource_claim_statuses.size(), 1u);
  EXPECT_EQ(group.resource_claim_statuses[0].resource_claim_name, "train-fabric");
  ASSERT_EQ(s.workloads.size(), 1u);
  ASSERT_EQ(s.workloads[0].object.pod_group_templates.size(), 1u);
  EXPECT_EQ(s.workloads[0].object.pod_group_templates[0].name, "workers");
  EXPECT_TRUE(s.workloads[0].object.pod_group_templates[0].spec.basic);
  EXPECT_EQ(s.pods.at(0).object.pod_group_name, "train");
  EXPECT_TRUE(s.others.empty());
  EXPECT_TRUE(s.warnings.empty());
}

TEST(PodGroupFields, OtherSchedulingApiVersionsAreRefused) {
  auto doc = dra::json::load(R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PodGroup", "metadata": {"name": "g"}})");
  ASSERT_FALSE(doc);
  EXPECT_NE(doc.error().to_string().find("use scheduling.k8s.io/v1beta1 or v1alpha3"), std::string::npos)
      << doc.error().to_string();
}

}  // namespace
