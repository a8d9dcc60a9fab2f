// Remembers on which nodes a unit of work of a given shape did not fit, and why (and, for policies that rank nodes,
// where it fits and at what cost), so that the unit placer neither searches those nodes again for a like unit
// nor explains them again until an allocation touches one of their pools.
#pragma once

#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/diagnosis.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sched {

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

  // Whether a unit of `shape` was found not to fit on node `node` (an index into the run's node list) and nothing
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
    sync(sh);
    sh.open[node / word_bits] &= ~bit(node);
    if (invalid_pools) sh.invalid[node / word_bits] |= bit(node);
  }

  // The first node at or after `from` (node list order) not known to be unfit for `shape`, or the number of nodes
  // when there is none: a scan in node order skips a word of full nodes at a time, so that a pod's cost does not grow
  // with the nodes that cannot take it.
  [[nodiscard]] std::size_t next_open(std::size_t shape, std::size_t from) {
    auto& sh = shapes_[shape];
    const std::size_t nodes = node_epochs_.size();
    if (sh.stamps.empty() || from >= nodes) return std::min(from, nodes);
    sync(sh);
    std::size_t word = from / word_bits;
    std::uint64_t bits = sh.open[word] & (~std::uint64_t{0} << (from % word_bits));
    while (bits == 0) {
      if (++word == sh.open.size()) return nodes;
      bits = sh.open[word];
    }
    return word * word_bits + static_cast<std::size_t>(std::countr_zero(bits));
  }

  // Which nodes are known not to fit `shape` now, and which of them had invalid pools, as a copy: a scan in another
  // order than the node list's (a node ranking) tests a bit per node instead of asking known_unfit.
  class unfit_nodes {
   public:
    // Whether node i is known unfit (nullopt: not known), and then whether it had invalid pools (as known_unfit).
    [[nodiscard]] std::optional<bool> of(std::size_t i) const {
      if (open_.empty() || (open_[i / word_bits] & bit(i)) != 0) return std::nullopt;
      return (invalid_[i / word_bits] & bit(i)) != 0;
    }

    // How many of the first `nodes` nodes are not known unfit.
    [[nodiscard]] std::size_t open_count(std::size_t nodes) const {
      if (open_.empty()) return nodes;
      std::size_t count = 0;
      for (const std::uint64_t word : open_) count += static_cast<std::size_t>(std::popcount(word));
      return count;
    }
    // Calls `visit(node)` for each of the first `nodes` nodes that is not known unfit, or is for invalid pools.
    template <class Visit>
    void for_each_open_or_invalid(std::size_t nodes, Visit visit) const {
      if (open_.empty()) {
        for (std::size_t i = 0; i < nodes; ++i) visit(i);
        return;
      }
      for_each_bit(0, open_.size(), [&](std::size_t word) { return open_[word] | invalid_[word]; }, visit);
    }

   private:
    friend class unfit_memo;
    std::vector<std::uint64_t> open_, invalid_;  // empty: no node known unfit
  };
  // The copy for `shape`, brought up to date first.
  [[nodiscard]] unfit_nodes unfit_now(std::size_t shape) {
    unfit_nodes out;
    auto& sh = shapes_[shape];
    if (sh.stamps.empty()) return out;
    sync(sh);
    out.open_ = sh.open;
    out.invalid_ = sh.invalid;
    return out;
  }

  // Calls `visit(node)` for each node in [from, to) known not to fit `shape` because of invalid pools (rare: most
  // ranges have none, and are passed over a word at a time).
  template <class Visit>
  void for_each_invalid(std::size_t shape, std::size_t from, std::size_t to, Visit visit) {
    auto& sh = shapes_[shape];
    if (sh.stamps.empty() || from >= to) return;
    sync(sh);
    for_each_bit(from / word_bits, (to + word_bits - 1) / word_bits, [&](std::size_t word) { return sh.invalid[word]; },
                 [&](std::size_t node) {
                   if (node >= from && node < to) visit(node);
                 });
  }

  // Where a unit of `shape` fits on `node`, as a node-ranking policy found it (its results and their cost), while
  // nothing it depends on changed: the node's pools, and the pending demand's weights (`demand_epoch`), which the
  // policy's facts weigh placements by.
  struct known_fit {
    std::vector<model::allocation_result> results;
    std::pair<double, double> cost;  // counters stranded, placements lost
  };
  [[nodiscard]] const known_fit* fit_on(std::size_t shape, std::size_t node, std::uint64_t demand_epoch) const {
    const auto it = fits_.find(fit_key(shape, node));
    if (it == fits_.end() || it->second.stamp != stamp(node) || it->second.demand_epoch != demand_epoch) return nullptr;
    return &it->second.fit;
  }
  // The policy changed how it picks (see until_first_rejection): no fit found so far holds.
  void forget_fits() { fits_.clear(); }
  void remember_fit(std::size_t shape, std::size_t node, std::uint64_t demand_epoch, known_fit fit) {
    // Bounded: a queue of ever-new shapes would otherwise keep a fit per shape and node for good.
    if (fits_.size() >= max_fits) fits_.clear();
    fits_.insert_or_assign(fit_key(shape, node), fit_entry{stamp(node), demand_epoch, std::move(fit)});
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
      if (it != pool_node_.end() && it->second) {
        ++node_epochs_[*it->second];
        changed_nodes_.push_back(*it->second);
      } else {
        ++shared_epoch_;
      }
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
    // The same facts as stamps and invalid_pools, a bit per node (set when the node is not known unfit; set when
    // known unfit with invalid pools), brought up to date by sync() from the changes since seen_changes.
    std::vector<std::uint64_t> open, invalid;
    std::size_t seen_changes = 0;       // how much of changed_nodes_ the bits reflect
    std::uint64_t seen_shared_epoch = 0;  // the shared epoch the bits reflect
  };

  struct fit_entry {
    std::uint64_t stamp = 0;
    std::uint64_t demand_epoch = 0;
    known_fit fit;
  };
  static constexpr std::size_t max_fits = std::size_t{1} << 16;
  [[nodiscard]] static std::uint64_t fit_key(std::size_t shape, std::size_t node) {
    return (static_cast<std::uint64_t>(shape) << 32) | static_cast<std::uint64_t>(node);
  }

  static constexpr std::size_t word_bits = 64;
  [[nodiscard]] static std::uint64_t bit(std::size_t node) { return std::uint64_t{1} << (node % word_bits); }
  // Calls `visit(node)` for each bit set in the words `word_at(w)` gives for w in [first, last), lowest first.
  template <class WordAt, class Visit>
  static void for_each_bit(std::size_t first, std::size_t last, WordAt word_at, Visit visit) {
    for (std::size_t word = first; word < last; ++word)
      for (std::uint64_t bits = word_at(word); bits != 0; bits &= bits - 1)
        visit(word * word_bits + static_cast<std::size_t>(std::countr_zero(bits)));
  }
  [[nodiscard]] std::uint64_t stamp(std::size_t node) const { return 1 + node_epochs_[node] + shared_epoch_; }

  // Brings a shape's bits up to date: a change to a shared pool opens every node again, a change to a node's own pools
  // opens that node. Each change is replayed once per shape that is asked again, not once per shape at commit time.
  void sync(shape& sh) const {
    const std::size_t nodes = node_epochs_.size();
    if (sh.open.empty() || sh.seen_shared_epoch != shared_epoch_) {
      sh.open.assign((nodes + word_bits - 1) / word_bits, ~std::uint64_t{0});
      if (nodes % word_bits != 0) sh.open.back() = (std::uint64_t{1} << (nodes % word_bits)) - 1;
      sh.invalid.assign(sh.open.size(), 0);
      sh.seen_shared_epoch = shared_epoch_;
      sh.seen_changes = changed_nodes_.size();
      // No node is known unfit at this shared epoch: remember_unfit syncs before it records one.
      return;
    }
    for (; sh.seen_changes < changed_nodes_.size(); ++sh.seen_changes) {
      const std::size_t node = changed_nodes_[sh.seen_changes];
      sh.open[node / word_bits] |= bit(node);
      sh.invalid[node / word_bits] &= ~bit(node);
    }
  }

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
  std::vector<std::size_t> changed_nodes_;  // the node of each change to a node's own pools, in order (sync)
  std::vector<shape> shapes_;
  std::unordered_multimap<std::size_t, std::size_t> by_hash_;  // rough_hash → index into shapes_
  std::unordered_map<std::uint64_t, fit_entry> fits_;  // by fit_key: fits a node-ranking policy found
};

}  // namespace dra::sched
