// The unit placer: finds the node where a unit of work's claims (one pod's, or a claim no pod names) all fit — the
// first that does, the best ranked, or the best scored — and the devices they get there, and says why none does;
// it decides and commits nothing (the scheduling cycle does).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/core/function_ref.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/cluster_state.hpp>
#include <dra/sched/detail/node_trials.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sched/fragmentation.hpp>
#include <dra/sched/node_likeness.hpp>
#include <dra/sched/pod_filter.hpp>
#include <dra/sched/scored_nodes.hpp>
#include <dra/sched/scoring.hpp>
#include <dra/sched/unfit_memo.hpp>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sched {

// The nodes a trial may use (a gang's topology domain, or one node while its search tries it), and whether a pod
// that fits none of them is explained (a search's many failed trials are not: they are rolled back).
struct node_scope {
  std::vector<char> nodes;  // per node of the run's list: may be used
  bool explain = false;
  // Why a pod does not go to the nodes left out, when they are outside a gang's topology domain; empty for scopes
  // that are not a domain.
  std::string outside;
};

// The reason of the nodes outside a gang's topology domain, followed by the domain ("rack=r1"). kube-scheduler does
// not name them: it filters a PodGroup's pods over one placement's nodes at a time (a placement per value of the
// topology key, from its TopologyPlacement plugin), so its pods' messages count only that placement's nodes. dra keeps
// every node in the count and says why those nodes were not tried.
inline constexpr std::string_view outside_domain_reason = "node(s) outside the PodGroup's topology domain";

// Whether node i takes the pod once its claims' devices there are `results` (KEP-5517's node resources); a refusal
// is recorded by the callee in the pod's filter.
using pod_acceptance = function_ref<bool(std::size_t node, std::span<const model::allocation_result> results)>;

// One unit of work to place, and what constrains its nodes.
struct unit_request {
  std::span<const model::resource_claim* const> claims;  // the unit's claims that exist (generated ones included)
  const model::node* only = nullptr;       // a bound pod's node: the one node tried
  pod_node_filter* filter = nullptr;       // a pending pod's node filters: nodes they refuse are not tried
  const pod_scoring* scoring = nullptr;    // a pending pod's scoring, when nodes are scored
  const pod_acceptance* accepts = nullptr;  // a pending pod's verdict on a node given the devices (KEP-5517)
};

// What the placer decided for a unit of work.
struct unit_decision {
  const model::node* node = nullptr;              // where the claims go; null when nowhere
  std::vector<model::allocation_result> results;  // per existing claim of the unit, in order, when placed
  std::optional<dra::error> failure;              // the search itself failed
  bool invalid_pools = false;                     // some node's pools were invalid (and none fit)
  std::string all_devices_error;                  // the first such node's own message, for a request for All
  bool refused = false;                           // the pod's filters left no node
  std::optional<model::explanation> why;          // why no node took the unit, when worked out
};

// Finds nodes for units of work over one run's nodes and ledger: keeps the allocators (one per thread), the memory
// of which nodes a unit's shape does not fit, and the diagnosis of why. `Policy` orders candidate devices (and, for
// a node-ranking policy, nodes); scoring, when on, chooses among the nodes that fit.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
class unit_placer {
 public:
  using allocator_type = alloc::basic_allocator<Policy, Engine>;

  // The state's ledger must outlive the placer at the same address (it is assigned, never moved).
  unit_placer(const model::scenario& s, std::span<const model::node* const> nodes, cluster_state& state,
              const Engine& engine, alloc::features features, Policy policy, unsigned threads,
              const alloc::pending_demand* demand)
      : s_(s), nodes_(nodes), state_(state), engine_(engine), features_(features), node_policy_(policy),
        unfit_(s, nodes), demand_(demand) {
    for (std::size_t i = 0; i < nodes.size(); ++i) node_index_.emplace(nodes[i], i);
    for (const auto& c : s.classes) classes_.push_back(&c.object);
    for (const auto& sl : s.slices) slices_.push_back(&sl.object);
    for (const auto& r : s.taint_rules) rules_.push_back(&r.object);
    allocator_type& first = allocators_.emplace_back(features, state.ledger, classes_, slices_, engine, policy);
    first.set_taint_rules(rules_);
    if constexpr (alloc::uses_facts<Policy>) first.set_demand(demand);
    if constexpr (alloc::node_ranking_policy<Policy>) {
      likeness_.emplace(s, nodes);
      if (!likeness_->on()) likeness_.reset();
    }
    for (unsigned t = 1; t < std::min<std::size_t>(threads, nodes.size()); ++t) {
      allocator_type& more = allocators_.emplace_back(features, state.ledger, classes_, slices_, engine, policy);
      more.set_taint_rules(rules_);
      more.share_outcome_classes(first);
      if constexpr (alloc::uses_facts<Policy>) more.set_demand(demand);
    }
  }
  unit_placer(const unit_placer&) = delete;
  unit_placer& operator=(const unit_placer&) = delete;

  // Scoring nodes as kube-scheduler's `profile` does (`--score kube`), for pods given a scoring.
  void score_nodes(bool every_node, const model::scheduler_profile& profile = {}) {
    scorer_ = node_scorer(nodes_, profile);
    score_every_node_ = every_node;
  }
  [[nodiscard]] node_scorer& scorer() noexcept { return scorer_; }

  // Under a node-ranking policy, fits are chosen by how little they fragment their node for the pending pods
  // (`workload`: each pending pod's requests and its claims' specs), where devices are shared by capacity.
  void measure_fragmentation(std::span<const std::pair<amounts, std::vector<const model::device_claim*>>> workload) {
    gauge_.emplace(s_, nodes_, engine_);
    gauge_->set_workload(workload);
    if (!gauge_->on()) gauge_.reset();
    used_cpu_and_memory_ = requested_cpu_and_memory(nodes_.size());
  }
  // Whether nodes are chosen by fragmentation now: not once a policy that ranks only for a while has stopped.
  [[nodiscard]] bool by_fragmentation() const {
    if constexpr (requires { node_policy_.ranking(); })
      if (!node_policy_.ranking()) return false;
    return gauge_.has_value();
  }

  // Position of a node in the run's list, if it is there.
  [[nodiscard]] std::optional<std::size_t> index_of(const model::node* node) const {
    const auto it = node_index_.find(node);
    return it == node_index_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }
  [[nodiscard]] std::span<const model::node* const> nodes() const noexcept { return nodes_; }

  // Whether a unit that fits nowhere is explained (model::explanation); off, it is refused unexplained
  // (run_options::explain_refusals).
  void explain_refusals(bool on) noexcept { explain_refusals_ = on; }
  [[nodiscard]] bool explains_refusals() const noexcept { return explain_refusals_; }

  // A gang's trial narrows the nodes to a scope (nullptr: every node).
  void set_scope(const node_scope* scope) noexcept { scope_ = scope; }
  [[nodiscard]] const node_scope* scope() const noexcept { return scope_; }
  [[nodiscard]] bool in_scope(std::size_t i) const { return scope_ == nullptr || scope_->nodes[i] != 0; }

  // The unit's claims, searched node after node as the policy and scoring say; steps are added to `search_steps`.
  unit_decision place(const unit_request& request, std::uint64_t& search_steps);

  // The best node for a pod without claims to allocate: the first `takes` allows (node order is first fit's
  // tie-break), or, when the pod is scored, the best scored of them, or, where fragmentation is measured, the one the
  // pod (requesting `requests`) fragments least. `takes_alike`: `takes` answers alike for alike nodes
  // (node_likeness), so of those only the first in the ranking is asked.
  template <class Takes>
  std::optional<std::size_t> node_without_claims(const pod_scoring* scoring, Takes takes,
                                                 const amounts* requests = nullptr, bool takes_alike = false);

  // Whether the claims would allocate on `node` as the ledger stands, nothing committed (a preemption dry run's
  // DynamicResources filter: the victims' devices stay taken).
  [[nodiscard]] bool fits_on(const model::node& node, std::span<const model::resource_claim* const> claims) {
    return owner_oracle{this}(node, claims);
  }

  // The claims just committed to the ledger: nodes whose pools they touched may fit other units now.
  void committed(const model::allocation_result& result) { unfit_.committed(result); }
  // The ledger was assigned back (a trial taken back): nothing known of nodes holds.
  void forget() { unfit_.forget(); }
  // A claim fits nowhere: a policy that ranks only until the queue's first rejection stops ranking.
  void note_rejection() {
    if constexpr (requires { node_policy_.first_rejection(); })
      if (node_policy_.ranking()) {
        node_policy_.first_rejection();
        unfit_.forget_fits();  // found in the policy's order of candidates, not first fit's
      }
  }

 private:
  class search;
  // What a search fills for each unit, as long as the node list under a ranking: kept from one unit to the next, so
  // that a long queue does not allocate (and fault in) them anew for every pod.
  struct search_buffers {
    std::vector<const model::node*> ordered;
    std::vector<std::uint32_t> ranked_positions, rank;
  };
  search_buffers buffers_;

  // Which allocator tries `node`: allocators_[i % threads] for node i, the first for nodes not in the list.
  std::size_t owner_index(const model::node* node) const {
    if (allocators_.size() == 1) return 0;
    const auto indexed = node_index_.find(node);
    return indexed == node_index_.end() ? 0 : indexed->second % allocators_.size();
  }
  allocator_type& owner(const model::node& node) { return allocators_[owner_index(&node)]; }

  // The allocators as a fit oracle for explanations: each node asked of its own; under a policy that weighs facts,
  // of a first-fit allocator on the same ledger instead. Whether claims fit a node does not depend on the order
  // candidates are tried in, and an explanation asks it many times per node: without facts to compute for each.
  struct owner_oracle {
    unit_placer* placer = nullptr;
    bool operator()(const model::node& node, std::span<const model::resource_claim* const> claims) const {
      if constexpr (alloc::uses_facts<Policy>)
        return allocator_oracle<fit_allocator_type>{&placer->fit_allocator()}(node, claims);
      else
        return allocator_oracle<allocator_type>{&placer->owner(node)}(node, claims);
    }
  };
  using fit_allocator_type = alloc::basic_allocator<alloc::first_fit, Engine>;
  fit_allocator_type& fit_allocator() {
    if (!fit_allocator_) {
      fit_allocator_.emplace(features_, state_.ledger, classes_, slices_, engine_, alloc::first_fit{});
      fit_allocator_->set_taint_rules(rules_);
    }
    return *fit_allocator_;
  }

  std::vector<allocator_type*> allocator_pointers() {
    std::vector<allocator_type*> out;
    for (auto& a : allocators_) out.push_back(&a);
    return out;
  }

  // Whether the placer, reading the outcomes of a unit's nodes in order, stops at a node with this outcome.
  bool stops_at(const result<alloc::allocation_outcome>& outcome) const {
    if (!outcome) return true;
    const auto* fit = outcome->fit();
    if (fit == nullptr) return false;
    if (scorer_.on()) return false;  // scoring compares every node that fits
    if constexpr (alloc::node_ranking_policy<Policy>)
      return !by_fragmentation() && fit->counters_stranded == 0.0 && fit->placements_lost == 0.0;
    else
      return true;
  }

  // What a fit on a node costs a node-ranking policy: the fragmentation score it loses (100 less it, when
  // fragmentation is measured), then the counters it strands, then the placements it costs. Lower is better.
  using node_cost = std::tuple<std::int64_t, double, double>;
  // `asked`: the pod's cpu and memory.
  node_cost cost_of(std::size_t i, cpu_and_memory asked, std::span<const model::allocation_result> results,
                    std::pair<double, double> device_cost) {
    std::int64_t fragmenting = 0;
    if (by_fragmentation())
      fragmenting = max_node_score - gauge_->score(i, used_cpu_and_memory(i), asked, results, state_.ledger);
    return {fragmenting, device_cost.first, device_cost.second};
  }

  // What node i's pods request of cpu and memory now.
  cpu_and_memory used_cpu_and_memory(std::size_t i) {
    const std::uint64_t revision = i < state_.usage_revision.size() ? state_.usage_revision[i] : 0;
    return used_cpu_and_memory_.of(i, state_.requests[i], revision);
  }

  // Whether a fit at `cost` ends a unit's search: at no cost, or once a policy that ranks only for a while stopped.
  // Fragmentation's score is never known to be the best before every node is scored.
  bool takes_first_fit(const node_cost& cost) const {
    if constexpr (requires { node_policy_.ranking(); })
      if (!node_policy_.ranking()) return true;
    return !by_fragmentation() && cost == node_cost{0, 0.0, 0.0};
  }

  std::uint64_t demand_epoch() const { return demand_ == nullptr ? 0 : demand_->epoch(); }

  // Whether node i is alike none seen since `likeness_->new_round()` (node_likeness); true when nodes are not
  // compared.
  bool first_of_its_kind(std::size_t i) {
    if (!likeness_) return true;
    const std::uint64_t revision = i < state_.usage_revision.size() ? state_.usage_revision[i] : 0;
    return likeness_->first_of_kind(likeness_->kind_of(i, state_.requests[i], revision, state_.ledger));
  }

  // DynamicResources' score of a unit's devices on a node (it scores only with the DRAPrioritizedList feature).
  std::int64_t unit_score(std::span<const model::resource_claim* const> claims,
                          std::span<const model::allocation_result> results) const {
    return features_.prioritized_list ? prioritized_list_score(claims, results) : 0;
  }

  // Why a unit fits nowhere, worked out only for such units (the search itself does no extra work). A node's verdict
  // for a one-claim unit is kept for the next claim of that spec until an allocation touches the node's pools: a
  // queue of pods that fit nowhere is explained node by node only where something changed.
  model::explanation explain(std::span<const model::node* const> tried,
                             std::span<const model::resource_claim* const> unit, std::size_t shape) {
    if (!funnels_) {
      funnels_.emplace(features_, state_.ledger, classes_, slices_, engine_);
      funnels_->set_taint_rules(rules_);
      // Each node's pools and selector results from the allocator that tried it (which has them already).
      funnels_->set_pool_source([this](const model::node& node) { return owner(node).pools_for(node); });
      funnels_->set_verdict_source([this](const model::node& node, std::string_view expression,
                                          const alloc::device_ref& id, const model::device& device) {
        return owner(node).known_selector_result(node, expression, id, device);
      });
    }
    owner_oracle oracle{this};
    std::vector<const node_diagnosis*> verdicts;  // known ones where they are kept, the others in `fresh`
    verdicts.reserve(tried.size());
    std::deque<node_diagnosis> fresh;
    for (const auto* node : tried) {
      const auto indexed = unit.size() == 1 ? index_of(node) : std::nullopt;
      if (indexed)
        if (const node_diagnosis* known = unfit_.known_why(shape, *indexed)) {
          verdicts.push_back(known);
          continue;
        }
      verdicts.push_back(&fresh.emplace_back(diagnose_node(*funnels_, *node, unit, oracle)));
      if (indexed) unfit_.remember_why(shape, *indexed, fresh.back());
    }
    // A kept verdict names the claim it was found for: a like claim's (a unit of one claim) is this one's.
    if (unit.size() == 1) return summarize(verdicts, model::namespaced_name(unit[0]->meta));
    return summarize(verdicts);
  }

  // Whether the unit fits node i for the pod (its filters, the scope, its devices' node resources), searching the
  // node unless that is known; what a search finds is remembered. nullopt: the search failed.
  std::optional<bool> unit_fits(const unit_request& request, std::size_t shape, std::size_t i,
                                std::uint64_t& search_steps) {
    if (!in_scope(i) || unfit_.known_unfit(shape, i) || (request.filter != nullptr && !request.filter->feasible(i)))
      return false;
    if (const auto* known = unfit_.fit_on(shape, i, demand_epoch())) return accepted(request, i, known->results);
    auto outcome = owner(*nodes_[i]).allocate(*nodes_[i], request.claims);
    if (!outcome) return std::nullopt;
    search_steps += outcome->search_steps;
    if (auto* fit = outcome->fit()) {
      const bool takes_pod = accepted(request, i, fit->results);
      unfit_.remember_fit(shape, i, demand_epoch(),
                          {std::move(fit->results), {fit->counters_stranded, fit->placements_lost}});
      return takes_pod;
    }
    // A node ruled out by a request for all devices of its pool keeps its own message: not remembered.
    if (const auto* bad = std::get_if<alloc::invalid_pools>(&outcome->result); bad && !bad->all_devices_error.empty())
      return false;
    unfit_.remember_unfit(shape, i, std::holds_alternative<alloc::invalid_pools>(outcome->result));
    return false;
  }

  static bool accepted(const unit_request& request, std::size_t i, std::span<const model::allocation_result> results) {
    return request.accepts == nullptr || (*request.accepts)(i, results);
  }

  // The devices a unit known to fit on node i of the list gets there: as found before, unless forgotten since.
  std::vector<model::allocation_result> devices_on(std::size_t i, std::span<const model::resource_claim* const> claims,
                                                   std::size_t shape) {
    if (const auto* known = unfit_.fit_on(shape, i, demand_epoch())) return known->results;
    auto outcome = owner(*nodes_[i]).allocate(*nodes_[i], claims);
    assert(outcome && outcome->fit() != nullptr);
    return std::move(outcome->fit()->results);
  }

  // The chosen node's shares get their IDs when the unit commits, in the order of its results, whichever allocator
  // (and thread) found them: as one allocator trying the nodes in turn would number them.
  void number_shares(std::vector<model::allocation_result>& results) {
    for (auto& result : results)
      for (auto& device : result.results)
        if (device.share_id) device.share_id = allocator_type::share_id(state_.share_serial++);
  }

  const model::scenario& s_;
  std::span<const model::node* const> nodes_;
  cluster_state& state_;
  const Engine& engine_;
  alloc::features features_;
  Policy node_policy_;  // a copy for ranking nodes (the allocators own the others)
  std::vector<const model::device_class*> classes_;
  std::vector<const model::resource_slice*> slices_;
  std::vector<const model::device_taint_rule*> rules_;
  // One allocator per thread (run_options::threads): node i is tried by allocators_[i % size], the first also serving
  // nodes outside the list.
  std::deque<allocator_type> allocators_;
  std::optional<fit_allocator_type> fit_allocator_;  // see owner_oracle
  std::optional<funnel_builder<Engine>> funnels_;
  std::unordered_map<const model::node*, std::size_t> node_index_;  // position in nodes_
  unfit_memo unfit_;  // nodes known not to fit a unit's shape (and why): not searched (or explained) again
  const alloc::pending_demand* demand_;  // what the queue still asks for (policies that weigh facts), or null
  node_scorer scorer_;
  bool score_every_node_ = false;
  bool explain_refusals_ = true;
  const node_scope* scope_ = nullptr;
  std::optional<fragmentation_gauge<Engine>> gauge_;  // node-ranking policies, where devices are shared by capacity
  requested_cpu_and_memory used_cpu_and_memory_;  // while fragmentation is measured
  std::optional<node_likeness> likeness_;  // node-ranking policies: which nodes are alike, to try one of each kind
  std::optional<detail::trial_threads> threads_;  // started when a unit first needs them (last: stopped first)
};

}  // namespace dra::sched

#include <dra/sched/detail/unit_search.hpp>
