// Nodes tried on several threads (sim::run_options::threads): random clusters and queues give the same outcomes,
// share IDs and search steps on one, two and three threads, under every policy. Run under ThreadSanitizer too (the
// tsan preset builds this program).
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using namespace dra;

std::string q(const std::string& s) { return "\"" + s + "\""; }

// A cluster of 6 to 10 nodes with 0 to 4 node-local GPUs each (two models, two NUMA values), a pool of shared NICs
// every node reaches (consumable bandwidth), and a queue of pods whose claims, made from templates, ask for 1 to 3
// GPUs (some of one model, some on one NUMA node) and perhaps a share of a NIC. Most pods fit on a node after
// several others; some fit nowhere.
std::string random_cluster(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<std::string> items;
  items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},)"
                  R"("spec":{"selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}]}})");
  items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"nic"},)"
                  R"("spec":{"selectors":[{"cel":{"expression":"device.driver == 'nic.example.com'"}}]}})");
  const int nodes = pick(6, 10);
  for (int n = 0; n < nodes; ++n) {
    const std::string node = "node-" + std::to_string(n);
    items.push_back(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":)" + q(node) + "}}");
    std::string devices;
    for (int g = pick(0, 4); g > 0; --g) {
      if (!devices.empty()) devices += ',';
      devices += R"({"name":"gpu-)" + std::to_string(g) + R"(","attributes":{"model":{"string":)" +
                 q(pick(0, 1) ? "a100" : "h100") + R"(},"numa":{"int":)" + std::to_string(pick(0, 1)) + "}}}";
    }
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":)" +
                    q(node + "-gpus") + R"(},"spec":{"driver":"gpu.example.com","pool":{"name":)" + q(node) +
                    R"(,"generation":1,"resourceSliceCount":1},"nodeName":)" + q(node) + R"(,"devices":[)" + devices +
                    "]}}");
  }
  std::string nics;
  for (int i = 0; i < 2; ++i) {
    if (i) nics += ',';
    nics += R"({"name":"nic-)" + std::to_string(i) +
            R"(","allowMultipleAllocations":true,"capacity":{"bandwidth":{"value":"10G",)"
            R"("requestPolicy":{"default":"1G","validRange":{"min":"1G"}}}}})";
  }
  items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"nics"},)"
                  R"("spec":{"driver":"nic.example.com","pool":{"name":"nics","generation":1,"resourceSliceCount":1},)"
                  R"("allNodes":true,"devices":[)" +
                  nics + "]}}");
  const int pods = pick(15, 30);
  for (int p = 0; p < pods; ++p) {
    std::string gpus = R"({"name":"gpus","exactly":{"deviceClassName":"gpu","count":)" + std::to_string(pick(1, 3));
    if (pick(0, 3) == 0) gpus += R"(,"selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].model == 'a100'"}}])";
    gpus += "}}";
    std::string requests = gpus;
    if (pick(0, 2) == 0)
      requests += R"(,{"name":"nic","exactly":{"deviceClassName":"nic","capacity":{"requests":{"bandwidth":"4G"}}}})";
    std::string constraints;
    if (pick(0, 3) == 0) constraints = R"(,"constraints":[{"requests":["gpus"],"matchAttribute":"gpu.example.com/numa"}])";
    const std::string name = "pod-" + std::to_string(p);
    items.push_back(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":)" +
                    q(name) + R"(,"namespace":"default"},"spec":{"spec":{"devices":{"requests":[)" + requests + "]" +
                    constraints + "}}}}");
    items.push_back(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":)" + q(name) +
                    R"(,"namespace":"default"},"spec":{"resourceClaims":[{"name":"devices","resourceClaimTemplateName":)" +
                    q(name) + "}]}}");
  }
  std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (std::size_t i = 0; i < items.size(); ++i) list += (i ? "," : "") + items[i];
  return list + "]}";
}

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
