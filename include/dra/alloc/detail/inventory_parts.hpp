// The pieces the inventory concepts are built from: text, quantities, named entries and ranges of them.
#pragma once

#include <dra/alloc/detail/inventory_near_misses.hpp>
#include <dra/alloc/inventory_traits.hpp>
#include <dra/core/quantity.hpp>

#include <concepts>
#include <cstdint>
#include <ranges>
#include <span>
#include <string_view>
#include <variant>

namespace dra::alloc {

// A version attribute's text ("550.54.15"), told apart from a string attribute; parsed when the inventory is read.
struct version_text {
  std::string_view text;
};

// A device attribute's value as an inventory reports it: one value, or a list of them (ListTypeAttributes; a
// std::vector converts to its span, a std::vector<bool> does not: give a bool array or std::array<bool, N>).
using attribute_value_view =
    std::variant<std::int64_t, bool, std::string_view, version_text, std::span<const std::int64_t>,
                 std::span<const bool>, std::span<const std::string_view>, std::span<const version_text>>;

namespace detail {

template <class T>
concept text_like = std::convertible_to<const T&, std::string_view>;

// Text such as "80Gi" (parsed when read: malformed text is an error) or a dra::quantity.
template <class T>
concept quantity_like = text_like<T> || std::convertible_to<const T&, quantity>;

template <class R>
concept text_range = std::ranges::input_range<R> && text_like<std::ranges::range_value_t<R>>;

// Entries with a name in `first` and a value in `second`: std::pair, a std::map's elements, or a type of your own.
template <class E>
concept named = requires(const E& e) {
  { e.first } -> text_like;
  e.second;
};

template <class R>
concept named_attributes = std::ranges::input_range<R> && named<std::ranges::range_value_t<R>> &&
    std::convertible_to<decltype(std::declval<const std::ranges::range_value_t<R>&>().second), attribute_value_view>;

template <class R>
concept named_quantities = std::ranges::input_range<R> && named<std::ranges::range_value_t<R>> &&
    quantity_like<std::remove_cvref_t<decltype(std::declval<const std::ranges::range_value_t<R>&>().second)>>;

// Counter maps by name: a counter set's counters, or what a device draws from one counter set.
template <class R>
concept named_counter_maps = std::ranges::input_range<R> && named<std::ranges::range_value_t<R>> &&
    named_quantities<std::remove_cvref_t<decltype(std::declval<const std::ranges::range_value_t<R>&>().second)>>;

// The optional members, read through inventory_traits: absent, or of the right shape (a member of the wrong shape is
// an error, not ignored); absent, they may not have a near miss (detail/inventory_near_misses.hpp) instead.
template <class D>
concept optional_capacities = no_near_miss_of_capacities<D> &&(
    !requires(const D& d) { inventory_traits<D>::capacities(d); } ||
    requires(const D& d) {
      { inventory_traits<D>::capacities(d) } -> named_quantities;
    });
template <class D>
concept optional_counters = no_near_miss_of_counters<D> &&(
    !requires(const D& d) { inventory_traits<D>::counters(d); } ||
    requires(const D& d) {
      { inventory_traits<D>::counters(d) } -> named_counter_maps;
    });
template <class D>
concept optional_shared = no_near_miss_of_shared<D> &&(
    !requires(const D& d) { inventory_traits<D>::shared(d); } ||
    requires(const D& d) {
      { inventory_traits<D>::shared(d) } -> std::convertible_to<bool>;
    });
template <class P>
concept optional_counter_sets = no_near_miss_of_counter_sets<P> &&(
    !requires(const P& p) { inventory_traits<P>::counter_sets(p); } ||
    requires(const P& p) {
      { inventory_traits<P>::counter_sets(p) } -> named_counter_maps;
    });
template <class P>
concept optional_generation = !requires(const P& p) {
  inventory_traits<P>::generation(p);
}
|| requires(const P& p) {
  { inventory_traits<P>::generation(p) } -> std::convertible_to<std::int64_t>;
};
template <class P>
concept optional_complete = !requires(const P& p) {
  inventory_traits<P>::complete(p);
}
|| requires(const P& p) {
  { inventory_traits<P>::complete(p) } -> std::convertible_to<bool>;
};
template <class T>
concept optional_selectors = no_near_miss_of_selectors<T> &&(
    !requires(const T& t) { inventory_traits<T>::selectors(t); } ||
    requires(const T& t) {
      { inventory_traits<T>::selectors(t) } -> text_range;
    });
template <class R>
concept optional_count = !requires(const R& r) {
  inventory_traits<R>::count(r);
}
|| requires(const R& r) {
  { inventory_traits<R>::count(r) } -> std::convertible_to<std::int64_t>;
};
template <class R>
concept optional_all = no_near_miss_of_all<R> &&(
    !requires(const R& r) { inventory_traits<R>::all(r); } ||
    requires(const R& r) {
      { inventory_traits<R>::all(r) } -> std::convertible_to<bool>;
    });
template <class R>
concept optional_capacity_asks = no_near_miss_of_capacity<R> &&(
    !requires(const R& r) { inventory_traits<R>::capacity(r); } ||
    requires(const R& r) {
      { inventory_traits<R>::capacity(r) } -> named_quantities;
    });
template <class C>
concept optional_namespace = no_near_miss_of_namespace_name<C> &&(
    !requires(const C& c) { inventory_traits<C>::namespace_name(c); } ||
    requires(const C& c) {
      { inventory_traits<C>::namespace_name(c) } -> text_like;
    });
template <class C>
concept optional_constraints = no_near_miss_of_match_attributes<C> && no_near_miss_of_distinct_attributes<C> &&
    ((
         !requires(const C& c) { inventory_traits<C>::match_attributes(c); } ||
         requires(const C& c) {
           { inventory_traits<C>::match_attributes(c) } -> text_range;
         }) &&
     (
         !requires(const C& c) { inventory_traits<C>::distinct_attributes(c); } ||
         requires(const C& c) {
           { inventory_traits<C>::distinct_attributes(c) } -> text_range;
         }));

template <class T>
concept optional_value = !requires(const T& t) {
  inventory_traits<T>::value(t);
}
|| requires(const T& t) {
  { inventory_traits<T>::value(t) } -> text_like;
};
template <class T>
concept optional_effect = !requires(const T& t) {
  inventory_traits<T>::effect(t);
}
|| requires(const T& t) {
  { inventory_traits<T>::effect(t) } -> text_like;
};
template <class T>
concept optional_operator = no_near_miss_of_op<T> &&(
    !requires(const T& t) { inventory_traits<T>::op(t); } ||
    requires(const T& t) {
      { inventory_traits<T>::op(t) } -> text_like;
    });

// A device taint: key() and effect() ("NoSchedule", "NoExecute" or "None"); optional value().
template <class T>
concept taint_like = requires(const T& t) {
  { inventory_traits<T>::key(t) } -> text_like;
  { inventory_traits<T>::effect(t) } -> text_like;
}
&&optional_value<T>;

// A request's toleration: key() (empty, with op() "Exists": every taint); optional op() ("Equal" when absent, or
// "Exists"), value() and effect() (empty or absent: every effect).
template <class T>
concept toleration_like = requires(const T& t) {
  { inventory_traits<T>::key(t) } -> text_like;
}
&&optional_operator<T>&& optional_value<T>&& optional_effect<T>;

template <class R>
concept taint_range = std::ranges::input_range<R> && taint_like<std::ranges::range_value_t<R>>;
template <class R>
concept toleration_range = std::ranges::input_range<R> && toleration_like<std::ranges::range_value_t<R>>;

template <class D>
concept optional_taints = no_near_miss_of_taints<D> &&(
    !requires(const D& d) { inventory_traits<D>::taints(d); } ||
    requires(const D& d) {
      { inventory_traits<D>::taints(d) } -> taint_range;
    });
template <class R>
concept optional_tolerations = no_near_miss_of_tolerations<R> &&(
    !requires(const R& r) { inventory_traits<R>::tolerations(r); } ||
    requires(const R& r) {
      { inventory_traits<R>::tolerations(r) } -> toleration_range;
    });
template <class R>
concept optional_admin_access = no_near_miss_of_admin_access<R> &&(
    !requires(const R& r) { inventory_traits<R>::admin_access(r); } ||
    requires(const R& r) {
      { inventory_traits<R>::admin_access(r) } -> std::convertible_to<bool>;
    });

// Node selectors (core/v1 NodeSelector over node labels): terms, each a range of requirements with key(), op()
// ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt") and, optionally, values().
template <class R>
concept label_requirement = requires(const R& r) {
  { inventory_traits<R>::key(r) } -> text_like;
  { inventory_traits<R>::op(r) } -> text_like;
}
&&no_near_miss_of_values<R> && (
                                   !requires(const R& r) { inventory_traits<R>::values(r); } ||
                                   requires(const R& r) {
                                     { inventory_traits<R>::values(r) } -> text_range;
                                   });
template <class T>
concept label_term = std::ranges::input_range<T> && label_requirement<std::ranges::range_value_t<T>>;
template <class S>
concept label_terms = std::ranges::input_range<S> && label_term<std::ranges::range_value_t<S>>;
template <class P>
concept optional_node_selector = no_near_miss_of_node_selector<P> &&(
    !requires(const P& p) { inventory_traits<P>::node_selector(p); } ||
    requires(const P& p) {
      { inventory_traits<P>::node_selector(p) } -> label_terms;
    });
// Labels by name: a std::map<std::string, std::string>, pairs, or a type of your own.
template <class R>
concept named_texts = std::ranges::input_range<R> && named<std::ranges::range_value_t<R>> &&
    text_like<std::remove_cvref_t<decltype(std::declval<const std::ranges::range_value_t<R>&>().second)>>;
template <class N>
concept optional_labels = no_near_miss_of_labels<N> &&(
    !requires(const N& n) { inventory_traits<N>::labels(n); } ||
    requires(const N& n) {
      { inventory_traits<N>::labels(n) } -> named_texts;
    });

template <class T>
using devices_of = std::ranges::range_value_t<decltype(inventory_traits<T>::devices(std::declval<const T&>()))>;
template <class T>
using requests_of = std::ranges::range_value_t<decltype(inventory_traits<T>::requests(std::declval<const T&>()))>;

}  // namespace detail
}  // namespace dra::alloc
