// A random small cluster and pod queue as a JSON List, for property tests of the scenario runner.
#pragma once

#include <random>
#include <string>
#include <vector>

namespace dra_test {

inline std::string q(const std::string& s) { return "\"" + s + "\""; }

// A cluster of 6 to 10 nodes with 0 to 4 node-local GPUs each (two models, two NUMA values), a pool of shared NICs
// every node reaches (consumable bandwidth), and a queue of pods whose claims, made from templates, ask for 1 to 3
// GPUs (some of one model, some on one NUMA node) and perhaps a share of a NIC. Most pods fit on a node after
// several others; some fit nowhere.
inline std::string random_cluster(unsigned seed) {
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

}  // namespace dra_test
