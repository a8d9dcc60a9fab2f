// DefaultPreemption's rules on their own: which victims matter more, and which candidate node each rule keeps.
#include <dra/sched/preemption.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace {

using dra::sched::choose_preemption_node;
using dra::sched::preemption_candidate;
using dra::sched::preemption_rule;
using dra::sched::preemption_victim;

preemption_candidate on(std::size_t node, std::vector<preemption_victim> victims, std::size_t pdb_violations = 0) {
  return {node, std::move(victims), pdb_violations};
}

TEST(PreemptionRules, AVictimMattersMoreByPriorityThenByItsEarlierStart) {
  EXPECT_TRUE(dra::sched::more_important({0, 10, "2026-01-02T00:00:00Z"}, {1, 5, "2026-01-01T00:00:00Z"}));
  EXPECT_TRUE(dra::sched::more_important({0, 5, "2026-01-01T00:00:00Z"}, {1, 5, "2026-01-02T00:00:00Z"}));
  // A pod that has not started counts as starting now: after any recorded start.
  EXPECT_TRUE(dra::sched::more_important({0, 5, "2026-01-01T00:00:00Z"}, {1, 5, ""}));
  EXPECT_FALSE(dra::sched::more_important({0, 5, ""}, {1, 5, ""}));
}

TEST(PreemptionRules, EachRuleDecidesWhenTheOnesBeforeItTie) {
  const preemption_victim low_early{0, 10, "2026-01-01T00:00:00Z"};
  const preemption_victim low_late{1, 10, "2026-01-03T00:00:00Z"};
  const preemption_victim lower{2, 5, "2026-01-02T00:00:00Z"};
  const preemption_victim high{3, 50, "2026-01-02T00:00:00Z"};
  {
    const std::vector<preemption_candidate> c{on(0, {low_early}, 1), on(1, {high, low_late}, 0)};
    EXPECT_EQ(choose_preemption_node(c).candidate, 1u);
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::fewest_pdb_violations);
  }
  {
    const std::vector<preemption_candidate> c{on(0, {high}), on(1, {low_early, lower})};
    EXPECT_EQ(choose_preemption_node(c).candidate, 1u);
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::lowest_top_priority);
  }
  {
    // Both top at 10; 10 + 5 sums less than 10 + 10.
    const std::vector<preemption_candidate> c{on(0, {low_early, low_late}), on(1, {low_late, lower})};
    EXPECT_EQ(choose_preemption_node(c).candidate, 1u);
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::smallest_priority_sum);
  }
  {
    // Each victim counts 2^31 on top of its priority: two victims of priority -3 weigh more than one, although
    // their plain sum (-6) is the smaller.
    const preemption_victim negative_a{4, -3, "2026-01-02T00:00:00Z"}, negative_b{5, -3, "2026-01-02T00:00:00Z"};
    const std::vector<preemption_candidate> c{on(0, {negative_a, negative_b}), on(1, {preemption_victim{6, -3, ""}})};
    EXPECT_EQ(choose_preemption_node(c).candidate, 1u);
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::smallest_priority_sum);
  }
  {
    const std::vector<preemption_candidate> c{on(0, {low_early}), on(1, {low_late})};
    EXPECT_EQ(choose_preemption_node(c).candidate, 1u);  // the victim that started last
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::latest_start);
  }
  {
    const std::vector<preemption_candidate> c{on(3, {low_early}), on(7, {low_early})};
    EXPECT_EQ(choose_preemption_node(c).candidate, 0u);
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::first_candidate);
  }
  {
    const std::vector<preemption_candidate> c{on(4, {high})};
    EXPECT_EQ(choose_preemption_node(c).rule, preemption_rule::only_candidate);
  }
}

TEST(PreemptionRules, EachCandidateSetAsideIsMarkedWithTheRuleThatDidIt) {
  const preemption_victim low_early{0, 10, "2026-01-01T00:00:00Z"};
  const preemption_victim low_late{1, 10, "2026-01-03T00:00:00Z"};
  const preemption_victim lower{2, 5, "2026-01-02T00:00:00Z"};
  const preemption_victim high{3, 50, "2026-01-02T00:00:00Z"};
  const preemption_victim low_midway{4, 10, "2026-01-02T12:00:00Z"};
  // Node 0 violates a budget; node 1's top victim matters more than the others'; node 2 loses two victims; nodes 3
  // and 5 lose one that started before node 4's.
  const std::vector<preemption_candidate> c{on(0, {low_late}, 1),     on(1, {high}),     on(2, {low_late, lower}),
                                            on(3, {low_early}),       on(4, {low_late}), on(5, {low_midway})};
  const auto choice = choose_preemption_node(c);
  EXPECT_EQ(choice.candidate, 4u);
  EXPECT_EQ(choice.rule, preemption_rule::latest_start);
  const std::vector<std::optional<preemption_rule>> expected{
      preemption_rule::fewest_pdb_violations, preemption_rule::lowest_top_priority, preemption_rule::smallest_priority_sum,
      preemption_rule::latest_start,          std::nullopt,                         preemption_rule::latest_start};
  EXPECT_EQ(choice.set_aside_by, expected);
  // A tie to the end leaves the first, the others set aside by the last rule.
  const std::vector<preemption_candidate> tied{on(3, {low_early}), on(7, {low_early})};
  EXPECT_EQ(choose_preemption_node(tied).set_aside_by,
            (std::vector<std::optional<preemption_rule>>{std::nullopt, preemption_rule::first_candidate}));
  EXPECT_EQ(choose_preemption_node(std::vector{on(4, {high})}).set_aside_by,
            std::vector<std::optional<preemption_rule>>{std::nullopt});
}

TEST(PreemptionRules, TheDryRunLooksForATenthOfTheNodesAtLeastAHundred) {
  EXPECT_EQ(dra::sched::preemption_candidates_wanted(40), 40u);
  EXPECT_EQ(dra::sched::preemption_candidates_wanted(500), 100u);
  EXPECT_EQ(dra::sched::preemption_candidates_wanted(5000), 500u);
}

TEST(PreemptionRules, ThePostFiltersWordsJoinAsKubeSchedulerJoinsThem) {
  EXPECT_EQ(dra::sched::post_filter_text(dra::sched::no_claims_to_deallocate, dra::sched::preemption_policy_never),
            "no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.");
  EXPECT_EQ(dra::sched::post_filter_text(dra::sched::still_not_schedulable, ""), "");
}

}  // namespace
