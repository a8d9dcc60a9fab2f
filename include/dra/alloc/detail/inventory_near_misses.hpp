// Near misses of the inventory concepts' optional members: a device with capacity() but no capacities() would have
// its capacities silently ignored, so the concepts reject it, in a concept named after the member they read
// (no_near_miss_of_capacities), which is what the compiler's message shows.
//
// A near miss is one step from the real name, and counts only while the real member is absent:
//   - the other grammatical number of a member that returns a range: capacity for capacities, taint, toleration,
//     selector, label, counter, counter_set, alternative, match_attribute, distinct_attribute, node_selectors, and
//     value for a node selector requirement's values;
//   - the Kubernetes API field the member stands for, in snake_case and camelCase, as a user mirroring the API writes
//     it: consumes_counters for counters, allow_multiple_allocations for shared, shared_counters for counter_sets,
//     allocation_mode for all, first_available and subrequests for alternatives; namespace_ for namespace_name and
//     operator_ for a toleration's op (the API's names being keywords, with the usual trailing underscore);
//   - the camelCase of a snake_case name: counterSets, nodeSelector, adminAccess, namespaceName, matchAttributes,
//     distinctAttributes.
// Names are per kind: a request's capacity() is its real member, a device's capacity() a near miss (and a request's
// capacities() one). Members are probed on T when inventory_traits<T> reads T's members (the primary template, or a
// specialisation derived from inventory_member_traits<T>), otherwise among the specialisation's static functions.
#pragma once

#include <dra/alloc/inventory_traits.hpp>

#include <concepts>
#include <type_traits>

namespace dra::alloc::detail {

template <class T>
concept reads_members = std::derived_from<inventory_traits<T>, inventory_member_traits<T>>;

// T's members under every near-miss name, as static functions (declared only: probed, never called), beside the
// real names inventory_member_traits forwards.
template <class T>
struct member_near_misses : inventory_member_traits<T> {
  static void counter(const T&) requires requires(const T& t) { t.counter(); };
  static void consumes_counters(const T&) requires requires(const T& t) { t.consumes_counters(); };
  static void consumesCounters(const T&) requires requires(const T& t) { t.consumesCounters(); };
  static void allow_multiple_allocations(const T&) requires requires(const T& t) { t.allow_multiple_allocations(); };
  static void allowMultipleAllocations(const T&) requires requires(const T& t) { t.allowMultipleAllocations(); };
  static void taint(const T&) requires requires(const T& t) { t.taint(); };
  static void counter_set(const T&) requires requires(const T& t) { t.counter_set(); };
  static void counterSets(const T&) requires requires(const T& t) { t.counterSets(); };
  static void shared_counters(const T&) requires requires(const T& t) { t.shared_counters(); };
  static void sharedCounters(const T&) requires requires(const T& t) { t.sharedCounters(); };
  static void node_selectors(const T&) requires requires(const T& t) { t.node_selectors(); };
  static void nodeSelector(const T&) requires requires(const T& t) { t.nodeSelector(); };
  static void label(const T&) requires requires(const T& t) { t.label(); };
  static void selector(const T&) requires requires(const T& t) { t.selector(); };
  static void allocation_mode(const T&) requires requires(const T& t) { t.allocation_mode(); };
  static void allocationMode(const T&) requires requires(const T& t) { t.allocationMode(); };
  static void toleration(const T&) requires requires(const T& t) { t.toleration(); };
  static void adminAccess(const T&) requires requires(const T& t) { t.adminAccess(); };
  static void alternative(const T&) requires requires(const T& t) { t.alternative(); };
  static void first_available(const T&) requires requires(const T& t) { t.first_available(); };
  static void firstAvailable(const T&) requires requires(const T& t) { t.firstAvailable(); };
  static void subrequests(const T&) requires requires(const T& t) { t.subrequests(); };
  static void namespace_(const T&) requires requires(const T& t) { t.namespace_(); };
  static void namespaceName(const T&) requires requires(const T& t) { t.namespaceName(); };
  static void match_attribute(const T&) requires requires(const T& t) { t.match_attribute(); };
  static void matchAttributes(const T&) requires requires(const T& t) { t.matchAttributes(); };
  static void distinct_attribute(const T&) requires requires(const T& t) { t.distinct_attribute(); };
  static void distinctAttributes(const T&) requires requires(const T& t) { t.distinctAttributes(); };
  static void operator_(const T&) requires requires(const T& t) { t.operator_(); };
};

// Where near misses are looked for: T's members, or the static functions of T's traits.
template <class T>
using near_miss_probe = std::conditional_t<reads_members<T>, member_near_misses<T>, inventory_traits<T>>;

// Devices.
template <class T>
concept no_near_miss_of_capacities = requires(const T& t) {
  inventory_traits<T>::capacities(t);
}
|| !requires(const T& t) { near_miss_probe<T>::capacity(t); };
template <class T>
concept no_near_miss_of_counters = requires(const T& t) {
  inventory_traits<T>::counters(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::counter(t); } ||
       requires(const T& t) { near_miss_probe<T>::consumes_counters(t); } ||
       requires(const T& t) { near_miss_probe<T>::consumesCounters(t); });
template <class T>
concept no_near_miss_of_shared = requires(const T& t) {
  inventory_traits<T>::shared(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::allow_multiple_allocations(t); } ||
       requires(const T& t) { near_miss_probe<T>::allowMultipleAllocations(t); });
template <class T>
concept no_near_miss_of_taints = requires(const T& t) {
  inventory_traits<T>::taints(t);
}
|| !requires(const T& t) { near_miss_probe<T>::taint(t); };

// Pools and nodes.
template <class T>
concept no_near_miss_of_counter_sets = requires(const T& t) {
  inventory_traits<T>::counter_sets(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::counter_set(t); } ||
       requires(const T& t) { near_miss_probe<T>::counterSets(t); } ||
       requires(const T& t) { near_miss_probe<T>::shared_counters(t); } ||
       requires(const T& t) { near_miss_probe<T>::sharedCounters(t); });
template <class T>
concept no_near_miss_of_node_selector = requires(const T& t) {
  inventory_traits<T>::node_selector(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::node_selectors(t); } ||
       requires(const T& t) { near_miss_probe<T>::nodeSelector(t); });
template <class T>
concept no_near_miss_of_values = requires(const T& t) {
  inventory_traits<T>::values(t);
}
|| !requires(const T& t) { near_miss_probe<T>::value(t); };
template <class T>
concept no_near_miss_of_labels = requires(const T& t) {
  inventory_traits<T>::labels(t);
}
|| !requires(const T& t) { near_miss_probe<T>::label(t); };

// Requests and claims.
template <class T>
concept no_near_miss_of_selectors = requires(const T& t) {
  inventory_traits<T>::selectors(t);
}
|| !requires(const T& t) { near_miss_probe<T>::selector(t); };
template <class T>
concept no_near_miss_of_all = requires(const T& t) {
  inventory_traits<T>::all(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::allocation_mode(t); } ||
       requires(const T& t) { near_miss_probe<T>::allocationMode(t); });
template <class T>
concept no_near_miss_of_capacity = requires(const T& t) {
  inventory_traits<T>::capacity(t);
}
|| !requires(const T& t) { near_miss_probe<T>::capacities(t); };
template <class T>
concept no_near_miss_of_tolerations = requires(const T& t) {
  inventory_traits<T>::tolerations(t);
}
|| !requires(const T& t) { near_miss_probe<T>::toleration(t); };
template <class T>
concept no_near_miss_of_op = requires(const T& t) {
  inventory_traits<T>::op(t);
}
|| !requires(const T& t) { near_miss_probe<T>::operator_(t); };
template <class T>
concept no_near_miss_of_admin_access = requires(const T& t) {
  inventory_traits<T>::admin_access(t);
}
|| !requires(const T& t) { near_miss_probe<T>::adminAccess(t); };
template <class T>
concept no_near_miss_of_alternatives = requires(const T& t) {
  inventory_traits<T>::alternatives(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::alternative(t); } ||
       requires(const T& t) { near_miss_probe<T>::first_available(t); } ||
       requires(const T& t) { near_miss_probe<T>::firstAvailable(t); } ||
       requires(const T& t) { near_miss_probe<T>::subrequests(t); });
template <class T>
concept no_near_miss_of_namespace_name = requires(const T& t) {
  inventory_traits<T>::namespace_name(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::namespace_(t); } ||
       requires(const T& t) { near_miss_probe<T>::namespaceName(t); });
template <class T>
concept no_near_miss_of_match_attributes = requires(const T& t) {
  inventory_traits<T>::match_attributes(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::match_attribute(t); } ||
       requires(const T& t) { near_miss_probe<T>::matchAttributes(t); });
template <class T>
concept no_near_miss_of_distinct_attributes = requires(const T& t) {
  inventory_traits<T>::distinct_attributes(t);
}
|| !(
       requires(const T& t) { near_miss_probe<T>::distinct_attribute(t); } ||
       requires(const T& t) { near_miss_probe<T>::distinctAttributes(t); });

}  // namespace dra::alloc::detail
