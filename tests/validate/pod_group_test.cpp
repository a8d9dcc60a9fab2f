// PodGroups and Workloads validated as the API server validates the fields dra reads.
#include "support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

// Every problem of the document, as `dra validate` lists them.
std::vector<std::string> group_problems(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& e : validate_test::errors_of(text, /*pools=*/true)) out.push_back(e.to_string());
  return out;
}

TEST(PodGroupValidation, PolicyTopologyAndClaims) {
  EXPECT_EQ(group_problems(R"({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
    "metadata": {"name": "g", "namespace": "ml"},
    "spec": {"schedulingPolicy": {"gang": {"minCount": 0}},
             "schedulingConstraints": {"topology": [{"key": ""}]},
             "resourceClaims": [{"name": "a", "resourceClaimName": "x", "resourceClaimTemplateName": "t"},
                                {"name": "a"}]}})"),
            (std::vector<std::string>{
                "PodGroup/ml/g: spec.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than 0",
                "PodGroup/ml/g: spec.schedulingConstraints.topology[0].key: Required value",
                "PodGroup/ml/g: spec.resourceClaims[0]: Invalid value: \"\": at most one of `resourceClaimName` or "
                "`resourceClaimTemplateName` may be specified",
                "PodGroup/ml/g: spec.resourceClaims[1].name: Duplicate value: \"a\"",
                "PodGroup/ml/g: spec.resourceClaims[1]: Required value: must specify one of: `resourceClaimName`, "
                "`resourceClaimTemplateName`",
            }));
  EXPECT_EQ(group_problems(R"({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
    "metadata": {"name": "g", "namespace": "ml"}, "spec": {"schedulingPolicy": {"basic": {}, "gang": {}}}})"),
            (std::vector<std::string>{
                "PodGroup/ml/g: spec.schedulingPolicy: Invalid value: \"\": exactly one of `basic` or `gang` is "
                "required, but multiple fields are set",
                "PodGroup/ml/g: spec.schedulingPolicy.gang.minCount: Required value",
            }));
}

TEST(PodGroupValidation, WorkloadTemplatesAndPodGroupName) {
  EXPECT_EQ(group_problems(R"([{"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload",
    "metadata": {"name": "w", "namespace": "ml"},
    "spec": {"podGroupTemplates": [{"name": "a", "schedulingPolicy": {"basic": {}}}, {"name": "a"}]}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ml"},
     "spec": {"schedulingGroup": {"podGroupName": "Bad_Name"}}}])"),
            (std::vector<std::string>{
                "Workload/ml/w: spec.podGroupTemplates[1].name: Duplicate value: \"a\"",
                "Workload/ml/w: spec.podGroupTemplates[1].schedulingPolicy: Required value: exactly one of `basic` or "
                "`gang` is required",
                "Pod/ml/p: spec.schedulingGroup.podGroupName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 "
                "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
                "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            }));
}

}  // namespace
