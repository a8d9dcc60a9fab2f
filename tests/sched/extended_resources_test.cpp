// Extended resources served through DRA (KEP-5004): the class serving a name, the nodes leaving it to DRA, and the
// requests and mappings of the claim, as upstream's createRequestsAndMappings tables have them (restated as facts).
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/filters.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace dra;
using sched::extended_mapping;
using sched::extended_request;

model::device_class device_class(std::string_view name, std::optional<std::string_view> resource = std::nullopt,
                                 std::string_view created = "") {
  model::device_class c;
  c.meta.name = name;
  c.meta.creation_timestamp = created;
  if (resource) c.extended_resource_name = *resource;
  return c;
}

model::container container(std::string_view name, std::vector<std::pair<std::string_view, std::string_view>> requests,
                           bool sidecar = false) {
  model::container c;
  c.name = name;
  for (auto [resource, amount] : requests) c.requests.push_back({resource, *quantity::parse(amount)});
  model::sort_by_key(c.requests);
  c.sidecar = sidecar;
  return c;
}

struct ExtendedClaim : ::testing::Test {
  // ext -> class, ext1 -> class1, ext-init -> classInit, as in upstream's table.
  model::device_class ext_class = device_class("class", "example.com/ext");
  model::device_class ext1_class = device_class("class1", "example.com/ext1");
  model::device_class init_class = device_class("classInit", "example.com/ext-init");
  std::vector<const model::device_class*> classes{&ext_class, &ext1_class, &init_class};

  sched::extended_claim_requests claim_for(const model::pod& pod, std::vector<std::string_view> on_dra_path) {
    std::vector<sched::dra_resource> resources;
    for (auto name : on_dra_path) resources.push_back({std::string(name), sched::class_serving(classes, name)});
    return sched::extended_claim_for(pod, resources);
  }
};

TEST_F(ExtendedClaim, OneRequestPerContainerAndResourceNamedByPositions) {
  model::pod pod;
  pod.containers = {container("c0", {{"example.com/ext", "1"}, {"example.com/ext1", "2"}})};
  EXPECT_EQ(claim_for(pod, {"example.com/ext"}).requests,
            (std::vector<extended_request>{{"container-0-request-0", "class", 1}}));
  EXPECT_EQ(claim_for(pod, {"example.com/ext", "example.com/ext1"}).requests,
            (std::vector<extended_request>{{"container-0-request-0", "class", 1}, {"container-0-request-1", "class1", 2}}));
  pod.containers = {container("c0", {{"example.com/ext", "1"}}), container("c1", {{"example.com/ext1", "2"}})};
  const auto two = claim_for(pod, {"example.com/ext", "example.com/ext1"});
  EXPECT_EQ(two.requests,
            (std::vector<extended_request>{{"container-0-request-0", "class", 1}, {"container-1-request-0", "class1", 2}}));
  EXPECT_EQ(two.mappings, (std::vector<extended_mapping>{{"c0", "example.com/ext", "container-0-request-0"},
                                                         {"c1", "example.com/ext1", "container-1-request-0"}}));
}

TEST_F(ExtendedClaim, ThePositionCountsCpuAndMemory) {
  model::pod pod;
  pod.containers = {container("main", {{"cpu", "2"}, {"memory", "1Gi"}, {"example.com/ext", "3"}})};
  // Sorted names: cpu, example.com/ext, memory.
  EXPECT_EQ(claim_for(pod, {"example.com/ext"}).requests,
            (std::vector<extended_request>{{"container-0-request-1", "class", 3}}));
  pod.containers = {container("main", {{"cpu", "2"}, {"memory", "1Gi"}, {"zz.example.com/ext", "3"}})};
  model::device_class zz = device_class("zz", "zz.example.com/ext");
  classes.push_back(&zz);
  EXPECT_EQ(claim_for(pod, {"zz.example.com/ext"}).requests,
            (std::vector<extended_request>{{"container-0-request-2", "zz", 3}}));
}

TEST_F(ExtendedClaim, InitContainersCountFirst) {
  model::pod pod;
  pod.init_containers = {container("init0", {{"example.com/ext-init", "2"}})};
  pod.containers = {container("c", {{"example.com/ext", "1"}})};
  EXPECT_EQ(claim_for(pod, {"example.com/ext", "example.com/ext-init"}).requests,
            (std::vector<extended_request>{{"container-0-request-0", "classInit", 2}, {"container-1-request-0", "class", 1}}));
}

TEST_F(ExtendedClaim, OnlyTheLargestInitContainerRestIsKept) {
  model::pod pod;
  pod.init_containers = {container("init0", {{"example.com/ext-init", "1"}}),
                         container("init1", {{"example.com/ext-init", "2"}})};
  pod.containers = {container("c", {{"example.com/ext", "1"}})};
  const auto claim = claim_for(pod, {"example.com/ext", "example.com/ext-init"});
  EXPECT_EQ(claim.requests, (std::vector<extended_request>{{"container-1-request-0", "classInit", 2},
                                                           {"container-2-request-0", "class", 1}}));
  EXPECT_EQ(claim.mappings, (std::vector<extended_mapping>{{"c", "example.com/ext", "container-2-request-0"},
                                                           {"init0", "example.com/ext-init", "container-1-request-0"},
                                                           {"init1", "example.com/ext-init", "container-1-request-0"}}));
}

TEST_F(ExtendedClaim, AnInitContainerUsesTheLaterSidecarsDevicesFirst) {
  model::pod pod;
  pod.init_containers = {container("init0", {{"example.com/ext-init", "1"}}),
                         container("sidecar1", {{"example.com/ext-init", "1"}}, true),
                         container("init2", {{"example.com/ext-init", "2"}})};
  pod.containers = {container("c3", {{"example.com/ext", "1"}})};
  const auto claim = claim_for(pod, {"example.com/ext", "example.com/ext-init"});
  EXPECT_EQ(claim.requests, (std::vector<extended_request>{{"container-1-request-0", "classInit", 1},
                                                           {"container-2-request-0", "classInit", 2},
                                                           {"container-3-request-0", "class", 1}}));
  EXPECT_EQ(claim.mappings, (std::vector<extended_mapping>{{"c3", "example.com/ext", "container-3-request-0"},
                                                           {"sidecar1", "example.com/ext-init", "container-1-request-0"},
                                                           {"init0", "example.com/ext-init", "container-1-request-0"},
                                                           {"init2", "example.com/ext-init", "container-2-request-0"}}));
}

TEST_F(ExtendedClaim, TheImplicitNameSortsBeforeTheExplicitOne) {
  model::pod pod;
  pod.init_containers = {container("init0", {{"example.com/ext-init", "1"},
                                             {"deviceclass.resource.kubernetes.io/classInit", "2"}})};
  const auto claim = claim_for(pod, {"example.com/ext-init", "deviceclass.resource.kubernetes.io/classInit"});
  EXPECT_EQ(claim.mappings,
            (std::vector<extended_mapping>{{"init0", "deviceclass.resource.kubernetes.io/classInit", "container-0-request-0"},
                                           {"init0", "example.com/ext-init", "container-0-request-1"}}));
}

TEST(ExtendedClasses, TheLaterClassWinsThenTheFirstName) {
  const auto older = device_class("older", "example.com/gpu", "2026-01-01T00:00:00Z");
  const auto newer = device_class("newer", "example.com/gpu", "2026-02-01T00:00:00Z");
  const auto b = device_class("b", "example.com/gpu", "2026-02-01T00:00:00Z");
  std::vector<const model::device_class*> classes{&older, &newer};
  EXPECT_EQ(sched::class_serving(classes, "example.com/gpu"), &newer);
  classes = {&b, &newer, &older};
  EXPECT_EQ(sched::class_serving(classes, "example.com/gpu"), &b);  // created together: the first name wins
}

TEST(ExtendedClasses, EveryClassServesItsImplicitName) {
  const auto gpu = device_class("gpu");
  std::vector<const model::device_class*> classes{&gpu};
  EXPECT_EQ(sched::class_serving(classes, "deviceclass.resource.kubernetes.io/gpu"), &gpu);
  EXPECT_EQ(sched::class_serving(classes, "deviceclass.resource.kubernetes.io/other"), nullptr);
  EXPECT_EQ(sched::class_serving(classes, "example.com/gpu"), nullptr);
}

TEST(ExtendedClasses, NodeResourcesFitLeavesToDraWhatTheNodeHasNoneOf) {
  const auto gpu = device_class("gpu", "example.com/gpu");
  std::vector<const model::device_class*> classes{&gpu};
  const sched::amounts requests{{"example.com/gpu", 2}, {"example.com/other", 1}};
  const auto backed = sched::dra_backed_resources(requests, classes);
  ASSERT_EQ(backed.size(), 1u);
  model::node dra_node;
  dra_node.meta.name = "dra";
  dra_node.allocatable = model::resource_list{{"pods", *quantity::parse("10")}};
  model::node plugin_node = dra_node;
  plugin_node.allocatable->push_back({"example.com/gpu", *quantity::parse("1")});
  model::sort_by_key(*plugin_node.allocatable);
  const auto reasons = [](const std::vector<sched::node_reason>& rs) {
    std::vector<std::string> out;
    for (const auto& r : rs) out.push_back(r.message);
    return out;
  };
  EXPECT_EQ(reasons(sched::insufficient_resources(requests, dra_node, {}, backed)),
            (std::vector<std::string>{"Insufficient example.com/other"}));
  EXPECT_EQ(reasons(sched::insufficient_resources(requests, plugin_node, {}, backed)),
            (std::vector<std::string>{"Insufficient example.com/gpu", "Insufficient example.com/other"}));
  EXPECT_TRUE(sched::left_to_dra(dra_node, "example.com/gpu"));
  EXPECT_FALSE(sched::left_to_dra(plugin_node, "example.com/gpu"));
  model::node zero_node = dra_node;  // listed as 0: no device plugin serves it either
  zero_node.allocatable->push_back({"example.com/gpu", *quantity::parse("0")});
  model::sort_by_key(*zero_node.allocatable);
  EXPECT_TRUE(sched::left_to_dra(zero_node, "example.com/gpu"));
  model::node unlimited;  // no allocatable at all (hand-written scenarios)
  EXPECT_TRUE(sched::left_to_dra(unlimited, "example.com/gpu"));
}

}  // namespace
