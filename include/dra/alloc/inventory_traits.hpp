// How the inventory concepts and alloc::inventory_allocator read a user's type: through inventory_traits<T>, which
// by default forwards to T's member functions, and which a user specialises for a type they cannot edit.
//
//   template <>
//   struct dra::alloc::inventory_traits<vendor::accelerator> {
//     static std::string_view name(const vendor::accelerator& a) { return a.serial; }
//     static const auto& attributes(const vendor::accelerator& a) { return a.properties; }
//   };
//
// A specialisation offers, as static functions taking `const T&`, the members its kind needs (the names the
// concepts of alloc/inventory_concepts.hpp use); an optional one left out is absent, as a missing member is, and one
// under a near-miss name is rejected, as such a member is. Deriving it from inventory_member_traits<T> forwards every
// member it does not redefine, for a type whose members are right but one (a `capacity()` that is the device's
// capacities()).
#pragma once

namespace dra::alloc {

// Forwards each function the concepts name to the member function of T of that name, when T has one.
template <class T>
struct inventory_member_traits {
  // Devices, pools, nodes, classes, requests and claims.
  static decltype(auto) name(const T& t) requires requires { t.name(); }
  { return t.name(); }
  static decltype(auto) attributes(const T& t) requires requires { t.attributes(); }
  { return t.attributes(); }
  static decltype(auto) capacities(const T& t) requires requires { t.capacities(); }
  { return t.capacities(); }
  static decltype(auto) counters(const T& t) requires requires { t.counters(); }
  { return t.counters(); }
  static decltype(auto) shared(const T& t) requires requires { t.shared(); }
  { return t.shared(); }
  static decltype(auto) taints(const T& t) requires requires { t.taints(); }
  { return t.taints(); }
  static decltype(auto) driver(const T& t) requires requires { t.driver(); }
  { return t.driver(); }
  static decltype(auto) node(const T& t) requires requires { t.node(); }
  { return t.node(); }
  static decltype(auto) devices(const T& t) requires requires { t.devices(); }
  { return t.devices(); }
  static decltype(auto) counter_sets(const T& t) requires requires { t.counter_sets(); }
  { return t.counter_sets(); }
  static decltype(auto) generation(const T& t) requires requires { t.generation(); }
  { return t.generation(); }
  static decltype(auto) complete(const T& t) requires requires { t.complete(); }
  { return t.complete(); }
  static decltype(auto) node_selector(const T& t) requires requires { t.node_selector(); }
  { return t.node_selector(); }
  static decltype(auto) labels(const T& t) requires requires { t.labels(); }
  { return t.labels(); }
  static decltype(auto) selectors(const T& t) requires requires { t.selectors(); }
  { return t.selectors(); }
  static decltype(auto) device_class(const T& t) requires requires { t.device_class(); }
  { return t.device_class(); }
  static decltype(auto) count(const T& t) requires requires { t.count(); }
  { return t.count(); }
  static decltype(auto) all(const T& t) requires requires { t.all(); }
  { return t.all(); }
  static decltype(auto) capacity(const T& t) requires requires { t.capacity(); }
  { return t.capacity(); }
  static decltype(auto) tolerations(const T& t) requires requires { t.tolerations(); }
  { return t.tolerations(); }
  static decltype(auto) admin_access(const T& t) requires requires { t.admin_access(); }
  { return t.admin_access(); }
  static decltype(auto) alternatives(const T& t) requires requires { t.alternatives(); }
  { return t.alternatives(); }
  static decltype(auto) requests(const T& t) requires requires { t.requests(); }
  { return t.requests(); }
  static decltype(auto) namespace_name(const T& t) requires requires { t.namespace_name(); }
  { return t.namespace_name(); }
  static decltype(auto) match_attributes(const T& t) requires requires { t.match_attributes(); }
  { return t.match_attributes(); }
  static decltype(auto) distinct_attributes(const T& t) requires requires { t.distinct_attributes(); }
  { return t.distinct_attributes(); }
  // Taints, tolerations and node selector requirements.
  static decltype(auto) key(const T& t) requires requires { t.key(); }
  { return t.key(); }
  static decltype(auto) value(const T& t) requires requires { t.value(); }
  { return t.value(); }
  static decltype(auto) effect(const T& t) requires requires { t.effect(); }
  { return t.effect(); }
  static decltype(auto) op(const T& t) requires requires { t.op(); }
  { return t.op(); }
  static decltype(auto) values(const T& t) requires requires { t.values(); }
  { return t.values(); }
};

// What the allocator reads of a T. Specialise it (in namespace dra::alloc) for a type whose members are not the
// ones the concepts name; named entries (attributes, capacities, counters, labels) still need `first` and `second`.
template <class T>
struct inventory_traits : inventory_member_traits<T> {};

}  // namespace dra::alloc
