// Nodes tried on several threads (sim::run_options::threads): random clusters and queues give the same outcomes,
// share IDs and search steps on one, two and three threads, under every policy. Run under ThreadSanitizer too (the
// tsan preset builds this program).
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "random_cluster.hpp"

#include <string>
#include <vector>

namespace {

using namespace dra;

using dra_test::random_cluster;

struct run_summary {
  std::string outcomes;  // the results document: devices, nodes, share IDs, explanations
  std::uint64_t steps = 0;
  std::vector<std::string> warnings;
  bool operator==(const run_summary&) const = default;
};

template <class Policy>
run_summary run(const json::document& doc, unsigned threads) {
  const cel::selector_engine engine;
  const sim::run_report report =
      sim::run_scenario(doc.scenario(), engine, alloc::features::all(), Policy{}, sim::run_options{threads});
  return {json::output_document(report.outcomes), report.search_steps, report.warnings};
}

template <class Policy>
void expect_the_same_on_any_number_of_threads(const char* policy) {
  std::size_t shares = 0, unschedulable = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    auto doc = json::load(random_cluster(seed));
    ASSERT_TRUE(doc) << doc.error().to_string();
    const run_summary one = run<Policy>(*doc, 1);
    shares += one.outcomes.find("shareID") != std::string::npos;
    unschedulable += one.outcomes.find("unschedulable") != std::string::npos;
    for (unsigned threads : {2u, 3u})
      EXPECT_EQ(run<Policy>(*doc, threads), one) << policy << ", seed " << seed << ", " << threads << " threads";
  }
  // The clusters exercise what threads could change: share IDs, and units searched on every node.
  EXPECT_GT(shares, 10u) << policy;
  EXPECT_GT(unschedulable, 10u) << policy;
}

TEST(ParallelNodes, FirstFitGivesTheSameOutcomesOnAnyNumberOfThreads) {
  expect_the_same_on_any_number_of_threads<alloc::first_fit>("first_fit");
}

TEST(ParallelNodes, SortedGivesTheSameOutcomesOnAnyNumberOfThreads) {
  expect_the_same_on_any_number_of_threads<alloc::sorted>("sorted");
}

TEST(ParallelNodes, SharedCapacityGivesTheSameOutcomesOnAnyNumberOfThreads) {
  expect_the_same_on_any_number_of_threads<alloc::shared_capacity>("shared_capacity");
}

TEST(ParallelNodes, ThreadsSearchTheNodesOfAUnitThatFitsLate) {
  // Eight nodes, only the last with a GPU: the pod's unit searches node-0 and node-1 alone, then the threads take
  // the other six; the pod lands on node-7 as with one thread.
  std::string items = R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},"spec":{}})";
  for (int n = 0; n < 8; ++n)
    items += R"(,{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-)" + std::to_string(n) + R"("}})";
  items += R"(,{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{)"
           R"("driver":"gpu.example.com","pool":{"name":"node-7","generation":1,"resourceSliceCount":1},)"
           R"("nodeName":"node-7","devices":[{"name":"gpu-0"}]}})";
  items += R"(,{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"d"},)"
           R"("spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}}})";
  auto doc = json::load(R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}");
  ASSERT_TRUE(doc) << doc.error().to_string();
  const cel::selector_engine engine;
  for (unsigned threads : {1u, 2u, 4u}) {
    const auto report = sim::run_scenario(doc->scenario(), engine, alloc::features::all(), alloc::first_fit{},
                                          sim::run_options{threads});
    ASSERT_EQ(report.outcomes.size(), 1u);
    ASSERT_NE(report.outcomes[0].allocated(), nullptr) << threads;
    EXPECT_EQ(report.outcomes[0].allocated()->node, "node-7") << threads;
  }
}

}  // namespace
