// The node filters' memory across pods (sched::node_filter_memo, reason_lists): like pods share a node's verdict
// until the node's requests change, reasons are counted as count_reasons counts them, and memory stays bounded.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/filter_memo.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace dra;
using sched::node_reason;
using code = sched::node_reason_code;

TEST(ReasonLists, CountsAsCountReasonsDoes) {
  const std::vector<std::vector<node_reason>> per_node{
      {{code::resources, "Insufficient memory"}},
      {{code::resources, "Insufficient cpu"}, {code::resources, "Insufficient memory"}},
      {},
      {{code::node_taint, "node(s) had untolerated taint(s)"}},
      {{code::resources, "Insufficient cpu"}, {code::resources, "Insufficient memory"}},
  };
  sched::reason_lists lists;
  std::vector<sched::reason_lists::id> ids;
  for (const auto& reasons : per_node) ids.push_back(lists.intern(reasons));
  EXPECT_EQ(ids[2], sched::reason_lists::passed);
  EXPECT_EQ(ids[1], ids[4]);
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_EQ(lists[ids[1]], per_node[1]);
  // The same counts in the same order: memory first (the first node's), then cpu, then the taint.
  const std::vector<sched::reason_count> counted = lists.count(ids);
  EXPECT_EQ(counted, sched::count_reasons(per_node));
  ASSERT_EQ(counted.size(), 3U);
  EXPECT_EQ(counted[0].reason.message, "Insufficient memory");
  EXPECT_EQ(counted[0].nodes, 3U);
  EXPECT_EQ(counted[1].nodes, 2U);
  EXPECT_EQ(counted[2].nodes, 1U);
}

TEST(ReasonLists, ListsOfTheSameTextsInAnotherCutStayApart) {
  // One reason "a,b" is not the two reasons "a" and "b".
  sched::reason_lists lists;
  const auto joined = lists.intern({{code::resources, "a,b"}});
  const auto split = lists.intern({{code::resources, "a"}, {code::resources, "b"}});
  EXPECT_NE(joined, split);
}

model::pod pod_requesting(std::string_view cpu_name) {
  model::pod p;
  p.meta.name = cpu_name;
  return p;
}

TEST(NodeFilterMemo, LikePodsShareAVerdictWhileTheNodesRequestsStay) {
  sched::node_filter_memo memo(3);
  const model::pod a = pod_requesting("a"), b = pod_requesting("b");
  const sched::amounts two_cpus{{"cpu", 2000}}, three_cpus{{"cpu", 3000}};
  const std::size_t kind = memo.kind_of(a, two_cpus);
  EXPECT_EQ(memo.kind_of(b, two_cpus), kind);  // names are not read by filters
  EXPECT_NE(memo.kind_of(a, three_cpus), kind);
  model::pod tolerating = a;
  model::pod_toleration gpu;
  gpu.key = "gpu";
  gpu.op = model::toleration_operator::exists;
  tolerating.tolerations.push_back(gpu);
  EXPECT_NE(memo.kind_of(tolerating, two_cpus), kind);

  const auto cpu_short = memo.reasons().intern({{code::resources, "Insufficient cpu"}});
  EXPECT_FALSE(memo.known(kind, 1, 7).has_value());
  memo.remember(kind, 1, 7, cpu_short);
  EXPECT_EQ(memo.known(kind, 1, 7), cpu_short);
  EXPECT_FALSE(memo.known(kind, 1, 8).has_value());  // the node's requests changed since
  EXPECT_FALSE(memo.known(kind, 0, 7).has_value());
}

TEST(NodeFilterMemo, ForgetsTheKindAskedAboutLongestAgoPastItsBudget) {
  // Room for one kind's verdicts on the 2 nodes.
  sched::node_filter_memo memo(2, 2);
  const model::pod p = pod_requesting("p");
  const std::size_t first = memo.kind_of(p, {{"cpu", 1000}});
  const std::size_t second = memo.kind_of(p, {{"cpu", 2000}});
  memo.remember(first, 0, 0, sched::reason_lists::passed);
  EXPECT_TRUE(memo.known(first, 0, 0).has_value());
  memo.remember(second, 1, 0, sched::reason_lists::passed);
  EXPECT_FALSE(memo.known(first, 0, 0).has_value());
  EXPECT_TRUE(memo.known(second, 1, 0).has_value());
}

std::string node(const std::string& name, const std::string& cpu) {
  return R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name +
         R"("}, "status": {"allocatable": {"cpu": ")" + cpu + R"(", "memory": "8Gi", "pods": "10"}}})" + "\n";
}
std::string pending_pod(const std::string& name, const std::string& cpu, int priority = 0) {
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "default"}, "spec": {"priority": )" + std::to_string(priority) +
         R"(, "containers": [{"name": "c", "resources": {"requests": {"cpu": ")" + cpu + R"("}}}]}})" + "\n";
}

TEST(NodeFilterMemo, APodSeesTheNodeTheLikePodBeforeItFilled) {
  // Three like pods of 3 cpus over two 4-cpu nodes: the second must not be told node-a still has room (as the first
  // pod's filters found it), and the third is refused by both.
  const auto doc = json::load(node("node-a", "4") + node("node-b", "4") + pending_pod("p1", "3") +
                              pending_pod("p2", "3") + pending_pod("p3", "3"));
  ASSERT_TRUE(doc) << doc.error().message;
  const cel::selector_engine engine;
  const sim::run_report report = sim::run_scenario(doc->scenario(), engine);
  ASSERT_EQ(report.pods.size(), 3U);
  EXPECT_EQ(report.pods[0].node, "node-a");
  EXPECT_EQ(report.pods[1].node, "node-b");
  EXPECT_FALSE(report.pods[2].node.has_value());
  EXPECT_EQ(report.pods[2].unschedulable.substr(0, 45), "0/2 nodes are available: 2 Insufficient cpu. ");
}

TEST(NodeFilterMemo, AnEvictionFreesTheNodeForTheNextLikePod) {
  // p1 (priority 0) holds node-a; p2 (priority 10) of the same size is refused by the filters, evicts p1 and is
  // placed on its retry; p3 (priority 10, alike) is then refused again: node-a's verdict follows every change.
  const auto doc = json::load(node("node-a", "4") + R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1",
    "namespace": "default"}, "spec": {"nodeName": "node-a", "priority": 0,
    "containers": [{"name": "c", "resources": {"requests": {"cpu": "3"}}}]}})" + "\n" + pending_pod("p2", "3", 10) +
                              pending_pod("p3", "3", 10));
  ASSERT_TRUE(doc) << doc.error().message;
  const cel::selector_engine engine;
  const sim::run_report report = sim::run_scenario(doc->scenario(), engine);
  std::vector<std::string> placed;
  for (const auto& p : report.pods)
    if (p.node) placed.push_back(std::string(doc->scenario().pods[p.pod].object.meta.name) + ":" + *p.node);
  EXPECT_EQ(placed, (std::vector<std::string>{"p2:node-a"}));
}

}  // namespace
