// How used each node's devices are (node_facts, for node-ranking policies), kept up to date as allocations are
// committed.
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/scenario.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dra::sched {

// A node's capacity is one unit per counter of the counter sets its slices publish plus one per
// device that draws no counters; an allocated device uses its share of each counter it draws
// (a 3g MIG partition half a GPU's memory slices), or 1 when it draws none. Devices are those of
// slices with a nodeName (or per-device nodeName); network-attached devices count for no node.
class device_usage {
 public:
  device_usage(const model::scenario& s, std::span<const model::node* const> nodes) : facts_(nodes.size()) {
    std::map<std::string_view, std::uint32_t> node_index;
    for (std::uint32_t i = 0; i < nodes.size(); ++i) node_index.emplace(nodes[i]->meta.name, i);
    capacity_.assign(nodes.size(), 0);
    std::map<std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>, double> totals;
    for (const auto& located : s.slices) {
      const model::resource_slice& slice = located.object;
      const std::uint32_t node = find(node_index, slice.node_name);
      for (const auto set : flatten::counter_set_views(slice))
        for (const auto e : set.counters()) {
          totals[{slice.driver, slice.pool.name, set.name(), e.name}] = e.value->approximate_double();
          if (node != none) capacity_[node] += 1;
        }
    }
    for (const auto& located : s.slices) {
      const model::resource_slice& slice = located.object;
      for (const auto view : flatten::device_views(slice)) {
        std::uint32_t node = find(node_index, slice.node_name);
        if (node == none) node = find(node_index, view.base().node_name);
        if (node == none) continue;
        double weight = 0;
        bool draws = false;
        for (const auto consumption : view.counter_consumptions())
          for (const auto e : consumption.counters()) {
            draws = true;
            auto it = totals.find({slice.driver, slice.pool.name, consumption.counter_set(), e.name});
            if (it != totals.end() && it->second > 0) weight += e.value->approximate_double() / it->second;
          }
        if (!draws) {
          weight = 1;
          capacity_[node] += 1;
        }
        devices_.emplace(key(slice.driver, slice.pool.name, view.name()), device_entry{node, weight});
      }
    }
    for (const auto& c : s.claims)
      if (c.object.allocation) add(*c.object.allocation);
  }

  // Counts the devices of a committed allocation (a shared device counts once, however many claims share it).
  void add(const model::allocation_result& allocation) {
    for (const auto& r : allocation.results) {
      if (r.admin_access.value_or(false)) continue;
      auto it = devices_.find(key(r.driver, r.pool, r.device));
      if (it == devices_.end() || it->second.counted) continue;
      it->second.counted = true;
      alloc::node_facts& f = facts_[it->second.node];
      f.used += it->second.weight;
      const double capacity = capacity_[it->second.node];
      f.used_share = capacity > 0 ? std::min(1.0, f.used / capacity) : 0;
      facts_changed(it->second.node);
    }
  }

  // Uncounts the devices of a released allocation that `ledger` no longer holds (another claim may share one).
  void release(const model::allocation_result& allocation, const alloc::ledger& ledger) {
    for (const auto& r : allocation.results) {
      if (r.admin_access.value_or(false)) continue;
      auto it = devices_.find(key(r.driver, r.pool, r.device));
      if (it == devices_.end() || !it->second.counted || ledger.allocated({r.driver, r.pool, r.device})) continue;
      it->second.counted = false;
      alloc::node_facts& f = facts_[it->second.node];
      f.used -= it->second.weight;
      const double capacity = capacity_[it->second.node];
      f.used_share = capacity > 0 ? std::min(1.0, f.used / capacity) : 0;
      facts_changed(it->second.node);
    }
  }

  [[nodiscard]] std::span<const alloc::node_facts> facts() const noexcept { return facts_; }

  // The nodes' positions in the list, in the order the policy wants them tried. A policy without state orders the
  // same facts alike: its order is kept until the facts change, and then, for a policy ranking by a key
  // (alloc::ranks_nodes_by_key), only the nodes whose facts changed are moved.
  template <alloc::node_ranking_policy Policy>
  [[nodiscard]] std::span<const std::uint32_t> ranked_positions(const Policy& policy) const {
    const bool kept = std::is_empty_v<Policy> && order_policy_ == &policy_tag<Policy> && order_.size() == facts_.size();
    if (kept && changed_.empty()) return order_;
    if constexpr (alloc::ranks_nodes_by_key<Policy>) {
      if (kept) {
        move_changed(policy);
        return order_;
      }
    }
    order_.resize(facts_.size());
    std::iota(order_.begin(), order_.end(), 0u);
    policy.order_nodes(order_, facts_);
    order_policy_ = &policy_tag<Policy>;
    changed_.clear();
    return order_;
  }

  // The nodes in the order the policy wants them tried.
  template <alloc::node_ranking_policy Policy>
  [[nodiscard]] std::vector<const model::node*> ranked(std::span<const model::node* const> nodes,
                                                       const Policy& policy) const {
    std::vector<const model::node*> out;
    out.reserve(nodes.size());
    for (const auto i : ranked_positions(policy)) out.push_back(nodes[i]);
    return out;
  }

 private:
  static constexpr std::uint32_t none = UINT32_MAX;
  template <class Policy>
  static constexpr char policy_tag = 0;  // its address names the policy type an order was made for
  void facts_changed(std::uint32_t node) {
    if (order_policy_ == nullptr || std::ranges::find(changed_, node) != changed_.end()) return;
    changed_.push_back(node);
    if (changed_.size() > facts_.size() / 8) {  // sorting every node again costs less
      order_policy_ = nullptr;
      changed_.clear();
    }
  }
  // The changed nodes taken out of the kept order and put back where their key and list position now place them:
  // the order stays sorted by (key, position), as the policy's stable sort of the list leaves it. Each is found by a
  // scan (its old key is gone) and moved as the vector's erase and insert move it: as costly as one pass each, and a
  // commit changes few nodes (past an eighth of them the list is sorted anew).
  template <alloc::ranks_nodes_by_key Policy>
  void move_changed(const Policy& policy) const {
    for (const std::uint32_t node : changed_) order_.erase(std::ranges::find(order_, node));
    const auto before = [&](std::uint32_t a, std::uint32_t b) {
      return std::pair(policy.node_rank(facts_[a]), a) < std::pair(policy.node_rank(facts_[b]), b);
    };
    for (const std::uint32_t node : changed_)
      order_.insert(std::ranges::lower_bound(order_, node, before), node);
    changed_.clear();
  }
  struct device_entry {
    std::uint32_t node = none;
    double weight = 0;
    bool counted = false;
  };
  static std::uint32_t find(const std::map<std::string_view, std::uint32_t>& index,
                            const std::optional<model::text>& name) {
    if (!name || name->empty()) return none;
    auto it = index.find(*name);
    return it == index.end() ? none : it->second;
  }
  static std::string key(std::string_view driver, std::string_view pool, std::string_view device) {
    std::string k;
    k.reserve(driver.size() + pool.size() + device.size() + 2);
    k.append(driver).push_back('\0');
    k.append(pool).push_back('\0');
    k.append(device);
    return k;
  }

  std::vector<alloc::node_facts> facts_;
  std::vector<double> capacity_;
  std::map<std::string, device_entry, std::less<>> devices_;
  mutable std::vector<std::uint32_t> order_;   // see ranked_positions
  mutable const char* order_policy_ = nullptr;  // the policy_tag order_ holds the order of; null: none
  mutable std::vector<std::uint32_t> changed_;  // nodes whose facts changed since order_ was made, each once
};

}  // namespace dra::sched
