// Tests of sim::summarize: pools counted from their newest generation, in (driver, pool) order.
#include <dra/json/ingest.hpp>
#include <dra/sim/analysis/summary.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string slice_json(const std::string& name, const std::string& driver, const std::string& pool, int generation,
                       int slice_count, int devices, bool counter_set = false) {
  std::string out = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" + name +
                    R"("},"spec":{"driver":")" + driver + R"(","pool":{"name":")" + pool + R"(","generation":)" +
                    std::to_string(generation) + R"(,"resourceSliceCount":)" + std::to_string(slice_count) +
                    R"(},"nodeName":"n")";
  if (counter_set) out += R"(,"sharedCounters":[{"name":"cs","counters":{"c":{"value":"1"}}}])";
  out += R"(,"devices":[)";
  for (int d = 0; d < devices; ++d) out += (d == 0 ? "" : ",") + (R"({"name":"dev-)" + std::to_string(d) + R"("})");
  return out + "]}}";
}

TEST(Summary, CountsEachPoolFromItsNewestGenerationInDriverAndPoolOrder) {
  // Slices of pools interleaved, an older generation after a newer one (ignored), a newer one
  // after an older one (starts the pool over), and a counter-set slice whose devices the
  // allocator skips.
  const std::string input = "[" + slice_json("b-1", "z.example.com", "b", 2, 2, 3) + "," +
                            slice_json("a-old", "a.example.com", "p", 1, 1, 7) + "," +
                            slice_json("b-old", "z.example.com", "b", 1, 1, 5) + "," +
                            slice_json("a-new", "a.example.com", "p", 2, 2, 4) + "," +
                            slice_json("b-2", "z.example.com", "b", 2, 2, 1, /*counter_set=*/true) + "," +
                            slice_json("c-1", "a.example.com", "c", 1, 2, 2) + "]";
  auto doc = dra::json::load(input);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const dra::sim::scenario_summary s = dra::sim::summarize(doc->scenario());
  EXPECT_EQ(s.slices, 6u);
  ASSERT_EQ(s.pools.size(), 3u);
  EXPECT_EQ(s.pools[0].driver, "a.example.com");
  EXPECT_EQ(s.pools[0].pool, "c");
  EXPECT_EQ(s.pools[0].devices, 2u);
  EXPECT_FALSE(s.pools[0].complete());  // 1 of 2 slices
  EXPECT_EQ(s.pools[1].pool, "p");
  EXPECT_EQ(s.pools[1].generation, 2);
  EXPECT_EQ(s.pools[1].slices, 1u);
  EXPECT_EQ(s.pools[1].devices, 4u);  // not the 7 of generation 1
  EXPECT_EQ(s.pools[2].driver, "z.example.com");
  EXPECT_EQ(s.pools[2].pool, "b");
  EXPECT_EQ(s.pools[2].slices, 2u);
  EXPECT_TRUE(s.pools[2].complete());
  EXPECT_EQ(s.pools[2].devices, 3u);  // the counter-set slice's device is not counted
  EXPECT_EQ(s.pools[2].counter_sets, 1u);
  EXPECT_EQ(s.devices, 9u);
}

}  // namespace
