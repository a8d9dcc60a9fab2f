// What a scheduler's own inventory, device class and claim types must provide to be allocated without model:: objects.
//
// Each concept asks for a few member functions, read through inventory_traits<T> (alloc/inventory_traits.hpp: T's
// members, or the static functions of a specialisation for a type you cannot edit). Optional members (capacities(),
// counters(), ...) may be left out, and when present must have the right shape; one left out but present under a
// near-miss name (a device's capacity() for capacities(), consumes_counters() for counters()) is rejected rather
// than ignored, by a concept named after the real member (detail::no_near_miss_of_capacities; the rule and the
// names are in alloc/detail/inventory_near_misses.hpp). Names, selectors and quantities may be anything convertible
// to std::string_view (quantities also dra::quantity); named entries are anything with `first` and `second`
// (std::pair, std::map). alloc::inventory_allocator reads them, copying what it keeps.
#pragma once

#include <dra/alloc/detail/inventory_parts.hpp>
#include <dra/alloc/inventory_traits.hpp>

#include <concepts>
#include <ranges>

namespace dra::alloc {

// A device: name() and attributes() (qualified names such as "gpu.example.com/model", or short ones the driver's
// domain qualifies, as in a ResourceSlice). Optional: capacities() (name -> quantity), counters() (counter set ->
// counter -> quantity drawn, KEP-4815), shared() (allowMultipleAllocations, KEP-5075) and taints() (each with
// key(), effect() and optionally value(), KEP-5055).
template <class D>
concept inventory_device = requires(const D& d) {
  { inventory_traits<D>::name(d) } -> detail::text_like;
  { inventory_traits<D>::attributes(d) } -> detail::named_attributes;
}
&&detail::optional_capacities<D>&& detail::optional_counters<D>&& detail::optional_shared<D>&&
    detail::optional_taints<D>;

// A pool: one driver's devices for one node (node() empty: for every node). Optional: counter_sets()
// (name -> counter -> quantity), generation(), complete() (false while a driver is still publishing the pool:
// as upstream's allocator does, none of its devices is given, and a request for all devices is an error) and
// node_selector() (terms ORed, each a range of label requirements ANDed, as a slice's spec.nodeSelector: the pool
// serves the nodes whose labels match; node() must then be empty).
template <class P>
concept inventory_pool = requires(const P& p) {
  { inventory_traits<P>::driver(p) } -> detail::text_like;
  { inventory_traits<P>::name(p) } -> detail::text_like;
  { inventory_traits<P>::node(p) } -> detail::text_like;
  { inventory_traits<P>::devices(p) } -> std::ranges::input_range;
}
&&inventory_device<detail::devices_of<P>>&& detail::optional_counter_sets<P>&& detail::optional_generation<P>&&
    detail::optional_complete<P>&& detail::optional_node_selector<P>;

// Everything a cluster offers: a range of pools.
template <class R>
concept inventory = std::ranges::input_range<R> && inventory_pool<std::ranges::range_value_t<R>>;

// A node to allocate on: name() and, optionally, labels() (name -> value), which pools' node selectors match.
template <class N>
concept inventory_node = requires(const N& n) {
  { inventory_traits<N>::name(n) } -> detail::text_like;
}
&&detail::optional_labels<N>;

// A device class: name() and CEL selectors().
template <class C>
concept inventory_device_class = requires(const C& c) {
  { inventory_traits<C>::name(c) } -> detail::text_like;
  { inventory_traits<C>::selectors(c) } -> detail::text_range;
};

template <class R>
concept inventory_device_classes = std::ranges::input_range<R> && inventory_device_class<std::ranges::range_value_t<R>>;

// A subrequest of a request's prioritized alternatives (firstAvailable, KEP-4816): name() and device_class().
// Optional: CEL selectors(), count() (1 when absent), all() (every matching device), capacity() (name -> quantity
// asked of a shared device) and tolerations() (each with key() and optionally op(), value(), effect()).
template <class R>
concept inventory_subrequest = requires(const R& r) {
  { inventory_traits<R>::name(r) } -> detail::text_like;
  { inventory_traits<R>::device_class(r) } -> detail::text_like;
}
&&detail::optional_selectors<R>&& detail::optional_count<R>&& detail::optional_all<R>&&
    detail::optional_capacity_asks<R>&& detail::optional_tolerations<R>;

template <class R>
concept inventory_subrequests = std::ranges::input_range<R> && inventory_subrequest<std::ranges::range_value_t<R>>;

// A request: what a subrequest has, and optionally admin_access() (devices in use may be given, for monitoring) and
// alternatives() (subrequests; when there are any, the request is one of them, the first that fits, and its own
// class, selectors, count, capacity and tolerations are not read).
template <class R>
concept inventory_request = inventory_subrequest<R> && detail::optional_admin_access<R> &&
    detail::no_near_miss_of_alternatives<R> &&(
        !requires(const R& r) { inventory_traits<R>::alternatives(r); } ||
        requires(const R& r) {
          { inventory_traits<R>::alternatives(r) } -> inventory_subrequests;
        });

// A claim: name() and requests(). Optional: namespace_name(), match_attributes() and distinct_attributes()
// (constraints over all of its requests).
template <class C>
concept inventory_claim = requires(const C& c) {
  { inventory_traits<C>::name(c) } -> detail::text_like;
  { inventory_traits<C>::requests(c) } -> std::ranges::input_range;
}
&&inventory_request<detail::requests_of<C>>&& detail::optional_namespace<C>&& detail::optional_constraints<C>;

template <class R>
concept inventory_claims = std::ranges::input_range<R> && inventory_claim<std::ranges::range_value_t<R>>;

}  // namespace dra::alloc
