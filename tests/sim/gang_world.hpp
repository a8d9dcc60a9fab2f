// Small GPU clusters and PodGroups as scenario text, and a brute force over every assignment of a gang's pods to nodes:
// shared by the gang property test and the gang fuzzer.
#pragma once

#include "../support/cluster_text.hpp"
#include <dra/sched/run_report.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dra_test {

struct gpu_node {
  std::string name;
  int gpus = 0;
  int cpu = 4;
  std::string rack = "";
};

// The class gpu.example.com and the one-GPU template `one-gpu`, as YAML documents.
inline std::string gpu_class_and_template() {
  return R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: default}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
)";
}

// Nodes with `gpus` devices of gpu.example.com each in their own pool, a class and a one-GPU template `one-gpu`.
inline std::string gpu_cluster(const std::vector<gpu_node>& nodes) {
  std::string out = gpu_class_and_template();
  for (const auto& n : nodes) {
    text_pairs labels{{"kubernetes.io/hostname", n.name}};
    if (!n.rack.empty()) labels.emplace_back("rack", n.rack);
    out += "---\n" + node_text(n.name, {{"cpu", std::to_string(n.cpu)}, {"pods", "110"}}, labels);
    out += "---\n" + gpu_slice_text(n.name + "-gpus", n.name, "gpu.example.com", n.gpus);
  }
  return out;
}

inline std::string pod_group(const std::string& name, std::optional<int> min_count, const std::string& extra = "") {
  std::string out = "---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: " + name +
                    ", namespace: default}\nspec:\n  schedulingPolicy: ";
  out += min_count ? "{gang: {minCount: " + std::to_string(*min_count) + "}}\n" : std::string("{basic: {}}\n");
  return out + extra;
}

// A pod of `group` (none: no group) asking for `cpu` and, with `gpu_entry`, a claim entry.
inline std::string group_pod(const std::string& name, const std::string& group, int cpu, const std::string& claims = "") {
  std::string out = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: default}\nspec:\n";
  if (!group.empty()) out += "  schedulingGroup: {podGroupName: " + group + "}\n";
  out += "  containers: [{name: main, resources: {requests: {cpu: \"" + std::to_string(cpu) + "\"}}}]\n";
  if (!claims.empty()) out += "  resourceClaims: " + claims + "\n";
  return out;
}
// ---- Property: the gang is placed exactly when some assignment of pods to nodes (or to none) places minCount pods,
// brute force over every assignment on small gangs (GPUs and cpu per node; pods ask for both).

struct small_gang {
  std::vector<gpu_node> nodes;
  std::vector<std::pair<int, int>> pods;  // cpu, gpus (0..2, one claim entry per GPU)
  int min_count = 1;
};

inline bool brute_force_fits(const small_gang& g) {
  const std::size_t choices = g.nodes.size() + 1;
  std::size_t total = 1;
  for (std::size_t i = 0; i < g.pods.size(); ++i) total *= choices;
  for (std::size_t code = 0; code < total; ++code) {
    std::vector<int> cpu(g.nodes.size(), 0), gpus(g.nodes.size(), 0);
    int placed = 0;
    std::size_t rest = code;
    for (const auto& [pod_cpu, pod_gpus] : g.pods) {
      const std::size_t choice = rest % choices;
      rest /= choices;
      if (choice == g.nodes.size()) continue;
      cpu[choice] += pod_cpu;
      gpus[choice] += pod_gpus;
      ++placed;
    }
    bool ok = placed >= g.min_count;
    for (std::size_t n = 0; n < g.nodes.size() && ok; ++n) ok = cpu[n] <= g.nodes[n].cpu && gpus[n] <= g.nodes[n].gpus;
    if (ok) return true;
  }
  return false;
}

// The scenario text of a small gang: its nodes, the PodGroup `g` with its minCount, and pods w0, w1, ... each asking
// for its cpu and one one-GPU claim entry per GPU.
inline std::string small_gang_text(const small_gang& g) {
  std::string text = gpu_cluster(g.nodes) + pod_group("g", g.min_count);
  for (std::size_t p = 0; p < g.pods.size(); ++p) {
    std::string claims;
    for (int k = 0; k < g.pods[p].second; ++k)
      claims += std::string(k ? ", " : "[") + "{name: gpu" + std::to_string(k) + ", resourceClaimTemplateName: one-gpu}";
    if (!claims.empty()) claims += "]";
    text += group_pod("w" + std::to_string(p), "g", g.pods[p].first, claims);
  }
  return text;
}

// What is wrong with a run's answer for a small gang (empty when nothing is): placed exactly when the brute force
// finds an assignment, all or nothing, and no node over its cpu or GPUs.
inline std::string small_gang_verdict(const small_gang& g, const dra::sim::run_report& report) {
  if (report.pods.size() != g.pods.size()) return "expected an answer per pod";
  int placed = 0;
  std::vector<int> cpu(g.nodes.size(), 0), gpus(g.nodes.size(), 0);
  for (const auto& p : report.pods) {
    if (!p.node) continue;
    ++placed;
    const std::size_t n = static_cast<std::size_t>(std::stoi(p.node->substr(1)));
    if (n >= g.nodes.size()) return "placed on an unknown node " + *p.node;
    cpu[n] += g.pods[p.pod].first;
    gpus[n] += g.pods[p.pod].second;
  }
  if ((placed >= g.min_count) != brute_force_fits(g))
    return placed >= g.min_count ? "placed a gang no assignment fits" : "left pending a gang some assignment fits";
  if (placed != 0 && placed < g.min_count) return "placed fewer pods than minCount";
  for (std::size_t n = 0; n < g.nodes.size(); ++n)
    if (cpu[n] > g.nodes[n].cpu || gpus[n] > g.nodes[n].gpus) return "node n" + std::to_string(n) + " over capacity";
  return {};
}

}  // namespace dra_test
