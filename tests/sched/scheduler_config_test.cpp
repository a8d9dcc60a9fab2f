// Reading a KubeSchedulerConfiguration (--scheduler-config): kube-scheduler's defaults, the merge of the default
// plugins with the profile's, the weights the framework gives score plugins, and the validation errors worded as
// kube-scheduler words them.
#include <dra/json/scheduler_config.hpp>

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace {

using namespace dra;

const std::string config_head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

model::scheduler_profile read_ok(const std::string& text) {
  auto profile = json::read_scheduler_profile(text);
  EXPECT_TRUE(profile) << profile.error().to_string();
  return profile ? *profile : model::scheduler_profile{};
}

// The error's "path: message".
std::string read_error(const std::string& text) {
  auto profile = json::read_scheduler_profile(text);
  EXPECT_FALSE(profile);
  return profile ? std::string() : profile.error().to_string();
}

TEST(SchedulerConfig, NoProfilesIsTheDefaultProfile) {
  EXPECT_EQ(read_ok(config_head), model::scheduler_profile{});
  EXPECT_EQ(read_ok(config_head + "profiles:\n- schedulerName: default-scheduler\n"), model::scheduler_profile{});
  const model::score_weights defaults;
  EXPECT_EQ(defaults.taint_toleration, 3);
  EXPECT_EQ(defaults.dynamic_resources, 2);
}

TEST(SchedulerConfig, ReadsMostAllocatedWithExtendedResources) {
  const auto profile = read_ok(config_head + R"(profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - {name: cpu, weight: 1}
        - {name: memory}
        - {name: nvidia.com/gpu, weight: 5}
)");
  EXPECT_TRUE(std::holds_alternative<model::most_allocated>(profile.fit.strategy));
  // A weight left out (or 0) is 1 (SetDefaults_NodeResourcesFitArgs).
  EXPECT_EQ(profile.fit.resources,
            (std::vector<model::resource_weight>{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 5}}));
  EXPECT_EQ(profile.weights, model::score_weights{});
}

TEST(SchedulerConfig, ReadsRequestedToCapacityRatioFromJson) {
  const auto profile = read_ok(R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
    "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [{"name": "NodeResourcesFit", "args": {
      "scoringStrategy": {"type": "RequestedToCapacityRatio",
        "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0},
                                               {"utilization": 100, "score": 10}]}}}}]}]})");
  const auto* ratio = std::get_if<model::requested_to_capacity_ratio>(&profile.fit.strategy);
  ASSERT_NE(ratio, nullptr);
  EXPECT_EQ(ratio->shape, (std::vector<model::utilization_shape_point>{{0, 0}, {100, 10}}));
  // No resources: cpu and memory.
  EXPECT_EQ(profile.fit.resources, model::default_scored_resources());
}

TEST(SchedulerConfig, ScorePluginsDisabledWeighNothing) {
  auto profile = read_ok(config_head + R"(profiles:
- plugins:
    score:
      disabled: [{name: NodeResourcesBalancedAllocation}, {name: TaintToleration}]
)");
  EXPECT_EQ(profile.weights.balanced_allocation, 0);
  EXPECT_EQ(profile.weights.taint_toleration, 0);
  EXPECT_EQ(profile.weights.node_affinity, 2);
  EXPECT_EQ(profile.weights.resources_fit, 1);
  // "*" disables every multiPoint plugin's score; the score list's own entries stay, weight 0 meaning 1.
  profile = read_ok(config_head + R"(profiles:
- plugins:
    score:
      enabled: [{name: NodeResourcesFit, weight: 5}, {name: NodeAffinity}]
      disabled: [{name: "*"}]
)");
  EXPECT_EQ(profile.weights, (model::score_weights{0, 1, 5, 0, 0}));
  // A multiPoint entry re-weighs a default plugin in place; the score list's entry wins over it.
  profile = read_ok(config_head + R"(profiles:
- plugins:
    multiPoint:
      enabled: [{name: TaintToleration, weight: 7}, {name: DynamicResources, weight: 9}]
    score:
      enabled: [{name: DynamicResources, weight: 4}]
)");
  EXPECT_EQ(profile.weights.taint_toleration, 7);
  EXPECT_EQ(profile.weights.dynamic_resources, 4);
  // multiPoint disabled: the plugin is gone from every point, score included.
  profile = read_ok(config_head + R"(profiles:
- plugins:
    multiPoint:
      disabled: [{name: NodeAffinity}]
)");
  EXPECT_EQ(profile.weights.node_affinity, 0);
}

TEST(SchedulerConfig, BalancedAllocationResources) {
  const auto profile = read_ok(config_head + R"(profiles:
- pluginConfig:
  - name: NodeResourcesBalancedAllocation
    args: {resources: [{name: cpu}, {name: memory}, {name: nvidia.com/gpu, weight: 1}]}
)");
  EXPECT_EQ(profile.balanced_resources,
            (std::vector<model::resource_weight>{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}}));
  EXPECT_EQ(read_error(config_head + R"(profiles:
- pluginConfig:
  - name: NodeResourcesBalancedAllocation
    args: {resources: [{name: cpu, weight: 2}]}
)"),
            "profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 2: must be 1");
  EXPECT_EQ(read_error(config_head + R"(profiles:
- pluginConfig:
  - name: NodeResourcesBalancedAllocation
    args: {resources: [{name: cpu}, {name: cpu}]}
)"),
            "profiles[0].pluginConfig[0].args.resources[1].name: Duplicate value: \"cpu\"");
}

TEST(SchedulerConfig, PicksTheDefaultSchedulersProfile) {
  const std::string two = config_head + R"(profiles:
- schedulerName: packer
  pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated}}}]
- schedulerName: default-scheduler
)";
  EXPECT_TRUE(std::holds_alternative<model::least_allocated>(read_ok(two).fit.strategy));
  auto packer = json::read_scheduler_profile(two, "packer");
  ASSERT_TRUE(packer);
  EXPECT_TRUE(std::holds_alternative<model::most_allocated>(packer->fit.strategy));
  // The only profile, whatever its name.
  auto only = json::read_scheduler_profile(config_head + "profiles: [{schedulerName: packer}]\n");
  ASSERT_TRUE(only);
  EXPECT_EQ(only->scheduler_name, "packer");
  EXPECT_EQ(read_error(config_head + "profiles: [{schedulerName: a}, {schedulerName: b}]\n"),
            "profiles: no profile is named \"default-scheduler\" (the profiles: \"a\", \"b\")");
  EXPECT_EQ(read_error(config_head + "profiles: [{schedulerName: a}, {}]\n"),
            "profiles[1].schedulerName: Required value");
}

// NodeResourcesFit's args, each error as ValidateNodeResourcesFitArgs words it.
std::string fit_error(const std::string& strategy) {
  return read_error(
      config_head +
      "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy: " + strategy + "\n");
}

TEST(SchedulerConfig, NodeResourcesFitValidation) {
  const std::string at = "profiles[0].pluginConfig[0].args.scoringStrategy.";
  EXPECT_EQ(fit_error("{type: Foo}"), at + "type: Unsupported value: \"Foo\": supported values: \"LeastAllocated\", "
                                           "\"MostAllocated\", \"RequestedToCapacityRatio\"");
  // A strategy without a type is not defaulted.
  EXPECT_EQ(fit_error("{resources: [{name: cpu}]}"),
            at + "type: Unsupported value: \"\": supported values: \"LeastAllocated\", \"MostAllocated\", "
                 "\"RequestedToCapacityRatio\"");
  EXPECT_EQ(fit_error("{type: MostAllocated, resources: [{name: cpu, weight: 101}]}"),
            at + "resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]");
  EXPECT_EQ(fit_error("{type: LeastAllocated, resources: [{name: cpu}, {name: memory, weight: -1}]}"),
            at + "resources[1].weight: Invalid value: -1: resource weight of memory not in valid range (0, 100]");
  EXPECT_EQ(fit_error("{type: RequestedToCapacityRatio}"),
            at + "requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio");
  EXPECT_EQ(fit_error("{type: MostAllocated, requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}]}}"),
            at + "requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio");
  EXPECT_EQ(fit_error("{type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: []}}"),
            at + "requestedToCapacityRatio.shape: Required value: at least one point must be specified");
  EXPECT_EQ(fit_error("{type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: "
                      "[{utilization: 50, score: 1}, {utilization: 50, score: 2}]}}"),
            at + "requestedToCapacityRatio.shape[1].utilization: Invalid value: 50: values must be sorted in "
                 "increasing order");
  EXPECT_EQ(fit_error("{type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: "
                      "[{utilization: 0, score: 0}, {utilization: 101, score: 2}]}}"),
            at + "requestedToCapacityRatio.shape[1].utilization: Invalid value: 101: not in valid range [0, 100]");
  EXPECT_EQ(fit_error("{type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: "
                      "[{utilization: 0, score: 11}]}}"),
            at + "requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]");
}

TEST(SchedulerConfig, ScoreListsNameScorePluginsOnly) {
  auto score_error = [](const std::string& list) {
    return read_error(config_head + "profiles:\n- plugins:\n    " + list + "\n");
  };
  EXPECT_EQ(score_error("score: {enabled: [{name: Foo}]}"),
            "profiles[0].plugins.score.enabled[0]: ScorePlugin \"Foo\" does not exist");
  EXPECT_EQ(score_error("score: {enabled: [{name: NodePorts}]}"),
            "profiles[0].plugins.score.enabled[0]: plugin \"NodePorts\" does not extend ScorePlugin plugin");
  EXPECT_EQ(score_error("score: {enabled: [{name: NodeAffinity}, {name: NodeAffinity}]}"),
            "profiles[0].plugins.score.enabled[1]: plugin \"NodeAffinity\" already registered as \"ScorePlugin\"");
  EXPECT_EQ(score_error("multiPoint: {enabled: [{name: Bar}]}"),
            "profiles[0].plugins.multiPoint.enabled[0]: PreFilterPlugin \"Bar\" does not exist");
  EXPECT_EQ(score_error("score: {enabled: [{name: EBSLimits}]}"),
            "profiles[0].plugins.score.enabled[0]: Invalid value: \"EBSLimits\": was invalid in version "
            "\"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version "
            "\"kubescheduler.config.k8s.io/v1\")");
  // Plugins dra does not model are valid score plugins.
  EXPECT_TRUE(json::read_scheduler_profile(config_head +
                                           "profiles: [{plugins: {score: {enabled: [{name: ImageLocality}]}}}]\n"));
}

TEST(SchedulerConfig, DocumentErrorsCarryTheirCodes) {
  auto code_of = [](const std::string& text) {
    auto profile = json::read_scheduler_profile(text);
    return profile ? errc::invalid_input : profile.error().code;
  };
  EXPECT_EQ(read_error("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"),
            "apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1beta3\": supported values: "
            "\"kubescheduler.config.k8s.io/v1\"");
  EXPECT_EQ(read_error("apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n"),
            "kind: Unsupported value: \"Pod\": supported values: \"KubeSchedulerConfiguration\"");
  EXPECT_EQ(code_of("apiVersion: [unclosed\n"), errc::malformed_document);
  EXPECT_EQ(code_of(""), errc::malformed_document);
  EXPECT_EQ(code_of("{\"apiVersion\": "), errc::malformed_document);
  EXPECT_EQ(read_error(config_head + "profiles: [{plugins: {scor: {}}}]\n"),
            "profiles[0].plugins.scor: unknown field \"scor\"");
  EXPECT_EQ(code_of(config_head + "profiles: [{plugins: {scor: {}}}]\n"), errc::unknown_field);
  EXPECT_EQ(
      read_error(config_head + "profiles: [{plugins: {score: {enabled: [{name: NodeAffinity, weight: heavy}]}}}]\n"),
      "profiles[0].plugins.score.enabled[0].weight: must be a whole number, not a string");
  EXPECT_EQ(code_of(config_head + "profiles: [{plugins: {score: {enabled: [{name: NodeAffinity, weight: 1.5}]}}}]\n"),
            errc::invalid_field);
  EXPECT_EQ(code_of(config_head + "profiles: [{pluginConfig: [{name: NodeResourcesFit}, {name: NodeResourcesFit}]}]\n"),
            errc::invalid_object);
  // The fields kube-scheduler has that do not change scoring are read and left alone.
  EXPECT_TRUE(json::read_scheduler_profile(config_head + "parallelism: 16\nleaderElection: {leaderElect: false}\n"
                                                         "profiles: [{pluginConfig: [{name: DefaultPreemption, "
                                                         "args: {minCandidateNodesPercentage: 10}}]}]\n"));
}

}  // namespace
