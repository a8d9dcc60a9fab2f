// Generated churned MIG clusters (nodes of 8 A100s with every MIG placement, partly used) and the measure of how
// many memory slices a policy places before a queue's first rejection; shared by bench and tests.
#pragma once

#include <dra/cel/selector.hpp>

#include <dra/alloc/check.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace dra_bench {

// A MIG profile of an A100 40GB as KEP-4815 publishes it: memory slices and compute per placement.
struct mig_profile {
  const char* name;
  int memory_slices;
  int compute;
  std::vector<int> starts;
};

inline const std::vector<mig_profile>& a100_profiles() {
  static const std::vector<mig_profile> profiles = {{"1g.5gb", 1, 1, {0, 1, 2, 3, 4, 5, 6}},
                                                    {"2g.10gb", 2, 2, {0, 2, 4}},
                                                    {"3g.20gb", 4, 3, {0, 4}},
                                                    {"4g.20gb", 4, 4, {0}},
                                                    {"7g.40gb", 8, 7, {0}}};
  return profiles;
}

// How often pods ask for 1g, 2g, 3g partitions and whole GPUs (relative weights).
struct request_mix {
  std::uint32_t one_g = 1, two_g = 1, three_g = 1, whole = 1;
};

// One cluster: `nodes` nodes of 8 A100s, each GPU published as the whole GPU and every MIG
// placement, all drawing on the GPU's counter set (compute 7, memory-slice-0..7 of 1 each).
// About half the GPUs already hold 1–3 partitions at random placements (allocated claims);
// then pods ask, one claim each, for a 1g, 2g, 3g partition or a whole GPU (each kind as likely,
// unless `mix` says otherwise), until they ask for twice the memory slices left free.
struct churned_mig_cluster {
  std::deque<std::string> strings;  // owns every string the model's views point at
  dra::model::scenario s;
  std::vector<int> pod_slices;  // memory slices each pod's claim asks for, in queue order
  // What the churn left on each GPU (nodes in order, GPUs in order): the memory slices held (bit m for
  // memory-slice-m) and the compute held; what the headroom (mig_headroom.hpp) starts from.
  struct gpu_held {
    unsigned memory_slices = 0;
    int compute = 0;
  };
  std::vector<gpu_held> held;

  dra::model::text str(std::string v) { return strings.emplace_back(std::move(v)); }

  explicit churned_mig_cluster(std::uint32_t seed, request_mix mix = {}, int nodes = 4, int gpus = 8, bool churn = true) {
    using namespace dra;
    std::mt19937 rng(seed);
    auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };  // portable, unlike distributions
    for (const char* type : {"gpu", "mig"}) {
      model::device_class c;
      c.meta.name = type;
      c.selectors.push_back({str(std::string("device.attributes[\"gpu.example.com\"].type == \"") + type + "\"")});
      s.classes.push_back({c, {}});
    }
    s.slices.reserve(static_cast<std::size_t>(nodes) * 2);
    int free_slices = 0;
    for (int n = 0; n < nodes; ++n) {
      model::text node_name = str("node-" + std::to_string(n));
      model::node node;
      node.meta.name = node_name;
      s.nodes.push_back({node, {}});
      model::resource_slice devices;
      devices.meta.name = str(std::string(node_name) + "-gpus");
      devices.driver = "gpu.example.com";
      devices.pool = {node_name, 1, 2};
      devices.node_name = node_name;
      model::resource_slice counters = devices;
      counters.meta.name = str(std::string(node_name) + "-counters");
      for (int g = 0; g < gpus; ++g) {
        const std::string gpu = "gpu-" + std::to_string(g);
        model::counter_set set;
        set.name = str(gpu + "-counters");
        set.counters.push_back({"compute", quantity::from_int(7)});
        for (int m = 0; m < 8; ++m)
          set.counters.push_back({str("memory-slice-" + std::to_string(m)), quantity::from_int(1)});
        counters.shared_counters.push_back(set);
        auto add_device = [&](const std::string& name, const char* type, const char* profile, int first, int slices,
                              int compute) {
          model::device d;
          d.name = str(name);
          d.attributes.push_back({"parentUUID", {str(std::string(node_name) + "-" + gpu)}});
          d.attributes.push_back({"profile", {model::text(profile)}});
          d.attributes.push_back({"type", {model::text(type)}});
          model::device_counter_consumption use;
          use.counter_set = set.name;
          use.counters.push_back({"compute", quantity::from_int(compute)});
          for (int m = first; m < first + slices; ++m)
            use.counters.push_back({str("memory-slice-" + std::to_string(m)), quantity::from_int(1)});
          d.consumes_counters.push_back(std::move(use));
          devices.devices.push_back(std::move(d));
        };
        add_device(gpu, "gpu", "whole", 0, 8, 7);
        for (const auto& p : a100_profiles())
          for (int start : p.starts)
            add_device(gpu + "-mig-" + p.name + "-" + std::to_string(start), "mig", p.name, start, p.memory_slices,
                       p.compute);
        // Churn: about half the GPUs keep 1–3 partitions from earlier pods, at random placements.
        bool used[8] = {};
        int compute_left = 7, slices_left = 8;
        if (pick(2) == 0 && churn) {
          const std::uint32_t partitions = 1 + pick(3);
          for (std::uint32_t k = 0, tries = 0; k < partitions && tries < 50; ++tries) {
            const mig_profile& p = a100_profiles()[pick(3)];  // 1g, 2g, 3g
            const int start = p.starts[pick(static_cast<std::uint32_t>(p.starts.size()))];
            if (p.compute > compute_left || std::any_of(used + start, used + start + p.memory_slices, [](bool b) { return b; }))
              continue;
            std::fill(used + start, used + start + p.memory_slices, true);
            compute_left -= p.compute;
            slices_left -= p.memory_slices;
            ++k;
            model::resource_claim held;
            held.meta.name = str("earlier-" + std::string(node_name) + "-" + gpu + "-" + std::to_string(k));
            held.meta.namespace_ = "default";
            model::allocation_result allocation;
            model::device_request_allocation_result r;
            r.request = "mig";
            r.driver = "gpu.example.com";
            r.pool = node_name;
            r.device = str(gpu + "-mig-" + p.name + "-" + std::to_string(start));
            allocation.results.push_back(r);
            held.allocation = allocation;
            s.claims.push_back({std::move(held), {}});
          }
        }
        free_slices += slices_left;
        gpu_held g_held;
        for (int m = 0; m < 8; ++m)
          if (used[m]) g_held.memory_slices |= 1u << m;
        g_held.compute = 7 - compute_left;
        held.push_back(g_held);
      }
      s.slices.push_back({std::move(devices), {}});
      s.slices.push_back({std::move(counters), {}});
    }
    // The queue, until twice the free memory slices are asked for.
    int asked = 0;
    const std::uint32_t weights = mix.one_g + mix.two_g + mix.three_g + mix.whole;
    for (int p = 0; asked < 2 * free_slices; ++p) {
      std::uint32_t roll = pick(weights);
      int kind = 0;
      for (std::uint32_t w : {mix.one_g, mix.two_g, mix.three_g}) {
        if (roll < w) break;
        roll -= w;
        ++kind;
      }
      const char* klass = kind < 3 ? "mig" : "gpu";
      const char* profile = std::array{"1g.5gb", "2g.10gb", "3g.20gb", "whole"}[kind];
      const int slices = std::array{1, 2, 4, 8}[kind];
      model::resource_claim claim;
      claim.meta.name = str("claim-" + std::to_string(p));
      claim.meta.namespace_ = "default";
      model::device_request request;
      request.name = "gpu";
      model::exact_device_request exact;
      exact.device_class_name = klass;
      exact.selectors.push_back(
          {str(std::string("device.attributes[\"gpu.example.com\"].profile == \"") + profile + "\"")});
      request.exactly = exact;
      claim.spec.requests.push_back(std::move(request));
      s.claims.push_back({std::move(claim), {}});
      model::pod pod;
      pod.meta.name = str("pod-" + std::to_string(p));
      pod.meta.namespace_ = "default";
      pod.resource_claims.push_back({"gpu", s.claims.back().object.meta.name, std::nullopt});
      s.pods.push_back({std::move(pod), {}});
      pod_slices.push_back(slices);
      asked += slices;
    }
  }
};

// What one policy achieved on one cluster.
struct placement_score {
  int slices_before_first_rejection = 0;  // memory slices of the pods placed before the first pod that did not fit
  int slices_placed = 0;                  // memory slices of every pod placed (the queue goes on after a rejection)
  std::string overcommit;                 // alloc::find_overcommit's finding; empty when every invariant held
  std::string error;                      // a claim that failed with an error (none expected)
};

template <dra::alloc::allocation_policy Policy>
[[nodiscard]] placement_score score(const churned_mig_cluster& cluster, const dra::cel::selector_engine& engine) {
  const auto report = dra::sim::run_scenario(cluster.s, engine, dra::alloc::features::all(), Policy{});
  placement_score out;
  out.overcommit = dra::alloc::find_overcommit(cluster.s, report.outcomes);
  bool rejected = false;
  for (std::size_t i = 0; i < report.outcomes.size(); ++i) {
    const auto& o = report.outcomes[i];
    if (const auto* failure = o.error(); failure != nullptr && out.error.empty())
      out.error = o.claim + ": " + failure->to_string();
    if (o.allocated() == nullptr) {
      rejected = true;
      continue;
    }
    const int slices = i < cluster.pod_slices.size() ? cluster.pod_slices[i] : 0;
    out.slices_placed += slices;
    if (!rejected) out.slices_before_first_rejection += slices;
  }
  return out;
}

}  // namespace dra_bench
