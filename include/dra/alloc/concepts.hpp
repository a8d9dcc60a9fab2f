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
#include <type_traits>
#include <utility>
#include <variant>

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

// A selector engine that also evaluates derived attributes (KEP-6080): compiles an expression whose result is a
// value rather than a verdict, and evaluates it for a device to something that holds that value as a device
// attribute. The allocator works with engines without it as long as no request defines a derived attribute.
template <class E>
concept derived_attribute_engine = selector_engine<E> &&
    requires(const E& engine, std::string_view expression, const typename E::program& program,
             const flatten::mixin_device_view& device, std::string_view driver) {
  { engine.compile_derived(expression) } -> std::same_as<result<typename E::program>>;
  { engine.derive(program, device, driver).value().attribute() } -> std::same_as<const model::device_attribute&>;
};

namespace detail {
// What the allocator keeps of one derived attribute evaluated for one device: the engine's value type, or nothing
// for engines that cannot evaluate derived attributes.
template <class E>
struct derived_storage {
  using type = std::monostate;
};
template <derived_attribute_engine E>
struct derived_storage<E> {
  using type =
      std::remove_cvref_t<decltype(std::declval<const E&>()
                                       .derive(std::declval<const typename E::program&>(),
                                               std::declval<const flatten::mixin_device_view&>(), std::string_view{})
                                       .value())>;
};
}  // namespace detail

// What a policy may see of one candidate device when it orders them: the state an allocate() call starts from (not
// per step of the search). Each node keeps them between calls and works out again only the pools the ledger changed.
struct candidate_facts {
  std::uint32_t pool_index = 0;    // pools in upstream's order (driver, pool name; binding-condition pools last)
  std::uint32_t slice_index = 0;   // the device's slice among the pool's slices for the node (sorted by name)
  std::uint32_t device_index = 0;  // the device's place in its slice
  bool shared = false;             // allowMultipleAllocations (with ConsumableCapacity)
  bool has_allocations = false;    // already-allocated claims share it (shared devices only)
  double capacity_left = 1;        // a shared device's share of its scarcest capacity not given out (1: untouched)
  // Neither held by an allocated claim (exclusively), nor short of counters allocated devices left, nor shared with
  // some capacity wholly given out: a search may take it (an adminAccess request may take a held one too, a request
  // for none of a capacity a used-up one).
  bool available = true;
  flatten::mixin_device_view device;
  bool counters_in_use = false;  // a counter it draws from is partly consumed by allocated devices
  double counter_share = 0;      // its size: the sum, over the counters it draws, of its share of each counter
  // The counter sets it draws from (all counters of every device that shares a counter with it):
  // their free share, 1 when nothing is consumed, 0 when everything is.
  double counter_sets_free = 1;
  // What taking it would cost: the sizes (counter_share) of the placements on its counter sets
  // that are possible now and would no longer be (counters too scarce), its own included. A 1g
  // MIG slice that blocks the only free 3g placement of a GPU costs more than one that does not.
  // With a pending demand (pending_demand), each other placement's size counts once per pending request that could
  // take it (its `demand`): a placement nobody waits for costs nothing.
  double placements_lost = 0;
  // The counters of its counter sets that taking it would strand: wholly free, drawn on by some placement
  // possible now and by none afterwards (memory slice 7 of an A100 once a 1g at slice 6 rules out the 3g at 4).
  // With a pending demand, only placements some pending request could take count.
  double counters_stranded = 0;
  // How many pending requests (pending_demand) could take it; 1 for every device when no demand is given.
  double demand = 1;
};

// A policy decides the order in which the search tries candidate devices
// (the search itself never changes): `order` holds candidate indices in
// upstream's visiting order on entry and may be permuted. The order it gives two
// candidates must depend only on their facts and relative positions, not on
// candidates no request picks (the runner searches one node of each
// basic_allocator::outcome_class, whose nodes differ only in such candidates).
template <class P>
concept allocation_policy = std::default_initializable<P> &&
    requires(const P& policy, std::span<std::uint32_t> order, std::span<const candidate_facts> facts) {
  { policy.order_candidates(order, facts) } -> std::same_as<void>;
};

// What a policy may see of one node when it ranks the nodes of a scenario run.
struct node_facts {
  double used_share = 0;  // how much of the node's devices is in use (counters and devices, 0..1)
  double used = 0;        // the same, as an amount: consumed counters count their share, devices 1 each
};

// A policy that also decides the order in which the scenario runner tries nodes: `order` holds
// node indices in the scenario's order on entry and may be permuted. Which node fits is the
// same question for every policy; only which fitting node is taken changes.
template <class P>
concept node_ranking_policy = allocation_policy<P> &&
    requires(const P& policy, std::span<std::uint32_t> order, std::span<const node_facts> facts) {
  { policy.order_nodes(order, facts) } -> std::same_as<void>;
};

// A policy that promises never to place less than first fit does on the same scenario (opt in with a static
// `never_worse_than_first_fit = true`): the scenario runner also runs first fit and reports its answer where the
// policy's would place fewer claims, fewer pods, or fewer claims before the queue's first rejection. A heuristic
// cannot promise that by itself; the comparison makes it true by construction.
template <class P>
concept guarded_by_first_fit = allocation_policy<P> && requires {
  requires P::never_worse_than_first_fit;
};

// Upstream's first fit: pools by (driver, pool), slices by name, devices in slice order.
struct first_fit {
  void order_candidates(std::span<std::uint32_t>, std::span<const candidate_facts>) const noexcept {}
};

// Packs shared devices: among shared devices, those that already carry
// allocations come first, so that fresh ones stay whole for later claims.
// Everything else keeps upstream's order.
struct shared_capacity {
  [[nodiscard]] static int candidate_rank(const candidate_facts& f) noexcept {
    return f.shared && f.has_allocations ? 0 : 1;
  }
  void order_candidates(std::span<std::uint32_t> order, std::span<const candidate_facts> facts) const {
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return candidate_rank(facts[a]) < candidate_rank(facts[b]);
    });
  }
};

// A policy whose order_candidates is a stable sort by a key of each candidate's own facts, which it names
// (`candidate_rank(facts)`, totally ordered; ties keep upstream's order). The allocator then keeps each node's
// ranking between searches and re-sorts only the candidates of pools the ledger changed, instead of every candidate
// of the node per search (a node that reaches thousands of network-attached pools). Policies without one are
// asked to order every candidate on every search; the results are the same either way.
template <class P>
concept ranks_by_key = allocation_policy<P> && requires(const P& policy, const candidate_facts& facts) {
  { policy.candidate_rank(facts) } -> std::totally_ordered;
};

// A node-ranking policy whose order_nodes is a stable sort by a key of each node's own facts, which it names
// (`node_rank(facts)`, totally ordered; ties keep the nodes' order in the list). The runner then keeps the ranking
// while devices are allocated and moves only the nodes whose facts changed, instead of sorting every node again
// after each commit (a 5,000-node cluster, 40,000 pods). Policies without one are asked to order every node again;
// the order is the same either way.
template <class P>
concept ranks_nodes_by_key = node_ranking_policy<P> && requires(const P& policy, const node_facts& facts) {
  { policy.node_rank(facts) } -> std::totally_ordered;
};

// Whether a policy tries candidates in upstream's order, as first fit does (opt in with a static
// `upstream_candidate_order = true`, e.g. a policy that only changes how the runner picks nodes): the allocator then
// searches exactly as for first fit, with its bounds.
template <class P>
inline constexpr bool keeps_upstream_order = std::is_same_v<P, first_fit> || requires {
  requires P::upstream_candidate_order;
};

// Whether the allocator computes candidate_facts for a policy: first fit ignores them and pays nothing.
template <class P>
inline constexpr bool uses_facts = !keeps_upstream_order<P>;

static_assert(allocation_policy<first_fit>);
static_assert(ranks_by_key<shared_capacity>);

}  // namespace dra::alloc
