// KEP-5517 on its own: the statuses a pod's allocated devices make (per device, per consumed capacity, overheads),
// what they add to the pod's requests, and the DynamicResources plugin's fit check and pod-level rule.
#include <dra/sched/node_allocatable.hpp>

#include <gtest/gtest.h>

#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace dra;

quantity na_q(std::string_view text) { return *quantity::parse(text); }

model::device_request_allocation_result na_result(model::text device, model::sorted_map<quantity> consumed = {}) {
  model::device_request_allocation_result r;
  r.request = "req";
  r.driver = "dra.example.com";
  r.pool = "pool";
  r.device = device;
  r.consumed_capacity = std::move(consumed);
  return r;
}

// Devices by name: "core" maps 2 cpu each; "mem" maps consumed "memory" (no domain: the driver's) times 1.5;
// "gpu" costs 1Gi per pod and 256Mi per container; "plain" has no field.
struct na_devices {
  model::device core, mem, gpu, plain;
  na_devices() {
    core.name = "core";
    core.node_allocatable_resources.emplace();
    core.node_allocatable_resources->push_back({"cpu", {model::node_allocatable_mapping{std::nullopt, std::nullopt, na_q("2")}, std::nullopt}});
    mem.name = "mem";
    mem.node_allocatable_resources.emplace();
    mem.node_allocatable_resources->push_back(
        {"memory", {model::node_allocatable_mapping{"memory", na_q("1.5"), std::nullopt}, std::nullopt}});
    gpu.name = "gpu";
    gpu.node_allocatable_resources.emplace();
    gpu.node_allocatable_resources->push_back(
        {"memory", {std::nullopt, model::node_allocatable_overhead{na_q("1Gi"), na_q("256Mi")}}});
    plain.name = "plain";
  }
  const model::device* operator()(const model::device_request_allocation_result& r) const {
    for (const model::device* d : {&core, &mem, &gpu, &plain})
      if (d->name == r.device) return d;
    return nullptr;
  }
};

model::pod na_pod() {
  model::pod p;
  p.meta.name = "p";
  model::container init;
  init.name = "init";
  init.claims = {"gpus"};
  model::container main;
  main.name = "main";
  main.requests = {{"cpu", na_q("1")}, {"memory", na_q("1Gi")}};
  main.claims = {"cores", "gpus"};
  model::container side;
  side.name = "side";
  side.claims = {"gpus"};
  p.init_containers = {init};
  p.containers = {main, side};
  return p;
}

TEST(NodeAllocatableStatuses, PerDevicePerConsumedCapacityAndOverheads) {
  const na_devices devices;
  model::allocation_result cores, gpus, mem, plain;
  cores.results = {na_result("core"), na_result("core"), na_result("plain")};  // two devices mapping 2 cpu each
  gpus.results = {na_result("gpu"), na_result("gpu")};                           // overheads add up per device
  mem.results = {na_result("mem", {{"dra.example.com/memory", na_q("4Gi")}})};
  plain.results = {na_result("plain")};
  const std::vector<sched::allocated_claim> claims = {
      {"p-cores", "cores", &cores}, {"p-gpus", "gpus", &gpus}, {"a-mem", "", &mem}, {"p-plain", "plain", &plain}};
  const model::pod pod = na_pod();
  auto statuses = sched::node_allocatable_statuses(pod, claims, devices);
  ASSERT_TRUE(statuses) << statuses.error().to_string();
  ASSERT_EQ(statuses->size(), 3u);  // none for the claim without the field; sorted by claim name
  const auto& m = (*statuses)[0];
  EXPECT_EQ(m.resource_claim_name, "a-mem");
  EXPECT_TRUE(m.containers.empty());
  ASSERT_EQ(m.mapping.size(), 1u);
  EXPECT_EQ(m.mapping[0].value.to_string(), "6Gi");  // 4Gi * 1.5, in the consumed amount's format
  const auto& c = (*statuses)[1];
  EXPECT_EQ(c.resource_claim_name, "p-cores");
  EXPECT_EQ(c.containers, std::vector<model::text>{"main"});
  EXPECT_EQ(c.mapping[0].value.to_string(), "4");
  const auto& g = (*statuses)[2];
  EXPECT_EQ(g.containers, (std::vector<model::text>{"init", "main", "side"}));  // init containers first
  ASSERT_EQ(g.overhead.size(), 1u);
  EXPECT_EQ(g.overhead[0].per_pod->to_string(), "2Gi");
  EXPECT_EQ(g.overhead[0].per_container->to_string(), "512Mi");

  // What they add: 4 cpu; memory 6Gi + 2Gi + 3 containers * 512Mi = 9.5Gi.
  const sched::amounts added = sched::node_allocatable_amounts(*statuses);
  EXPECT_EQ(sched::amount_of(added, "cpu"), 4000);
  EXPECT_EQ(sched::amount_of(added, "memory"), 9728LL << 20);
  // Added to the containers' requests: 5 cpu, 10.5Gi.
  const sched::amounts requests = sched::pod_requests(pod, added);
  EXPECT_EQ(sched::amount_of(requests, "cpu"), 5000);
  EXPECT_EQ(sched::amount_of(requests, "memory"), 10752LL << 20);
}

TEST(NodeAllocatableStatuses, ACapacityKeyOverADeviceThatConsumedNothingIsAnError) {
  const na_devices devices;
  model::allocation_result mem;
  mem.results = {na_result("mem")};
  const std::vector<sched::allocated_claim> claims = {{"c", "", &mem}};
  const auto statuses = sched::node_allocatable_statuses(na_pod(), claims, devices);
  ASSERT_FALSE(statuses);
  EXPECT_EQ(statuses.error().code, errc::invalid_object);
  EXPECT_NE(statuses.error().message.find("claim c, device mem"), std::string::npos) << statuses.error().message;
  // Consumed, but not under the key: nothing.
  mem.results = {na_result("mem", {{"other", na_q("1")}})};
  const auto none = sched::node_allocatable_statuses(na_pod(), claims, devices);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(NodeAllocatableFit, CpuMemoryEphemeralStorageAndHugepagesOnly) {
  model::node node;
  node.allocatable = model::resource_list{{"cpu", na_q("4")}, {"hugepages-2Mi", na_q("4Mi")}, {"memory", na_q("8Gi")}};
  sched::node_usage usage;
  usage.add({{"cpu", 1000}, {"memory", 2LL << 30}});
  // 3 cpu fit beside 1; 4 do not. Extended resources and pods are NodeResourcesFit's, not checked here.
  EXPECT_TRUE(sched::insufficient_node_allocatable({{"cpu", 3000}, {"example.com/x", 9}}, node, usage).empty());
  const auto refused = sched::insufficient_node_allocatable(
      {{"cpu", 3001}, {"ephemeral-storage", 1}, {"hugepages-2Mi", 6LL << 20}, {"memory", 6LL << 30}}, node, usage);
  ASSERT_EQ(refused.size(), 3u);
  EXPECT_EQ(refused[0].message, "Insufficient cpu");
  EXPECT_EQ(refused[1].message, "Insufficient ephemeral-storage");
  EXPECT_EQ(refused[2].message, "Insufficient hugepages-2Mi");
  model::node unlimited;  // no allocatable: not limited
  EXPECT_TRUE(sched::insufficient_node_allocatable({{"cpu", 1'000'000}}, unlimited, usage).empty());
}

TEST(NodeAllocatableFit, PodLevelRequestsMustCoverContainersAndDevices) {
  model::pod pod = na_pod();
  pod.pod_requests = model::resource_list{{"cpu", na_q("3")}};
  EXPECT_FALSE(sched::pod_level_shortfall(pod, {{"cpu", 2000}}));  // 1 cpu of the containers' and 2 of the devices'
  const auto shortfall = sched::pod_level_shortfall(pod, {{"cpu", 2001}});
  ASSERT_TRUE(shortfall);
  EXPECT_EQ(shortfall->message,
            "pod level request for cpu is insufficient to cover the aggregated container and node-allocatable DRA requests");
  // With pod-level requests the pod asks its pod-level cpu, devices or not.
  EXPECT_EQ(sched::amount_of(sched::pod_requests(pod, {{"cpu", 1500}}), "cpu"), 3000);
}

TEST(QuantityProduct, ExactDecimalInTheReceiversFormat) {
  EXPECT_EQ(na_q("4Gi").mul(na_q("1.5"))->to_string(), "6Gi");
  EXPECT_EQ(na_q("3").mul(na_q("250m"))->to_string(), "750m");
  EXPECT_EQ(na_q("0").mul(na_q("7"))->to_string(), "0");
  EXPECT_FALSE(na_q("12345678901234567891").mul(na_q("12345678901234567891")));  // past 38 digits
}

}  // namespace
