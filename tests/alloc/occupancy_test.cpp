// sim::compute_occupancy: what each claim holds of counter sets and shared devices, with exact numbers.
#include "../../bench/churned_mig.hpp"

#include <dra/cel/selector.hpp>

#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include "../support/scenario.hpp"

namespace {

using namespace dra;

TEST(Occupancy, CountersByClaimOnAMigGpu) {
  dra_bench::churned_mig_cluster cluster{1, {}, 1, 1, false};
  cluster.s.claims.resize(1);  // claim-0, made to ask for a 1g partition
  cluster.s.pods.clear();
  auto& exact = *cluster.s.claims[0].object.spec.requests[0].exactly;
  exact.device_class_name = "mig";
  exact.selectors = {{"device.attributes[\"gpu.example.com\"].profile == \"1g.5gb\""}};
  model::resource_claim held;
  held.meta.name = "held";
  held.allocation = dra_test::one_device_allocation("mig", "gpu.example.com", "node-0", "gpu-0-mig-2g.10gb-0");
  cluster.s.claims.push_back({held, {}});
  const cel::selector_engine engine;
  const auto report = sim::run_scenario(cluster.s, engine);
  ASSERT_EQ(report.outcomes.size(), 1u);
  ASSERT_TRUE(report.outcomes[0].allocated());
  const std::string device(report.outcomes[0].allocated()->allocation.results[0].device);
  const sim::occupancy o = sim::compute_occupancy(cluster.s, report.outcomes);
  EXPECT_EQ(o.claims, (std::vector<std::string>{"held", "default/claim-0"}));
  ASSERT_EQ(o.counter_sets.size(), 1u);
  const auto& set = o.counter_sets[0];
  EXPECT_EQ(set.node, "node-0");
  EXPECT_EQ(set.name, "gpu-0-counters");
  ASSERT_EQ(set.counters.size(), 9u);
  EXPECT_EQ(set.counters[0].name, "compute");
  EXPECT_EQ(set.counters[0].total, 7);
  EXPECT_EQ(set.counters[0].used, 3);
  EXPECT_EQ(set.counters[0].holders.size(), 2u);
  EXPECT_EQ(set.counters[0].holders[0].claim, "held");
  EXPECT_EQ(set.counters[0].holders[0].amount, 2);
  EXPECT_EQ(set.counters[1].name, "memory-slice-0");
  EXPECT_EQ(set.counters[1].used, 1);
  EXPECT_EQ(set.counters[1].holders[0].claim, "held");
  EXPECT_EQ(set.counters[2].holders[0].claim, "held");
  EXPECT_EQ(set.counters[3].name, "memory-slice-2");
  EXPECT_EQ(device, "gpu-0-mig-1g.5gb-2");  // first fit: the first free slice
  ASSERT_EQ(set.counters[3].holders.size(), 1u);
  EXPECT_EQ(set.counters[3].holders[0].claim, "default/claim-0");
  EXPECT_TRUE(o.shared_devices.empty());
}

}  // namespace
