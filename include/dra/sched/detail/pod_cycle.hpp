// The steps of a pending pod's cycle (scheduling_cycle): its filters and scoring, its extended resources' claim,
// its unit of work placed, and the commit of what the placer decided.
#pragma once

#include <dra/sched/scheduling_cycle.hpp>

namespace dra::sched {

// A pending pod: its unit of work (if any) on the node its filters leave where its claims fit, as kube-scheduler's
// filters then its DynamicResources plugin would; the node takes the pod's requests.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::place_pending_pod(std::size_t pod_index, resolved_claims& claims,
                                                         post_filters post, const attempt_mark& mark) {
  const model::pod& pod = pod_at(pod_index);
  const amounts requests = pod_requests(pod);
  std::vector<const model::node_selector*> allocated = resolver_.allocated_selectors(pod, state_, report_);
  // Requested resources DeviceClasses serve (KEP-5004): left to DRA on nodes that have none of them.
  const std::vector<dra_resource> dra_backed = dra_backed_resources(requests, classes_);
  // Nodes without taints, cordons or allocatable, a pod without node selection and claims allocated nowhere yet:
  // every node passes, so none is filtered (scenarios without scheduling fields pay nothing).
  const bool filters_apply = node_fields_ || !pod.node_selector.empty() || pod.required_node_affinity ||
                             !allocated.empty() || !dra_backed.empty() || node_allocatable_.active();
  std::optional<pod_node_filter> filter;
  if (filters_apply)
    filter.emplace(pod, requests, nodes_.nodes, state_.requests, state_.usage_revision, filter_memo_,
                   std::move(allocated), dra_backed);
  const node_scope* scope = placer_.scope();
  const bool outside_domain = scope != nullptr && !scope->outside.empty();
  if (filter && outside_domain) filter->leave_out(scope->nodes, {node_reason_code::gang, scope->outside});
  std::optional<pod_scoring> scoring;
  if (placer_.scorer().on()) {
    scoring.emplace(pod, requests, placer_.scorer().config());
    resolver_.for_each_allocated_claim(
        pod, state_, report_, [&](const model::resource_claim& claim, const model::allocation_result& allocation) {
          if (features_.prioritized_list) scoring->allocated_claims_score += prioritized_list_score(claim.spec, allocation);
        });
  }
  const pod_scoring* scored = scoring ? &*scoring : nullptr;
  // A claim that cannot be had (a missing template) stops the pod before any node, as DynamicResources' PreFilter.
  const std::string broken_claim = claims.error ? claims.error->message : std::string();
  std::vector<const model::resource_claim*> pending_claims;  // for preemption's dry run
  if (post != post_filters::off)
    for (const unit_member& m : claims.unit)
      if (m.claim || m.generated) pending_claims.push_back(&claim_of(m));
  pod_placement placed;
  // Their claim is made here unless the pod's status names the one made before.
  if (!dra_backed.empty() && !claims.error && !pod.extended_resource_claim_status) {
    placed = place_with_extended_resources(pod_index, claims.unit, *filter, dra_backed, scored);
  } else if (claims.unit.empty() && !claims.error) {
    placed = node_without_claims(pod_index, filter ? &*filter : nullptr, scored);
  } else {
    placed = place_unit(claims.unit, pod_index, nullptr, std::move(claims.error), filter ? &*filter : nullptr, scored);
  }
  pod_outcome outcome{pod_index, std::nullopt, {}, false, nodes_.nodes.size(), {}, {}, {}};
  if (placed.node != nullptr) {
    const std::size_t i = *placer_.index_of(placed.node);
    if (placed.verdict) {
      take(i, pod, pod_requests(pod, placed.verdict->added), placed.verdict->added);
      outcome.node_allocatable = std::move(placed.verdict->statuses);
    } else {
      take(i, pod, requests);
    }
    outcome.node = std::string(placed.node->meta.name);
  } else if (!broken_claim.empty()) {
    outcome.unschedulable = pre_filter_error_message(nodes_.nodes.size(), broken_claim);
  } else if (!placer_.explains_refusals()) {
    // Left unsaid: every node's reasons cost a pass over the nodes, and this run's refusals are only counted.
  } else if (filter) {
    outcome.unschedulable = filter->refusal().message;
    outcome.reasons = filter->refusal().reasons;
  } else {
    // Every node passed the filters and refused the pod's claims (or there is no node), but those outside a gang's
    // topology domain, which were not tried.
    std::vector<std::vector<node_reason>> claims_refused(nodes_.nodes.size(),
                                                         {{node_reason_code::claims, std::string(claims_reason)}});
    if (outside_domain)
      for (std::size_t i = 0; i < nodes_.nodes.size(); ++i)
        if (!placer_.in_scope(i)) claims_refused[i] = {{node_reason_code::gang, scope->outside}};
    outcome.reasons = count_reasons(claims_refused);
    outcome.unschedulable = fit_error_message(nodes_.nodes.size(), outcome.reasons);
  }
  // The PostFilters speak after a fit error (not after an affinity conflict, which DynamicResources never sees).
  if (placed.node == nullptr && post != post_filters::off && !(filter && filter->refused_before_nodes())) {
    const post_filter_request request{pod_index,      post,         requests, filter ? &*filter : nullptr,
                                      pending_claims, !broken_claim.empty(), dra_backed};
    const std::string tail = run_post_filters(request, outcome, mark);
    if (!tail.empty()) outcome.unschedulable += " " + tail;
  }
  report_.pods.push_back(std::move(outcome));
}

// A pending pod asking for extended resources DeviceClasses serve: its nodes tried in runs of consecutive nodes that
// leave the same of those resources to DRA, each run with the claim kube-scheduler makes for them there (none where
// device plugins serve them all) beside the pod's other claims, until a run has a node for the pod. When none has,
// the claims' answers are those of the first run that tried the extended-resource claim.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
auto scheduling_cycle<Engine, Policy>::place_with_extended_resources(std::size_t pod_index,
                                                                      const std::vector<unit_member>& unit,
                                                                      pod_node_filter& filter,
                                                                      std::span<const dra_resource> backed,
                                                                      const pod_scoring* scoring) -> pod_placement {
  const model::pod& pod = pod_at(pod_index);
  // What one run's unit answered, taken back from the report.
  struct unit_answers {
    std::vector<model::claim_outcome> outcomes;
    std::vector<outcome_subject> subjects;
    std::optional<generated_claim> extended;
  };
  pod_placement placed;
  std::optional<unit_answers> kept;
  for (const detail::node_run& run : detail::runs_by_dra_path(nodes_.nodes, backed)) {
    filter.restrict_to(run.nodes);
    std::vector<unit_member> attempt = unit;
    if (!run.left_to_dra.empty()) {
      generated_claim made = claim_resolver::extended_claim(pod_index, pod, extended_claim_for(pod, run.left_to_dra));
      extended_specs_.push_back(made.extended);  // remembered shapes view its texts
      report_.generated.push_back(std::move(made));
      state_.generated_outcome.emplace_back();
      attempt.push_back({std::nullopt, report_.generated.size() - 1, {}, std::nullopt});
    }
    const std::size_t before = report_.outcomes.size();
    placed = attempt.empty() ? node_without_claims(pod_index, &filter, scoring)
                             : place_unit(attempt, pod_index, nullptr, std::nullopt, &filter, scoring);
    if (placed.node != nullptr) break;
    // Taken back: the run's claims and answers (kept aside when they are the ones to report).
    unit_answers answers;
    answers.outcomes.assign(std::make_move_iterator(report_.outcomes.begin() + static_cast<std::ptrdiff_t>(before)),
                            std::make_move_iterator(report_.outcomes.end()));
    answers.subjects.assign(report_.subjects.begin() + static_cast<std::ptrdiff_t>(before), report_.subjects.end());
    report_.outcomes.resize(before);
    report_.subjects.resize(before);
    if (!run.left_to_dra.empty()) {
      answers.extended = std::move(report_.generated.back());
      report_.generated.pop_back();
      state_.generated_outcome.pop_back();
    }
    if (!kept || (answers.extended && !kept->extended)) kept = std::move(answers);
  }
  filter.restrict_to({});
  if (placed.node == nullptr && kept) {
    if (kept->extended) {
      for (auto& subject : kept->subjects)
        if (subject.generated) subject.generated = report_.generated.size();
      report_.generated.push_back(std::move(*kept->extended));
      state_.generated_outcome.emplace_back();
    }
    std::move(kept->outcomes.begin(), kept->outcomes.end(), std::back_inserter(report_.outcomes));
    report_.subjects.insert(report_.subjects.end(), kept->subjects.begin(), kept->subjects.end());
  }
  return placed;
}

// The node for a pod without claims to allocate: the first the filters (and its allocated claims' devices' node
// resources) leave, or under scoring the best scored of them.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
auto scheduling_cycle<Engine, Policy>::node_without_claims(std::size_t pod_index, pod_node_filter* filter,
                                                            const pod_scoring* scoring) -> pod_placement {
  const bool judged = filter != nullptr && node_allocatable_.active();
  auto takes = [&](std::size_t i) {
    return (filter == nullptr || filter->feasible(i)) && (!judged || node_allocatable_fits(pod_index, i, {}, {}, *filter));
  };
  const bool takes_alike = filter != nullptr && !judged && filter->reads_only_node_resources();
  const std::optional<std::size_t> best =
      placer_.node_without_claims(scoring, takes, filter != nullptr ? &filter->requests() : nullptr, takes_alike);
  if (!best) return {};
  pod_placement placed{nodes_.nodes[*best], std::nullopt};
  if (judged) placed.verdict = node_allocatable_verdict_on(pod_index, *best, {}, {});  // the pod's verdict there
  return placed;
}

// Allocates the unit's claims together on the node the placer finds (or records why none); returns that node.
// `filter`, when given, says which nodes of the list the unit's pod may run on; when it leaves none, its refusal is
// each claim's reason.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
auto scheduling_cycle<Engine, Policy>::place_unit(const std::vector<unit_member>& unit, std::optional<std::size_t> pod,
                                                   const model::node* only, std::optional<dra::error> failure,
                                                   pod_node_filter* filter, const pod_scoring* scoring)
    -> pod_placement {
  std::vector<const model::resource_claim*> claims;
  for (const auto& m : unit)
    if (m.claim || m.generated) claims.push_back(&claim_of(m));
  unit_decision decision;
  if (!failure) {
    const bool judged = pod && filter != nullptr && node_allocatable_.active();
    auto accepts = [&](std::size_t i, std::span<const model::allocation_result> results) {
      return node_allocatable_fits(*pod, i, unit, results, *filter);
    };
    const pod_acceptance acceptance(accepts);
    const unit_request request{claims, only, filter, only == nullptr ? scoring : nullptr,
                               judged ? &acceptance : nullptr};
    decision = placer_.place(request, report_.search_steps);
  }
  pod_placement placed{decision.node, std::nullopt};
  if (decision.node != nullptr && pod && filter != nullptr && node_allocatable_.active())
    placed.verdict = node_allocatable_verdict_on(*pod, *placer_.index_of(decision.node), unit, decision.results);
  commit(unit, pod, decision, failure, filter);
  return placed;
}

// Each claim of the unit answered: allocated on the chosen node (its devices taken in the ledger), or why not.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
void scheduling_cycle<Engine, Policy>::commit(const std::vector<unit_member>& unit, std::optional<std::size_t> pod,
                                              unit_decision& decision, const std::optional<dra::error>& failure,
                                              pod_node_filter* filter) {
  std::size_t k = 0;
  for (const auto& m : unit) {
    model::claim_outcome o;
    o.claim = (m.claim || m.generated) ? alloc::object_name(claim_of(m).meta) : m.missing_name;
    if (failure) {
      o.status = *failure;
    } else if (decision.failure) {
      o.status = *decision.failure;
    } else if (decision.node != nullptr) {
      if (m.claim) state_.claim_outcome[*m.claim] = report_.outcomes.size();
      if (m.generated) state_.generated_outcome[*m.generated] = report_.outcomes.size();
      state_.ledger.add(decision.results[k], o.claim);
      placer_.committed(decision.results[k]);
      if (state_.devices) state_.devices->add(decision.results[k]);
      o.status = model::claim_allocated{std::string(decision.node->meta.name), std::move(decision.results[k])};
    } else if (decision.refused) {
      std::string reason(pod_fits_no_node_reason);
      if (placer_.explains_refusals()) reason += ": " + filter->refusal().message;
      o.status = model::claim_unschedulable{std::move(reason), std::nullopt};
    } else if (decision.invalid_pools) {
      o.status = dra::error{decision.all_devices_error.empty() ? std::string(alloc::invalid_pools::message)
                                                               : decision.all_devices_error,
                            "", "", errc::pool_unavailable};
    } else {
      o.status = model::claim_unschedulable{std::string(alloc::unschedulable::message), decision.why};
    }
    if (m.claim || m.generated) ++k;
    note_rejection(o);
    report_.outcomes.push_back(std::move(o));
    report_.subjects.push_back({m.claim, m.generated, pod, m.group});
  }
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
detail::node_allocatable_verdict scheduling_cycle<Engine, Policy>::node_allocatable_verdict_on(
    std::size_t pod_index, std::size_t node, const std::vector<unit_member>& unit,
    std::span<const model::allocation_result> results) const {
  const model::pod& pod = pod_at(pod_index);
  std::vector<detail::pod_claim> claims;
  std::size_t k = 0;
  for (const unit_member& m : unit) {
    if (!m.claim && !m.generated) continue;
    const model::text name = claim_of(m).meta.name;
    const model::text entry =
        m.generated ? report_.generated[*m.generated].entry : claim_resolver::entry_naming(pod, name);
    claims.push_back({{name, entry, k < results.size() ? &results[k] : nullptr}, false});
    ++k;
  }
  // The pod's claims allocated before: in the input, or with an earlier pod (shared).
  for (std::size_t c : resolver_.claims_named_by(pod)) {
    const model::resource_claim& claim = s_.claims[c].object;
    const bool input_reserved_elsewhere =
        claim.allocation && !claim.reserved_for.empty() &&
        std::none_of(claim.reserved_for.begin(), claim.reserved_for.end(),
                     [&](const auto& ref) { return ref.resource == "pods" && ref.name == pod.meta.name; });
    const bool run_allocated_elsewhere =
        state_.claim_outcome[c] && report_.subjects[*state_.claim_outcome[c]].pod != pod_index;
    if (const model::allocation_result* allocation = state_.allocation_of(s_, report_, c))
      claims.push_back({{claim.meta.name, claim_resolver::entry_naming(pod, claim.meta.name), allocation},
                        input_reserved_elsewhere || run_allocated_elsewhere});
  }
  return node_allocatable_.judge(pod, *nodes_.nodes[node], state_.requests[node], claims);
}

}  // namespace dra::sched
