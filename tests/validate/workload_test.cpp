// Nodes and Pods validated as the API server validates the fields scheduling reads.
#include <dra/json/ingest.hpp>
#include <dra/validate/scenario.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> problems_of(const std::string& text) {
  auto doc = dra::json::load(text);
  if (!doc) {
    ADD_FAILURE() << doc.error().to_string();
    return {};
  }
  std::vector<std::string> out;
  for (const auto& e : dra::validate::validate(*doc)) out.push_back(e.to_string());
  return out;
}

TEST(WorkloadValidation, NodeTaintsAndAllocatable) {
  EXPECT_EQ(problems_of(R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
    "spec": {"taints": [{"key": "a", "effect": "NoSchedule"}, {"key": "a", "value": "x", "effect": "NoSchedule"},
                        {"key": "a", "effect": "NoExecute"}, {"key": "b"}, {"key": "c", "effect": "Sometimes"},
                        {"key": "bad key", "effect": "NoSchedule"}]},
    "status": {"allocatable": {"cpu": "-1", "pods": "1.5", "example.com/gpu": "500m", "memory": "1.5"}}})"),
            (std::vector<std::string>{
                "Node/n: metadata.taints[1]: Duplicate value: \"a=x:NoSchedule\": taints must be unique by key and "
                "effect pair",
                "Node/n: metadata.taints[3].effect: Required value",
                "Node/n: metadata.taints[4].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", "
                "\"PreferNoSchedule\", \"NoExecute\"",
                "Node/n: metadata.taints[5].key: Invalid value: \"bad key\": name part must consist of alphanumeric "
                "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
                "or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "Node/n: status.allocatable.cpu: Invalid value: \"-1\": must be greater than or equal to 0",
                "Node/n: status.allocatable.example.com/gpu: Invalid value: \"500m\": must be an integer",
                "Node/n: status.allocatable.pods: Invalid value: \"1500m\": must be an integer",
            }));
}

TEST(WorkloadValidation, PodTolerationsRequestsAndGates) {
  const auto problems = problems_of(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
    "spec": {"tolerations": [{"operator": "Equal", "value": "x"}, {"key": "k", "operator": "Exists", "value": "v"},
                             {"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5},
                             {"key": "k", "operator": "Lt", "value": "3"}, {"operator": "Exists"}],
             "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}}],
             "schedulingGates": [{"name": "example.com/a"}, {"name": "example.com/a"}],
             "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}}})");
  EXPECT_EQ(problems,
            (std::vector<std::string>{
                "Pod/d/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: "
                "Required value: must have at least one node selector term",
                "Pod/d/p: spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` "
                "is empty, which means \"match all values and all keys\"",
                "Pod/d/p: spec.tolerations[1].operator: Invalid value: \"v\": value must be empty when `operator` is "
                "'Exists'",
                "Pod/d/p: spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when "
                "`tolerationSeconds` is set",
                "Pod/d/p: spec.tolerations[3].operator: Unsupported value: \"Lt\": supported values: \"Equal\", "
                "\"Exists\"",
                "Pod/d/p: spec.containers[0].resources.requests.cpu: Invalid value: \"2\": must be less than or equal "
                "to cpu limit of 1",
                "Pod/d/p: spec.schedulingGates[1]: Duplicate value: \"example.com/a\"",
            }));
}

TEST(WorkloadValidation, PreferredNodeAffinityTerms) {
  // Weights 1-100; each preference is a node selector term (its requirements checked as the required ones').
  EXPECT_EQ(problems_of(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
    "spec": {"containers": [{"name": "c"}], "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
      {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}},
      {"weight": 100, "preference": {"matchExpressions": [{"key": "zone", "operator": "In"}]}},
      {"weight": 101, "preference": {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n"]}]}}]}}}})"),
            (std::vector<std::string>{
                "Pod/d/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
                "Invalid value: 0: must be in the range 1-100",
                "Pod/d/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].preference."
                "matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
                "Pod/d/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[2].weight: "
                "Invalid value: 101: must be in the range 1-100",
            }));
}

TEST(WorkloadValidation, ARealisticNodeAndPodAreValid) {
  EXPECT_EQ(problems_of(R"([
    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"gpu": "h100"}},
     "spec": {"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},
                         {"key": "nvidia.com/gpu", "value": "present", "effect": "NoExecute"}]},
     "status": {"allocatable": {"cpu": "7910m", "memory": "31Gi", "pods": "110", "nvidia.com/gpu": "8"}}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
     "spec": {"nodeSelector": {"gpu": "h100"},
              "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute",
                               "tolerationSeconds": 300}, {"operator": "Exists"}],
              "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}],
              "schedulingGates": [{"name": "example.com/quota"}]}}])"),
            std::vector<std::string>{});
}

}  // namespace
