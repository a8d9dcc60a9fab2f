// Concepts for looking at a device, counter set or counter consumption with its mixins applied (or without any).
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/resource_slice.hpp>

#include <concepts>
#include <ranges>
#include <string_view>

namespace dra::flatten {

// One key of a flattened map with its winning value. Iterating a view yields
// these, each key once, sorted by key (byte order, as Kubernetes marshals maps).
template <class T>
struct entry {
  std::string_view name;
  const T* value = nullptr;  // never null in an iteration
  friend bool operator==(const entry&, const entry&) = default;
};

namespace detail {
template <class R, class T>
concept range_of_entries =
    std::ranges::forward_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, entry<T>>;
}  // namespace detail

// A counter map seen through its includes: a counter set, a counter set mixin
// chain, or a device's consumption from one counter set.
template <class V>
concept counter_map_view = std::copyable<V> && requires(const V& v, std::string_view key) {
  { v.counter(key) } -> std::same_as<const quantity*>;  // nullptr when absent
  { v.counters() } -> detail::range_of_entries<quantity>;
};

// A CounterSet with its CounterSetMixins applied.
template <class V>
concept counter_set_view = counter_map_view<V> && requires(const V& v) {
  { v.name() } -> std::same_as<std::string_view>;
};

// A DeviceCounterConsumption with its DeviceCounterConsumptionMixins applied.
template <class V>
concept counter_consumption_view = counter_map_view<V> && requires(const V& v) {
  { v.counter_set() } -> std::same_as<std::string_view>;
};

// What the allocator and the CEL `device` binding need of a device: its own
// fields (base()) and the maps that mixins may extend, looked up and
// iterated with mixins applied. Satisfied by a plain device and by a
// mixin-backed one alike.
template <class V>
concept device_view = std::copyable<V> && requires(const V& v, std::string_view key) {
  { v.name() } -> std::same_as<std::string_view>;
  { v.base() } -> std::same_as<const model::device&>;
  { v.attribute(key) } -> std::same_as<const model::device_attribute*>;
  { v.capacity(key) } -> std::same_as<const model::device_capacity*>;
  { v.attributes() } -> detail::range_of_entries<model::device_attribute>;
  { v.capacities() } -> detail::range_of_entries<model::device_capacity>;
  { v.counter_consumptions() } -> std::ranges::forward_range;
  requires counter_consumption_view<std::ranges::range_value_t<decltype(v.counter_consumptions())>>;
  { v.attribute_count() } -> std::convertible_to<std::size_t>;  // keys after flattening
  { v.capacity_count() } -> std::convertible_to<std::size_t>;
};

}  // namespace dra::flatten
