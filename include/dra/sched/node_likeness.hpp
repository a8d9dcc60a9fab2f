// Which of a run's nodes are alike right now, so that a search ranking nodes tries one node of each kind: alike
// nodes have the same devices in all but names, the same allocatable, taints and cordon, the same requests from their
// pods and the same taken of each device.
#pragma once

#include <dra/alloc/ledger.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/scenario.hpp>
#include <dra/model/workload.hpp>
#include <dra/sched/node_usage.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace dra::sched {

// A pod passing the filters of two alike nodes fits its claims on both alike, at the same cost (its devices are
// chosen among devices that differ only in their names, in the same order, in the same state), so of alike nodes a
// search that keeps the first of equal costs takes none but the first it tries. Nodes are alike only through devices
// of their own: where some slice's nodes are chosen by selectors, or DeviceTaintRules name devices, no two nodes are.
class node_likeness {
 public:
  using kind = std::uint32_t;

  node_likeness(const model::scenario& s, std::span<const model::node* const> nodes)
      : hardware_of_(nodes.size()), devices_(nodes.size()), cached_(nodes.size()), versions_(nodes.size(), 0) {
    on_ = s.taint_rules.empty();
    std::unordered_map<std::string_view, std::size_t> index_of;
    for (std::size_t i = 0; i < nodes.size(); ++i) index_of.emplace(nodes[i]->meta.name, i);
    std::vector<std::vector<const model::resource_slice*>> own(nodes.size());
    for (const auto& entry : s.slices) {
      const model::resource_slice& slice = entry.object;
      if (slice.node_selector || slice.per_device_node_selection.value_or(false)) on_ = false;
      if (!slice.node_name || slice.node_name->empty()) continue;  // all nodes': alike for every node
      if (const auto it = index_of.find(*slice.node_name); it != index_of.end()) own[it->second].push_back(&slice);
    }
    if (!on_) return;
    std::vector<std::size_t> hashes(nodes.size());
    std::unordered_map<std::size_t, std::size_t> nodes_per_hash;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      // The allocator's order: by driver and pool, then by slice name.
      std::ranges::stable_sort(own[i], [](const model::resource_slice* a, const model::resource_slice* b) {
        return std::tie(a->driver, a->pool.name, a->meta.name) < std::tie(b->driver, b->pool.name, b->meta.name);
      });
      hashes[i] = hash_of(own[i]);
      ++nodes_per_hash[hashes[i]];
      for (const model::resource_slice* slice : own[i])
        for (const model::device& d : slice->devices) {
          const alloc::device_ref id{slice->driver, slice->pool.name, d.name};
          devices_[i].push_back(id);
          node_of_.emplace(id, i);
        }
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      // A node whose hash no other node has is alike none: its devices need no copy to be compared.
      if (nodes_per_hash[hashes[i]] == 1) {
        hardware_of_[i] = static_cast<std::uint32_t>(hardware_.size());
        hardware_.emplace_back();  // compared with nothing
        continue;
      }
      hardware h{{}, {}, nodes[i]->allocatable, nodes[i]->taints, nodes[i]->unschedulable};
      for (std::size_t k = 0; k < own[i].size(); ++k) {
        const model::resource_slice& slice = *own[i][k];
        h.same_pool.push_back(k > 0 && own[i][k - 1]->driver == slice.driver &&
                              own[i][k - 1]->pool.name == slice.pool.name);
        h.slices.push_back(unnamed(slice));
      }
      hardware_of_[i] = intern(std::move(h), hashes[i]);
    }
  }

  [[nodiscard]] bool on() const noexcept { return on_; }

  // The kind node i is of now, its pods requesting `usage` (at `revision`, cluster_state::usage_revision) and its
  // devices held as `ledger` says.
  [[nodiscard]] kind kind_of(std::size_t i, const node_usage& usage, std::uint64_t revision,
                             const alloc::ledger& ledger) {
    // A search asks this of each node it walks: the ledger's log is read only once it has grown.
    if (ledger.generation() != generation_ || ledger.changes_seen() != seen_) sync(ledger);
    const auto& [version, usage_stamp, known] = cached_[i];
    if (version == versions_[i] + 1 && usage_stamp == revision + 1) return known;
    return work_out_kind(i, usage, revision, ledger);
  }

  // A new round of first_of_kind (one unit's search): every kind unseen again.
  void new_round() noexcept { ++round_; }
  // Whether no node of `k` was seen before in this round; it is seen from now on.
  [[nodiscard]] bool first_of_kind(kind k) {
    if (k >= seen_in_round_.size()) seen_in_round_.resize(std::max<std::size_t>(k + 1, 2 * seen_in_round_.size()), 0);
    if (seen_in_round_[k] == round_) return false;
    seen_in_round_[k] = round_;
    return true;
  }

 private:
  // Node i's kind, worked out from its hardware, its pods' requests and what the ledger holds of its devices.
  kind work_out_kind(std::size_t i, const node_usage& usage, std::uint64_t revision, const alloc::ledger& ledger) {
    auto& [version, usage_stamp, known] = cached_[i];
    std::string key = std::to_string(hardware_of_[i]) + '|' + std::to_string(usage.pods);
    for (const auto& [name, value] : usage.requested) key += '|' + std::string(name) + '=' + std::to_string(value);
    key += '|' + std::to_string(usage.scored.cpu) + '|' + std::to_string(usage.scored.memory);
    for (const alloc::device_ref& id : devices_[i]) {
      key += '#';
      const alloc::ledger::device_state* held = ledger.find(id);
      if (held == nullptr) continue;
      key += held->exclusive ? 'x' : '-';
      key += held->shared ? 's' : '-';
      if (held->given_out)
        for (const auto& [name, amount] : *held->given_out) key += std::string(name) + '=' + amount.to_string() + ';';
    }
    const auto [it, added] = kinds_.try_emplace(std::move(key), static_cast<kind>(kinds_.size()));
    version = versions_[i] + 1;
    usage_stamp = revision + 1;
    known = it->second;
    return known;
  }

  // A node's devices and allocatable, all names but the driver's left out.
  struct hardware {
    std::vector<model::resource_slice> slices;  // in the allocator's order
    std::vector<bool> same_pool;                // per slice: of the previous slice's pool
    std::optional<model::resource_list> allocatable;
    std::vector<model::node_taint> taints;  // with the cordon, what node filters read besides labels and name
    bool unschedulable = false;
    friend bool operator==(const hardware&, const hardware&) = default;
  };

  static model::resource_slice unnamed(const model::resource_slice& slice) {
    model::resource_slice out = slice;
    out.meta = {};
    out.node_name = model::text();
    out.pool.name = {};
    for (model::device& d : out.devices) d.name = {};
    return out;
  }

  // What tells nodes' devices apart cheaply: drivers, device counts and the string and integer attributes of the
  // devices. Devices publish attributes of their own (UUIDs, PCI addresses), so unlike nodes hash apart instead of
  // being compared whole with every node before them.
  static std::size_t hash_of(std::span<const model::resource_slice* const> slices) {
    std::size_t hash = slices.size();
    const auto mix = [&hash](std::size_t value) { hash = hash * 31 + value; };
    for (const model::resource_slice* slice : slices) {
      mix(slice->devices.size());
      mix(std::hash<std::string_view>{}(slice->driver));
      for (const model::device& d : slice->devices)
        for (const auto& [name, attribute] : d.attributes) {
          if (const auto* text = std::get_if<model::text>(&attribute.value))
            mix(std::hash<std::string_view>{}(*text));
          else if (const auto* number = std::get_if<std::int64_t>(&attribute.value))
            mix(std::hash<std::int64_t>{}(*number));
        }
    }
    return hash;
  }

  std::uint32_t intern(hardware h, std::size_t hash) {
    for (auto [it, end] = hardware_index_.equal_range(hash); it != end; ++it)
      if (hardware_[it->second] == h) return static_cast<std::uint32_t>(it->second);
    hardware_.push_back(std::move(h));
    hardware_index_.emplace(hash, hardware_.size() - 1);
    return static_cast<std::uint32_t>(hardware_.size() - 1);
  }

  // Devices the ledger changed since last seen make their node's kind stale.
  void sync(const alloc::ledger& ledger) {
    if (ledger.generation() != generation_ || ledger.changes_seen() < seen_) {
      generation_ = ledger.generation();
      for (auto& v : versions_) ++v;
    } else {
      for (const auto& id : ledger.changed_devices_since(seen_))
        if (const auto it = node_of_.find(id); it != node_of_.end()) ++versions_[it->second];
    }
    seen_ = ledger.changes_seen();
  }

  bool on_ = false;
  std::vector<hardware> hardware_;  // each distinct one once
  std::unordered_multimap<std::size_t, std::size_t> hardware_index_;
  std::vector<std::uint32_t> hardware_of_;           // per node
  std::vector<std::vector<alloc::device_ref>> devices_;  // per node: its own devices, in hardware order
  std::unordered_map<alloc::device_ref, std::size_t, alloc::device_ref_hash> node_of_;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, kind>> cached_;  // per node: version + 1, revision + 1, kind
  std::vector<std::uint64_t> versions_;  // per node: bumped when the ledger changes one of its devices
  std::unordered_map<std::string, kind> kinds_;
  std::uint64_t generation_ = 0;
  std::size_t seen_ = 0;
  std::uint64_t round_ = 1;
  std::vector<std::uint64_t> seen_in_round_;  // per kind: the last round it was seen in
};

}  // namespace dra::sched
