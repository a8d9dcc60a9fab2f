// Pool gathering: the resource pools whose devices a node can use, newest generation only, with completeness and
// validity decided as upstream decides them.
#pragma once

#include <dra/alloc/features.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace dra::alloc {

struct pool_key {
  std::string_view driver;
  std::string_view pool;
  friend auto operator<=>(const pool_key&, const pool_key&) = default;
};

struct pool {
  pool_key key;
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
  std::vector<const model::resource_slice*> device_slices;  // targeting the node, sorted by name
  std::vector<const model::resource_slice*> other_slices;   // same generation, not targeting the node
  // Counter sets of the pool, from slices that publish them (with their mixins).
  std::vector<flatten::mixin_counter_set_view> counter_sets;

  [[nodiscard]] const flatten::mixin_counter_set_view* counter_set(std::string_view name) const noexcept {
    for (const auto& s : counter_sets)
      if (s.name() == name) return &s;
    return nullptr;
  }
  [[nodiscard]] bool has_binding_conditions() const noexcept {
    for (const auto* slice : device_slices)
      for (const auto& d : slice->devices)
        if (!d.binding_conditions.empty()) return true;
    return false;
  }
};

// All slices by (driver, pool), for the checks that look past the node's own slices.
using slices_by_pool = std::map<pool_key, std::vector<const model::resource_slice*>>;

// "driver/pool", as messages name a pool.
[[nodiscard]] inline std::string pool_name(const pool_key& k) {
  return std::string(k.driver) + "/" + std::string(k.pool);
}

// Numbers a pool's counters set by set, each set's counters in key order, from `first`: the numbers (counter slots)
// by which a device's draws on the pool's counters are kept.
class counter_numbering {
 public:
  counter_numbering(const pool& p, std::uint32_t first) {
    for (const auto& set : p.counter_sets) {
      sets_.push_back({set.name(), first, {}});
      for (const auto e : set.counters()) {
        sets_.back().counters.push_back(e.name);
        ++first;
      }
    }
  }
  // Calls `draw(number, amount)` for each counter the device consumes, in its consumptions' order; counters the
  // pool's sets lack are left out (a pool where any is lacking is invalid).
  template <class Draw>
  void for_each_draw(const flatten::mixin_device_view& device, Draw&& draw) const {
    for (const auto consumption : device.counter_consumptions()) {
      const numbered_set* set = find_set(consumption.counter_set());
      if (set == nullptr) continue;
      for (const auto e : consumption.counters())
        if (auto number = set->number_of(e.name)) draw(*number, *e.value);
    }
  }
  // Why a device's consumption names a counter the pool lacks, as upstream says it; empty when it names none.
  [[nodiscard]] std::string missing_counter(const flatten::mixin_device_view& device) const {
    for (const auto consumption : device.counter_consumptions()) {
      const numbered_set* set = find_set(consumption.counter_set());
      if (set == nullptr) return "counter set " + std::string(consumption.counter_set()) + " not found";
      for (const auto e : consumption.counters())
        if (!set->number_of(e.name))
          return "counter " + std::string(e.name) + " not found in counter set " + std::string(set->name);
    }
    return {};
  }

 private:
  struct numbered_set {
    std::string_view name;
    std::uint32_t first = 0;
    std::vector<std::string_view> counters;  // in key order
    [[nodiscard]] std::optional<std::uint32_t> number_of(std::string_view counter) const {
      const auto it = std::ranges::lower_bound(counters, counter);
      if (it == counters.end() || *it != counter) return std::nullopt;
      return first + static_cast<std::uint32_t>(it - counters.begin());
    }
  };
  [[nodiscard]] const numbered_set* find_set(std::string_view name) const {
    const auto it = std::ranges::find(sets_, name, &numbered_set::name);
    return it == sets_.end() ? nullptr : &*it;
  }
  std::vector<numbered_set> sets_;  // in the pool's order (a pool naming a set twice is invalid)
};

namespace detail {

[[nodiscard]] inline const model::resource_slice_mixins* mixins_of(const model::resource_slice& s) noexcept {
  return s.mixins ? &*s.mixins : nullptr;
}


inline pool build_pool(const pool_key& key, std::vector<const model::resource_slice*> slices, const features& f,
                       std::span<const model::resource_slice* const> all_slices_of_pool) {
  auto by_name = [](const model::resource_slice* a, const model::resource_slice* b) {
    return a->meta.name < b->meta.name;
  };
  std::stable_sort(slices.begin(), slices.end(), by_name);
  pool p;
  p.key = key;
  std::vector<const model::resource_slice*> counter_slices;
  for (const auto* s : slices) {
    if (f.partitionable_devices && !s->shared_counters.empty())
      counter_slices.push_back(s);
    else
      p.device_slices.push_back(s);
  }
  if (slices.size() < all_slices_of_pool.size()) {
    std::unordered_set<std::string_view> targeting;
    for (const auto* s : slices) targeting.insert(s->meta.name);
    for (const auto* s : all_slices_of_pool) {
      if (targeting.contains(s->meta.name)) continue;
      if (f.partitionable_devices && !s->shared_counters.empty())
        counter_slices.push_back(s);
      else
        p.other_slices.push_back(s);
    }
  }
  auto fail = [&](std::string reason) {
    pool bad;
    bad.key = key;
    bad.invalid = true;
    bad.invalid_reason = std::move(reason);
    return bad;
  };
  // Sorted rather than hashed: pools are small, and this runs for every pool of every node tried.
  std::vector<std::pair<std::string_view, std::size_t>> names;  // name, position in the pool
  for (const auto* s : p.device_slices)
    for (const auto& d : s->devices) names.emplace_back(d.name, names.size());
  std::sort(names.begin(), names.end());
  // Upstream names the first device (in slice order) that repeats an earlier name.
  std::optional<std::pair<std::size_t, std::string_view>> first_repeat;
  for (std::size_t i = 1; i < names.size(); ++i)
    if (names[i].first == names[i - 1].first && (!first_repeat || names[i].second < first_repeat->first))
      first_repeat = std::pair{names[i].second, names[i].first};
  if (first_repeat) return fail("duplicate device name " + std::string(first_repeat->second));
  if (!f.partitionable_devices) return p;
  for (const auto* s : counter_slices)
    for (const auto view : flatten::counter_set_views(*s)) {
      if (p.counter_set(view.name()) != nullptr) return fail("duplicate counter set name " + std::string(view.name()));
      p.counter_sets.push_back(view);
    }
  // Every counter a device consumes must name a counter set of the pool and a counter in it.
  const counter_numbering numbering(p, 0);
  for (const auto* group : {&p.device_slices, &p.other_slices})
    for (const auto* slice : *group)
      for (const auto view : flatten::device_views(*slice))
        if (auto reason = numbering.missing_counter(view); !reason.empty()) return fail(std::move(reason));
  return p;
}

}  // namespace detail

// KEP-5945: devices whose node-local operations are skipped go only to nodes whose kubelet declares it can skip them
// (status.declaredFeatures; the gate's spelling is accepted too).
[[nodiscard]] inline bool declares_optional_node_operations(const model::node& node) noexcept {
  return std::ranges::any_of(node.declared_features, [](model::text feature) {
    return feature == "DraOptionalNodeOperations" || feature == "DRAOptionalNodeOperations";
  });
}

namespace detail {
// The pool of a gathered generation's slices (nullopt when a newer generation exists).
[[nodiscard]] inline std::optional<pool> pool_of(const pool_key& key, std::vector<const model::resource_slice*> slices,
                                                 const features& f, const slices_by_pool& all) {
  const std::int64_t generation = slices.front()->pool.generation;
  const std::int64_t expected = slices.front()->pool.resource_slice_count;
  if (static_cast<std::int64_t>(slices.size()) == expected) return build_pool(key, std::move(slices), f, {});
  std::vector<const model::resource_slice*> same_generation;
  if (auto it = all.find(key); it != all.end())
    for (const auto* s : it->second) {
      if (s->pool.generation == generation)
        same_generation.push_back(s);
      else if (s->pool.generation > generation)
        return std::nullopt;
    }
  if (static_cast<std::int64_t>(same_generation.size()) != expected) {
    pool incomplete;
    incomplete.key = key;
    incomplete.incomplete = true;
    return incomplete;
  }
  return build_pool(key, std::move(slices), f, same_generation);
}
}  // namespace detail

// The first half of upstream's GatherPools: which of `for_node` (the slices with this node's name plus those
// without one) the node can use, in their order. The pools gathered depend on nothing else (pools_of_slices), so
// nodes that reach the same slices (network-attached pools every node sees) may share them.
[[nodiscard]] inline result<std::vector<const model::resource_slice*>> relevant_slices(
    std::span<const model::resource_slice* const> for_node, const model::node& node, const features& f) {
  std::vector<const model::resource_slice*> relevant;
  for (const auto* slice : for_node) {
    if (!f.partitionable_devices && (slice->per_device_node_selection || !slice->shared_counters.empty())) continue;
    if (f.optional_node_operations && !slice->skip_node_operations.empty() && !declares_optional_node_operations(node))
      continue;
    bool is_relevant = false;
    model::text node_name = slice->node_name.value_or(model::text{});
    bool all_nodes = slice->all_nodes.value_or(false);
    if (!node_name.empty() || all_nodes || slice->node_selector) {
      auto m = node_matches(node, node_name, all_nodes, slice->node_selector ? &*slice->node_selector : nullptr);
      if (!m)
        return error{"gather pool information: failed to perform node selection for slice " +
                         std::string(slice->meta.name) + ": " + m.error().message,
                     "", "", m.error().code};
      is_relevant = *m;
    } else if (slice->per_device_node_selection.value_or(false)) {
      for (const auto& d : slice->devices) {
        auto m = node_matches(node, d.node_name.value_or(model::text{}), d.all_nodes.value_or(false),
                              d.node_selector ? &*d.node_selector : nullptr);
        if (!m)
          return error{"gather pool information: failed to perform node selection for device " + std::string(d.name) +
                           " in slice " + std::string(slice->meta.name) + ": " + m.error().message,
                       "", "", m.error().code};
        if (*m) {
          is_relevant = true;
          break;
        }
      }
    } else {
      continue;  // some future way of node selection: not usable
    }
    if (is_relevant) relevant.push_back(slice);
  }
  return relevant;
}

// The second half: the pools of the slices a node can use, each of its newest generation among them, ordered by
// (driver, pool) with pools whose devices have binding conditions last, as upstream sorts them.
[[nodiscard]] inline std::vector<pool> pools_of_slices(std::span<const model::resource_slice* const> relevant,
                                                       const features& f, const slices_by_pool& all) {
  std::map<pool_key, std::vector<const model::resource_slice*>> by_pool;
  for (const auto* slice : relevant) {
    auto& list = by_pool[pool_key{slice->driver, slice->pool.name}];
    if (list.empty() || slice->pool.generation > list.front()->pool.generation) {
      list.assign(1, slice);
    } else if (slice->pool.generation == list.front()->pool.generation) {
      list.push_back(slice);
    }
  }
  std::vector<pool> plain, with_binding_conditions;
  for (auto& [key, slices] : by_pool) {
    auto made = detail::pool_of(key, std::move(slices), f, all);
    if (!made) continue;  // a newer generation exists
    (made->has_binding_conditions() ? with_binding_conditions : plain).push_back(std::move(*made));
  }
  for (auto& p : with_binding_conditions) plain.push_back(std::move(p));
  return plain;
}

// Upstream's GatherPools: `for_node` are the slices with this node's name
// plus those without a node name; `all` indexes every slice by pool.
[[nodiscard]] inline result<std::vector<pool>> gather_pools(std::span<const model::resource_slice* const> for_node,
                                                            const model::node& node, const features& f,
                                                            const slices_by_pool& all) {
  auto relevant = relevant_slices(for_node, node, f);
  if (!relevant) return std::move(relevant).error();
  return pools_of_slices(*relevant, f, all);
}

}  // namespace dra::alloc
