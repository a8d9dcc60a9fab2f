// kube-scheduler's node filters, case by case from upstream's own tables (restated as facts), and FitError's text.
#include <dra/sched/filters.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_usage.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace dra;
using model::node;
using model::node_selector_operator;
using model::pod;
using model::toleration_operator;

model::node_taint taint(std::string_view key, std::string_view value, std::string_view effect) {
  return {key, value, effect, std::nullopt};
}
model::pod_toleration toleration(std::string_view key, toleration_operator op, std::string_view value,
                                 std::string_view effect) {
  return {key, op, value, effect, std::nullopt, {}};
}
node labelled(std::string_view name, std::vector<std::pair<std::string_view, std::string_view>> labels = {}) {
  node n;
  n.meta.name = name;
  for (auto [k, v] : labels) n.meta.labels.push_back({k, v});
  model::sort_by_key(n.meta.labels);
  return n;
}
model::node_selector_requirement requirement(std::string_view key, node_selector_operator op,
                                             std::vector<std::string_view> values) {
  return {key, op, std::move(values), {}};
}
pod with_affinity(std::vector<model::node_selector_term> terms) {
  pod p;
  p.required_node_affinity = model::node_selector{std::move(terms)};
  return p;
}

std::vector<std::string> messages(const std::vector<sched::node_reason>& reasons) {
  std::vector<std::string> out;
  for (const auto& r : reasons) out.push_back(r.message);
  return out;
}

TEST(NodeUnschedulable, ACordonedNodeTakesOnlyPodsThatTolerateIt) {
  node cordoned = labelled("n");
  cordoned.unschedulable = true;
  pod p;
  EXPECT_FALSE(sched::passes_unschedulable(p, cordoned));
  EXPECT_TRUE(sched::passes_unschedulable(p, labelled("n")));
  p.tolerations = {toleration("node.kubernetes.io/unschedulable", toleration_operator::equal, "", "NoSchedule")};
  EXPECT_TRUE(sched::passes_unschedulable(p, cordoned));
  p.tolerations = {toleration("", toleration_operator::exists, "", "")};
  EXPECT_TRUE(sched::passes_unschedulable(p, cordoned));
  p.tolerations = {toleration("node.kubernetes.io/unschedulable", toleration_operator::exists, "", "NoExecute")};
  EXPECT_FALSE(sched::passes_unschedulable(p, cordoned));
  p.tolerations = {toleration("node.kubernetes.io/unschedulable", toleration_operator::equal, "x", "NoSchedule")};
  EXPECT_FALSE(sched::passes_unschedulable(p, cordoned));
  EXPECT_EQ(messages(sched::filter_node(pod{}, {}, cordoned, {})), std::vector<std::string>{"node(s) were unschedulable"});
}

TEST(NodeName, APodNamingANodeFitsOnlyThere) {
  pod p;
  EXPECT_TRUE(sched::passes_node_name(p, labelled("a")));
  p.node_name = "a";
  EXPECT_TRUE(sched::passes_node_name(p, labelled("a")));
  EXPECT_FALSE(sched::passes_node_name(p, labelled("b")));
  EXPECT_EQ(messages(sched::filter_node(p, {}, labelled("b"), {})),
            std::vector<std::string>{"node(s) didn't match the requested node name"});
}

TEST(TaintToleration, OnlyNoScheduleAndNoExecuteTaintsMustBeTolerated) {
  struct row {
    std::vector<model::node_taint> taints;
    std::vector<model::pod_toleration> tolerations;
    bool fits;
  };
  const auto equal = toleration_operator::equal;
  const auto exists = toleration_operator::exists;
  const std::vector<row> rows = {
      {{taint("dedicated", "user1", "NoSchedule")}, {}, false},
      {{taint("dedicated", "user1", "NoSchedule")}, {toleration("dedicated", equal, "user1", "NoSchedule")}, true},
      {{taint("dedicated", "user1", "NoSchedule")}, {toleration("dedicated", equal, "user2", "NoSchedule")}, false},
      {{taint("foo", "bar", "NoSchedule")}, {toleration("foo", exists, "", "NoSchedule")}, true},
      {{taint("dedicated", "user2", "NoSchedule"), taint("foo", "bar", "NoSchedule")},
       {toleration("dedicated", equal, "user2", "NoSchedule"), toleration("foo", exists, "", "NoSchedule")},
       true},
      {{taint("foo", "bar", "NoSchedule")}, {toleration("foo", equal, "bar", "PreferNoSchedule")}, false},
      {{taint("foo", "bar", "NoSchedule")}, {toleration("foo", equal, "bar", "")}, true},
      {{taint("dedicated", "user1", "PreferNoSchedule")}, {toleration("dedicated", equal, "user2", "NoSchedule")}, true},
      {{taint("dedicated", "user1", "PreferNoSchedule")}, {}, true},
      {{taint("k", "v", "NoExecute")}, {}, false},
      {{taint("k", "v", "NoExecute")}, {toleration("", exists, "", "")}, true},
      {{taint("k", "v", "NoSchedule")}, {toleration("k", toleration_operator::unsupported, "v", "NoSchedule")}, false},
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    node n = labelled("n");
    n.taints = rows[i].taints;
    pod p;
    p.tolerations = rows[i].tolerations;
    EXPECT_EQ(sched::untolerated_taint(p, n) == nullptr, rows[i].fits) << "row " << i;
    EXPECT_EQ(messages(sched::filter_node(p, {}, n, {})),
              rows[i].fits ? std::vector<std::string>{} : std::vector<std::string>{"node(s) had untolerated taint(s)"})
        << "row " << i;
  }
}

TEST(NodeAffinity, NodeSelectorLabelsMustAllBeEqual) {
  pod p;
  p.node_selector = {{"foo", "bar"}};
  EXPECT_FALSE(sched::passes_node_affinity(p, labelled("n")));
  EXPECT_TRUE(sched::passes_node_affinity(p, labelled("n", {{"foo", "bar"}})));
  EXPECT_TRUE(sched::passes_node_affinity(p, labelled("n", {{"foo", "bar"}, {"baz", "blah"}})));
  p.node_selector = {{"baz", "blah"}, {"foo", "bar"}};
  EXPECT_FALSE(sched::passes_node_affinity(p, labelled("n", {{"foo", "bar"}})));
  EXPECT_EQ(messages(sched::filter_node(p, {}, labelled("n"), {})),
            std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
}

TEST(NodeAffinity, RequiredTermsAreOredAndTheirRequirementsAnded) {
  using op = node_selector_operator;
  const node gpu = labelled("n", {{"GPU", "NVIDIA-GRID-K1"}, {"foo", "bar"}, {"kernel-version", "0206"}, {"mem-type", "DDR3"}});
  struct row {
    std::vector<model::node_selector_term> terms;
    bool fits;
  };
  const std::vector<row> rows = {
      {{{{requirement("foo", op::in, {"bar", "value2"})}, {}}}, true},
      {{{{requirement("kernel-version", op::gt, {"0204"})}, {}}}, true},
      {{{{requirement("kernel-version", op::lt, {"0204"})}, {}}}, false},
      {{{{requirement("mem-type", op::not_in, {"DDR", "DDR2"})}, {}}}, true},
      {{{{requirement("GPU", op::exists, {})}, {}}}, true},
      {{{{requirement("GPU", op::does_not_exist, {})}, {}}}, false},
      {{{{requirement("foo", op::in, {"value1", "value2"})}, {}}}, false},
      {{{{}, {}}}, false},  // a term without requirements matches nothing
      {{{{requirement("GPU", op::exists, {}), requirement("GPU", op::not_in, {"AMD", "INTER"})}, {}}}, true},
      {{{{requirement("GPU", op::exists, {}), requirement("GPU", op::in, {"AMD", "INTER"})}, {}}}, false},
      {{{{requirement("foo", op::in, {"wrong"})}, {}}, {{requirement("foo", op::in, {"bar"})}, {}}}, true},
      // A malformed requirement voids its term only: the other term still matches.
      {{{{requirement("foo", op::in, {})}, {}}, {{requirement("GPU", op::exists, {})}, {}}}, true},
      {{{{requirement("kernel-version", op::gt, {"x"})}, {}}}, false},
      {{{{}, {requirement("metadata.name", op::in, {"n"})}}}, true},
      {{{{}, {requirement("metadata.name", op::in, {"other"})}}}, false},
      {{{{}, {requirement("metadata.name", op::not_in, {"other"})}}}, true},
  };
  for (std::size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(sched::passes_node_affinity(with_affinity(rows[i].terms), gpu), rows[i].fits) << "row " << i;
}

TEST(NodeAffinity, MatchFieldsOnNodeNamesLimitWhichNodesAreFiltered) {
  using op = node_selector_operator;
  const auto name_in = [](std::vector<std::string_view> names) { return requirement("metadata.name", op::in, names); };
  EXPECT_EQ(sched::affinity_node_names(pod{}), std::nullopt);
  // Every term names nodes: the union of the terms' names.
  EXPECT_EQ(sched::affinity_node_names(with_affinity({{{}, {name_in({"node1"})}}, {{}, {name_in({"node2"})}}})),
            (std::vector<model::text>{"node1", "node2"}));
  // A term's requirements intersect: none left is a conflict.
  EXPECT_EQ(sched::affinity_node_names(with_affinity({{{}, {name_in({"node1"}), name_in({"node2"})}}})),
            std::vector<model::text>{});
  // A term that names no node may match any: no restriction.
  EXPECT_EQ(sched::affinity_node_names(
                with_affinity({{{}, {name_in({"node1"}), name_in({"node2"})}}, {{requirement("foo", op::in, {"bar"})}, {}}})),
            std::nullopt);
  EXPECT_EQ(sched::affinity_node_names(with_affinity({{{}, {requirement("metadata.name", op::not_in, {"node1"})}}})),
            std::nullopt);
}

// Node allocatable as in upstream's fit table: cpu 10m, memory 20, pods 32, example.com/aaa 5, ephemeral-storage 20,
// hugepages-2Mi 5.
node fit_node() {
  node n = labelled("n");
  n.allocatable = model::resource_list{};
  for (auto [name, amount] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"cpu", "10m"}, {"ephemeral-storage", "20"}, {"example.com/aaa", "5"}, {"hugepages-2Mi", "5"},
           {"memory", "20"}, {"pods", "32"}})
    n.allocatable->push_back({name, *quantity::parse(amount)});
  return n;
}
sched::amounts amounts(std::vector<std::pair<std::string_view, std::int64_t>> entries) {
  sched::amounts out;
  for (auto [name, value] : entries) out.push_back({name, value});
  model::sort_by_key(out);
  return out;
}
sched::node_usage used(std::vector<std::pair<std::string_view, std::int64_t>> entries, std::int64_t pods = 1) {
  return {amounts(std::move(entries)), {}, pods};
}

TEST(NodeResourcesFit, EachResourceShortGivesItsOwnReason) {
  struct row {
    sched::amounts pod;
    sched::node_usage existing;
    std::vector<std::string> reasons;
  };
  const std::vector<row> rows = {
      {{}, used({{"cpu", 10}, {"memory", 20}}), {}},
      {amounts({{"cpu", 1}, {"memory", 1}}), used({{"cpu", 10}, {"memory", 20}}), {"Insufficient cpu", "Insufficient memory"}},
      {amounts({{"cpu", 3}, {"memory", 1}}), used({{"cpu", 8}, {"memory", 19}}), {"Insufficient cpu"}},
      {amounts({{"cpu", 1}, {"memory", 1}}), used({{"cpu", 5}, {"memory", 5}}), {}},
      {amounts({{"cpu", 5}, {"memory", 1}}), used({{"cpu", 5}, {"memory", 19}}), {}},  // exactly full
      {amounts({{"cpu", 1}, {"memory", 2}}), used({{"cpu", 5}, {"memory", 19}}), {"Insufficient memory"}},
      {amounts({{"example.com/aaa", 1}}), used({}), {}},
      {amounts({{"example.com/aaa", 10}}), used({}), {"Insufficient example.com/aaa"}},
      {amounts({{"example.com/aaa", 1}}), used({{"example.com/aaa", 5}}), {"Insufficient example.com/aaa"}},
      {amounts({{"example.com/bbb", 1}}), used({}), {"Insufficient example.com/bbb"}},
      {amounts({{"hugepages-2Mi", 10}}), used({}), {"Insufficient hugepages-2Mi"}},
      {amounts({{"ephemeral-storage", 21}}), used({}), {"Insufficient ephemeral-storage"}},
      {amounts({{"storage", 100}}), used({}), {}},  // not a resource the scheduler checks
      {amounts({{"example.com/aaa", 0}}), used({{"example.com/aaa", 5}}), {}},
      {{}, used({}, 32), {"Too many pods"}},
      {amounts({{"cpu", 11}}), used({}, 32), {"Too many pods", "Insufficient cpu"}},
  };
  const node n = fit_node();
  for (std::size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(messages(sched::insufficient_resources(rows[i].pod, n, rows[i].existing)), rows[i].reasons) << "row " << i;
}

TEST(NodeResourcesFit, ANodeWithoutAllocatableIsNotLimitedAndOneWithoutPodsTakesNone) {
  node unlimited = labelled("n");
  EXPECT_TRUE(sched::insufficient_resources(amounts({{"cpu", 1'000'000}}), unlimited, used({}, 1000)).empty());
  node no_pods = fit_node();
  std::erase_if(*no_pods.allocatable, [](const auto& e) { return e.name == "pods"; });
  EXPECT_EQ(messages(sched::insufficient_resources({}, no_pods, {})), std::vector<std::string>{"Too many pods"});
}

TEST(Filters, TheFirstFilterThatRefusesGivesTheReason) {
  node n = fit_node();
  n.unschedulable = true;
  n.taints = {taint("dedicated", "infra", "NoSchedule")};
  pod p;
  p.node_selector = {{"gpu", "h100"}};
  const auto big = amounts({{"cpu", 100}});
  EXPECT_EQ(sched::filter_node(p, big, n, {})[0].code, sched::node_reason_code::node_unschedulable);
  n.unschedulable = false;
  EXPECT_EQ(sched::filter_node(p, big, n, {})[0].code, sched::node_reason_code::node_taint);
  n.taints.clear();
  EXPECT_EQ(sched::filter_node(p, big, n, {})[0].code, sched::node_reason_code::node_affinity);
  p.node_selector.clear();
  EXPECT_EQ(sched::filter_node(p, big, n, {})[0].code, sched::node_reason_code::resources);
  EXPECT_TRUE(sched::filter_node(p, amounts({{"cpu", 1}}), n, {}).empty());
}

TEST(FitError, CountsEachReasonAndSortsTheStrings) {
  using code = sched::node_reason_code;
  const std::vector<std::vector<sched::node_reason>> per_node = {
      {{code::node_unschedulable, "node(s) were unschedulable"}},
      {{code::resources, "Insufficient cpu"}, {code::resources, "Insufficient memory"}},
      {{code::resources, "Insufficient cpu"}},
      {{code::claims, "cannot allocate all claims"}},
  };
  const auto counted = sched::count_reasons(per_node);
  ASSERT_EQ(counted.size(), 4u);
  EXPECT_EQ(counted[1].nodes, 2u);
  EXPECT_EQ(sched::fit_error_message(4, counted),
            "0/4 nodes are available: 1 Insufficient memory, 1 cannot allocate all claims, 1 node(s) were "
            "unschedulable, 2 Insufficient cpu.");
  // Sorted as strings, as Go's sort.Strings does: "10 …" before "2 …".
  std::vector<std::vector<sched::node_reason>> many(10, {{code::node_taint, "node(s) had untolerated taint(s)"}});
  many.push_back({{code::resources, "Insufficient cpu"}});
  many.push_back({{code::resources, "Insufficient cpu"}});
  EXPECT_EQ(sched::fit_error_message(12, sched::count_reasons(many)),
            "0/12 nodes are available: 10 node(s) had untolerated taint(s), 2 Insufficient cpu.");
  EXPECT_EQ(sched::pre_filter_error_message(3, "pod affinity terms conflict"),
            "0/3 nodes are available: pod affinity terms conflict.");
}

TEST(ClusterUsage, CountsBoundUnfinishedPodsWhereTheyRunAndPlacedOnes) {
  pod running;
  running.node_name = "a";
  running.containers = {model::container{"c", {{"cpu", *quantity::parse("2")}}, {}, false, {}}};
  pod finished = running;
  finished.phase = "Succeeded";
  pod pending = running;
  pending.node_name.reset();
  const std::vector<const pod*> pods = {&running, &finished, &pending};
  sched::cluster_usage usage(pods);
  // Scoring counts 200Mi for the container that asks no memory.
  constexpr std::int64_t mi200 = 200 * 1024 * 1024;
  EXPECT_EQ(usage.of("a"), (sched::node_usage{amounts({{"cpu", 2000}}), {2000, mi200}, 1}));
  EXPECT_EQ(usage.of("b"), sched::node_usage{});
  pod small = pending;
  small.containers = {model::container{"c", {{"cpu", *quantity::parse("500m")}, {"memory", *quantity::parse("1")}}, {}, false, {}}};
  usage.place("a", small);
  EXPECT_EQ(usage.of("a"), (sched::node_usage{amounts({{"cpu", 2500}, {"memory", 1}}), {2500, mi200 + 1}, 2}));
}

}  // namespace
