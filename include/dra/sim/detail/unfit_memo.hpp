// Remembers on which nodes a unit of work of a given shape did not fit, and why, so that the scenario runner neither
// searches those nodes again for a like unit nor explains them again until an allocation touches one of their pools.
#pragma once

#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sim/explain.hpp>

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sim::detail {

// Whether a unit fits on a node depends only on the specs of its claims, the node and what the ledger holds for the
// node's pools; the claims' names only appear in errors, which are never remembered. So two units whose claims have
// equal specs (pods made from one template, say) share one shape, and an unfit answer stays true for as long as no
// allocation lands in a pool the node can reach. Pools published for one node only (every slice names that node)
// change only that node's epoch; an allocation in any other pool changes every node's.
class unfit_memo {
 public:
  unfit_memo(const model::scenario& s, std::span<const model::node* const> nodes) : node_epochs_(nodes.size(), 0) {
    std::unordered_map<std::string_view, std::size_t> index_of;
    for (std::size_t i = 0; i < nodes.size(); ++i) index_of.emplace(nodes[i]->meta.name, i);
    for (const auto& entry : s.slices) {
      const model::resource_slice& slice = entry.object;
      std::optional<std::size_t> local;
      const bool node_local = slice.node_name && !slice.node_name->empty() &&
                              !slice.per_device_node_selection.value_or(false) && !slice.all_nodes.value_or(false) &&
                              !slice.node_selector;
      if (node_local)
        if (auto it = index_of.find(*slice.node_name); it != index_of.end()) local = it->second;
      auto [it, inserted] = pool_node_.try_emplace(std::pair{slice.driver, slice.pool.name}, local);
      if (!inserted && it->second != local) it->second = std::nullopt;  // slices of the pool disagree: shared
    }
  }

  // The shape of a unit: equal for units whose claims have equal specs, in order.
  [[nodiscard]] std::size_t shape_of(std::span<const model::resource_claim* const> unit) {
    const std::size_t hash = rough_hash(unit);
    for (auto [it, end] = by_hash_.equal_range(hash); it != end; ++it) {
      const shape& sh = shapes_[it->second];
      if (std::equal(sh.specs.begin(), sh.specs.end(), unit.begin(), unit.end(),
                     [](const model::device_claim& spec, const model::resource_claim* c) { return spec == c->spec; }))
        return it->second;
    }
    shape sh;
    for (const auto* claim : unit) sh.specs.push_back(claim->spec);
    shapes_.push_back(std::move(sh));
    by_hash_.emplace(hash, shapes_.size() - 1);
    return shapes_.size() - 1;
  }

  // Whether a unit of `shape` was found not to fit on node `node` (an index into the runner's node list) and nothing
  // it depends on changed since; `invalid_pools` then says whether that node had invalid pools.
  [[nodiscard]] std::optional<bool> known_unfit(std::size_t shape, std::size_t node) const {
    const auto& sh = shapes_[shape];
    if (sh.stamps.empty() || sh.stamps[node] != stamp(node)) return std::nullopt;
    return sh.invalid_pools[node];
  }
  void remember_unfit(std::size_t shape, std::size_t node, bool invalid_pools) {
    auto& sh = shapes_[shape];
    if (sh.stamps.empty()) {
      sh.stamps.assign(node_epochs_.size(), 0);
      sh.invalid_pools.assign(node_epochs_.size(), false);
    }
    sh.stamps[node] = stamp(node);
    sh.invalid_pools[node] = invalid_pools;
  }

  // Why a unit of `shape` did not fit on `node`, when that was worked out and nothing it depends on changed since.
  // Only for units of one claim: the claim named in it is the unit's (rename it for a like claim), and none of its
  // words name another claim.
  [[nodiscard]] const node_diagnosis* known_why(std::size_t shape, std::size_t node) const {
    const auto& sh = shapes_[shape];
    if (sh.why_stamps.empty() || sh.why_stamps[node] != stamp(node)) return nullptr;
    return &sh.why[node];
  }
  // Keeps the verdict of `diagnosis`, not its funnels.
  void remember_why(std::size_t shape, std::size_t node, const node_diagnosis& diagnosis) {
    auto& sh = shapes_[shape];
    if (sh.why_stamps.empty()) {
      sh.why_stamps.assign(node_epochs_.size(), 0);
      sh.why.resize(node_epochs_.size());
    }
    sh.why_stamps[node] = stamp(node);
    node_diagnosis& kept = sh.why[node];
    kept.node = diagnosis.node;
    kept.verdict = diagnosis.verdict;
    kept.claim = diagnosis.claim;
    kept.request = diagnosis.request;
    kept.message = diagnosis.message;
  }

  // An allocation was committed: the nodes that reach its pools may fit less from now on (and, with shared
  // devices whose counters are already charged, differently), so what was remembered for them is stale.
  void committed(const model::allocation_result& result) {
    for (const auto& r : result.results) {
      auto it = pool_node_.find(std::pair{r.driver, r.pool});
      if (it != pool_node_.end() && it->second)
        ++node_epochs_[*it->second];
      else
        ++shared_epoch_;
    }
  }

  // Allocations were taken back (a gang's trial rolled back): anything remembered may fit now.
  void forget() noexcept { ++shared_epoch_; }

 private:
  struct shape {
    std::vector<model::device_claim> specs;
    std::vector<std::uint64_t> stamps;  // per node (empty until one is remembered): 0, or stamp() when found unfit
    std::vector<bool> invalid_pools;    // per node, as stamps
    std::vector<std::uint64_t> why_stamps;  // per node (empty until one is remembered), as stamps
    std::vector<node_diagnosis> why;        // per node: its verdict when why_stamps says so
  };

  [[nodiscard]] std::uint64_t stamp(std::size_t node) const { return 1 + node_epochs_[node] + shared_epoch_; }

  // Enough of the specs to tell most shapes apart cheaply; equality decides.
  [[nodiscard]] static std::size_t rough_hash(std::span<const model::resource_claim* const> unit) {
    std::size_t h = unit.size();
    auto mix = [&](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    const std::hash<std::string_view> text_hash;
    for (const auto* claim : unit) {
      mix(claim->spec.requests.size());
      mix(claim->spec.constraints.size());
      for (const auto& request : claim->spec.requests) {
        mix(text_hash(request.name));
        if (request.exactly) {
          mix(text_hash(request.exactly->device_class_name));
          mix(static_cast<std::size_t>(request.exactly->count));
          for (const auto& selector : request.exactly->selectors) mix(text_hash(selector.cel_expression));
        }
        mix(request.first_available.size());
      }
    }
    return h;
  }

  std::map<std::pair<std::string_view, std::string_view>, std::optional<std::size_t>> pool_node_;
  std::vector<std::uint64_t> node_epochs_;
  std::uint64_t shared_epoch_ = 0;
  std::vector<shape> shapes_;
  std::unordered_multimap<std::size_t, std::size_t> by_hash_;  // rough_hash → index into shapes_
};

}  // namespace dra::sim::detail
