// The pieces the inventory concepts are built from: text, quantities, named entries and ranges of them.
#pragma once

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

// The optional members: absent, or of the right shape (a member of the wrong shape is an error, not ignored).
template <class D>
concept optional_capacities = !requires(const D& d) {
  d.capacities();
}
|| requires(const D& d) {
  { d.capacities() } -> named_quantities;
};
template <class D>
concept optional_counters = !requires(const D& d) {
  d.counters();
}
|| requires(const D& d) {
  { d.counters() } -> named_counter_maps;
};
template <class D>
concept optional_shared = !requires(const D& d) {
  d.shared();
}
|| requires(const D& d) {
  { d.shared() } -> std::convertible_to<bool>;
};
template <class P>
concept optional_counter_sets = !requires(const P& p) {
  p.counter_sets();
}
|| requires(const P& p) {
  { p.counter_sets() } -> named_counter_maps;
};
template <class P>
concept optional_generation = !requires(const P& p) {
  p.generation();
}
|| requires(const P& p) {
  { p.generation() } -> std::convertible_to<std::int64_t>;
};
template <class P>
concept optional_complete = !requires(const P& p) {
  p.complete();
}
|| requires(const P& p) {
  { p.complete() } -> std::convertible_to<bool>;
};
template <class T>
concept optional_selectors = !requires(const T& t) {
  t.selectors();
}
|| requires(const T& t) {
  { t.selectors() } -> text_range;
};
template <class R>
concept optional_count = !requires(const R& r) {
  r.count();
}
|| requires(const R& r) {
  { r.count() } -> std::convertible_to<std::int64_t>;
};
template <class R>
concept optional_all = !requires(const R& r) {
  r.all();
}
|| requires(const R& r) {
  { r.all() } -> std::convertible_to<bool>;
};
template <class R>
concept optional_capacity_asks = !requires(const R& r) {
  r.capacity();
}
|| requires(const R& r) {
  { r.capacity() } -> named_quantities;
};
template <class C>
concept optional_namespace = !requires(const C& c) {
  c.namespace_name();
}
|| requires(const C& c) {
  { c.namespace_name() } -> text_like;
};
template <class C>
concept optional_constraints = (
                                   !requires(const C& c) { c.match_attributes(); } ||
                                   requires(const C& c) {
                                     { c.match_attributes() } -> text_range;
                                   }) &&
                               (
                                   !requires(const C& c) { c.distinct_attributes(); } ||
                                   requires(const C& c) {
                                     { c.distinct_attributes() } -> text_range;
                                   });

template <class T>
concept optional_value = !requires(const T& t) {
  t.value();
}
|| requires(const T& t) {
  { t.value() } -> text_like;
};
template <class T>
concept optional_effect = !requires(const T& t) {
  t.effect();
}
|| requires(const T& t) {
  { t.effect() } -> text_like;
};
template <class T>
concept optional_operator = !requires(const T& t) {
  t.op();
}
|| requires(const T& t) {
  { t.op() } -> text_like;
};

// A device taint: key() and effect() ("NoSchedule", "NoExecute" or "None"); optional value().
template <class T>
concept taint_like = requires(const T& t) {
  { t.key() } -> text_like;
  { t.effect() } -> text_like;
}
&&optional_value<T>;

// A request's toleration: key() (empty, with op() "Exists": every taint); optional op() ("Equal" when absent, or
// "Exists"), value() and effect() (empty or absent: every effect).
template <class T>
concept toleration_like = requires(const T& t) {
  { t.key() } -> text_like;
}
&&optional_operator<T>&& optional_value<T>&& optional_effect<T>;

template <class R>
concept taint_range = std::ranges::input_range<R> && taint_like<std::ranges::range_value_t<R>>;
template <class R>
concept toleration_range = std::ranges::input_range<R> && toleration_like<std::ranges::range_value_t<R>>;

template <class D>
concept optional_taints = !requires(const D& d) {
  d.taints();
}
|| requires(const D& d) {
  { d.taints() } -> taint_range;
};
template <class R>
concept optional_tolerations = !requires(const R& r) {
  r.tolerations();
}
|| requires(const R& r) {
  { r.tolerations() } -> toleration_range;
};
template <class R>
concept optional_admin_access = !requires(const R& r) {
  r.admin_access();
}
|| requires(const R& r) {
  { r.admin_access() } -> std::convertible_to<bool>;
};

// Node selectors (core/v1 NodeSelector over node labels): terms, each a range of requirements with key(), op()
// ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt") and, optionally, values().
template <class R>
concept label_requirement = requires(const R& r) {
  { r.key() } -> text_like;
  { r.op() } -> text_like;
}
&&(
    !requires(const R& r) { r.values(); } ||
    requires(const R& r) {
      { r.values() } -> text_range;
    });
template <class T>
concept label_term = std::ranges::input_range<T> && label_requirement<std::ranges::range_value_t<T>>;
template <class S>
concept label_terms = std::ranges::input_range<S> && label_term<std::ranges::range_value_t<S>>;
template <class P>
concept optional_node_selector = !requires(const P& p) {
  p.node_selector();
}
|| requires(const P& p) {
  { p.node_selector() } -> label_terms;
};
// Labels by name: a std::map<std::string, std::string>, pairs, or a type of your own.
template <class R>
concept named_texts = std::ranges::input_range<R> && named<std::ranges::range_value_t<R>> &&
    text_like<std::remove_cvref_t<decltype(std::declval<const std::ranges::range_value_t<R>&>().second)>>;
template <class N>
concept optional_labels = !requires(const N& n) {
  n.labels();
}
|| requires(const N& n) {
  { n.labels() } -> named_texts;
};

template <class T>
using devices_of = std::ranges::range_value_t<decltype(std::declval<const T&>().devices())>;
template <class T>
using requests_of = std::ranges::range_value_t<decltype(std::declval<const T&>().requests())>;

}  // namespace detail
}  // namespace dra::alloc
