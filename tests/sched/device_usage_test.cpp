// sched::device_usage: how used each node's devices are, and the node order a ranking policy keeps as allocations
// come and go — moved node by node for a policy ranking by a key, the same as sorting every node again.
#include <dra/alloc/best_fit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sched/device_usage.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace dra;

// `nodes` nodes named n0, n1, ... with `devices` whole devices each (d0, d1, ...), pool named as the node.
std::string usage_cluster(int nodes, int devices) {
  std::string out;
  for (int n = 0; n < nodes; ++n) {
    const std::string name = "n" + std::to_string(n);
    out += R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name + R"("}}
{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": ")" + name +
           R"("}, "spec": {"driver": "gpu.example.com", "nodeName": ")" + name + R"(", "pool": {"name": ")" + name +
           R"(", "resourceSliceCount": 1}, "devices": [)";
    for (int d = 0; d < devices; ++d) out += std::string(d ? "," : "") + R"({"name": "d)" + std::to_string(d) + "\"}";
    out += "]}}\n";
  }
  return out;
}

// The result points into `pool` and `device`, which must outlive it.
model::allocation_result whole_device(std::string_view pool, std::string_view device) {
  model::device_request_allocation_result r;
  r.request = "gpu";
  r.driver = "gpu.example.com";
  r.pool = pool;
  r.device = device;
  model::allocation_result a;
  a.results.push_back(std::move(r));
  return a;
}

// Best fit's order without a key: every node sorted again on every call (the path a policy without node_rank takes).
struct most_used_first_unkeyed {
  void order_candidates(std::span<std::uint32_t>, std::span<const alloc::candidate_facts>) const {}
  void order_nodes(std::span<std::uint32_t> order, std::span<const alloc::node_facts> facts) const {
    alloc::best_fit{}.order_nodes(order, facts);
  }
};
static_assert(alloc::node_ranking_policy<most_used_first_unkeyed>);
static_assert(!alloc::ranks_nodes_by_key<most_used_first_unkeyed>);

TEST(DeviceUsage, CountsEachNodesShareOfItsDevicesInUse) {
  const auto doc = json::load(usage_cluster(2, 4));
  ASSERT_TRUE(doc) << doc.error().message;
  std::vector<const model::node*> nodes;
  for (const auto& n : doc->scenario().nodes) nodes.push_back(&n.object);
  sched::device_usage usage(doc->scenario(), nodes);
  usage.add(whole_device("n1", "d0"));
  usage.add(whole_device("n1", "d1"));
  usage.add(whole_device("n1", "d1"));  // counted once
  EXPECT_DOUBLE_EQ(usage.facts()[1].used_share, 0.5);
  EXPECT_DOUBLE_EQ(usage.facts()[0].used_share, 0);
  const auto order = usage.ranked_positions(alloc::best_fit{});
  EXPECT_EQ(std::vector<std::uint32_t>(order.begin(), order.end()), (std::vector<std::uint32_t>{1, 0}));
  const alloc::ledger empty;
  usage.release(whole_device("n1", "d0"), empty);
  usage.release(whole_device("n1", "d1"), empty);
  const auto after = usage.ranked_positions(alloc::best_fit{});
  EXPECT_EQ(std::vector<std::uint32_t>(after.begin(), after.end()), (std::vector<std::uint32_t>{0, 1}));
}

TEST(DeviceUsage, AKeptOrderMovedNodeByNodeIsTheOrderSortedAgain) {
  constexpr int node_count = 64, device_count = 4;
  const auto doc = json::load(usage_cluster(node_count, device_count));
  ASSERT_TRUE(doc) << doc.error().message;
  std::vector<const model::node*> nodes;
  for (const auto& n : doc->scenario().nodes) nodes.push_back(&n.object);
  sched::device_usage keyed(doc->scenario(), nodes);
  sched::device_usage sorted_again(doc->scenario(), nodes);
  std::vector<std::vector<bool>> held(node_count, std::vector<bool>(device_count, false));
  std::vector<std::string> pools, devices;  // the names results point into
  for (int n = 0; n < node_count; ++n) pools.push_back("n" + std::to_string(n));
  for (int d = 0; d < device_count; ++d) devices.push_back("d" + std::to_string(d));
  const alloc::ledger empty;  // holds nothing: a release always uncounts
  std::mt19937 random(7);
  for (int step = 0; step < 2000; ++step) {
    // Mostly one change between searches (a commit), sometimes many (a gang, evictions): past an eighth of the
    // nodes the order is sorted again.
    const int changes = step % 50 == 0 ? 12 : 1 + static_cast<int>(random() % 3);
    for (int c = 0; c < changes; ++c) {
      const auto n = static_cast<std::size_t>(random() % node_count);
      const auto d = static_cast<std::size_t>(random() % device_count);
      const auto allocation = whole_device(pools[n], devices[d]);
      for (sched::device_usage* usage : {&keyed, &sorted_again}) {
        if (held[n][d]) usage->release(allocation, empty);
        else usage->add(allocation);
      }
      held[n][d] = !held[n][d];
    }
    const auto reference = sorted_again.ranked_positions(most_used_first_unkeyed{});
    const auto order = keyed.ranked_positions(alloc::best_fit{});
    ASSERT_EQ(std::vector<std::uint32_t>(order.begin(), order.end()),
              std::vector<std::uint32_t>(reference.begin(), reference.end()))
        << "step " << step;
  }
  // Many nodes alike (ties): the kept order keeps them in list order, as the stable sort does.
  std::vector<std::uint32_t> expected(node_count);
  std::iota(expected.begin(), expected.end(), 0u);
  std::ranges::stable_sort(expected, [&](std::uint32_t a, std::uint32_t b) {
    return keyed.facts()[a].used_share > keyed.facts()[b].used_share;
  });
  const auto order = keyed.ranked_positions(alloc::best_fit{});
  EXPECT_EQ(std::vector<std::uint32_t>(order.begin(), order.end()), expected);
}

}  // namespace
