// What the allocator's template parameters must provide: slice sources, device views, selector engines, policies.
#pragma once

#include <dra/core/result.hpp>
#include <dra/flatten/concepts.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <ranges>
#include <span>
#include <string_view>
#include <tuple>

namespace dra::alloc {

// A device as the allocator sees it (mixins applied): the flatten room's concept.
template <class V>
concept device_view = flatten::device_view<V>;

// Where the allocator takes ResourceSlices from: any forward range of slices
// (the allocator keeps pointers, so the slices must outlive it).
template <class S>
concept slice_source =
    std::ranges::forward_range<S> && std::same_as<std::ranges::range_value_t<S>, model::resource_slice>;

// Compiles a CEL selector once and evaluates it against a device (with the
// driver name of its slice). The allocator compiles each distinct
// expression once per allocator and caches every (selector, device) result.
template <class E>
concept selector_engine = std::movable<typename E::program> &&
    requires(const E& engine, std::string_view expression, const typename E::program& program,
             const flatten::mixin_device_view& device, std::string_view driver) {
  { engine.compile(expression) } -> std::same_as<result<typename E::program>>;
  { engine.matches(program, device, driver) } -> std::same_as<result<bool>>;
};

// What a policy may see of one candidate device when it orders them.
struct candidate_facts {
  std::uint32_t pool_index = 0;  // pools in upstream's order (driver, pool name; binding-condition pools last)
  std::uint32_t slice_index = 0;
  std::uint32_t device_index = 0;
  bool shared = false;           // allowMultipleAllocations (with ConsumableCapacity)
  bool has_allocations = false;  // already-allocated claims share it (shared devices only)
  flatten::mixin_device_view device;
  bool counters_in_use = false;  // a counter it draws from is partly consumed by allocated devices
  double counter_share = 0;      // the sum, over the counters it draws, of its share of each counter
};

// A policy decides the order in which the search tries candidate devices
// (the search itself never changes): `order` holds candidate indices in
// upstream's visiting order on entry and may be permuted.
template <class P>
concept allocation_policy = std::default_initializable<P> &&
    requires(const P& policy, std::span<std::uint32_t> order, std::span<const candidate_facts> facts) {
  { policy.order_candidates(order, facts) } -> std::same_as<void>;
};

// Upstream's first fit: pools by (driver, pool), slices by name, devices in slice order.
struct first_fit {
  void order_candidates(std::span<std::uint32_t>, std::span<const candidate_facts>) const noexcept {}
};

// Packs shared devices: among shared devices, those that already carry
// allocations come first, so that fresh ones stay whole for later claims.
// Everything else keeps upstream's order.
struct shared_capacity {
  void order_candidates(std::span<std::uint32_t> order, std::span<const candidate_facts> facts) const {
    auto rank = [&](std::uint32_t i) { return facts[i].shared && facts[i].has_allocations ? 0 : 1; };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return rank(a) < rank(b); });
  }
};

// Best fit: fill what is already in use before touching fresh capacity, and take the smallest
// piece that matches. Shared devices with allocations come first (as shared_capacity), then
// devices whose counter sets are already partly consumed (a MIG slice on a GPU that already has
// partitions before one on an idle GPU), then devices drawing the smallest share of their counter
// sets; ties keep upstream's order. Results stay valid allocations (the search is the same);
// they differ from upstream's where upstream would fragment.
struct sorted {
  void order_candidates(std::span<std::uint32_t> order, std::span<const candidate_facts> facts) const {
    auto key = [&](std::uint32_t i) {
      const candidate_facts& f = facts[i];
      return std::tuple(f.shared && f.has_allocations ? 0 : 1, f.counters_in_use ? 0 : 1, f.counter_share);
    };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  }
};

static_assert(allocation_policy<first_fit>);
static_assert(allocation_policy<shared_capacity>);
static_assert(allocation_policy<sorted>);

}  // namespace dra::alloc
