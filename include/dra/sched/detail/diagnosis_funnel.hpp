// The diagnosis funnel: for one node and one request (or firstAvailable alternative), how many devices survive each
// stage of the allocator's checks, and who or what takes the others away.
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/device_checks.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/alloc/pools.hpp>
#include <dra/model/explanation_codes.hpp>
#include <dra/sched/detail/diagnosis_words.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sched {

// One device reachable from the node, and where and why it dropped out for the request.
struct device_verdict {
  std::string device;  // driver/pool/device
  model::funnel_stage dropped = model::funnel_stage::usable;
  std::string why;  // who holds it, which counter or taint, the CEL error; empty for class and selector misses
};

// One request (or firstAvailable alternative) of one claim on one node: device counts stage by stage.
struct request_funnel {
  std::string claim;
  std::string request;  // "request" or "request/subrequest"
  std::size_t needed = 0;
  bool all_mode = false;
  std::size_t reachable = 0;        // devices of pools reachable from the node, incomplete or invalid ones included
  std::size_t in_usable_pools = 0;  // of those, in complete and valid pools
  std::size_t class_match = 0;
  std::size_t selector_match = 0;
  std::size_t selector_errors = 0;  // CEL runtime errors (counted apart, not in selector_match)
  std::size_t free = 0;             // not held by other claims
  std::size_t counters_left = 0;
  std::size_t capacity_left = 0;
  std::size_t tolerated = 0;        // usable: past every stage
  std::string constraint;           // the constraint that limits the usable devices most ("matchAttribute x"), if any
  std::size_t constraint_best = 0;  // its largest group sharing a value, or its number of distinct values
  model::explanation_code verdict = model::explanation_code::fits;
  std::string message;
  std::vector<device_verdict> devices;  // when asked for: every reachable device, in the order the search visits them
};

namespace detail {

// Devices, counters and pools of one node, independent of what is allocated. Holders view draws the node owns, so a
// node is moved, never copied.
struct funnel_node {
  funnel_node() = default;
  funnel_node(const funnel_node&) = delete;
  funnel_node& operator=(const funnel_node&) = delete;
  funnel_node(funnel_node&&) noexcept = default;
  funnel_node& operator=(funnel_node&&) noexcept = default;
  ~funnel_node() = default;

  struct counter {
    std::uint32_t set = 0;
    std::string_view name;
    quantity total;
  };
  struct counter_set {
    std::string_view name;
    std::string whole_device;  // a device drawing all of the set (the physical device its partitions share)
  };
  struct draw {
    std::uint32_t counter = 0;
    quantity amount;
  };
  struct device {
    const model::resource_slice* slice = nullptr;
    flatten::mixin_device_view view;
    alloc::device_ref id;
    bool shared = false;
    std::vector<draw> draws;
  };
  struct holder {
    alloc::device_ref id;
    std::span<const draw> draws;  // a device's own (`devices`), or one of `other_draws`
  };
  std::vector<alloc::pool> pools;
  std::string error;  // node selection failed for a slice
  std::vector<device> devices;
  std::vector<counter> counters;
  std::vector<counter_set> sets;
  std::vector<holder> holders;  // every device of the pools that draws counters when allocated
  std::vector<std::vector<draw>>
      other_draws;  // of holders that are no device of the node (their slice targets another)
  struct bad_pool {
    std::string name;
    std::string reason;  // empty: incomplete
    std::size_t devices = 0;
  };
  std::vector<bad_pool> bad_pools;
};

struct fit_check;

// What one request's walk through a node's devices found, stage by stage (indices into funnel_node::devices).
struct funnel_findings {
  std::vector<std::uint32_t> matching;  // past the class and the request's selectors
  std::vector<std::uint32_t> after[4];  // free, counters left, capacity left, tolerated
  std::vector<std::pair<std::string_view, std::string_view>> held;  // device, its holders (in holder_words)
  std::deque<std::string> holder_words;                             // "default/a and default/b", once per holder list
  std::vector<std::pair<std::string, std::string>> short_capacity, tainted;  // device, blocker
  std::vector<std::string> counter_sentences, cel_errors;
  std::string_view class_name;
  bool narrowed = false;  // the request has selectors of its own
};

// What the ledger says about a node's counters right now.
struct counter_usage {
  std::vector<quantity> used;
  std::vector<std::vector<std::string>> consumers;   // per counter: claims of allocated devices drawing it
  std::vector<std::vector<std::string>> whole_held;  // per set: claims holding its whole device
};

}  // namespace detail

// Computes funnels. Borrows everything; the ledger may change between calls (what is kept against it, the counters
// a node's allocated devices use, is checked against the versions of the node's pools).
template <alloc::selector_engine Engine>
class funnel_builder {
 public:
  funnel_builder(alloc::features f, const alloc::ledger& state, std::span<const model::device_class* const> classes,
                 std::span<const model::resource_slice* const> slices, const Engine& engine)
      : f_(f), state_(&state), engine_(&engine) {
    for (const auto* c : classes) classes_.emplace(c->meta.name, c);
    for (const auto* s : slices) {
      model::text node = s->node_name.value_or(model::text{});
      if (node.empty())
        shared_slices_.push_back(s);
      else
        slices_on_node_[node].push_back(s);
      by_pool_[alloc::pool_key{s->driver, s->pool.name}].push_back(s);
    }
  }

  [[nodiscard]] const alloc::features& features() const noexcept { return f_; }

  // Where the funnels get a node's pools: they gather them unless given a source, such as an allocator built from the
  // same features and slices (basic_allocator::pools_for), which has them already.
  using pool_source = std::function<result<std::span<const alloc::pool>>(const model::node&)>;
  void set_pool_source(pool_source source) { pool_source_ = std::move(source); }
  // Where the funnels look first for what a selector says of a device (nullopt: not known there), such as an allocator
  // using the same engine (basic_allocator::known_selector_result); what is not known is evaluated.
  using verdict_source = std::function<std::optional<bool>(const model::node&, std::string_view expression,
                                                           const alloc::device_ref&, const model::device&)>;
  void set_verdict_source(verdict_source source) { verdict_source_ = std::move(source); }
  // Both from an allocator built from the same features, slices and engine (borrowed: it must outlive the funnels).
  template <class Allocator>
  void read_from(Allocator& allocator) {
    set_pool_source([&allocator](const model::node& node) { return allocator.pools_for(node); });
    set_verdict_source([&allocator](const model::node& node, std::string_view expression, const alloc::device_ref& id,
                                    const model::device& device) {
      return allocator.known_selector_result(node, expression, id, device);
    });
  }

  // DeviceTaintRules whose taints count as the devices' own (borrowed, as the allocator's).
  void set_taint_rules(std::span<const model::device_taint_rule* const> rules) noexcept { rules_ = rules; }

  // The funnels of every request of `claim` on `node`: one entry per request, one funnel per alternative.
  [[nodiscard]] std::vector<std::vector<request_funnel>> claim_on_node(const model::node& node,
                                                                       const model::resource_claim& claim,
                                                                       bool keep_devices);

 private:
  struct program_entry {
    std::string_view expression;  // the key of its entry in programs_
    std::optional<typename Engine::program> program;
    std::string error;
  };
  const program_entry& compile(std::string_view expression) {
    auto it = programs_.find(expression);
    if (it != programs_.end()) return it->second;
    program_entry e;
    auto p = engine_->compile(expression);
    if (p)
      e.program.emplace(std::move(p).value());
    else
      e.error = p.error().message;
    auto& entry = *programs_.emplace(std::string(expression), std::move(e)).first;
    entry.second.expression = entry.first;
    return entry.second;
  }
  // 1 match, 0 no match, -1 a CEL error (its text in `error`).
  // `known` holds, per program, the verdicts kept for the node's devices (`ix` is d's index there).
  int selectors_match(const model::node& node, std::span<const program_entry* const> programs,
                      std::span<std::vector<std::int8_t>* const> known, std::uint32_t ix,
                      const detail::funnel_node::device& d, std::string& error);
  std::vector<std::vector<std::int8_t>*> verdicts_for(const detail::funnel_node& n,
                                                      std::span<const program_entry* const> programs);
  const detail::funnel_node& lay_out(const model::node& node);
  const detail::counter_usage& usage(const detail::funnel_node& n);
  request_funnel run(const model::node& node, const detail::funnel_node& n, const detail::counter_usage& use,
                     const model::resource_claim& claim, const model::device_request& request,
                     const model::device_request_spec& spec, std::string_view sub, bool keep_devices);
  // Sets the funnel's verdict and message from what the walk found.
  static void decide(request_funnel& out, const detail::funnel_node& n, const detail::fit_check& check,
                     const detail::funnel_findings& found);

  alloc::features f_;
  const alloc::ledger* state_;
  std::span<const model::device_taint_rule* const> rules_;
  pool_source pool_source_;
  verdict_source verdict_source_;
  const Engine* engine_;
  std::unordered_map<std::string_view, const model::device_class*> classes_;
  std::unordered_map<std::string_view, std::vector<const model::resource_slice*>> slices_on_node_;
  std::vector<const model::resource_slice*> shared_slices_;
  alloc::slices_by_pool by_pool_;
  std::map<std::string, program_entry, std::less<>> programs_;
  // Results of selectors that read only the driver (see cel::selector_engine::program::reads_only_driver).
  std::map<std::pair<const program_entry*, std::string_view>, result<bool>> by_driver_;
  std::map<std::string, detail::funnel_node, std::less<>> nodes_;
  // Per node and selector, whether each of the node's devices matches: 1, 0, or -1 not known (an error is not
  // kept). Explanations of later units meet the same devices and selectors again.
  std::map<std::pair<const detail::funnel_node*, const program_entry*>, std::vector<std::int8_t>> verdicts_;
  // Per node: the versions of its pools when its counter usage was worked out, and that usage.
  std::map<const detail::funnel_node*, std::pair<std::vector<std::uint64_t>, detail::counter_usage>> usage_;
};

}  // namespace dra::sched

#include <dra/sched/detail/diagnosis_funnel_impl.hpp>
