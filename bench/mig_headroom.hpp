// The most memory slices any policy could place on a churned MIG cluster before the queue's first rejection
// (the exact optimum, knowing the whole queue), and the free slices it starts from: the headroom over first fit.
#pragma once

#include "churned_mig.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <set>
#include <vector>

namespace dra_bench {

namespace detail {

// Pods of each kind: 1g, 2g, 3g partitions and whole GPUs.
using kind_counts = std::array<int, 4>;

inline int kind_of(int memory_slices) {
  return memory_slices == 1 ? 0 : memory_slices == 2 ? 1 : memory_slices == 4 ? 2 : 3;
}

// Every combination of pods one GPU can still take on top of what it holds: the placements the queue can
// ask for (1g at 0–6, 2g at 0/2/4, 3g at 0/4, the whole GPU; 4g is never asked for), pairwise disjoint in
// memory slices, within the compute left. 13 placements: 2^13 subsets, enumerated once per distinct GPU.
inline std::vector<kind_counts> gpu_options(const churned_mig_cluster::gpu_held& held) {
  struct placement {
    unsigned slices;
    int compute, kind;
  };
  std::vector<placement> placements;
  for (const auto& p : a100_profiles()) {
    const int kind = p.memory_slices == 8 ? 3 : p.compute == 4 ? -1 : kind_of(p.memory_slices);
    if (kind < 0) continue;
    for (int start : p.starts) placements.push_back({((1u << p.memory_slices) - 1) << start, p.compute, kind});
  }
  std::set<kind_counts> options;
  for (unsigned subset = 0; subset < (1u << placements.size()); ++subset) {
    unsigned slices = held.memory_slices;
    int compute = held.compute;
    kind_counts counts{};
    bool fits = true;
    for (std::size_t i = 0; i < placements.size() && fits; ++i) {
      if ((subset >> i & 1u) == 0) continue;
      fits = (slices & placements[i].slices) == 0 && compute + placements[i].compute <= 7;
      slices |= placements[i].slices;
      compute += placements[i].compute;
      ++counts[static_cast<std::size_t>(placements[i].kind)];
    }
    if (fits) options.insert(counts);
  }
  return {options.begin(), options.end()};
}

// Whether the GPUs can take `demand` pods of each kind all at once. Pods are independent claims and GPUs
// independent counter sets, so this is a knapsack over GPUs: best[b][c][w] is the most 1g pods the GPUs so far
// can take alongside b 2g, c 3g and w whole-GPU pods (counts capped at the demand: more is never needed).
inline bool fits_all(const std::vector<std::vector<kind_counts>>& options_per_gpu, const kind_counts& demand) {
  const int B = demand[1] + 1, C = demand[2] + 1, W = demand[3] + 1;
  auto at = [&](int b, int c, int w) { return (static_cast<std::size_t>(b) * C + c) * W + w; };
  std::vector<int> best(static_cast<std::size_t>(B) * C * W, -1), next;
  best[0] = 0;
  for (const auto& options : options_per_gpu) {
    next = best;
    for (int b = 0; b < B; ++b)
      for (int c = 0; c < C; ++c)
        for (int w = 0; w < W; ++w) {
          const int ones = best[at(b, c, w)];
          if (ones < 0) continue;
          for (const kind_counts& o : options) {
            int& slot = next[at(std::min(b + o[1], B - 1), std::min(c + o[2], C - 1), std::min(w + o[3], W - 1))];
            slot = std::max(slot, std::min(ones + o[0], demand[0]));
          }
        }
    best.swap(next);
  }
  return best[at(B - 1, C - 1, W - 1)] >= demand[0];
}

}  // namespace detail

// The headroom of one cluster.
struct mig_headroom {
  int free_slices = 0;  // memory slices no held partition uses (slice 7 only a 3g at 4 or a whole GPU can use)
  // The most slices placed before the first rejection by any sequence of choices: the slices of the longest
  // queue prefix whose pods fit together. Exact, not a bound: pods never leave, so any packing of a prefix can
  // be reached by placing its pods in queue order, and a prefix that does not fit makes every longer one fail.
  int optimum = 0;
};

[[nodiscard]] inline mig_headroom headroom(const churned_mig_cluster& cluster) {
  mig_headroom out;
  std::vector<std::vector<detail::kind_counts>> options_per_gpu;
  for (const auto& g : cluster.held) {
    out.free_slices += 8 - std::popcount(g.memory_slices);
    options_per_gpu.push_back(detail::gpu_options(g));
  }
  // Fitting is monotone in the prefix length: binary search for the longest prefix that fits.
  auto demand_of = [&](std::size_t pods) {
    detail::kind_counts demand{};
    for (std::size_t i = 0; i < pods; ++i) ++demand[static_cast<std::size_t>(detail::kind_of(cluster.pod_slices[i]))];
    return demand;
  };
  std::size_t fits = 0, fails = cluster.pod_slices.size() + 1;
  while (fails - fits > 1) {
    const std::size_t mid = fits + (fails - fits) / 2;
    (detail::fits_all(options_per_gpu, demand_of(mid)) ? fits : fails) = mid;
  }
  for (std::size_t i = 0; i < fits; ++i) out.optimum += cluster.pod_slices[i];
  return out;
}

}  // namespace dra_bench
