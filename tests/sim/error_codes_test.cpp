// Error codes: each room gives the documented dra::errc for what went wrong, so that callers branch on the code
// instead of matching messages (the messages are tested where each room is).
#include <dra/alloc/allocator.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>
#include <dra/validate/scenario.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace dra;

errc load_code(const std::string& text) {
  auto doc = json::load(text);
  EXPECT_FALSE(doc.has_value()) << text;
  return doc ? errc::invalid_input : doc.error().code;
}

TEST(ErrorCodes, Ingest) {
  EXPECT_EQ(load_code(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"})"), errc::malformed_document);
  EXPECT_EQ(load_code("   "), errc::malformed_document);
  EXPECT_EQ(load_code("kind: [unclosed\n"), errc::malformed_document);
  EXPECT_EQ(load_code(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":7}})"), errc::invalid_field);
  auto missing = json::load_file("/nonexistent/dra/scenario.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, errc::io);
}

TEST(ErrorCodes, Validation) {
  auto doc = json::load(R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"Bad_Name"},"spec":{}},
    {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"odd"},"spec":{"color":"red"}},
    {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"broken-cel"},
     "spec":{"selectors":[{"cel":{"expression":"device.driver =="}}]}}]})");
  ASSERT_TRUE(doc) << doc.error().to_string();
  std::vector<errc> codes;
  for (const auto& e : validate::validate(*doc)) codes.push_back(e.code);
  EXPECT_NE(std::find(codes.begin(), codes.end(), errc::invalid_object), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), errc::unknown_field), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), errc::cel_compile), codes.end());
  EXPECT_EQ(codes.size(), 3u);
}

TEST(ErrorCodes, Cel) {
  const cel::selector_engine engine;
  auto broken = engine.compile("device.driver ==");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().code, errc::cel_compile);
  // The same failure again, now from the compile cache.
  EXPECT_EQ(engine.compile("device.driver ==").error().code, errc::cel_compile);
  model::device device;
  device.name = "gpu-0";
  const flatten::mixin_device_view view(device, {});
  auto missing_key = engine.compile("device.attributes['gpu.example.com'].model == 'a100'");
  ASSERT_TRUE(missing_key);
  auto runtime = engine.matches(*missing_key, view, "gpu.example.com");
  ASSERT_FALSE(runtime);
  EXPECT_EQ(runtime.error().code, errc::cel_runtime) << runtime.error().message;
  auto costly = engine.compile("lists.range(1000).all(i, lists.range(1000).all(j, i * j >= 0))");
  ASSERT_TRUE(costly) << costly.error().message;
  auto limited = engine.matches(*costly, view, "gpu.example.com");
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().code, errc::cel_cost_limit) << limited.error().message;
}

// One node, one slice, classes and a pending claim, allocated directly.
struct one_node_cluster {
  json::document doc;
  cel::selector_engine engine;
  alloc::ledger state;

  explicit one_node_cluster(const std::string& items) : doc(load(items)) {}
  static json::document load(const std::string& items) {
    auto d = json::load(R"({"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},"spec":{}},)" +
                        items + "]}");
    EXPECT_TRUE(d) << d.error().to_string();
    return std::move(d).value();
  }
  result<alloc::allocation_outcome> allocate(alloc::features features = alloc::features::all(),
                                             std::uint64_t budget = 0) {
    const model::scenario& s = doc.scenario();
    std::vector<const model::device_class*> classes;
    for (const auto& c : s.classes) classes.push_back(&c.object);
    std::vector<const model::resource_slice*> slices;
    for (const auto& sl : s.slices) slices.push_back(&sl.object);
    std::vector<const model::resource_claim*> claims;
    for (const auto& c : s.claims) claims.push_back(&c.object);
    alloc::basic_allocator<alloc::first_fit, cel::selector_engine> allocator(features, state, classes, slices, engine);
    allocator.set_step_budget(budget);
    model::node node;
    node.meta.name = "node-1";
    return allocator.allocate(node, claims);
  }
};

std::string slice(const std::string& devices, int slice_count = 1) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":)"
         R"("gpu.example.com","pool":{"name":"p","generation":1,"resourceSliceCount":)" +
         std::to_string(slice_count) + R"(},"nodeName":"node-1","devices":[)" + devices + "]}}";
}

std::string claim(const std::string& requests, const std::string& constraints = "") {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"ns"},)"
         R"("spec":{"devices":{"requests":)" + requests + (constraints.empty() ? "" : R"(,"constraints":)" + constraints) +
         "}}}";
}

const std::string two_gpus = R"({"name":"gpu-0","attributes":{"model":{"string":"a"}}},)"
                             R"({"name":"gpu-1","attributes":{"model":{"string":"b"}}})";

TEST(ErrorCodes, Allocator) {
  auto code = [](one_node_cluster& c, alloc::features f = alloc::features::all(), std::uint64_t budget = 0) {
    auto outcome = c.allocate(f, budget);
    EXPECT_FALSE(outcome);
    return outcome ? errc::invalid_input : outcome.error().code;
  };
  one_node_cluster no_class(slice(two_gpus) + "," + claim(R"([{"name":"r","exactly":{"deviceClassName":"tpu"}}])"));
  EXPECT_EQ(code(no_class), errc::not_found);

  one_node_cluster updating(slice(two_gpus, 2) + "," +
                            claim(R"([{"name":"r","exactly":{"deviceClassName":"gpu","allocationMode":"All"}}])"));
  // All devices of a pool being updated rule out the node only (kubernetes PR #141898): not an error of the call.
  const auto ruled_out = updating.allocate();
  ASSERT_TRUE(ruled_out);
  EXPECT_EQ(ruled_out->reason(),
            "claim ns/c, request r: asks for all devices, but resource pool gpu.example.com/p is currently being updated");

  one_node_cluster all_apart(slice(two_gpus) + "," +
                             claim(R"([{"name":"one","exactly":{"deviceClassName":"gpu"}},)"
                                   R"({"name":"all","exactly":{"deviceClassName":"gpu","allocationMode":"All"}}])",
                                   R"([{"matchAttribute":"gpu.example.com/model"}])"));
  EXPECT_EQ(code(all_apart), errc::constraint_conflict);

  one_node_cluster with_subrequests(slice(two_gpus) + "," +
                                    claim(R"([{"name":"r","firstAvailable":[{"name":"s","deviceClassName":"gpu"}]}])"));
  alloc::features no_lists = alloc::features::all();
  no_lists.prioritized_list = false;
  EXPECT_EQ(code(with_subrequests, no_lists), errc::unsupported);

  one_node_cluster pair(slice(two_gpus) + "," +
                        claim(R"([{"name":"r","exactly":{"deviceClassName":"gpu","count":2}}])"));
  EXPECT_EQ(code(pair, alloc::features::all(), 1), errc::search_budget);

  one_node_cluster runtime(slice(two_gpus) + "," +
                           claim(R"([{"name":"r","exactly":{"deviceClassName":"gpu","selectors":)"
                                 R"([{"cel":{"expression":"device.attributes['gpu.example.com'].memory > 1"}}]}}])"));
  EXPECT_EQ(code(runtime), errc::cel_runtime);
}

}  // namespace
