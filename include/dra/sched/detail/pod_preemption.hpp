// The PostFilters of a pending pod's cycle (scheduling_cycle): DynamicResources' word and DefaultPreemption — its dry
// run over the candidate nodes, the eviction of the chosen node's victims (their claims released as the resourceclaim
// controller releases them), the nomination, and the nominated pods' retry after the queue.
#pragma once

#include <dra/sched/scheduling_cycle.hpp>

namespace dra::sched {

// The text to add to the pod's fit error; empty when preemption nominated it a node (then `outcome.preemption` says
// which, and its victims are gone from the state).
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
std::string scheduling_cycle<Engine, Policy>::run_post_filters(const post_filter_request& request,
                                                               pod_outcome& outcome, const attempt_mark& mark) {
  const model::pod& pod = pod_at(request.pod);
  // DynamicResources deallocates nothing dra models: it has no word but this for a pod whose claims it read.
  const bool has_claims = !request.pre_filter_failed && (!pod.resource_claims.empty() || !request.dra_backed.empty() ||
                                                         pod.extended_resource_claim_status.has_value());
  const std::string_view dra_word = has_claims ? still_not_schedulable : no_claims_to_deallocate;
  if (!model::preempts_lower_priority(pod)) return post_filter_text(dra_word, preemption_policy_never);
  // Without a running pod of lower priority the dry run finds no candidate: it would only say why, node by node.
  build_running();
  if (!placer_.explains_refusals() && !(lowest_running_priority_ < pod.priority)) return {};
  std::vector<reason_lists::id> statuses(nodes_.nodes.size(), reason_lists::passed);
  std::vector<preemption_candidate> candidates = preemption_dry_run(request, statuses);
  if (candidates.empty())
    return post_filter_text(dra_word, fit_error_message(nodes_.nodes.size(), filter_memo_.reasons().count(statuses)));
  const preemption_choice choice = choose_preemption_node(candidates);
  if (request.mode != post_filters::preempt) return {};  // a retry's second round: nominated again, nobody evicted
  const preemption_candidate& chosen = candidates[choice.candidate];
  pod_preemption preemption;
  preemption.nominated_node = std::string(nodes_.nodes[chosen.node]->meta.name);
  for (const preemption_victim& v : chosen.victims) preemption.victims.push_back(v.pod);
  preemption.rule = choice.rule;
  preemption.candidates = candidates.size();
  preemption.pdb_violations = chosen.pdb_violations;
  if (keep_candidates_) keep_candidates(preemption, candidates, choice, statuses);
  // The pod is tried again after the queue: this attempt's claims and answers are taken back, to be made again then.
  undo_attempt(mark);
  std::vector<std::size_t> released = evict(chosen, request.pod);
  nomination held{request.pod, report_.pods.size(), chosen.node, {request.requests, {}}, {}};
  if (placer_.scorer().on()) held.reserved.counted = counted_requests(pod, request.requests);
  // With DRAPreemption the released claims' devices are held for the preemptor until its retry (KEP-5690's claim
  // nomination; the pods after it in the queue are of no higher priority); without, anyone after it may take them.
  if (features_.device_preemption) {
    for (std::size_t c : released) held_[c] = true;
    held.held_claims = std::move(released);
  } else if (!released.empty()) {
    rebuild_ledger(released);
  }
  state_.change_requests(chosen.node).add(held.reserved.requests, held.reserved.counted);
  placer_.scorer().changed(chosen.node);
  nominated_.push_back(std::move(held));
  outcome.preemption = std::move(preemption);
  return {};
}

// Every candidate of a preemption, with its victims and the rule that set it aside, and what the dry run said of
// the other nodes (`statuses`: empty for a candidate and for a node it did not try).
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::keep_candidates(pod_preemption& preemption,
                                                       std::span<const preemption_candidate> candidates,
                                                       const preemption_choice& choice,
                                                       const std::vector<reason_lists::id>& statuses) const {
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    preemption_option& option = preemption.candidate_nodes.emplace_back();
    option.node = std::string(nodes_.nodes[candidates[k].node]->meta.name);
    for (const preemption_victim& v : candidates[k].victims) option.victims.push_back(v.pod);
    option.pdb_violations = candidates[k].pdb_violations;
    option.set_aside_by = choice.set_aside_by[k];
  }
  preemption.other_nodes = filter_memo_.reasons().count(statuses);
  const auto silent = static_cast<std::size_t>(std::ranges::count(statuses, reason_lists::passed));
  preemption.nodes_not_tried = silent - candidates.size();
}

// DefaultPreemption's dry run: on each node whose filters refused the pod for what evicting pods can free (its
// resources, its pod count; with DRAPreemption, its devices too), every lower-priority pod removed; if the pod then
// passes the node's filters and its claims fit the node's devices (as they stand: kube-scheduler 1.36/1.37 frees no
// device by preemption; with DRAPreemption, less the claims only the removed pods used), each of them is given back
// where the pod still fits without it: first those whose eviction would exceed a PodDisruptionBudget, then the others,
// the most important first in each. `statuses` gets why each node is no candidate (empty for a candidate, and for
// the nodes left untried once enough candidates are found).
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
std::vector<preemption_candidate> scheduling_cycle<Engine, Policy>::preemption_dry_run(
    const post_filter_request& request, std::vector<reason_lists::id>& statuses) {
  const model::pod& pod = pod_at(request.pod);
  build_running();
  // The claims to fit on each node: the pod's, and the claim for the extended resources DRA serves there.
  std::deque<generated_claim> extended;
  const std::vector<const model::resource_claim*> extended_on = extended_claims_by_node(request, extended);
  const bool frees_devices = features_.device_preemption && (!request.claims.empty() || !extended.empty());
  std::vector<preemption_candidate> out;
  const std::vector<std::size_t> potential = preemption_potential_nodes(request, frees_devices, statuses);
  const reason_lists::id no_victims =
      filter_memo_.reasons().intern({{node_reason_code::resources, std::string(no_preemption_victims)}});
  const std::size_t wanted = preemption_candidates_wanted(potential.size());
  for (std::size_t i : potential) {
    if (out.size() >= wanted) {  // not tried: enough candidates found
      statuses[i] = reason_lists::passed;
      continue;
    }
    std::vector<preemption_victim> lower;
    for (const preemption_victim& v : running_[i])
      if (v.priority < pod.priority) lower.push_back(v);
    if (lower.empty()) {
      statuses[i] = no_victims;
      continue;
    }
    const model::node& node = *nodes_.nodes[i];
    std::vector<const model::resource_claim*> claims(request.claims.begin(), request.claims.end());
    if (extended_on[i] != nullptr) claims.push_back(extended_on[i]);
    node_usage usage = state_.requests[i];
    std::vector<counted_pod> held(lower.size());
    std::vector<std::vector<std::size_t>> holds(lower.size());  // the claims each victim may free
    for (std::size_t k = 0; k < lower.size(); ++k) {
      held[k] = bound_requests(s_.pods[lower[k].pod].object);
      usage.remove(held[k].requests, held[k].counted);
      if (frees_devices) holds[k] = releasable_claims(lower[k].pod, node.meta.name);
    }
    std::vector<char> removed(lower.size(), 1);
    // Whether the claims fit with the removed pods' claims freed (only they use them); as the ledger stands without
    // DRAPreemption, where the first check settles it for the reprieves too.
    auto claims_fit = [&] {
      if (claims.empty()) return true;
      if (!frees_devices) return placer_.fits_on(node, claims);
      return claims_fit_without(node, claims, detail::claims_freed(holds, removed, claim_users_));
    };
    std::vector<node_reason> still = filter_node(pod, request.requests, node, usage, request.dra_backed);
    if (still.empty() && !claims_fit())
      still = {{node_reason_code::claims, std::string(claims_reason)}};
    if (!still.empty()) {
      statuses[i] = filter_memo_.reasons().intern(std::move(still));
      continue;
    }
    std::vector<std::size_t> order(lower.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return more_important(lower[a], lower[b]); });
    std::vector<std::size_t> pods_in_order(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) pods_in_order[k] = lower[order[k]].pod;
    const std::vector<char> violating = budgets_.violating(pods_in_order);
    preemption_candidate candidate{i, {}, 0};
    // Those whose eviction would exceed a budget are given back first, then the others; the most important first.
    for (const bool violating_pass : {true, false})
      for (std::size_t j = 0; j < order.size(); ++j) {
        if ((violating[j] != 0) != violating_pass) continue;
        const std::size_t k = order[j];
        usage.add(held[k].requests, held[k].counted);
        removed[k] = 0;
        if (filter_node(pod, request.requests, node, usage, request.dra_backed).empty() &&
            (!frees_devices || claims_fit()))
          continue;  // reprieved
        usage.remove(held[k].requests, held[k].counted);
        removed[k] = 1;
        candidate.victims.push_back(lower[k]);
        if (violating_pass) ++candidate.pdb_violations;
      }
    std::ranges::stable_sort(candidate.victims, more_important);
    statuses[i] = reason_lists::passed;
    out.push_back(std::move(candidate));
  }
  return out;
}

// The nodes whose filters refused the pod only for what evicting pods may free (`frees_devices`: devices too); the
// others are marked not helped by preemption in `statuses`.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
std::vector<std::size_t> scheduling_cycle<Engine, Policy>::preemption_potential_nodes(
    const post_filter_request& request, bool frees_devices, std::vector<reason_lists::id>& statuses) {
  reason_lists& lists = filter_memo_.reasons();
  const reason_lists::id not_helpful = lists.intern({{node_reason_code::claims, std::string(preemption_not_helpful)}});
  std::vector<std::size_t> potential;
  if (request.pre_filter_failed) {
    std::ranges::fill(statuses, not_helpful);
    return potential;
  }
  const reason_lists::id claims_refused = lists.intern({{node_reason_code::claims, std::string(claims_reason)}});
  std::vector<char> resolvable;  // per reason list, once seen: 1 + whether preemption may take every reason away
  for (std::size_t i = 0; i < nodes_.nodes.size(); ++i) {
    statuses[i] = not_helpful;
    const reason_lists::id refused = request.filter != nullptr ? request.filter->refusal_of(i) : claims_refused;
    if (refused >= resolvable.size()) resolvable.resize(refused + 1, 0);
    if (resolvable[refused] == 0)
      resolvable[refused] = static_cast<char>(1 + std::ranges::all_of(lists[refused], [&](const node_reason& r) {
                                                return preemption_may_resolve(r, frees_devices);
                                              }));
    if (resolvable[refused] == 2) potential.push_back(i);
  }
  return potential;
}

// Per node, the claim for the extended resources DRA serves there (KEP-5004), made as the pod's cycle makes it (null
// where device plugins serve them all, or the pod's status names the claim made before, which is among its own);
// the claims live in `made`. DynamicResources' Filter in the dry run allocates it with the pod's claims.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
std::vector<const model::resource_claim*> scheduling_cycle<Engine, Policy>::extended_claims_by_node(
    const post_filter_request& request, std::deque<generated_claim>& made) {
  const model::pod& pod = pod_at(request.pod);
  std::vector<const model::resource_claim*> out(nodes_.nodes.size(), nullptr);
  if (request.dra_backed.empty() || pod.extended_resource_claim_status) return out;
  for (const detail::node_run& run : detail::runs_by_dra_path(nodes_.nodes, request.dra_backed)) {
    if (run.left_to_dra.empty()) continue;
    const generated_claim& claim =
        made.emplace_back(claim_resolver::extended_claim(request.pod, pod, extended_claim_for(pod, run.left_to_dra)));
    extended_specs_.push_back(claim.extended);  // remembered shapes view its texts
    for (std::size_t i = 0; i < nodes_.nodes.size(); ++i)
      if (run.nodes[i]) out[i] = &claim.claim;
  }
  return out;
}

// The victims leave their node: their requests no longer count there, and each claim that no running or pending
// pod uses any more is released (deallocated, deleted when made from the victim's template). Returns those claims,
// still in the ledger: the caller frees their devices now or holds them for the preemptor.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
std::vector<std::size_t> scheduling_cycle<Engine, Policy>::evict(const preemption_candidate& chosen,
                                                                 std::size_t preemptor) {
  std::vector<std::size_t> released;
  for (const preemption_victim& v : chosen.victims) {
    const counted_pod gone = bound_requests(s_.pods[v.pod].object);
    state_.change_requests(chosen.node).remove(gone.requests, gone.counted);
    evicted_[v.pod] = true;
    std::erase_if(running_[chosen.node], [&](const preemption_victim& r) { return r.pod == v.pod; });
    report_.evictions.push_back({v.pod, preemptor});
    release_claims_of(v.pod, released);
    budgets_.evicted(v.pod);
  }
  report_.budgets.clear();
  for (std::size_t b = 0; b < s_.disruption_budgets.size(); ++b)
    if (budgets_.spent(b)) report_.budgets.push_back({b, budgets_.allowed(b)});
  placer_.scorer().changed(chosen.node);
  return released;
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::release_claims_of(std::size_t victim, std::vector<std::size_t>& released) {
  const model::pod& pod = s_.pods[victim].object;
  for (std::size_t c : resolver_.claims_named_by(pod)) {
    if (claim_users_[c] > 0) --claim_users_[c];
    const model::resource_claim& claim = s_.claims[c].object;
    if (claim_users_[c] > 0 || !claim.allocation || released_[c]) continue;
    released_[c] = true;
    released.push_back(c);
    const bool own = !pod.meta.uid.empty() && claim.meta.controller_uid == pod.meta.uid;
    report_.released.push_back({c, own, report_.outcomes.size()});
  }
}

// The ledger again without the released claims' devices (a ledger only grows): the input's other allocations and
// every allocation the run made; every cache keyed on it starts over.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::rebuild_ledger(const std::vector<std::size_t>& released) {
  state_.ledger = ledger_without({});
  placer_.forget();
  if (state_.devices)
    for (std::size_t c : released) state_.devices->release(*s_.claims[c].object.allocation, state_.ledger);
}

// The input's allocations but the released claims' (unless held for a nominated pod) and `freed`, then every
// allocation the run made.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
alloc::ledger scheduling_cycle<Engine, Policy>::ledger_without(std::span<const std::size_t> freed) const {
  alloc::ledger kept;
  for (std::size_t c = 0; c < s_.claims.size(); ++c)
    if (s_.claims[c].object.allocation && (!released_[c] || held_[c]) && std::ranges::find(freed, c) == freed.end())
      kept.add(*s_.claims[c].object.allocation, alloc::object_name(s_.claims[c].object.meta));
  for (const model::claim_outcome& o : report_.outcomes)
    if (const auto* allocated = o.allocated()) kept.add(allocated->allocation, o.claim);
  return kept;
}

// KEP-5690's RemovePod: a claim the victim names, allocated to devices of this node alone, not yet released and not
// reserved for a PodGroup (workload-aware preemption frees nothing). Once every pod using it is removed, it is free.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
std::vector<std::size_t> scheduling_cycle<Engine, Policy>::releasable_claims(std::size_t victim,
                                                                             std::string_view node_name) const {
  std::vector<std::size_t> out;
  for (std::size_t c : resolver_.claims_named_by(s_.pods[victim].object)) {
    const model::resource_claim& claim = s_.claims[c].object;
    if (claim.allocation && !released_[c] && detail::local_to(*claim.allocation, node_name) &&
        std::ranges::none_of(claim.reserved_for, &detail::is_pod_group_reference))
      out.push_back(c);
  }
  return out;
}

// The claims' fit on `node` tried on a ledger without `freed`, the state's ledger given back after.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
bool scheduling_cycle<Engine, Policy>::claims_fit_without(const model::node& node,
                                                          std::span<const model::resource_claim* const> claims,
                                                          std::span<const std::size_t> freed) {
  if (freed.empty()) return placer_.fits_on(node, claims);
  alloc::ledger saved(std::move(state_.ledger));  // set aside, not copied: the state's ledger keeps its address
  state_.ledger = ledger_without(freed);
  placer_.forget();
  const bool fits = placer_.fits_on(node, claims);
  state_.ledger = std::move(saved);
  placer_.forget();
  return fits;
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
auto scheduling_cycle<Engine, Policy>::bound_requests(const model::pod& p) -> counted_pod {
  const amounts recorded = detail::recorded_node_allocatable(p, features_);
  counted_pod out{pod_requests(p, recorded), {}};
  if (placer_.scorer().on()) out.counted = counted_requests(p, out.requests, recorded);
  return out;
}

// Which input pods run where, and which pods use each claim: worked out once, when preemption first needs them.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::build_running() {
  if (running_built_) return;
  running_built_ = true;
  running_.assign(nodes_.nodes.size(), {});
  evicted_.assign(s_.pods.size(), false);
  claim_users_.assign(s_.claims.size(), 0);
  released_.assign(s_.claims.size(), false);
  held_.assign(s_.claims.size(), false);
  budgets_ = disruption_budgets(s_);
  std::unordered_map<model::text, std::size_t> by_name;
  for (std::size_t i = 0; i < nodes_.nodes.size(); ++i) by_name.emplace(nodes_.nodes[i]->meta.name, i);
  for (std::size_t k = 0; k < s_.pods.size(); ++k) {
    const model::pod& p = s_.pods[k].object;
    if (model::is_terminal(p)) continue;
    for (std::size_t c : resolver_.claims_named_by(p)) ++claim_users_[c];
    if (!p.node_name || p.node_name->empty()) continue;
    if (const auto it = by_name.find(*p.node_name); it != by_name.end()) {
      running_[it->second].push_back({k, p.priority, p.start_time});
      lowest_running_priority_ = std::min(lowest_running_priority_, p.priority);
    }
  }
}

// Takes back what a pending pod's attempt added: its claims' answers and outcomes, the claims made for it, its
// report entries.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::undo_attempt(const attempt_mark& mark) {
  for (std::size_t g = mark.records.generated; g < report_.generated.size(); ++g)
    state_.generated_names.erase({report_.generated[g].claim.meta.namespace_, report_.generated[g].claim.meta.name});
  state_.generated_outcome.resize(mark.generated_outcomes);
  for (const auto& [claim, answered] : mark.answered) state_.answered[claim] = answered;
  mark.records.cut(report_);
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::retry_nominated() {
  for (nomination& n : nominated_) {
    state_.change_requests(n.node).remove(n.reserved.requests, n.reserved.counted);
    placer_.scorer().changed(n.node);
    if (!n.held_claims.empty()) {
      // The held devices come free now: the units from here on meet them free.
      for (std::size_t c : n.held_claims) held_[c] = false;
      rebuild_ledger(n.held_claims);
      for (released_claim& r : report_.released)
        if (std::ranges::find(n.held_claims, r.claim) != n.held_claims.end()) r.at = report_.outcomes.size();
    }
    const model::pod& pod = pod_at(n.pod);
    // The nominated node alone first; the pod goes there if it fits.
    node_scope only{std::vector<char>(nodes_.nodes.size(), 0), false, {}};
    only.nodes[n.node] = 1;
    const attempt_mark mark = mark_attempt(pod);
    set_scope(&only);
    run_pod(n.pod);  // no PostFilters: an attempt that fails here is taken back
    set_scope(nullptr);
    if (!report_.pods.back().node) {
      undo_attempt(mark);
      run_pod(n.pod, post_filters::retry);
    }
    pod_outcome retried = std::move(report_.pods.back());
    report_.pods.pop_back();
    pod_outcome& first = report_.pods[n.outcome];
    first.preemption->retry_node = retried.node;
    first.preemption->retry_unschedulable = std::move(retried.unschedulable);
    first.node = std::move(retried.node);
    first.node_allocatable = std::move(retried.node_allocatable);
  }
  nominated_.clear();
}

}  // namespace dra::sched
