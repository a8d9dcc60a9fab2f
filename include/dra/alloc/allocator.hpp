// The allocator: for one node, finds devices for a set of claims by upstream's backtracking first-fit search, and
// builds their AllocationResults.
#pragma once

#include <dra/alloc/best_fit.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/demand.hpp>
#include <dra/alloc/detail/capacity.hpp>
#include <dra/alloc/detail/constraints.hpp>
#include <dra/alloc/detail/facts.hpp>
#include <dra/alloc/device_checks.hpp>
#include <dra/alloc/features.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/alloc/pools.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/device_class.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/workload.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace dra::alloc {

// The most results one AllocationResult may hold (resourceapi.AllocationResultsMaxSize).
inline constexpr std::size_t allocation_results_max_size = 32;

// allocate() found devices for every claim on the node.
struct allocated {
  std::vector<model::allocation_result> results;  // one per claim, in the order given
  // What the chosen devices cost the node's counter sets (candidate_facts::counters_stranded and
  // placements_lost, summed, weighed by the pending demand if one is set); computed for policies other than
  // first_fit, which lets a runner compare nodes.
  double counters_stranded = 0;
  double placements_lost = 0;
};

// The claims do not fit on the node together.
struct unschedulable {
  static constexpr std::string_view message = "cannot allocate all claims";
};

// Nothing fits and the node had invalid pools: upstream's ErrFailedAllocationOnNode, which
// rules out this node only (another node may still take the claims).
struct invalid_pools {
  static constexpr std::string_view message = "invalid resource pools were encountered";
  // Set when a request asks for all devices of a pool that is being updated or invalid: upstream's error for it,
  // which rules out this node only since kubernetes PR #141898 (before, it failed the whole attempt).
  std::string all_devices_error;
  [[nodiscard]] std::string_view reason() const noexcept {
    return all_devices_error.empty() ? message : std::string_view(all_devices_error);
  }
};

// The message of an outcome that does not fit (unschedulable, invalid_pools); empty for one that does.
template <class... Outcome>
[[nodiscard]] std::string_view reason_of(const std::variant<Outcome...>& outcome) noexcept {
  return std::visit(
      []<class T>(const T& o) {
        if constexpr (requires { o.reason(); })
          return o.reason();
        else if constexpr (requires { T::message; })
          return std::string_view(T::message);
        else
          return std::string_view();
      },
      outcome);
}

// What one allocate() call found (broken input is the result's error instead).
struct allocation_outcome {
  std::variant<allocated, unschedulable, invalid_pools> result;
  std::uint64_t search_steps = 0;

  [[nodiscard]] allocated* fit() noexcept { return std::get_if<allocated>(&result); }
  [[nodiscard]] const allocated* fit() const noexcept { return std::get_if<allocated>(&result); }
  // Why the claims do not fit; empty when they do.
  [[nodiscard]] std::string_view reason() const noexcept { return reason_of(result); }
};

// "namespace/name", or "name" without a namespace (klog.KObj).
[[nodiscard]] inline std::string object_name(const model::object_meta& meta) { return model::namespaced_name(meta); }

namespace detail {

// Whether a request's class and selectors pick a candidate: not evaluated yet (or an error, evaluated again), no,
// yes.
enum class selector_verdict : std::int8_t { unknown = -1, rejected = 0, selected = 1 };

// Where the search stands on a request with subrequests: no alternative chosen yet, or inside the chosen one.
enum class alternative : bool { undecided, chosen };

}  // namespace detail

// Finds allocations for claims on one node. `Engine` evaluates CEL
// selectors; `Policy` orders candidate devices (first_fit keeps upstream's
// order, which makes results identical to upstream's allocator).
// The allocator borrows everything it is given; they must outlive it.
template <allocation_policy Policy, selector_engine Engine>
class basic_allocator {
 public:
  basic_allocator(features f, const ledger& state, std::span<const model::device_class* const> classes,
                  std::span<const model::resource_slice* const> slices, const Engine& engine, Policy policy = {})
      : features_(f), state_(&state), engine_(&engine), policy_(std::move(policy)) {
    for (const auto* c : classes) classes_.emplace(c->meta.name, c);
    for (const auto* s : slices) {
      // Without the feature upstream ignores a slice declaring compatibility
      // groups (it cannot check them), which leaves the slice's pool incomplete.
      if (!f.device_compatibility_groups && detail::declares_compatibility_groups(*s)) continue;
      model::text node = s->node_name.value_or(model::text{});
      if (node.empty())
        shared_slices_.push_back(s);
      else
        slices_on_node_[node].push_back(s);
      by_pool_[pool_key{s->driver, s->pool.name}].push_back(s);
    }
  }

  // Allocates all `claims` together on `node`: either every claim gets a
  // result, or none does. Errors are problems of the input.
  [[nodiscard]] result<allocation_outcome> allocate(const model::node& node,
                                                    std::span<const model::resource_claim* const> claims) {
    search s(*this, node, claims);
    return s.run();
  }

  // Nodes on which allocate(node, claims) is sure to find the same: fitting or not, at the same cost, with the same
  // devices (only node names in results may differ). They share the id returned; nullopt for a node whose outcome
  // may be its own. Such nodes gather the same pools from slices that name no node, no device among those is
  // placed per device (perDeviceNodeSelection), and their own pools are complete, valid and hold no device a request
  // of the claims picks. A runner trying nodes in turn need search only the first of each id (see
  // docs/allocator.md). Nothing is shared while a step budget is set, as steps count every candidate visited.
  [[nodiscard]] std::optional<std::uint32_t> outcome_class(const model::node& node,
                                                           std::span<const model::resource_claim* const> claims) {
    if (step_budget_ != 0) return std::nullopt;
    auto entry = node_entry(node);
    if (!entry) return std::nullopt;
    const node_pools& pools = (*entry)->second;
    if (pools.view == no_view || !pools.own_pools_sound) return std::nullopt;
    if (pools.has_own_pools) {
      search s(*this, node, claims);
      if (!s.picks_no_own_device()) return std::nullopt;
    }
    return pools.view;
  }

  // DeviceTaintRules: each rule's taint applies to the devices its selector
  // picks, after the taints their slice publishes (as upstream's slice
  // tracker appends them). Set before allocating; the rules must outlive the allocator.
  void set_taint_rules(std::span<const model::device_taint_rule* const> rules) {
    taint_rules_.assign(rules.begin(), rules.end());
    pools_by_node_.clear();
  }

  // The pools `node` can use, gathered as upstream gathers them (an error when node selection fails). Kept per node
  // and its labels, so that explanations built beside the allocator need not gather them again.
  [[nodiscard]] result<std::span<const pool>> pools_for(const model::node& node) {
    auto entry = node_entry(node);
    if (!entry) return std::move(entry).error();
    return std::span<const pool>(*(*entry)->second.pools);
  }

  // What the selector `expression` said of device `id` (`device` in its slice) when a search on `node` evaluated it;
  // nullopt when none has (or it failed with an error, which is never kept). Lets explanations built beside the
  // allocator skip evaluating it again.
  [[nodiscard]] std::optional<bool> known_selector_result(const model::node& node, std::string_view expression,
                                                          const device_ref& id, const model::device& device) const {
    const auto program = programs_.find(expression);
    if (program == programs_.end()) return std::nullopt;
    if (const auto known = selector_results_.find(std::pair{&program->second, &device});
        known != selector_results_.end())
      return known->second;
    const auto entry = pools_by_node_.find(node.meta.name);
    if (entry == pools_by_node_.end()) return std::nullopt;
    const auto verdicts = entry->second.selector_verdicts.find(&program->second);
    if (verdicts == entry->second.selector_verdicts.end()) return std::nullopt;
    for (auto [it, last] = entry->second.places.equal_range(id); it != last; ++it)
      if (it->second.candidate != device_place::npos) {
        const auto verdict = verdicts->second[it->second.candidate];
        if (verdict != detail::selector_verdict::unknown) return verdict == detail::selector_verdict::selected;
      }
    return std::nullopt;
  }

  // The requests still to be allocated after this call (and including its claims), which the facts weigh
  // placements by (pending_demand); nullptr (the default) counts every placement. Borrowed: it must outlive its
  // use, and may change between allocate() calls. first_fit ignores it.
  void set_demand(const pending_demand* demand) noexcept {
    demand_ = demand;
    // Facts weighed by another demand are out of date (two demands' epochs do not compare).
    for (auto& entry : pools_by_node_) entry.second.ranking.valid = false;
  }

  // At most `steps` search steps per allocate() call, after which it returns an error saying so; 0 (the default)
  // means no limit, as upstream (whose only bound is the scheduler's filter timeout). The counting bounds cut most
  // hopeless searches; a budget guards a service against the rest.
  void set_step_budget(std::uint64_t steps) noexcept { step_budget_ = steps; }
  // Whether the search skips a device interchangeable with one whose branch already failed at the same position
  // (docs/allocator.md): on by default; results are the same either way, only the number of steps differs.
  void set_interchangeable_pruning(bool on) noexcept { interchangeable_pruning_ = on; }

  // The next shareID serial; callers that keep allocating continue from here.
  [[nodiscard]] std::uint64_t share_serial() const noexcept { return share_serial_; }
  void set_share_serial(std::uint64_t next) noexcept { share_serial_ = next; }
  // The shareID of a serial, as results carry it (an RFC 4122 version-4 UUID in normalized form).
  [[nodiscard]] static std::string share_id(std::uint64_t serial) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "00000000-0000-4000-8000-%012llx",
                  static_cast<unsigned long long>(serial & 0xffffffffffffULL));
    return buffer;
  }

  // Makes the outcome_class() ids of this allocator and `other` comparable, for allocators over the same slices that
  // try different nodes of one scenario, on different threads if need be (the ids are kept under a lock). Called
  // before either allocates.
  void share_outcome_classes(const basic_allocator& other) { views_ = other.views_; }

 private:
  struct compiled {
    std::optional<typename Engine::program> program;
    std::string error;
  };

  const compiled& compile(std::string_view expression) {
    auto it = programs_.find(expression);
    if (it != programs_.end()) return it->second;
    compiled c;
    auto p = engine_->compile(expression);
    if (p)
      c.program.emplace(std::move(p).value());
    else
      c.error = p.error().message;
    return programs_.emplace(std::string(expression), std::move(c)).first->second;
  }
  // A derived attribute's expression (KEP-6080), compiled once per allocator like selectors.
  const compiled& compile_derived(std::string_view expression) {
    auto it = derived_programs_.find(expression);
    if (it != derived_programs_.end()) return it->second;
    compiled c;
    if constexpr (derived_attribute_engine<Engine>) {
      auto p = engine_->compile_derived(expression);
      if (p)
        c.program.emplace(std::move(p).value());
      else
        c.error = p.error().message;
    } else {
      c.error = "this selector engine cannot evaluate derived attributes";
    }
    return derived_programs_.emplace(std::string(expression), std::move(c)).first->second;
  }

  std::string next_share_id() { return share_id(share_serial_++); }

  // A device the search may pick, as laid out for one node.
  struct candidate_layout {
    std::uint32_t pool = 0;
    const model::resource_slice* slice = nullptr;
    flatten::mixin_device_view view;
    device_ref id;
    bool shared = false;  // allowMultipleAllocations, with ConsumableCapacity
    bool consumes_counters = false;
    std::vector<std::pair<std::uint32_t, quantity>> draws;  // counter slot, amount
    // Per counter set drawn from: its group slot and the groups declared for
    // it (only in pools where some device declares compatibility groups).
    std::vector<std::pair<std::uint32_t, std::span<const model::text>>> group_sets;
    std::vector<const model::device_taint*> rule_taints;  // from DeviceTaintRules
  };
  // A candidate as searches see it: what the ledger says (as of the node's `changes_seen`) and what the current
  // search has given out. Kept per node between searches; every search leaves the search's part as it found it.
  struct candidate {
    const candidate_layout* st = nullptr;
    bool exclusive_in_state = false;
    const capacity_amounts* given_out = nullptr;
    std::vector<std::uint32_t> exclusive_for;  // claim indices holding it exclusively in this search
    std::uint32_t shares = 0;                  // shared allocations in this search
    capacity_amounts allocating;               // capacity given out in this search
    std::uint64_t ledger_stamp = 0;            // changes whenever what the ledger says of it is refreshed
  };
  struct counter_slot {
    quantity available;  // the counter's value less what allocated devices hold
    quantity consumed;   // by the current search (zero between searches)
  };
  struct counter_holder {
    std::uint32_t pool = 0;
    device_ref id;
    std::span<const std::pair<std::uint32_t, quantity>> draws;  // a candidate's own, or one of other_draws
  };
  struct group_holder {
    device_ref id;
    std::vector<std::pair<std::uint32_t, std::span<const model::text>>> group_sets;
  };
  static constexpr std::uint32_t no_view = std::numeric_limits<std::uint32_t>::max();
  // Where a device of a node's valid pools sits in its layout (npos: not there).
  struct device_place {
    static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t candidate = npos;
    std::uint32_t holder = npos;  // in counter_holders
  };
  // What one node sees: its pools, candidates and counters, independent of what is allocated.
  struct node_pools {
    std::vector<std::pair<std::string, std::string>> labels;  // owned: callers' nodes may be temporaries
    std::shared_ptr<const std::vector<pool>> pools;  // shared by nodes that gather the same slices
    bool laid_out = false;
    std::vector<candidate_layout> candidates;
    std::vector<quantity> slot_values;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pool_slots;  // [first, last) per pool
    std::vector<counter_holder> counter_holders;
    std::vector<std::vector<std::pair<std::uint32_t, quantity>>> other_draws;  // of holders that are no candidate
    std::uint32_t group_slots = 0;            // counter sets whose compatibility groups are tracked
    std::vector<group_holder> group_holders;  // devices with group slots, allocated or not
    std::vector<quantity> slot_available;  // slot_values less what allocated devices hold
    // A device's candidate and its counter holders (a pool may publish a device under one name in two slices).
    std::unordered_multimap<device_ref, device_place, device_ref_hash> places;
    // What searches start from, refreshed for the devices the ledger logged since `changes_seen` (all of them when
    // its generation changed): so a search costs what it visits, not what the node has.
    std::uint64_t ledger_generation = std::numeric_limits<std::uint64_t>::max();
    std::size_t changes_seen = 0;
    std::vector<std::uint64_t> pool_versions;  // per pool: the ledger's pool_version as of changes_seen
    std::vector<char> charged;  // per counter holder: allocated, its draws taken off slot_available
    std::vector<candidate> live;
    std::vector<counter_slot> slots;
    std::vector<char> overdrawn;          // per pool: allocated devices hold more than a counter has
    std::vector<std::uint32_t> identity;  // first_fit's order: 0, 1, 2, …
    // Which candidates a request's class and selectors pick: that depends on nothing a search or the ledger
    // changes, so requests with the same class and selectors share one record on the node, kept between searches
    // (`detail::selector_verdict`). `first_live` (first_fit only), per capacity asked for: every candidate before
    // it is held by the ledger, or picked by no such request, or short of counters or of capacity the ledger
    // already took, with its selectors known to evaluate — so a search for such a request may start there, as the
    // candidates it skips would fail without an error.
    struct selection {
      std::vector<detail::selector_verdict> values;
      std::map<std::string, std::uint32_t, std::less<>> first_live;  // by detail::capacity_key
      // Whether every candidate's selectors have been evaluated without an error (a candidate that fails before
      // its selectors run, such as one with binding conditions while those are off, may stay unknown).
      enum class coverage : std::uint8_t { partly, fully, failed } evaluated = coverage::partly;
    };
    // Candidates by the values of an attribute a matchAttribute constraint names (keys as the counting bounds
    // make them), in order; built when a search first needs it.
    struct value_index {
      bool built = false;
      std::map<std::string, std::vector<std::uint32_t>, std::less<>> candidates;
    };
    std::map<std::string, value_index, std::less<>> attribute_index;
    // Whether a set of capacity asks fits each candidate beside what the ledger gave out of it, as of the
    // candidate's ledger_stamp: a best-fit search visits full shared devices first, every time.
    struct capacity_verdicts {
      std::vector<std::pair<std::string, quantity>> asks;  // as the request has them (quantities identical)
      std::vector<std::pair<std::uint64_t, bool>> fits;    // per candidate: stamp, verdict
    };
    std::vector<capacity_verdicts> capacity_in_state;
    std::map<std::vector<const void*>, selection> selections;  // key: class, then the compiled selectors
    // Per compiled selector, what it says of each candidate: kept per node, so that a lookup is an index; devices of
    // slices without a node name reach every node, and their results are kept allocator-wide as well.
    std::map<const compiled*, std::vector<detail::selector_verdict>> selector_verdicts;
    // For policies that use facts: every candidate's facts as of the ledger state searches start from (weighed by
    // the pending demand of `demand_epoch`), and the policy's order of them. Kept between searches: a search works
    // out again only the pools the ledger changed since (`moved`), and re-sorts only their candidates when the
    // policy ranks by key (ranks_by_key).
    struct kept_ranking {
      bool valid = false;
      std::uint64_t demand_epoch = 0;
      std::vector<double> demand;  // per candidate: how many pending requests could take it
      std::vector<candidate_facts> facts;
      std::vector<std::uint32_t> order;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> pool_candidates;  // [first, last) per pool
      std::vector<char> moved;                                                // per pool
      std::vector<std::uint32_t> moved_pools;
      void pool_moved(std::uint32_t pool) {
        if (!valid || moved[pool]) return;
        moved[pool] = 1;
        moved_pools.push_back(pool);
      }
    };
    kept_ranking ranking;
    bool searching = false;               // set while a search runs: still set means one was cut short
    // Per pool: whether a slice of it names this node (or it kept no slice). Nodes gathering the same other pools
    // share `view` (no_view: this node's is its own).
    std::vector<char> own_pools;
    bool own_pools_sound = true;  // every own pool is complete and valid
    bool has_own_pools = false;   // some pool is the node's own (asked per node and unit: thousands of pools)
    std::uint32_t view = no_view;
    [[nodiscard]] bool same_labels(const model::sorted_map<model::text>& other) const {
      return std::equal(labels.begin(), labels.end(), other.begin(), other.end(),
                        [](const auto& mine, const auto& theirs) {
                          return mine.first == theirs.name && mine.second == theirs.value;
                        });
    }
  };
  // One allocate() call.
  class search {
   public:
    search(basic_allocator& a, const model::node& node, std::span<const model::resource_claim* const> claims)
        : a_(a), f_(a.features_), node_(node), claims_(claims) {}

    result<allocation_outcome> run();
    // Whether no request of the claims picks a device of the node's own pools (those with a slice naming it); an
    // error (such as a selector failing on one of them) counts as a pick. Searches nothing.
    bool picks_no_own_device();

   private:
    struct request_data {
      const model::device_request* request = nullptr;
      const model::device_request_spec* spec = nullptr;
      bool is_sub = false;
      std::string_view name;       // request or subrequest name
      std::string_view base_name;  // the request's name
      std::string full_name;
      bool admin_access = false;
      const model::device_class* klass = nullptr;
      std::size_t num_devices = 0;
      bool all_mode = false;
      std::vector<std::uint32_t> all_devices;
      std::span<detail::selector_verdict> selectable;  // per candidate (the node's selection)
      typename node_pools::selection* selection = nullptr;
      std::uint32_t* first_live = nullptr;  // the selection's, for requests asking for the same capacity
      std::size_t capacity_verdicts = 0;    // its asks' entry in the node's capacity_in_state
      // The class's and the request's selectors, compiled (looked up by text once per search, not per candidate).
      std::vector<const compiled*> class_programs, own_programs;
      std::vector<std::vector<detail::selector_verdict>*> class_verdicts, own_verdicts;  // the node's, per program
      std::size_t selected_sub = 0;
      // The request's derived attributes (KEP-6080; none when the feature is off), compiled.
      std::vector<std::pair<std::string_view, const compiled*>> derived;
    };
    struct device_result {
      std::uint32_t candidate = 0;
      const request_data* request = nullptr;
      capacity_amounts consumed;
      bool counters_charged = false;
      std::uint32_t groups_joined = 0;  // entries this device pushed onto group_undo_
    };
    enum class step { done, failed, max_exceeded };

    std::string claim_name(std::size_t i) const { return object_name(claims_[i]->meta); }

    result<bool> is_selectable(request_data& rd, std::size_t claim, std::uint32_t c);
    result<bool> selectors_match(std::size_t claim, const request_data& rd, const model::device_class* klass,
                                 std::span<const model::device_selector> selectors,
                                 std::span<const compiled* const> programs,
                                 std::span<std::vector<detail::selector_verdict>* const> verdicts, std::uint32_t ix);
    // What capacity_fits counts as given out besides the request's own amount: what the ledger and this search gave
    // out, what the ledger gave out, or nothing (the device's capacity and policy alone).
    enum class capacity_counted { all, ledger, none };
    // Whether the request's capacity fits the device, less what `counted` names as given out.
    bool capacity_fits(const request_data& rd, const candidate& c,
                       capacity_counted counted = capacity_counted::all) const;
    // capacity_fits(rd, candidate ix), kept per node while neither the ledger nor this search changes the device.
    bool capacity_fits_now(const request_data& rd, std::uint32_t ix) const;
    std::size_t capacity_verdicts_for(const model::device_request_spec& spec);
    bool in_use(const candidate& c) const { return c.exclusive_in_state || !c.exclusive_for.empty(); }
    bool reserve_counters(const candidate& c);
    void release_counters(const candidate& c);
    bool join_groups(const candidate& c);
    void leave_groups(std::size_t undo_size);
    result<bool> allocate_device(std::size_t claim, request_data& rd, std::uint32_t c, bool must);
    void deallocate(std::size_t claim, std::uint32_t c);
    result<step> allocate_one(std::size_t claim, std::size_t request, std::size_t sub, std::size_t device,
                              detail::alternative within, std::size_t start);
    void lay_out(node_pools& layout);
    void lay_out_pool(node_pools& layout, std::uint32_t pool);
    result<request_data> validate_request(std::size_t claim, const model::device_request& request,
                                          const model::device_request_spec& spec, bool is_sub, std::string_view name,
                                          bool admin_access);
    bool hopeless(std::size_t claim, request_data& rd, std::size_t needed, std::size_t start);
    bool short_of_counters_in_state(const candidate& c) const;
    bool short_of_capacity_in_state(const request_data& rd, const candidate& c) const;
    bool may_still_take(std::size_t claim, const request_data& rd, std::uint32_t ix, bool capacity_now = true) const;
    std::size_t first_live(request_data& rd);
    const std::vector<std::uint32_t>* with_fixed_value(std::size_t claim, request_data& rd);
    bool unit_hopeless(std::size_t claim, std::size_t request, request_data& rd, std::size_t needed,
                       std::size_t start);
    // unit_hopeless's parts (detail/search_pruning.hpp).
    struct unit_demand;
    struct unit_bound;
    bool gather_unit_demands(std::size_t claim, std::size_t request, request_data& rd, std::size_t needed,
                             std::size_t start, std::vector<unit_demand>& demands);
    std::vector<unit_bound> unit_bounds(std::size_t claim, const std::vector<unit_demand>& demands);
    static bool negative_default(const candidate& c);
    bool unit_usable(request_data& r, const unit_demand& d, std::uint32_t ix, bool gives_back);
    bool unit_satisfiable(std::vector<unit_demand>& demands, std::vector<unit_bound>& bounds,
                          std::size_t exclusive_total, bool gives_back);
    bool mark_usable(std::vector<unit_demand>& demands, std::size_t position, std::uint32_t ix, bool gives_back,
                     std::vector<char>& usable_for, std::size_t& exclusive_uses);
    void count_values(unit_bound& b, const candidate& c, std::uint32_t ix, const std::vector<unit_demand>& demands,
                      const std::vector<char>& usable_for);
    bool selector_error_ahead(const std::vector<unit_demand>& demands);
    static std::unordered_set<std::string> taken_values(const detail::constraint_state& constraint);
    // Interchangeable candidates (detail/search_symmetry.hpp): whether the search may swap two free candidates
    // anywhere in this unit without changing what any request, constraint or counter sees.
    bool symmetry_applies() const;
    bool may_be_interchangeable(const candidate& c) const;
    bool interchangeable(std::uint32_t a, std::uint32_t b);
    // The attribute a claim constraint sees for the device under the request (upstream's attributeProvider): the
    // request's derived attribute of that name, evaluated once per (request, device), else the device's own.
    result<const model::device_attribute*> attribute_for(std::size_t claim, const request_data& rd, std::uint32_t c,
                                                         std::string_view name);
    result<model::allocation_result> build_result(std::size_t claim);
    // build_result's parts (detail/search.hpp).
    void add_device_results(std::size_t claim, model::allocation_result& out);
    const request_data& chosen_request(std::size_t claim, std::size_t request) const;
    void add_class_configs(std::size_t claim, model::allocation_result& out);
    void add_claim_configs(std::size_t claim, model::allocation_result& out);
    status set_node_selector(std::size_t claim, model::allocation_result& out);
    // The node's pools laid out and brought up to the ledger's state, with this search's spans pointing into them.
    result<node_pools*> enter_node();
    // enter_node's parts (detail/search.hpp): what the ledger says of the node's devices, taken in.
    static void charge(node_pools& layout, std::uint32_t holder);
    static void refresh(node_pools& layout, const device_place& place, const ledger::device_state* held);
    void refresh_all(node_pools& layout);
    void refresh_changed(node_pools& layout, const device_ref& changed);
    void refresh_moved_pools(node_pools& layout, std::span<const device_ref> changes);
    status prepare_requests();  // checks every request as upstream does before searching, and sets them up
    result<allocation_outcome> search_and_build();  // run() once the node's state is fresh
    // Per candidate: how many requests of the allocator's pending demand could take it (1 each, without one).
    std::vector<double> demand_per_candidate();
    void rank_candidates();  // policies that use facts: order_ by them, once the requests are prepared
    void rank_all_candidates(node_pools& layout);    // works out every candidate's facts and their order
    detail::candidate_input facts_input(std::uint32_t ix) const;  // what its facts are worked out from
    void rank_moved_candidates(node_pools& layout);  // the same for the candidates of pools the ledger changed
    bool demand_selects(std::span<const compiled* const> programs,
                        std::span<std::vector<detail::selector_verdict>* const> verdicts, std::uint32_t ix);

    basic_allocator& a_;
    const features& f_;
    const model::node& node_;
    std::span<const model::resource_claim* const> claims_;
    const std::vector<pool>* pools_ = nullptr;
    node_pools* layout_ = nullptr;
    // The node's candidates, counters and pools' state, borrowed from its node_pools.
    std::span<candidate> candidates_;
    std::span<const std::uint32_t> order_;
    std::span<const candidate_facts> facts_;  // the node's kept_ranking (empty for first_fit)
    std::span<counter_slot> slots_;
    std::span<const char> pool_overdrawn_;
    std::vector<detail::group_intersection> group_state_;  // per group slot
    std::vector<std::pair<std::uint32_t, detail::group_intersection>> group_undo_;
    std::vector<std::vector<std::vector<request_data>>> requests_;  // claim, request, subrequest
    std::vector<std::vector<detail::constraint_state>> constraints_;
    std::vector<std::vector<device_result>> results_;
    // Per claim: whether no choice of subrequests can exceed allocation_results_max_size, so that upstream's
    // early stop at that limit cannot occur and counting bounds may prune.
    std::vector<bool> within_result_limit_;
    // Per claim: some constraint names a derived attribute of one of its requests. Upstream evaluates a derived
    // attribute when it adds a device to a constraint, before it checks the device's capacity and for devices the
    // shortcuts would skip, and an evaluation error ends the allocation; so for such claims the search takes no
    // shortcut that skips devices or cuts branches.
    std::vector<char> claim_derives_;
    bool symmetric_ = false;  // symmetry_applies() for this unit, set once its requests are prepared
    // Derived attribute values per (request, candidate, derived attribute): constraints keep pointers into them.
    struct derived_key_hash {
      std::size_t operator()(const std::tuple<const request_data*, std::uint32_t, std::size_t>& k) const noexcept {
        return (std::hash<const void*>{}(std::get<0>(k)) * 31 + std::get<1>(k)) * 31 + std::get<2>(k);
      }
    };
    std::unordered_map<std::tuple<const request_data*, std::uint32_t, std::size_t>,
                       typename detail::derived_storage<Engine>::type, derived_key_hash>
        derived_values_;
    std::uint64_t steps_ = 0;
    bool negative_amounts_ = false;  // some device was given a negative amount of a capacity in this search
  };

  features features_;
  const ledger* state_;
  const Engine* engine_;
  Policy policy_;
  std::unordered_map<std::string_view, const model::device_class*> classes_;
  std::unordered_map<std::string_view, std::vector<const model::resource_slice*>> slices_on_node_;
  std::vector<const model::resource_slice*> shared_slices_;
  slices_by_pool by_pool_;
  // The pools of each list of relevant slices a node had (relevant_slices): nodes reaching the same slices share
  // them, so thousands of network-attached pools are built once, not once per node.
  std::map<std::vector<const model::resource_slice*>, std::shared_ptr<const std::vector<pool>>> gathered_;
  std::vector<const model::device_taint_rule*> taint_rules_;
  // Keyed by owned text: claims passed to allocate() need not outlive the allocator.
  std::map<std::string, compiled, std::less<>> programs_;
  std::map<std::string, compiled, std::less<>> derived_programs_;
  std::map<std::string, node_pools, std::less<>> pools_by_node_;
  // The node's entry in pools_by_node_, its pools gathered (once per node: they depend only on the slices and the
  // node).
  result<typename std::map<std::string, node_pools, std::less<>>::iterator> node_entry(const model::node& node) {
    auto cached = pools_by_node_.find(node.meta.name);
    if (cached != pools_by_node_.end() && cached->second.same_labels(node.meta.labels)) return cached;
    std::vector<const model::resource_slice*> for_node;
    if (auto it = slices_on_node_.find(node.meta.name); it != slices_on_node_.end()) for_node = it->second;
    for_node.insert(for_node.end(), shared_slices_.begin(), shared_slices_.end());
    auto relevant = relevant_slices(for_node, node, features_);
    if (!relevant) return std::move(relevant).error();
    node_pools entry;
    for (const auto& label : node.meta.labels) entry.labels.emplace_back(label.name, label.value);
    auto [gathered, first] = gathered_.try_emplace(std::move(relevant).value());
    if (first) gathered->second = std::make_shared<const std::vector<pool>>(
                   pools_of_slices(gathered->first, features_, by_pool_));
    entry.pools = gathered->second;
    classify_pools(entry);
    return pools_by_node_.insert_or_assign(std::string(node.meta.name), std::move(entry)).first;
  }
  // Marks the node's own pools and gives it the view id of the others (see node_pools::view).
  void classify_pools(node_pools& entry) {
    std::vector<std::uintptr_t> key;
    auto add = [&key](std::span<const model::resource_slice* const> slices) {
      key.push_back(slices.size());
      for (const auto* s : slices) key.push_back(reinterpret_cast<std::uintptr_t>(s));
    };
    bool placed_per_device = false;
    for (const pool& p : *entry.pools) {
      // A pool being updated or invalid keeps none of its slices: counted as the node's own (and unsound).
      const bool own = p.device_slices.empty() || std::ranges::any_of(p.device_slices, [](const auto* s) {
                         return s->node_name && !s->node_name->empty();
                       });
      entry.own_pools.push_back(static_cast<char>(own));
      entry.has_own_pools = entry.has_own_pools || own;
      if (own) {
        entry.own_pools_sound = entry.own_pools_sound && !p.incomplete && !p.invalid;
        continue;
      }
      placed_per_device = placed_per_device || std::ranges::any_of(p.device_slices, [](const auto* s) {
                            return s->per_device_node_selection.value_or(false);
                          });
      // A pool is the slices it was built from (what makes it incomplete or invalid is theirs too).
      add(p.device_slices);
      add(p.other_slices);
    }
    // Devices placed one by one reach nodes by name and labels: such a view is the node's own.
    if (!placed_per_device) {
      const std::scoped_lock hold(views_->lock);
      entry.view = views_->ids.emplace(std::move(key), static_cast<std::uint32_t>(views_->ids.size())).first->second;
    }
  }
  // Ids of node_pools::view, by the slices of the pools a node gathers (see share_outcome_classes).
  struct view_ids {
    std::mutex lock;
    std::map<std::vector<std::uintptr_t>, std::uint32_t> ids;
  };
  std::shared_ptr<view_ids> views_ = std::make_shared<view_ids>();
  // Selector results per (compiled expression, device): they depend on nothing else
  // (the driver is the device's slice's).
  struct pair_hash {
    std::size_t operator()(const std::pair<const compiled*, const model::device*>& k) const noexcept {
      return std::hash<const void*>{}(k.first) * 31 + std::hash<const void*>{}(k.second);
    }
  };
  std::unordered_map<std::pair<const compiled*, const model::device*>, bool, pair_hash> selector_results_;
  std::uint64_t share_serial_ = 1;
  std::uint64_t step_budget_ = 0;
  bool interchangeable_pruning_ = true;
  const pending_demand* demand_ = nullptr;
};

}  // namespace dra::alloc

#include <dra/alloc/detail/search.hpp>
