// PodDisruptionBudgets read and validated as the API server validates them: the budget's form, its label selector,
// the status the disruption controller writes, and the apiVersion.
#include <dra/json/ingest.hpp>
#include <dra/validate/scenario.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using validate_test::dump;
using validate_test::errors_of;
using validate_test::has_error;

std::string budget(const std::string& spec, const std::string& rest = {}) {
  return R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web", "namespace": "shop"},
            "spec": )" +
         spec + rest + "}";
}

TEST(DisruptionBudgetFields, ABudgetAsKubectlPrintsItIsReadWithItsStatus) {
  auto doc = dra::json::load(budget(R"({"minAvailable": 2, "selector": {"matchLabels": {"app": "web"},
      "matchExpressions": [{"key": "tier", "operator": "In", "values": ["front"]}]},
      "unhealthyPodEvictionPolicy": "AlwaysAllow"})",
                                    R"(, "status": {"currentHealthy": 3, "desiredHealthy": 2, "expectedPods": 3,
      "disruptionsAllowed": 1, "observedGeneration": 1,
      "disruptedPods": {"web-1": "2026-11-29T10:00:00Z"}})"));
  ASSERT_TRUE(doc) << doc.error().to_string();
  ASSERT_EQ(doc->scenario().disruption_budgets.size(), 1u);
  EXPECT_TRUE(doc->scenario().warnings.empty());  // no longer "not used by device allocation"
  const dra::model::pod_disruption_budget& b = doc->scenario().disruption_budgets[0].object;
  EXPECT_EQ(b.meta.namespace_, "shop");
  ASSERT_TRUE(b.min_available);
  EXPECT_FALSE(b.min_available->is_string);
  EXPECT_EQ(b.min_available->number, 2);
  EXPECT_FALSE(b.max_unavailable);
  ASSERT_TRUE(b.selector);
  EXPECT_EQ(*dra::model::find(b.selector->match_labels, "app"), "web");
  ASSERT_EQ(b.selector->match_expressions.size(), 1u);
  EXPECT_EQ(b.selector->match_expressions[0].values.front(), "front");
  EXPECT_EQ(b.unhealthy_pod_eviction_policy, "AlwaysAllow");
  ASSERT_TRUE(b.status);
  EXPECT_EQ(b.status->disruptions_allowed, 1);
  EXPECT_NE(dra::model::find(b.status->disrupted_pods, "web-1"), nullptr);
  EXPECT_TRUE(errors_of(budget(R"({"maxUnavailable": "25%", "selector": {}})")).empty());
}

TEST(DisruptionBudgetFields, ABudgetWrittenByHandHasNoStatusAndAPercentageStaysText) {
  auto doc = dra::json::load(budget(R"({"maxUnavailable": "50%", "selector": {"matchLabels": {"app": "web"}}})"));
  ASSERT_TRUE(doc) << doc.error().to_string();
  const dra::model::pod_disruption_budget& b = doc->scenario().disruption_budgets[0].object;
  EXPECT_FALSE(b.status);
  ASSERT_TRUE(b.max_unavailable);
  EXPECT_TRUE(b.max_unavailable->is_string);
  EXPECT_EQ(b.max_unavailable->string, "50%");
}

TEST(DisruptionBudgetFields, ReadingErrorsNameTheField) {
  auto wrong_type = dra::json::load(budget(R"({"minAvailable": true})"));
  ASSERT_FALSE(wrong_type);
  EXPECT_NE(wrong_type.error().to_string().find("spec.minAvailable"), std::string::npos) << wrong_type.error().to_string();
  EXPECT_NE(wrong_type.error().to_string().find("must be an integer or a percentage"), std::string::npos);
  auto old = dra::json::load(R"({"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
                                  "metadata": {"name": "web", "namespace": "shop"}, "spec": {}})");
  ASSERT_FALSE(old);
  EXPECT_NE(old.error().to_string().find(R"(apiVersion "policy/v1beta1" is not supported: use policy/v1)"),
            std::string::npos)
      << old.error().to_string();
}

TEST(DisruptionBudgetValidation, TheBudgetsFormIsCheckedAsTheApiServerChecksIt) {
  const auto both = errors_of(budget(R"({"minAvailable": 1, "maxUnavailable": 1})"));
  EXPECT_TRUE(has_error(both, "spec", "minAvailable and maxUnavailable cannot be both set")) << dump(both);
  const auto negative = errors_of(budget(R"({"minAvailable": -1})"));
  EXPECT_TRUE(has_error(negative, "spec.minAvailable", "must be greater than or equal to 0")) << dump(negative);
  const auto not_percent = errors_of(budget(R"({"maxUnavailable": "3"})"));
  EXPECT_TRUE(has_error(not_percent, "spec.maxUnavailable", "a valid percent string")) << dump(not_percent);
  const auto too_much = errors_of(budget(R"({"maxUnavailable": "150%"})"));
  EXPECT_TRUE(has_error(too_much, "spec.maxUnavailable", "must not be greater than 100%")) << dump(too_much);
  const auto policy = errors_of(budget(R"({"minAvailable": 1, "unhealthyPodEvictionPolicy": "Never"})"));
  EXPECT_TRUE(has_error(policy, "spec.unhealthyPodEvictionPolicy", R"(Unsupported value: "Never")")) << dump(policy);
  const auto status = errors_of(budget(R"({"minAvailable": 1})", R"(, "status": {"disruptionsAllowed": -2})"));
  EXPECT_TRUE(has_error(status, "status.disruptionsAllowed", "must be greater than or equal to 0")) << dump(status);
  const auto no_namespace = errors_of(R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                                          "metadata": {"name": "web"}, "spec": {"minAvailable": 1}})");
  EXPECT_TRUE(has_error(no_namespace, "metadata.namespace", "Required value")) << dump(no_namespace);
  for (const auto& e : both) EXPECT_EQ(e.object, "PodDisruptionBudget/shop/web");
}

TEST(DisruptionBudgetValidation, TheSelectorIsALabelSelector) {
  const auto gt = errors_of(budget(R"({"minAvailable": 1, "selector": {"matchExpressions": [
      {"key": "rank", "operator": "Gt", "values": ["3"]}]}})"));
  EXPECT_TRUE(has_error(gt, "spec.selector.matchExpressions[0].operator", "not a valid selector operator")) << dump(gt);
  const auto no_values = errors_of(budget(R"({"minAvailable": 1, "selector": {"matchExpressions": [
      {"key": "app", "operator": "In"}]}})"));
  EXPECT_TRUE(has_error(no_values, "spec.selector.matchExpressions[0].values", "must be specified")) << dump(no_values);
  const auto bad_label = errors_of(budget(R"({"minAvailable": 1, "selector": {"matchLabels": {"app": "web page"}}})"));
  EXPECT_TRUE(has_error(bad_label, "spec.selector.matchLabels", R"(Invalid value: "web page")")) << dump(bad_label);
  EXPECT_TRUE(errors_of(budget(R"({"minAvailable": "100%", "selector": {"matchExpressions": [
      {"key": "app", "operator": "Exists"}]}})"))
                  .empty());
}

TEST(DisruptionBudgetValidation, TwoBudgetsOfOneNameInANamespaceAreOneTooMany) {
  auto doc = dra::json::load("[" + budget(R"({"minAvailable": 1})") + "," + budget(R"({"minAvailable": 2})") + "]");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const auto errors = dra::validate::validate(*doc);
  EXPECT_TRUE(has_error(errors, "metadata.name", "another PodDisruptionBudget of this name")) << dump(errors);
}

}  // namespace
