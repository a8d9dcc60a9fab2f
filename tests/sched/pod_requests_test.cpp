// Pod requests as kube-scheduler computes them (component-helpers' PodRequests): its own table's cases, as facts.
#include <dra/sched/pod_requests.hpp>

#include <gtest/gtest.h>

#include <string_view>
#include <utility>
#include <vector>

namespace {

using dra::model::container;
using dra::model::pod;
using dra::model::resource_list;
using dra::sched::amount_of;

resource_list resources(std::vector<std::pair<std::string_view, std::string_view>> entries) {
  resource_list out;
  for (auto [name, amount] : entries) out.push_back({name, *dra::quantity::parse(amount)});
  dra::model::sort_by_key(out);
  return out;
}
container regular_container(std::string_view cpu) { return container{"c", resources({{"cpu", cpu}}), {}, false, {}}; }
container sidecar(std::string_view cpu) { return container{"s", resources({{"cpu", cpu}}), {}, true, {}}; }

std::int64_t cpu_of(const pod& p) { return amount_of(dra::sched::pod_requests(p), "cpu"); }

TEST(PodRequests, InitContainersRaiseTheSumToTheirPeak) {
  pod p;
  p.init_containers = {regular_container("4")};
  p.containers = {regular_container("1")};
  EXPECT_EQ(cpu_of(p), 4000);
  p.init_containers = {regular_container("2")};
  p.containers = {regular_container("2"), regular_container("3")};
  EXPECT_EQ(cpu_of(p), 5000);  // the containers' sum beats the init container
}

TEST(PodRequests, SidecarsRunBesideTheContainersAndUnderLaterInitContainers) {
  pod p;
  p.init_containers = {sidecar("1")};
  p.containers = {regular_container("1")};
  EXPECT_EQ(cpu_of(p), 2000);
  p.init_containers = {regular_container("5"), sidecar("1"), sidecar("2"), sidecar("3")};
  EXPECT_EQ(cpu_of(p), 7000);  // max(5, 1 + 1 + 2 + 3)
  p.init_containers = {regular_container("5"), sidecar("1"), sidecar("2"), regular_container("5"), sidecar("3")};
  EXPECT_EQ(cpu_of(p), 8000);  // the second init container runs beside the first two sidecars: 5 + 1 + 2
  p.init_containers = {sidecar("10"), regular_container("200")};
  p.containers = {regular_container("100")};
  EXPECT_EQ(cpu_of(p), 210000);
}

TEST(PodRequests, EachResourceHasItsOwnPeak) {
  pod p;
  p.init_containers = {container{"s", resources({{"memory", "5Mi"}, {"cpu", "4m"}}), {}, true, {}},
                       container{"i", resources({{"memory", "6Mi"}, {"cpu", "8m"}}), {}, false, {}}};
  p.containers = {container{"c", resources({{"memory", "3Mi"}, {"cpu", "2m"}}), {}, false, {}}};
  const auto requests = dra::sched::pod_requests(p);
  EXPECT_EQ(amount_of(requests, "memory"), 11 << 20);
  EXPECT_EQ(amount_of(requests, "cpu"), 12);
  p.pod_requests = resources({{"memory", "15Mi"}, {"cpu", "18m"}});
  const auto pod_level = dra::sched::pod_requests(p);
  EXPECT_EQ(amount_of(pod_level, "memory"), 15 << 20);
  EXPECT_EQ(amount_of(pod_level, "cpu"), 18);
}

TEST(PodRequests, PodLevelRequestsReplaceOnlyCpuMemoryAndHugepages) {
  pod p;
  p.containers = {container{"c", resources({{"hugepages-1Gi", "1Gi"}, {"memory", "4Mi"}, {"example.com/gpu", "1"}}), {}, false, {}}};
  p.pod_requests = resources({{"cpu", "1"}, {"hugepages-2Mi", "10Mi"}, {"example.com/gpu", "3"}});
  const auto requests = dra::sched::pod_requests(p);
  EXPECT_EQ(amount_of(requests, "cpu"), 1000);
  EXPECT_EQ(amount_of(requests, "memory"), 4 << 20);
  EXPECT_EQ(amount_of(requests, "hugepages-2Mi"), 10 << 20);
  EXPECT_EQ(amount_of(requests, "hugepages-1Gi"), std::int64_t{1} << 30);
  EXPECT_EQ(amount_of(requests, "example.com/gpu"), 1);  // not a pod-level resource: the containers' request
}

TEST(PodRequests, OverheadIsAddedAfterPodLevelRequests) {
  pod p;
  p.containers = {regular_container("1")};
  p.pod_requests = resources({{"cpu", "2"}});
  p.overhead = resources({{"cpu", "250m"}, {"memory", "120Mi"}});
  const auto requests = dra::sched::pod_requests(p);
  EXPECT_EQ(amount_of(requests, "cpu"), 2250);
  EXPECT_EQ(amount_of(requests, "memory"), 120 << 20);
}

TEST(PodRequests, ALimitWithoutARequestIsTheRequest) {
  pod p;
  p.containers = {container{"c", resources({{"cpu", "1"}}), resources({{"cpu", "4"}, {"memory", "1Gi"}}), false, {}}};
  const auto requests = dra::sched::pod_requests(p);
  EXPECT_EQ(amount_of(requests, "cpu"), 1000);                    // the request, not the limit
  EXPECT_EQ(amount_of(requests, "memory"), std::int64_t{1} << 30);  // defaulted from the limit
}

TEST(PodRequests, CpuRoundsUpToAMillicoreAndOtherResourcesToAUnit) {
  pod p;
  p.containers = {container{"c", resources({{"cpu", "100u"}, {"memory", "1.5"}}), {}, false, {}}};
  const auto requests = dra::sched::pod_requests(p);
  EXPECT_EQ(amount_of(requests, "cpu"), 1);
  EXPECT_EQ(amount_of(requests, "memory"), 2);
}

}  // namespace
