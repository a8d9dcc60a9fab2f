// One pod's scheduling cycle, as kube-scheduler runs it with its DynamicResources plugin: scheduling gates, the
// pod's claims, node filters, the choice of a node where the claims' devices fit, the commit to the cluster state and
// the pod's outcome — the one path every run, gang and analysis takes.
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/demand.hpp>
#include <dra/alloc/features.hpp>
#include <dra/core/function_ref.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/claim_resolver.hpp>
#include <dra/sched/cluster_state.hpp>
#include <dra/sched/detail/extended_claims.hpp>
#include <dra/sched/detail/node_allocatable_claims.hpp>
#include <dra/sched/disruption_budgets.hpp>
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/filter_memo.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_list.hpp>
#include <dra/sched/pod_filter.hpp>
#include <dra/sched/pod_requests.hpp>
#include <dra/sched/preemption.hpp>
#include <dra/sched/queue.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sched/scoring.hpp>
#include <dra/sched/unit_placer.hpp>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sched {

// Whether a pending pod no node takes goes through kube-scheduler's PostFilters (DynamicResources', then
// DefaultPreemption), and what preemption may do for it.
enum class post_filters : std::uint8_t {
  off,      // none: the fit error alone (a gang's trial, whose failure is the gang's; capacity's copies, unless
            // it counts what fits once lower-priority pods may go)
  preempt,  // a pod of the queue: preemption evicts its victims, nominates a node and the pod is tried again later
  retry,    // a nominated pod tried again: a second round finds victims but evicts none
};

// What a claim says when its pod's node filters leave no node (followed by the pod's refusal, when refusals are
// explained: run_options::explain_refusals).
inline constexpr std::string_view pod_fits_no_node_reason = "its pod fits no node";

// The cycle over one scenario: the cluster state and the report it writes, and the pieces each pod's cycle uses (the
// claim resolver, the unit placer with its allocators, the node allocatable accounting). Pods are run one at a time
// (run_pod); what a pod's cycle commits stays for the pods after it.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
class scheduling_cycle {
 public:
  using placer_type = unit_placer<Engine, Policy>;

  scheduling_cycle(const model::scenario& s, const Engine& engine, alloc::features features, Policy policy,
                   run_options options = {})
      : s_(s), features_(features), nodes_(s), queue_(queue_order(pods_of(s))), resolver_(s, queue_),
        node_allocatable_(s, features), state_(initial_state(s, nodes_.nodes, features, options.nodes == node_choice::kube_score)),
        placer_(s, nodes_.nodes, state_, engine, features, std::move(policy), options.threads,
                alloc::uses_facts<Policy> ? &demand_ : nullptr),
        filter_memo_(nodes_.nodes.size()), keep_candidates_(options.keep_preemption_candidates) {
    placer_.explain_refusals(options.explain_refusals);
    for (const auto& c : s.classes) classes_.push_back(&c.object);
    for (const model::node* n : nodes_.nodes)
      node_fields_ = node_fields_ || n->unschedulable || !n->taints.empty() || n->allocatable.has_value();
    if (options.nodes == node_choice::kube_score) placer_.score_nodes(options.score_every_node, options.profile);
    // Policies that weigh facts weigh them by what the queue still asks for; first fit pays nothing for it.
    if constexpr (alloc::uses_facts<Policy>) {
      queue_demand demand = resolver_.demand_of_queue();
      for (const auto& specs : demand.per_pod)
        for (const model::device_claim* spec : specs) demand_.add(*spec);
      for (const model::device_claim* spec : demand.unreferenced) demand_.add(*spec);
      pod_demand_ = std::move(demand.per_pod);
    }
    // A node-ranking policy weighs how much a fit fragments its node for the pending pods' shapes.
    if constexpr (alloc::node_ranking_policy<Policy>) {
      std::vector<std::pair<amounts, std::vector<const model::device_claim*>>> workload;
      for (const std::size_t p : queue_) {
        const model::pod& pod = s.pods[p].object;
        if (pod.node_name && !pod.node_name->empty()) continue;
        workload.emplace_back(pod_requests(pod), p < pod_demand_.size() ? pod_demand_[p]
                                                                        : std::vector<const model::device_claim*>{});
      }
      placer_.measure_fragmentation(workload);
    }
  }
  scheduling_cycle(const scheduling_cycle&) = delete;
  scheduling_cycle& operator=(const scheduling_cycle&) = delete;

  [[nodiscard]] const model::scenario& scenario() const noexcept { return s_; }
  [[nodiscard]] std::span<const model::node* const> nodes() const noexcept { return nodes_.nodes; }
  [[nodiscard]] std::span<const std::size_t> queue() const noexcept { return queue_; }
  [[nodiscard]] const claim_resolver& resolver() const noexcept { return resolver_; }
  [[nodiscard]] const cluster_state& state() const noexcept { return state_; }
  [[nodiscard]] const run_report& report() const noexcept { return report_; }
  // The report, each scenario claim with one outcome: its last (final_outcomes). Releases keep their place among
  // the outcomes kept.
  run_report take_report() && {
    const std::vector<bool> keep = final_outcomes(report_);
    for (released_claim& r : report_.released)
      r.at = static_cast<std::size_t>(std::count(keep.begin(), keep.begin() + static_cast<std::ptrdiff_t>(r.at), true));
    std::size_t kept = 0;
    for (std::size_t i = 0; i < keep.size(); ++i) {
      if (!keep[i]) continue;
      if (kept != i) {
        report_.outcomes[kept] = std::move(report_.outcomes[i]);
        report_.subjects[kept] = report_.subjects[i];
      }
      ++kept;
    }
    report_.outcomes.resize(kept);
    report_.subjects.resize(kept);
    return std::move(report_);
  }
  // The pod a report index names: the scenario's, or one placed after them (place).
  [[nodiscard]] const model::pod& pod_at(std::size_t index) const { return sched::pod_at(s_, report_, index); }

  // Runs one pod's cycle: a finished pod is skipped, a gated one waits, so does one whose claims are missing or not
  // its own (PreEnqueue), a bound one has its claims allocated on its node, a pending one goes through the filters to
  // the node where its claims fit (or is told why none).
  void run_pod(std::size_t pod_index, post_filters post = post_filters::off) {
    const model::pod& pod = pod_at(pod_index);
    if (model::is_terminal(pod)) return;  // a finished pod is not scheduled, and its node does not count it
    const bool bound = pod.node_name && !pod.node_name->empty();
    if (!bound && is_gated(pod)) {
      hold(pod_index, std::string(scheduling_gated_reason), true);
      return;
    }
    if (!bound)
      if (auto why = resolver_.pre_enqueue_rejection(pod)) {
        hold(pod_index, std::move(*why), false);
        return;
      }
    if (!bound) {
      // What the attempt changes, to take it back if the pod is nominated and tried again later.
      const attempt_mark mark = post == post_filters::preempt ? mark_attempt(pod) : attempt_mark{};
      resolved_claims claims = resolver_.resolve(pod_index, pod, state_, report_);
      place_pending_pod(pod_index, claims, post, mark);
      return;
    }
    resolved_claims claims = resolver_.resolve(pod_index, pod, state_, report_);
    if (claims.unit.empty()) return;
    place_unit(claims.unit, pod_index, nodes_.named(*pod.node_name, pinned_nodes_), std::move(claims.error), nullptr);
  }

  // A pod's cycle has run (placed or not): what it asked for leaves the pending demand.
  void finish_pod(std::size_t pod_index) {
    if constexpr (alloc::uses_facts<Policy>)
      if (pod_index < pod_demand_.size())
        for (const model::device_claim* spec : pod_demand_[pod_index]) demand_.remove(*spec);
  }

  // The pending claims no pod names, each a unit of its own, after the queue's pods.
  void place_unreferenced_claims() {
    for (std::size_t i = 0; i < s_.claims.size(); ++i)
      if (!s_.claims[i].object.allocation && !state_.answered[i]) {
        state_.answered[i] = true;
        place_unit({{i, std::nullopt, {}, std::nullopt}}, std::nullopt, nullptr, std::nullopt, nullptr);
        if constexpr (alloc::uses_facts<Policy>) demand_.remove(s_.claims[i].object.spec);
      }
  }

  // Runs one more pending pod (no nodeName) as the next pod of the queue: its claims come from its templates and
  // what it takes stays taken for the pods after it. Every cache of the run serves it, which is what makes thousands
  // of copies of a pod cheap. Its index in the report is scenario.pods.size() + the pods placed before it. With
  // `post` preempt, a pod no node takes may evict lower-priority pods, and is tried again at once.
  const pod_outcome& place(model::located<model::pod> pod, post_filters post = post_filters::off) {
    assert(!pod.object.node_name || pod.object.node_name->empty());
    report_.added_pods.push_back(std::move(pod));
    const std::size_t index = s_.pods.size() + report_.added_pods.size() - 1;
    std::vector<const model::device_claim*> demand;
    if constexpr (alloc::uses_facts<Policy>) {
      demand = resolver_.template_demand(report_.added_pods.back().object, state_);
      for (const model::device_claim* spec : demand) demand_.add(*spec);
    }
    run_pod(index, post);
    if (post == post_filters::preempt) retry_nominated();  // committed before the next pod, as its victims are gone
    for (const model::device_claim* spec : demand) demand_.remove(*spec);
    return report_.pods.back();
  }

  // The pods preemption nominated while the queue ran, tried again now that their victims are gone, after the
  // queue's pods (kube-scheduler's queue takes them back once the victims are deleted): on their nominated node
  // first, then on every node. Where each lands (or why not) is its outcome's retry.
  void retry_nominated();

  // A trial (a gang's) may use only the nodes `scope` marks; nullptr: every node.
  void set_scope(const node_scope* scope) noexcept { placer_.set_scope(scope); }

  // The state and the report's length now, to go back to (restore) if a trial fails.
  [[nodiscard]] cluster_snapshot snapshot() const {
    return {state_, record_mark::of(report_), state_.ledger.generation(), state_.ledger.changes_seen()};
  }
  // Back to `snapshot`: nothing committed since stays. The ledger is assigned only when something was added since
  // (which tells every cache keyed on it that it changed); `snapshot` is brought up to date with it.
  void restore(cluster_snapshot& snapshot) {
    const bool ledger_moved = state_.ledger.generation() != snapshot.ledger_generation ||
                              state_.ledger.changes_seen() != snapshot.ledger_changes;
    state_.assign_all_but_ledger(snapshot.state);
    if (ledger_moved) {
      state_.ledger = snapshot.state.ledger;  // the object the allocators read, now holding the snapshot's devices
      placer_.forget();                       // what was found unfit while the trial held devices may fit now
      snapshot.ledger_generation = state_.ledger.generation();
      snapshot.ledger_changes = state_.ledger.changes_seen();
    }
    placer_.scorer().changed_all();
    snapshot.records.cut(report_);
  }

  // A pod (a gang's) answered without a cycle of its own: its outcome, and those of its claims, as given.
  void record_pod(pod_outcome outcome) { report_.pods.push_back(std::move(outcome)); }
  void record_claim(std::size_t claim, std::size_t pod_index, std::string reason) {
    state_.answered[claim] = true;
    model::claim_outcome o;
    o.claim = model::namespaced_name(s_.claims[claim].object.meta);
    o.status = model::claim_unschedulable{std::move(reason), std::nullopt};
    report_.outcomes.push_back(std::move(o));
    report_.subjects.push_back({claim, std::nullopt, pod_index, std::nullopt});
  }
  void warn(std::string warning) { report_.warnings.push_back(std::move(warning)); }
  // The pods of the report from `first` on, put in the order `before` gives.
  template <class Before>
  void reorder_pods(std::size_t first, Before before) {
    std::stable_sort(report_.pods.begin() + static_cast<std::ptrdiff_t>(first), report_.pods.end(), before);
  }

 private:
  static std::vector<const model::pod*> pods_of(const model::scenario& s) {
    std::vector<const model::pod*> out;
    out.reserve(s.pods.size());
    for (const auto& p : s.pods) out.push_back(&p.object);
    return out;
  }

  // The state before any pod's cycle: the input's allocations in the ledger, the bound unfinished pods' requests on
  // their nodes, every claim unanswered.
  static cluster_state initial_state(const model::scenario& s, std::span<const model::node* const> nodes,
                                     const alloc::features& features, bool scoring) {
    cluster_state state;
    state.requests.resize(nodes.size());
    state.usage_revision.resize(nodes.size(), 0);
    state.answered.assign(s.claims.size(), false);
    state.claim_outcome.resize(s.claims.size());
    state.group_generated.resize(s.pod_groups.size());
    std::unordered_map<model::text, std::size_t> by_name;
    for (std::size_t i = 0; i < nodes.size(); ++i) by_name.emplace(nodes[i]->meta.name, i);
    for (const auto& located : s.pods) {
      const model::pod& p = located.object;
      if (!p.node_name || p.node_name->empty() || model::is_terminal(p)) continue;
      if (const auto it = by_name.find(*p.node_name); it != by_name.end()) {
        const amounts recorded = detail::recorded_node_allocatable(p, features);
        add_requests(state.requests[it->second], p, pod_requests(p, recorded), recorded, scoring);
      }
    }
    for (const auto& c : s.claims)
      if (c.object.allocation) state.ledger.add(*c.object.allocation, alloc::object_name(c.object.meta));
    // Only policies that rank nodes need to know how used each node's devices are.
    if constexpr (alloc::node_ranking_policy<Policy>) state.devices.emplace(s, nodes);
    return state;
  }

  // Node i of the list runs `pod`, which requests `requests` (its devices adding `from_devices`, KEP-5517).
  void take(std::size_t i, const model::pod& pod, const amounts& requests, const amounts& from_devices = {}) {
    add_requests(state_.change_requests(i), pod, requests, from_devices, placer_.scorer().on());
    placer_.scorer().changed(i);
  }
  // Scoring's non-zero requests are counted only by runs that score nodes.
  static void add_requests(node_usage& usage, const model::pod& pod, const amounts& requests,
                           const amounts& from_devices, bool scoring) {
    if (scoring)
      usage.add(requests, counted_requests(pod, requests, from_devices));
    else
      usage.add(requests);
  }

  // A pod the queue holds back (its scheduling gates, or a plugin's PreEnqueue: `why`), never tried on a node:
  // answered as such, and the pending claims it names wait with it (claims its templates would make are not made yet).
  void hold(std::size_t pod_index, std::string why, bool gated) {
    const model::pod& pod = pod_at(pod_index);
    const std::string reason = "its pod waits: " + why;
    for (std::size_t c : resolver_.claims_named_by(pod)) {
      if (s_.claims[c].object.allocation || state_.answered[c]) continue;
      state_.answered[c] = true;
      model::claim_outcome o;
      o.claim = alloc::object_name(s_.claims[c].object.meta);
      o.status = model::claim_unschedulable{reason, std::nullopt};
      note_rejection(o);
      report_.outcomes.push_back(std::move(o));
      report_.subjects.push_back({c, std::nullopt, pod_index, std::nullopt});
    }
    report_.pods.push_back({pod_index, std::nullopt, std::move(why), gated, 0, {}, {}, {}});
  }

  // Where a pending pod's cycle placed it: the node, and what its devices add to its requests there (KEP-5517).
  struct pod_placement {
    const model::node* node = nullptr;
    std::optional<detail::node_allocatable_verdict> verdict;
  };

  // What a pending pod's attempt added to the report and the state, for taking it back (undo_attempt).
  struct attempt_mark {
    record_mark records;
    std::size_t generated_outcomes = 0;
    std::vector<std::pair<std::size_t, bool>> answered;  // the pod's scenario claims and whether they were answered
  };
  attempt_mark mark_attempt(const model::pod& pod) const {
    attempt_mark mark{record_mark::of(report_), state_.generated_outcome.size(), {}};
    for (std::size_t c : resolver_.claims_named_by(pod)) mark.answered.emplace_back(c, state_.answered[c]);
    return mark;
  }
  void undo_attempt(const attempt_mark& mark);

  // What the pod's PostFilters add to its fit error `outcome` (empty: preemption nominated it a node).
  struct post_filter_request {
    std::size_t pod = 0;
    post_filters mode = post_filters::off;
    const amounts& requests;
    pod_node_filter* filter = nullptr;                         // null: every node passed the filters
    std::span<const model::resource_claim* const> claims;     // the pod's pending claims, for the dry run
    bool pre_filter_failed = false;                            // a claim could not be had: no node was tried
    std::span<const dra_resource> dra_backed;
  };
  std::string run_post_filters(const post_filter_request& request, pod_outcome& outcome, const attempt_mark& mark);
  void keep_candidates(pod_preemption& preemption, std::span<const preemption_candidate> candidates,
                       const preemption_choice& choice, const std::vector<reason_lists::id>& statuses) const;
  std::vector<preemption_candidate> preemption_dry_run(const post_filter_request& request,
                                                       std::vector<reason_lists::id>& statuses);
  std::vector<std::size_t> preemption_potential_nodes(const post_filter_request& request, bool frees_devices,
                                                      std::vector<reason_lists::id>& statuses);
  std::vector<const model::resource_claim*> extended_claims_by_node(const post_filter_request& request,
                                                                    std::deque<generated_claim>& made);
  std::vector<std::size_t> evict(const preemption_candidate& chosen, std::size_t preemptor);
  void release_claims_of(std::size_t victim, std::vector<std::size_t>& released);
  void rebuild_ledger(const std::vector<std::size_t>& released);
  alloc::ledger ledger_without(std::span<const std::size_t> freed) const;
  // Device-aware preemption (DRAPreemption): the claims a victim's eviction may free on node `node_name`, and whether
  // the preemptor's claims fit `node` once the claims `freed` are deallocated.
  std::vector<std::size_t> releasable_claims(std::size_t victim, std::string_view node_name) const;
  bool claims_fit_without(const model::node& node, std::span<const model::resource_claim* const> claims,
                          std::span<const std::size_t> freed);
  // A bound pod's requests on its node, as the state counts them (initial_state).
  struct counted_pod {
    amounts requests;
    non_zero_amounts counted;
  };
  counted_pod bound_requests(const model::pod& p);
  void build_running();

  void place_pending_pod(std::size_t pod_index, resolved_claims& claims, post_filters post, const attempt_mark& mark);
  pod_placement place_with_extended_resources(std::size_t pod_index, const std::vector<unit_member>& unit,
                                              pod_node_filter& filter, std::span<const dra_resource> backed,
                                              const pod_scoring* scoring);
  pod_placement node_without_claims(std::size_t pod_index, pod_node_filter* filter, const pod_scoring* scoring);
  pod_placement place_unit(const std::vector<unit_member>& unit, std::optional<std::size_t> pod,
                           const model::node* only, std::optional<dra::error> failure, pod_node_filter* filter,
                           const pod_scoring* scoring = nullptr);
  void commit(const std::vector<unit_member>& unit, std::optional<std::size_t> pod, unit_decision& decision,
              const std::optional<dra::error>& failure, pod_node_filter* filter);

  const model::resource_claim& claim_of(const unit_member& m) const {
    return m.claim ? s_.claims[*m.claim].object : report_.generated[*m.generated].claim;
  }

  // Tells the placer of the queue's first claim that fits nowhere (see unit_placer::note_rejection).
  void note_rejection(const model::claim_outcome& o) {
    if (std::holds_alternative<model::claim_unschedulable>(o.status)) placer_.note_rejection();
  }

  // What node i makes of the pod once its claims (`unit`'s, allocated there as `results`) add their devices' node
  // resources to its requests; a refusal is recorded in the pod's filter, as the DynamicResources plugin's reasons.
  bool node_allocatable_fits(std::size_t pod_index, std::size_t node, const std::vector<unit_member>& unit,
                             std::span<const model::allocation_result> results, pod_node_filter& filter) {
    detail::node_allocatable_verdict verdict = node_allocatable_verdict_on(pod_index, node, unit, results);
    if (verdict.refused.empty()) return true;
    filter.refuse(node, std::move(verdict.refused));
    return false;
  }
  detail::node_allocatable_verdict node_allocatable_verdict_on(std::size_t pod_index, std::size_t node,
                                                              const std::vector<unit_member>& unit,
                                                              std::span<const model::allocation_result> results) const;

  const model::scenario& s_;
  alloc::features features_;
  node_list nodes_;
  std::vector<std::size_t> queue_;  // the scenario's pods in queue order
  claim_resolver resolver_;
  detail::node_allocatable_accounting node_allocatable_;  // the devices with nodeAllocatableResources (KEP-5517)
  // What the queue still asks for, including the unit of work being allocated (policies that use facts only).
  alloc::pending_demand demand_;
  std::vector<std::vector<const model::device_claim*>> pod_demand_;  // per pod: what its cycle asks for
  cluster_state state_;
  run_report report_;
  placer_type placer_;
  std::vector<const model::device_class*> classes_;
  bool node_fields_ = false;  // some node is cordoned, tainted or has allocatable: pods' node filters apply
  std::deque<model::node> pinned_nodes_;  // nodes named by pods but not in the node list
  std::vector<std::shared_ptr<const extended_claim_requests>> extended_specs_;  // every extended claim's texts
  node_filter_memo filter_memo_;  // the node filters' verdicts per kind of pod, and every reason list

  // Preemption's state, built when a pod first goes through the PostFilters with preemption on.
  struct nomination {
    std::size_t pod = 0;      // index of the preemptor
    std::size_t outcome = 0;  // its pod outcome in the report
    std::size_t node = 0;     // the nominated node
    counted_pod reserved;     // its requests, held on the node until it is tried again
    std::vector<std::size_t> held_claims;  // released claims whose devices it holds until then (DRAPreemption)
  };
  std::vector<nomination> nominated_;
  bool running_built_ = false;
  std::vector<std::vector<preemption_victim>> running_;  // per node: the input's bound pods still running there
  // The lowest priority among them when built (evictions only raise it): none lower, no pod preempts.
  std::int32_t lowest_running_priority_ = std::numeric_limits<std::int32_t>::max();
  std::vector<bool> evicted_;                            // per scenario pod
  std::vector<std::size_t> claim_users_;                 // per scenario claim: running or pending pods naming it
  std::vector<bool> released_;                           // per scenario claim: deallocated by an eviction
  std::vector<bool> held_;  // per scenario claim: released but its devices held for a nominated pod (DRAPreemption)
  disruption_budgets budgets_;
  bool keep_candidates_ = false;  // run_options::keep_preemption_candidates
};

}  // namespace dra::sched

#include <dra/sched/detail/pod_cycle.hpp>
#include <dra/sched/detail/pod_preemption.hpp>
