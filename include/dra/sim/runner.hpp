// The scenario runner: the dra command's scheduling loop (pods in order, claims from templates, node choice, commit
// between units of work).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/check.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>
#include <dra/sched/queue.hpp>
#include <dra/sched/scoring.hpp>
#include <dra/sim/detail/gang.hpp>
#include <dra/sim/detail/extended_claims.hpp>
#include <dra/sim/detail/first_fit_guard.hpp>
#include <dra/sim/detail/node_allocatable.hpp>
#include <dra/sim/detail/node_list.hpp>
#include <dra/sim/detail/node_trials.hpp>
#include <dra/sim/detail/pod_groups.hpp>
#include <dra/sim/detail/pod_nodes.hpp>
#include <dra/sim/detail/scored_nodes.hpp>
#include <dra/sim/detail/unfit_memo.hpp>
#include <dra/sim/explain.hpp>
#include <dra/sim/node_usage.hpp>
#include <dra/sim/run_report.hpp>

#include <algorithm>
#include <cassert>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sim {

namespace detail {

// One run over a scenario; see run_scenario.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
class scenario_run {
 public:
  using allocator_type = alloc::basic_allocator<Policy, Engine>;
  // Whether a pending pod's node is the best scored of those that fit it rather than the first (`--score kube`).
  static constexpr bool scores_nodes = sched::node_scoring_policy<Policy>;

  scenario_run(const model::scenario& s, const Engine& engine, alloc::features features, Policy policy,
               run_options options = {})
      : s_(s), engine_(engine), features_(features), node_policy_(policy), nodes_(s), unfit_(s, nodes_.nodes),
        resources_(nodes_.nodes.size()), node_allocatable_(s, features), run_allocation_(s.claims.size()) {
    for (std::size_t i = 0; i < nodes_.nodes.size(); ++i) node_index_.emplace(nodes_.nodes[i], i);
    count_bound_pods();
    for (const auto& c : s.claims)
      if (c.object.allocation) state_.add(*c.object.allocation, alloc::object_name(c.object.meta));
    for (const auto& c : s.classes) classes_.push_back(&c.object);
    for (const auto& sl : s.slices) slices_.push_back(&sl.object);
    for (const auto& r : s.taint_rules) rules_.push_back(&r.object);
    allocator_.emplace(features, state_, classes_, slices_, engine, std::move(policy));
    allocator_->set_taint_rules(rules_);
    for (std::size_t i = 0; i < s.claims.size(); ++i)
      claim_index_.emplace(std::pair{s.claims[i].object.meta.namespace_, s.claims[i].object.meta.name}, i);
    for (std::size_t i = 0; i < s.claim_templates.size(); ++i)
      template_index_.emplace(
          std::pair{s.claim_templates[i].object.meta.namespace_, s.claim_templates[i].object.meta.name}, i);
    handled_.assign(s.claims.size(), false);
    pinned_nodes_.reserve(s.pods.size());
    // Only policies that rank nodes need to know how used each node is.
    if constexpr (alloc::node_ranking_policy<Policy>) usage_.emplace(s, nodes_.nodes);
    if constexpr (scores_nodes)
      for (const model::node* n : nodes_.nodes) {
        node_resources_.push_back(sched::resources_of(*n));
        nodes_prefer_no_schedule_ = nodes_prefer_no_schedule_ ||
                                    std::any_of(n->taints.begin(), n->taints.end(),
                                                [](const model::node_taint& t) { return t.effect == "PreferNoSchedule"; });
      }
    // Policies that weigh facts weigh them by what the queue still asks for; first fit pays nothing for it.
    if constexpr (alloc::uses_facts<Policy>) {
      gather_demand();
      allocator_->set_demand(&demand_);
    }
    allocators_.push_back(&*allocator_);
    score_every_node_ = options.score_every_node;
    for (unsigned t = 1; t < std::min<std::size_t>(options.threads, nodes_.nodes.size()); ++t) {
      allocator_type& more = extra_allocators_.emplace_back(features, state_, classes_, slices_, engine, node_policy_);
      more.set_taint_rules(rules_);
      more.share_outcome_classes(*allocator_);
      if constexpr (alloc::uses_facts<Policy>) more.set_demand(&demand_);
      allocators_.push_back(&more);
    }
  }

  run_report run() && {
    run_queue();
    return std::move(report_);
  }

  // Schedules the scenario's pods in queue order, then the claims no pod references (what run() does), keeping the
  // run's state for place().
  void run_queue() {
    const std::vector<std::size_t> queue = sched::queue_order(pods_of(s_));
    groups_.emplace(s_, queue);
    group_generated_.resize(s_.pod_groups.size());
    std::vector<bool> gang_placed(s_.pod_groups.size(), false);
    for (std::size_t p : queue) {
      // ---- gangs (issue #36): a gang's pods are placed as one when the queue reaches its first pod.
      if (const auto group = groups_->of(s_.pods[p].object).group; group && groups_->is_gang(*group)) {
        if (!gang_placed[*group]) {
          gang_placed[*group] = true;
          gang_placement<scenario_run>(*this, *group).run();
          for (std::size_t member_pod : groups_->members(*group)) pod_done(member_pod);
        }
        continue;
      }
      // ---- end gangs
      run_pod(p);
      pod_done(p);
    }
    for (std::size_t i = 0; i < s_.claims.size(); ++i)
      if (!s_.claims[i].object.allocation && !handled_[i]) {
        handled_[i] = true;
        run_unit({{i, std::nullopt, {}, std::nullopt}}, std::nullopt, nullptr, std::nullopt);
        if constexpr (alloc::uses_facts<Policy>) demand_.remove(s_.claims[i].object.spec);
      }
  }

  // Places one more pending pod (no nodeName) on the state the run left, as the next pod of the queue: its claims
  // come from its templates and what it takes stays taken for the pods placed after it. Every cache of the run
  // (known unfit nodes, outcome classes, node usage) serves it, which is what makes thousands of copies of a pod
  // cheap (sim::capacity). Its index in the report is scenario.pods.size() + the pods placed before it.
  const pod_outcome& place(model::located<model::pod> pod) {
    assert(!pod.object.node_name || pod.object.node_name->empty());
    report_.added_pods.push_back(std::move(pod));
    const std::size_t index = s_.pods.size() + report_.added_pods.size() - 1;
    std::vector<const model::device_claim*> demand;
    if constexpr (alloc::uses_facts<Policy>) {
      demand = template_demand(report_.added_pods.back().object);
      for (const model::device_claim* spec : demand) demand_.add(*spec);
    }
    run_pod(index);
    for (const model::device_claim* spec : demand) demand_.remove(*spec);
    return report_.pods.back();
  }

  [[nodiscard]] const run_report& report() const { return report_; }
  run_report take_report() && { return std::move(report_); }

 private:
  template <class Run>
  friend class gang_placement;
  template <class Run>
  friend struct run_snapshot;
  using pod_outcome_type = pod_outcome;

  // A pending claim of a unit of work: a scenario claim, a generated one, or a missing template's (neither).
  struct member {
    std::optional<std::size_t> claim;
    std::optional<std::size_t> generated;
    std::string missing_name;  // for a missing template: the claim that would have been generated
    std::optional<std::size_t> group;  // a PodGroup's claim: the group's index
  };

  const model::pod& pod_at(std::size_t index) const { return sim::pod_at(s_, report_, index); }

  // What the claims `pod` would make from its templates ask for.
  std::vector<const model::device_claim*> template_demand(const model::pod& pod) const {
    std::vector<const model::device_claim*> out;
    for (const auto& ref : pod.resource_claims)
      if (ref.resource_claim_template_name)
        if (const auto t = template_index_.find(std::pair{pod.meta.namespace_, *ref.resource_claim_template_name});
            t != template_index_.end())
          out.push_back(&s_.claim_templates[t->second].object.spec);
    return out;
  }

  // A pod's unit of work has run: what it asked for leaves the pending demand.
  void pod_done(std::size_t pod_index) {
    if constexpr (alloc::uses_facts<Policy>)
      for (const model::device_claim* spec : pod_demand_[pod_index]) demand_.remove(*spec);
  }

  // The claim a pod entry names directly or through its status; nullopt when there is none to allocate.
  std::optional<std::size_t> find_claim(const model::pod& pod, model::text name, std::string_view how) {
    auto it = claim_index_.find(std::pair{pod.meta.namespace_, name});
    if (it == claim_index_.end()) {
      report_.warnings.push_back("pod " + alloc::object_name(pod.meta) + ": ResourceClaim " +
                                 model::namespaced_name(pod.meta.namespace_, name) + std::string(how) + " not found; skipped");
      return std::nullopt;
    }
    if (s_.claims[it->second].object.allocation || handled_[it->second]) return std::nullopt;
    return it->second;
  }

  // Makes the claim a template entry asks for; an error when the template does not exist.
  // For a PodGroup's entry (`group`), the claim is the group's: named after the group, made once.
  std::optional<dra::error> generate(std::size_t pod_index, const model::pod_resource_claim& ref,
                                     std::vector<member>& unit, std::optional<std::size_t> group = std::nullopt) {
    const model::pod& pod = pod_at(pod_index);
    const model::text owner = group ? s_.pod_groups[*group].object.meta.name : pod.meta.name;
    auto name = std::make_shared<const std::string>(std::string(owner) + "-" + std::string(ref.name));
    auto it = template_index_.find(std::pair{pod.meta.namespace_, *ref.resource_claim_template_name});
    if (it == template_index_.end()) {
      unit.push_back({std::nullopt, std::nullopt, model::namespaced_name(pod.meta.namespace_, *name), group});
      return dra::error{
          "pod " + alloc::object_name(pod.meta) + ", claim " + std::string(ref.name) + ": ResourceClaimTemplate " +
              model::namespaced_name(pod.meta.namespace_, *ref.resource_claim_template_name) + " not found",
          "", "", errc::not_found};
    }
    // Kubernetes adds a random suffix, so its generated claims never take an existing name; without
    // the suffix, a name already in use would make two claims one.
    const auto key = std::pair{pod.meta.namespace_, model::text(*name)};
    const bool taken = claim_index_.contains(key) || generated_names_.contains(key);
    if (taken) {
      unit.push_back({std::nullopt, std::nullopt, model::namespaced_name(pod.meta.namespace_, *name), group});
      return dra::error{"pod " + alloc::object_name(pod.meta) + ", claim " + std::string(ref.name) +
                            ": the claim made from ResourceClaimTemplate " +
                            model::namespaced_name(pod.meta.namespace_, *ref.resource_claim_template_name) +
                            " would be named " + model::namespaced_name(pod.meta.namespace_, *name) +
                            ", which another ResourceClaim has; name the claim in the pod's "
                            "status.resourceClaimStatuses",
                        "", "", errc::invalid_object};
    }
    const model::resource_claim_template& t = s_.claim_templates[it->second].object;
    generated_claim g{pod_index, ref.name, it->second, {}, name, group, nullptr};
    g.claim.meta.name = *g.name;
    g.claim.meta.namespace_ = pod.meta.namespace_;
    g.claim.meta.labels = t.claim_meta.labels;
    g.claim.meta.annotations = t.claim_meta.annotations;
    g.claim.spec = t.spec;
    unit.push_back({std::nullopt, report_.generated.size(), {}, group});
    generated_allocation_.emplace_back();
    generated_names_.emplace(g.claim.meta.namespace_, g.claim.meta.name);  // views the claim's own name
    report_.generated.push_back(std::move(g));
    return std::nullopt;
  }

  // What the bound, unfinished pods take of their nodes; and whether any node has fields the filters look at.
  void count_bound_pods() {
    std::unordered_map<model::text, std::size_t> by_name;
    for (std::size_t i = 0; i < nodes_.nodes.size(); ++i) {
      const model::node& n = *nodes_.nodes[i];
      by_name.emplace(n.meta.name, i);
      node_fields_ = node_fields_ || n.unschedulable || !n.taints.empty() || n.allocatable.has_value();
    }
    for (const auto& located : s_.pods) {
      const model::pod& p = located.object;
      if (!p.node_name || p.node_name->empty() || model::is_terminal(p)) continue;
      if (const auto it = by_name.find(*p.node_name); it != by_name.end()) {
        const sched::amounts recorded = recorded_node_allocatable(p, features_);
        take(it->second, p, sched::pod_requests(p, recorded), recorded);
      }
    }
  }

  // Node i of the list runs `pod`, which requests `requests` (its devices adding `from_devices`, KEP-5517): counted
  // for the filters (and the scores).
  void take(std::size_t i, const model::pod& pod, const sched::amounts& requests, const sched::amounts& from_devices = {}) {
    if constexpr (scores_nodes) {
      resources_[i].add(requests, sched::counted_requests(pod, requests, from_devices));
      rankings_.changed(i);
    } else {
      resources_[i].add(requests);
    }
  }

  static std::vector<const model::pod*> pods_of(const model::scenario& s) {
    std::vector<const model::pod*> out;
    out.reserve(s.pods.size());
    for (const auto& p : s.pods) out.push_back(&p.object);
    return out;
  }

  void run_pod(std::size_t pod_index) {
    const model::pod& pod = pod_at(pod_index);
    // A finished pod is not scheduled, and its node no longer counts it.
    if (model::is_terminal(pod)) return;
    const bool bound = pod.node_name && !pod.node_name->empty();
    if (!bound && sched::is_gated(pod)) {
      hold_gated(pod_index);
      return;
    }
    std::vector<member> unit;
    std::optional<dra::error> error;
    // ---- PodGroups (issue #36): entries equal to a group entry are the group's claims.
    const pod_group_index::lookup group = groups_->of(pod);
    if (group.names_group && !group.group)
      error = dra::error{"pod " + alloc::object_name(pod.meta) + ": PodGroup " +
                             model::namespaced_name(pod.meta.namespace_, *pod.pod_group_name) + " not found",
                         "", "", errc::not_found};
    // ---- end PodGroups
    auto add_claim = [&](std::optional<std::size_t> i) {
      if (i && std::none_of(unit.begin(), unit.end(), [&](const member& m) { return m.claim == i; }))
        unit.push_back({i, std::nullopt, {}, std::nullopt});
    };
    for (const auto& ref : pod.resource_claims) {
      if (const model::pod_resource_claim* entry = group_entry(pod, ref)) {
        if (auto failure = add_group_claim(*group.group, pod_index, *entry, unit); failure && !error)
          error = std::move(failure);
        continue;
      }
      if (ref.resource_claim_name) {
        add_claim(find_claim(pod, *ref.resource_claim_name, ""));
        continue;
      }
      if (!ref.resource_claim_template_name) continue;  // neither: nothing Kubernetes would allocate
      auto status = std::find_if(pod.resource_claim_statuses.begin(), pod.resource_claim_statuses.end(),
                                 [&](const model::pod_resource_claim_status& st) { return st.name == ref.name; });
      if (status != pod.resource_claim_statuses.end()) {
        // The controller decided: the claim it made, or none needed.
        if (status->resource_claim_name) add_claim(find_claim(pod, *status->resource_claim_name, " (from a template)"));
        continue;
      }
      if (auto failure = generate(pod_index, ref, unit); failure && !error) error = std::move(failure);
    }
    // The claim kube-scheduler made for the pod's extended resources in an earlier attempt.
    if (pod.extended_resource_claim_status)
      add_claim(find_claim(pod, pod.extended_resource_claim_status->resource_claim_name, " (extended resources)"));
    for (const auto& m : unit)
      if (m.claim) handled_[*m.claim] = true;
    if (!bound) {
      place_pending_pod(pod_index, unit, std::move(error));
      return;
    }
    if (unit.empty()) return;
    const model::node* only = nullptr;
    if (pod.node_name) {
      for (const auto* n : nodes_.nodes)
        if (n->meta.name == *pod.node_name) only = n;
      if (only == nullptr) {
        model::node n;
        n.meta.name = *pod.node_name;
        pinned_nodes_.push_back(std::move(n));
        only = &pinned_nodes_.back();
      }
    }
    run_unit(unit, pod_index, only, std::move(error));
  }

  // A pod held back by its scheduling gates: answered as such, and the pending claims it names wait with it (claims
  // its templates would make are not made yet).
  void hold_gated(std::size_t pod_index) {
    const model::pod& pod = pod_at(pod_index);
    const std::string reason = "its pod waits: " + std::string(sched::scheduling_gated_reason);
    for (std::size_t c : claims_named_by(pod)) {
      if (s_.claims[c].object.allocation || handled_[c]) continue;
      handled_[c] = true;
      model::claim_outcome o;
      o.claim = alloc::object_name(s_.claims[c].object.meta);
      o.status = model::claim_unschedulable{reason, std::nullopt};
      note_rejection(o);
      report_.outcomes.push_back(std::move(o));
      report_.subjects.push_back({c, std::nullopt, pod_index, std::nullopt});
    }
    report_.pods.push_back({pod_index, std::nullopt, std::string(sched::scheduling_gated_reason), true, 0, {}, {}});
  }

  // A pending pod: its unit of work (if any) on the first node its filters leave where its claims fit, as
  // kube-scheduler's filters then its DynamicResources plugin would; the node takes the pod's requests.
  void place_pending_pod(std::size_t pod_index, const std::vector<member>& unit, std::optional<dra::error> error) {
    const model::pod& pod = pod_at(pod_index);
    const sched::amounts requests = sched::pod_requests(pod);
    std::vector<const model::node_selector*> allocated = allocated_claims_of(pod);
    // Requested resources DeviceClasses serve (KEP-5004): left to DRA on nodes that have none of them.
    const std::vector<sched::dra_resource> dra_backed = sched::dra_backed_resources(requests, classes_);
    // Nodes without taints, cordons or allocatable, a pod without node selection and claims allocated nowhere yet:
    // every node passes, so none is filtered (scenarios without scheduling fields pay nothing).
    const bool filters_apply = node_fields_ || !pod.node_selector.empty() || pod.required_node_affinity ||
                               !allocated.empty() || !dra_backed.empty() || node_allocatable_.active();
    std::optional<pod_node_filter> filter;
    if (filters_apply) filter.emplace(pod, requests, nodes_.nodes, resources_, std::move(allocated), dra_backed);
    std::optional<sched::pod_scoring> scoring;
    if constexpr (scores_nodes) {
      scoring.emplace(pod, requests);
      for_each_allocated_claim(pod, [&](const model::resource_claim& claim, const model::allocation_result& allocation) {
        if (features_.prioritized_list)
          scoring->allocated_claims_score += sched::prioritized_list_score(claim.spec, allocation);
      });
    }
    const scoped_scoring scored_by(scoring_, scoring ? &*scoring : nullptr);
    // A claim that cannot be had (a missing template) stops the pod before any node, as DynamicResources' PreFilter.
    const std::string broken_claim = error ? error->message : std::string();
    const model::node* chosen = nullptr;
    node_allocatable_chosen_.reset();
    // Their claim is made here unless the pod's status names the one made before.
    if (!dra_backed.empty() && !error && !pod.extended_resource_claim_status) {
      chosen = place_with_extended_resources(pod_index, unit, *filter, dra_backed);
    } else if (unit.empty() && !error) {
      chosen = node_without_claims(pod_index, filter ? &*filter : nullptr);
    } else {
      chosen = run_unit(unit, pod_index, nullptr, std::move(error), filter ? &*filter : nullptr);
    }
    pod_outcome outcome{pod_index, std::nullopt, {}, false, nodes_.nodes.size(), {}, {}};
    if (chosen != nullptr) {
      if (node_allocatable_chosen_) {
        take(node_index_.at(chosen), pod, sched::pod_requests(pod, node_allocatable_chosen_->added),
             node_allocatable_chosen_->added);
        outcome.node_allocatable = std::move(node_allocatable_chosen_->statuses);
      } else {
        take(node_index_.at(chosen), pod, requests);
      }
      outcome.node = std::string(chosen->meta.name);
    } else if (!broken_claim.empty()) {
      outcome.unschedulable = sched::pre_filter_error_message(nodes_.nodes.size(), broken_claim);
    } else if (filter) {
      outcome.unschedulable = filter->refusal().message;
      outcome.reasons = filter->refusal().reasons;
    } else {
      // Every node passed the filters and refused the pod's claims (or there is no node).
      std::vector<std::vector<sched::node_reason>> claims_refused(
          nodes_.nodes.size(), {{sched::node_reason_code::claims, std::string(sched::claims_reason)}});
      outcome.reasons = sched::count_reasons(claims_refused);
      outcome.unschedulable = sched::fit_error_message(nodes_.nodes.size(), outcome.reasons);
    }
    report_.pods.push_back(std::move(outcome));
  }

  // A pending pod asking for extended resources DeviceClasses serve: its nodes tried in runs of consecutive nodes
  // that leave the same of those resources to DRA, each run with the claim kube-scheduler makes for them there (none
  // where device plugins serve them all) beside the pod's other claims, until a run has a node for the pod. When
  // none has, the claims' answers are those of the first run that tried the extended-resource claim.
  const model::node* place_with_extended_resources(std::size_t pod_index, const std::vector<member>& unit,
                                                   pod_node_filter& filter, std::span<const sched::dra_resource> backed) {
    const model::pod& pod = pod_at(pod_index);
    const model::node* chosen = nullptr;
    std::optional<unit_answers> kept;
    for (const node_run& run : runs_by_dra_path(nodes_.nodes, backed)) {
      filter.restrict_to(run.nodes);
      std::vector<member> attempt = unit;
      if (!run.left_to_dra.empty()) {
        report_.generated.push_back(extended_claim(pod_index, sched::extended_claim_for(pod, run.left_to_dra)));
        generated_allocation_.emplace_back();
        attempt.push_back({std::nullopt, report_.generated.size() - 1, {}, std::nullopt});
      }
      const std::size_t before = report_.outcomes.size();
      if (attempt.empty()) {
        chosen = node_without_claims(pod_index, &filter);
      } else {
        chosen = run_unit(attempt, pod_index, nullptr, std::nullopt, &filter);
      }
      if (chosen != nullptr) break;
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
        generated_allocation_.pop_back();
      }
      if (!kept || (answers.extended && !kept->extended)) kept = std::move(answers);
    }
    filter.restrict_to({});
    if (chosen == nullptr && kept) {
      if (kept->extended) {
        for (auto& subject : kept->subjects)
          if (subject.generated) subject.generated = report_.generated.size();
        report_.generated.push_back(std::move(*kept->extended));
        generated_allocation_.emplace_back();
      }
      std::move(kept->outcomes.begin(), kept->outcomes.end(), std::back_inserter(report_.outcomes));
      report_.subjects.insert(report_.subjects.end(), kept->subjects.begin(), kept->subjects.end());
    }
    return chosen;
  }

  // The node for a pod without claims to allocate: the first the filters leave (node order is first fit's tie-break),
  // or under a scoring policy the best scored of them.
  const model::node* node_without_claims(std::size_t pod_index, pod_node_filter* filter) {
    // Whether node i takes the pod: its filters, the gang's nodes, and what its allocated claims' devices add there.
    auto takes = [&](std::size_t i) {
      return (filter == nullptr || filter->feasible(i)) && in_gang_scope(i) &&
             node_allocatable_fits(pod_index, i, {}, {}, filter);
    };
    if (scoring_ != nullptr && !score_every_node_) {
      const auto best = best_in_resource_order([&](std::size_t i) -> std::optional<bool> { return takes(i); });
      if (best) node_allocatable_fits(pod_index, *best, {}, {}, filter);  // the pod's verdict there is the one kept
      return best ? nodes_.nodes[*best] : nullptr;
    }
    std::optional<scored_nodes> scored;
    if (scoring_ != nullptr) scored.emplace(*scoring_, nodes_.nodes, node_resources_, resources_);
    for (std::size_t i = 0; i < nodes_.nodes.size(); ++i) {
      if (!takes(i)) continue;
      if (!scored) return nodes_.nodes[i];
      scored->add(i, 0);
    }
    if (!scored || scored->empty()) return nullptr;
    const std::size_t best = scored->best();
    node_allocatable_fits(pod_index, best, {}, {}, filter);  // the pod's verdict there is the one kept
    return nodes_.nodes[best];
  }

  // Points scoring_ at a pod's scoring while its units run.
  struct scoped_scoring {
    const sched::pod_scoring*& slot;
    scoped_scoring(const sched::pod_scoring*& s, const sched::pod_scoring* value) : slot(s) { slot = value; }
    scoped_scoring(const scoped_scoring&) = delete;
    scoped_scoring& operator=(const scoped_scoring&) = delete;
    ~scoped_scoring() { slot = nullptr; }
  };

  // What one unit of work answered, taken back from the report.
  struct unit_answers {
    std::vector<model::claim_outcome> outcomes;
    std::vector<outcome_subject> subjects;
    std::optional<generated_claim> extended;
  };

  // The claim made for `pod_index`'s extended resources with `requests`; its texts live as long as the run.
  generated_claim extended_claim(std::size_t pod_index, sched::extended_claim_requests requests) {
    const model::pod& pod = s_.pods[pod_index].object;
    generated_claim g;
    g.pod = pod_index;
    g.name = std::make_shared<const std::string>(std::string(pod.meta.name) +
                                                 std::string(sched::extended_resource_claim_suffix));
    g.extended = std::make_shared<const sched::extended_claim_requests>(std::move(requests));
    g.claim = claim_for_extended_resources(pod, *g.name, *g.extended);
    extended_specs_.push_back(g.extended);  // remembered shapes view its texts
    return g;
  }

  // The node selectors of the claims `pod` uses that are allocated already, in the input or by an earlier pod's unit
  // (a claim several pods share): the pod may only go where they are.
  std::vector<const model::node_selector*> allocated_claims_of(const model::pod& pod) const {
    std::vector<const model::node_selector*> out;
    for_each_allocated_claim(pod, [&](const model::resource_claim&, const model::allocation_result& allocation) {
      if (allocation.node_selector) out.push_back(&*allocation.node_selector);
    });
    return out;
  }

  // Calls visit(claim, allocation) for each claim `pod` uses that is allocated already (see allocated_claims_of).
  template <class Visit>
  void for_each_allocated_claim(const model::pod& pod, Visit visit) const {
    auto scenario_claim = [&](std::size_t c) {
      if (const model::allocation_result* allocation = allocation_of(c)) visit(s_.claims[c].object, *allocation);
    };
    for (std::size_t c : claims_named_by(pod)) scenario_claim(c);
    for (const auto& ref : pod.resource_claims)
      if (const model::pod_resource_claim* entry = group_entry(pod, ref)) {
        const group_claim found = find_group_claim(*groups_->of(pod).group, pod, *entry);
        if (found.claim) scenario_claim(*found.claim);
        if (found.generated && generated_allocation_[*found.generated])
          visit(report_.generated[*found.generated].claim,
                report_.outcomes[*generated_allocation_[*found.generated]].allocated()->allocation);
      }
  }

  // ---- node allocatable resources (KEP-5517)

  // Whether node i takes the pod once its claims' devices (`unit`'s allocated there as `results`) add their node
  // resources to its requests. When it does not, the pod's filter learns why, as the DynamicResources plugin's
  // reasons. Always true without a pending pod's filter, or without devices that have the field.
  bool node_allocatable_fits(std::optional<std::size_t> pod, std::optional<std::size_t> node,
                             const std::vector<member>& unit, std::span<const model::allocation_result> results,
                             pod_node_filter* filter) {
    if (!pod || !node || filter == nullptr || !node_allocatable_.active()) return true;
    node_allocatable_verdict verdict = node_allocatable_verdict_on(*pod, *node, unit, results);
    if (verdict.refused.empty()) {
      if (unit.empty()) node_allocatable_chosen_ = std::move(verdict);  // no unit: this node is the pod's
      return true;
    }
    filter->refuse(*node, std::move(verdict.refused));
    return false;
  }

  node_allocatable_verdict node_allocatable_verdict_on(std::size_t pod_index, std::size_t node,
                                                       const std::vector<member>& unit,
                                                       std::span<const model::allocation_result> results) const {
    const model::pod& pod = pod_at(pod_index);
    std::vector<pod_claim> claims;
    std::size_t k = 0;
    for (const member& m : unit) {
      if (!m.claim && !m.generated) continue;
      const model::text name = claim_of(m).meta.name;
      const model::text entry = m.generated ? report_.generated[*m.generated].entry : entry_naming(pod, name);
      claims.push_back({{name, entry, k < results.size() ? &results[k] : nullptr}, false});
      ++k;
    }
    // The pod's claims allocated before: in the input, or with an earlier pod (shared).
    for (std::size_t c : claims_named_by(pod)) {
      const model::resource_claim& claim = s_.claims[c].object;
      const bool input_reserved_elsewhere =
          claim.allocation && !claim.reserved_for.empty() &&
          std::none_of(claim.reserved_for.begin(), claim.reserved_for.end(),
                       [&](const auto& ref) { return ref.resource == "pods" && ref.name == pod.meta.name; });
      const bool run_allocated_elsewhere = run_allocation_[c] && report_.subjects[*run_allocation_[c]].pod != pod_index;
      if (const model::allocation_result* allocation = allocation_of(c))
        claims.push_back({{claim.meta.name, entry_naming(pod, claim.meta.name), allocation},
                          input_reserved_elsewhere || run_allocated_elsewhere});
    }
    return node_allocatable_.judge(pod, *nodes_.nodes[node], resources_[node], claims);
  }

  // The pod's spec.resourceClaims entry that names claim `name`, directly or through its status; empty if none.
  static model::text entry_naming(const model::pod& pod, model::text name) {
    for (const auto& ref : pod.resource_claims) {
      if (ref.resource_claim_name == name) return ref.name;
      for (const auto& status : pod.resource_claim_statuses)
        if (status.name == ref.name && status.resource_claim_name == name) return ref.name;
    }
    return {};
  }

  // A scenario claim's allocation: in the input, or made by this run; nullptr when it has none yet.
  const model::allocation_result* allocation_of(std::size_t c) const {
    const auto& claim = s_.claims[c].object;
    if (claim.allocation) return &*claim.allocation;
    if (run_allocation_[c]) return &report_.outcomes[*run_allocation_[c]].allocated()->allocation;
    return nullptr;
  }

  // ---- PodGroup claims (issue #36)

  // The group entry `ref` refers to (equal in every field), when the pod belongs to an existing group.
  const model::pod_resource_claim* group_entry(const model::pod& pod, const model::pod_resource_claim& ref) const {
    const auto group = groups_->of(pod).group;
    return group ? model::group_claim_entry(groups_->group(*group), ref) : nullptr;
  }

  // Where a group entry's claim is: a scenario claim (named, or named in the group's status), one this run made
  // from the template, or none (`none_needed`: the group's status says no claim was needed; else not made yet).
  struct group_claim {
    std::optional<std::size_t> claim;
    std::optional<std::size_t> generated;
    std::optional<model::text> missing;  // a named claim not in the scenario
    bool none_needed = false;
  };
  group_claim find_group_claim(std::size_t g, const model::pod& pod, const model::pod_resource_claim& entry) const {
    std::optional<model::text> name = entry.resource_claim_name;
    if (!name)
      for (const auto& status : groups_->group(g).resource_claim_statuses)
        if (status.name == entry.name) {
          if (!status.resource_claim_name) return {std::nullopt, std::nullopt, std::nullopt, true};
          name = status.resource_claim_name;
        }
    if (name) {
      const auto it = claim_index_.find(std::pair{pod.meta.namespace_, *name});
      if (it == claim_index_.end()) return {std::nullopt, std::nullopt, name, false};
      return {it->second, std::nullopt, std::nullopt, false};
    }
    for (const auto& [made_for, generated] : group_generated_[g])
      if (made_for == entry.name) return {std::nullopt, generated, std::nullopt, false};
    return {};
  }

  // A pod's entry for one of its group's claims: the one claim of the group, allocated with the first of its pods
  // placed (until then every pod of the group tries it), made from the template once for the group.
  std::optional<dra::error> add_group_claim(std::size_t g, std::size_t pod_index, const model::pod_resource_claim& entry,
                                            std::vector<member>& unit) {
    const model::pod& pod = pod_at(pod_index);
    const group_claim found = find_group_claim(g, pod, entry);
    if (found.none_needed) return std::nullopt;
    if (found.missing) {
      report_.warnings.push_back("PodGroup " + model::namespaced_name(pod.meta.namespace_, groups_->group(g).meta.name) +
                                 ": ResourceClaim " + model::namespaced_name(pod.meta.namespace_, *found.missing) +
                                 " not found; skipped");
      return std::nullopt;
    }
    if (found.claim) {
      if (allocation_of(*found.claim) == nullptr) unit.push_back({*found.claim, std::nullopt, {}, g});
      return std::nullopt;
    }
    if (found.generated) {
      if (!generated_allocation_[*found.generated]) unit.push_back({std::nullopt, *found.generated, {}, g});
      return std::nullopt;
    }
    const std::size_t made = report_.generated.size();
    auto failure = generate(pod_index, entry, unit, g);
    if (report_.generated.size() > made) group_generated_[g].emplace_back(entry.name, made);
    return failure;
  }

  // The scenario claims `pod` names: directly, or through its status for a template entry (claims not yet made from
  // a template are not among them).
  std::vector<std::size_t> claims_named_by(const model::pod& pod) const {
    std::vector<std::size_t> out;
    auto add = [&](model::text name) {
      if (const auto it = claim_index_.find(std::pair{pod.meta.namespace_, name}); it != claim_index_.end())
        out.push_back(it->second);
    };
    for (const auto& ref : pod.resource_claims) {
      if (ref.resource_claim_name) {
        add(*ref.resource_claim_name);
        continue;
      }
      for (const auto& status : pod.resource_claim_statuses)
        if (status.name == ref.name && status.resource_claim_name) add(*status.resource_claim_name);
    }
    if (pod.extended_resource_claim_status) add(pod.extended_resource_claim_status->resource_claim_name);
    return out;
  }

  // The pending demand at the start: what each pod's unit of work will ask for (its pending claims, the templates
  // it will make claims from) and the claims no pod references, as run_pod and run() will find them. Each leaves
  // the demand once its unit of work has run, fitted or not.
  void gather_demand() {
    std::vector<bool> counted(s_.claims.size(), false);
    auto pending_claim = [&](const model::pod& pod, model::text name) -> const model::device_claim* {
      const auto it = claim_index_.find(std::pair{pod.meta.namespace_, name});
      if (it == claim_index_.end() || s_.claims[it->second].object.allocation || counted[it->second]) return nullptr;
      counted[it->second] = true;
      return &s_.claims[it->second].object.spec;
    };
    pod_demand_.resize(s_.pods.size());
    for (std::size_t p = 0; p < s_.pods.size(); ++p) {
      const model::pod& pod = s_.pods[p].object;
      for (const auto& ref : pod.resource_claims) {
        const model::device_claim* spec = nullptr;
        if (ref.resource_claim_name) {
          spec = pending_claim(pod, *ref.resource_claim_name);
        } else if (ref.resource_claim_template_name) {
          const auto status =
              std::find_if(pod.resource_claim_statuses.begin(), pod.resource_claim_statuses.end(),
                           [&](const model::pod_resource_claim_status& st) { return st.name == ref.name; });
          if (status != pod.resource_claim_statuses.end()) {
            if (status->resource_claim_name) spec = pending_claim(pod, *status->resource_claim_name);
          } else if (const auto t =
                         template_index_.find(std::pair{pod.meta.namespace_, *ref.resource_claim_template_name});
                     t != template_index_.end()) {
            spec = &s_.claim_templates[t->second].object.spec;
          }
        }
        if (spec == nullptr) continue;
        demand_.add(*spec);
        pod_demand_[p].push_back(spec);
      }
    }
    for (std::size_t i = 0; i < s_.claims.size(); ++i)
      if (!s_.claims[i].object.allocation && !counted[i]) demand_.add(s_.claims[i].object.spec);
  }

  const model::resource_claim& claim_of(const member& m) const {
    return m.claim ? s_.claims[*m.claim].object : report_.generated[*m.generated].claim;
  }

  // Allocates the unit's claims together on the first node where they all fit (or reports why not); returns that
  // node. `filter`, when given, says which nodes of the list the unit's pod may run on; when it leaves none, its
  // refusal is each claim's reason.
  const model::node* run_unit(const std::vector<member>& unit, std::optional<std::size_t> pod, const model::node* only,
                              std::optional<dra::error> failure, pod_node_filter* filter = nullptr) {
    std::vector<const model::resource_claim*> claims;
    for (const auto& m : unit)
      if (m.claim || m.generated) claims.push_back(&claim_of(m));
    const std::size_t shape = unfit_.shape_of(claims);
    // A scoring policy under which DynamicResources' scores come out alike: the node is found in the resource
    // scores' order (best_in_resource_order), or, when none takes the unit, the node-order run answers as first fit
    // does. When every score ties, that order is node order: first fit's run, which skips known-unfit nodes in bulk,
    // is the answer.
    bool resource_ranked = false;
    if constexpr (scores_nodes)
      if (scoring_ != nullptr && only == nullptr && !failure && !score_every_node_ &&
          dra_scores_alike(claims, features_.prioritized_list)) {
        resource_ranked = true;
        const auto& order = rankings_.order_for(*scoring_, node_resources_, resources_);
        const bool all_tie = (order.empty() || order.begin()->first == order.rbegin()->first) &&
                             node_scores_alike(*scoring_->pod, nodes_prefer_no_schedule_);
        if (!all_tie)
          if (const auto best = best_in_resource_order([&](std::size_t i) { return unit_fits(unit, claims, shape, pod, filter, i); }))
            only = nodes_.nodes[*best];
      }
    std::vector<const model::node*> ordered;  // the candidates when they are not the node list itself
    if (only != nullptr)
      ordered.push_back(only);
    else if constexpr (alloc::node_ranking_policy<Policy>)
      ordered = usage_->ranked(nodes_.nodes, node_policy_);
    // In node order, a candidate's position is its index in the node list, and known-unfit nodes are skipped in bulk.
    const bool in_node_order = only == nullptr && !alloc::node_ranking_policy<Policy>;
    const std::span<const model::node* const> candidates =
        in_node_order ? std::span<const model::node* const>(nodes_.nodes) : std::span<const model::node* const>(ordered);
    bool invalid_pools = false;
    std::string all_devices_error;  // the first node's whose pool a request wanting all devices could not have
    const model::node* chosen = nullptr;
    std::vector<model::allocation_result> results;
    std::pair<double, double> chosen_cost;  // counters stranded, placements lost
    // What the first node of each outcome class (alloc::basic_allocator::outcome_class) found: whether its pools
    // were invalid when nothing fit, nullopt when it fit. Another node of the class finds the same: it cannot fit
    // at a lower cost than the first, which ties go to, and it does not fit when the first does not.
    std::unordered_map<std::uint32_t, std::optional<bool>> class_unfit;
    node_trials trials(*this, candidates, claims, shape, filter);
    // A scoring policy tries a pending pod's unit on every node and takes the best scored where it fits (below).
    std::optional<scored_nodes> scored;
    if (scoring_ != nullptr && only == nullptr && !resource_ranked)
      scored.emplace(*scoring_, nodes_.nodes, node_resources_, resources_);
    std::unordered_map<std::uint32_t, std::int64_t> class_score;  // a fitting outcome class's DynamicResources score
    // A node known not to fit the claims is passed over before its filters run (most nodes a long queue meets are
    // full); its invalid pools count only where the pod may run.
    auto skipped_invalid = [&](std::size_t index) {
      if ((filter == nullptr || filter->feasible(index)) && in_gang_scope(index)) invalid_pools = true;
    };
    for (std::size_t position = 0; position < candidates.size(); ++position) {
      if (failure) break;  // a missing template: nothing to try
      if (in_node_order) {
        const std::size_t open = unfit_.next_open(shape, position);
        if (!invalid_pools) unfit_.for_each_invalid(shape, position, open, skipped_invalid);
        if ((position = open) == candidates.size()) break;
      }
      const auto* node = candidates[position];
      std::optional<std::size_t> index;
      if (in_node_order) {
        index = position;
      } else if (const auto indexed = node_index_.find(node); indexed != node_index_.end()) {
        index = indexed->second;
      }
      if (gang_scope_ != nullptr && (!index || !in_gang_scope(*index))) continue;
      if (index)
        if (auto known = unfit_.known_unfit(shape, *index)) {
          if (*known) skipped_invalid(*index);
          continue;
        }
      if (filter != nullptr && (!index || !filter->feasible(*index))) continue;
      // A node-ranking policy compares every node's fit: one found for a like unit holds while nothing it depends on
      // changed (a unit commits to one node; the others keep their answers).
      if ((scored || resource_ranked) && index)
        if (const auto* known = unfit_.fit_on(shape, *index, demand_.epoch())) {
          if (!node_allocatable_fits(pod, index, unit, known->results, filter)) continue;
          if (!scored) {  // the node found first in the resource scores' order
            chosen = node;
            results = known->results;
            break;
          }
          scored->add(*index, unit_score(claims, known->results));
          continue;
        }
      if constexpr (alloc::node_ranking_policy<Policy>)
        if (const auto* known = index ? unfit_.fit_on(shape, *index, demand_.epoch()) : nullptr) {
          if (!node_allocatable_fits(pod, index, unit, known->results, filter)) continue;
          if (chosen == nullptr || known->cost < chosen_cost) {
            chosen = node;
            chosen_cost = known->cost;
            results = known->results;
          }
          if (takes_first_fit(chosen_cost)) break;
          continue;
        }
      // Asked only once a class is known: a node that fits ends a first-fit run without it.
      const bool classified = !class_unfit.empty();
      std::optional<std::uint32_t> outcome_class;
      if (classified) outcome_class = trials.class_of(position);
      if (outcome_class)
        if (const auto first = class_unfit.find(*outcome_class); first != class_unfit.end()) {
          // A node like one that fit fits alike (its devices are searched if it is the one taken).
          if (!first->second && scored && index) scored->add(*index, class_score.at(*outcome_class));
          if (!first->second) continue;
          if (index) unfit_.remember_unfit(shape, *index, *first->second);
          invalid_pools = invalid_pools || *first->second;
          continue;
        }
      auto outcome = trials.search(position);
      if (!outcome) {
        if (chosen == nullptr) failure = std::move(outcome).error();
        break;
      }
      report_.search_steps += outcome->search_steps;
      // A node where the claims fit but the pod, with what their devices add to its requests, does not (KEP-5517):
      // the pod's refusal, not the claims' shape's, so neither remembered nor shared with the node's outcome class.
      if (const auto* fit = outcome->fit(); fit != nullptr && !node_allocatable_fits(pod, index, unit, fit->results, filter))
        continue;
      // A node ruled out by a request for all devices of its pool (kubernetes PR #141898) keeps its own message:
      // neither remembered nor shared with its outcome class.
      if (const auto* bad = std::get_if<alloc::invalid_pools>(&outcome->result); bad && !bad->all_devices_error.empty()) {
        if (all_devices_error.empty()) all_devices_error = bad->all_devices_error;
        invalid_pools = true;
        continue;
      }
      // A scoring policy shares a fitting class's outcome too, unless devices may add node resources (KEP-5517): the
      // pod's verdict on a node then needs that node's own devices.
      if (candidates.size() > 1 &&
          (alloc::node_ranking_policy<Policy> || (scored && !node_allocatable_.active()) || !outcome->fit())) {
        if (!classified) outcome_class = trials.class_of(position);
        if (outcome_class)
          class_unfit.emplace(*outcome_class,
                              outcome->fit()
                                  ? std::nullopt
                                  : std::optional<bool>(std::holds_alternative<alloc::invalid_pools>(outcome->result)));
      }
      if (auto* fit = outcome->fit()) {
        // A node-ranking policy takes the fitting node whose devices strand the fewest counters, then cost
        // the fewest placements (ties: the earlier in its ranking); first fit takes the first node that fits.
        const std::pair cost{fit->counters_stranded, fit->placements_lost};
        if (scored && index) {
          const std::int64_t score = unit_score(claims, fit->results);
          if (outcome_class) class_score.emplace(*outcome_class, score);
          unfit_.remember_fit(shape, *index, demand_.epoch(), {std::move(fit->results), cost});
          scored->add(*index, score);
          continue;
        }
        if constexpr (alloc::node_ranking_policy<Policy>)
          if (index) unfit_.remember_fit(shape, *index, demand_.epoch(), {fit->results, cost});
        if (chosen != nullptr && !(cost < chosen_cost)) continue;
        chosen = node;
        chosen_cost = cost;
        results = std::move(fit->results);
        if (!alloc::node_ranking_policy<Policy> || takes_first_fit(chosen_cost)) break;
        continue;
      }
      const bool node_invalid = std::holds_alternative<alloc::invalid_pools>(outcome->result);
      if (index) unfit_.remember_unfit(shape, *index, node_invalid);
      invalid_pools = invalid_pools || node_invalid;
    }
    if (scored && !scored->empty() && !failure) {
      const std::size_t best = scored->best();
      chosen = nodes_.nodes[best];
      results = devices_on(best, claims, shape);
    }
    if (chosen != nullptr) number_shares(results);
    if (chosen != nullptr && pod && filter != nullptr && node_allocatable_.active())
      node_allocatable_chosen_ = node_allocatable_verdict_on(*pod, node_index_.at(chosen), unit, results);
    // The nodes that passed the pod's filters: the ones its claims are explained over when none took them.
    std::vector<const model::node*> passed;
    if (filter != nullptr && chosen == nullptr && !failure)
      for (const model::node* n : candidates)
        if (const auto indexed = node_index_.find(n); indexed != node_index_.end() && filter->feasible(indexed->second) &&
                                                      in_gang_scope(indexed->second))
          passed.push_back(n);
    std::optional<model::explanation> why;
    const bool refused = filter != nullptr && chosen == nullptr && !failure && passed.empty();
    const bool quiet = gang_scope_ != nullptr && !gang_scope_->explain;  // a gang's trial, rolled back if it fails
    if (!failure && chosen == nullptr && !invalid_pools && !refused && !quiet)
      why = explain(filter != nullptr ? std::span<const model::node* const>(passed) : candidates, claims, shape);
    std::size_t k = 0;
    for (const auto& m : unit) {
      model::claim_outcome o;
      o.claim = (m.claim || m.generated) ? alloc::object_name(claim_of(m).meta) : m.missing_name;
      if (failure) {
        o.status = *failure;
      } else if (chosen != nullptr) {
        if (m.claim) run_allocation_[*m.claim] = report_.outcomes.size();
        if (m.generated) generated_allocation_[*m.generated] = report_.outcomes.size();
        state_.add(results[k], o.claim);
        unfit_.committed(results[k]);
        if (usage_) usage_->add(results[k]);
        o.status = model::claim_allocated{std::string(chosen->meta.name), std::move(results[k])};
      } else if (refused) {
        o.status = model::claim_unschedulable{"its pod fits no node: " + filter->refusal().message, std::nullopt};
      } else if (invalid_pools) {
        o.status = dra::error{all_devices_error.empty() ? std::string(alloc::invalid_pools::message) : all_devices_error,
                              "", "", errc::pool_unavailable};
      } else {
        o.status = model::claim_unschedulable{std::string(alloc::unschedulable::message), why};
      }
      if (m.claim || m.generated) ++k;
      note_rejection(o);
      report_.outcomes.push_back(std::move(o));
      report_.subjects.push_back({m.claim, m.generated, pod, m.group});
    }
    return chosen;
  }

  // The node kube-scheduler's scoring takes when DynamicResources' scores come out alike: in the order of the resource
  // scores (resource_rankings), the first node of each kind (its TaintToleration and NodeAffinity scores, shared by
  // the kind's nodes) that `fits`; of those, the best scored, normalised over them, as over every feasible node (a
  // kind's highest raw scores are its first node's). When the node half's scores come out alike too, the first node
  // that fits. nullopt when no node fits or `fits` failed (nullopt from it).
  template <class Fits>
  std::optional<std::size_t> best_in_resource_order(Fits fits) {
    const bool one_kind = node_scores_alike(*scoring_->pod, nodes_prefer_no_schedule_);
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> first_of_kind;
    for (const auto& [score, i] : rankings_.order_for(*scoring_, node_resources_, resources_)) {
      std::pair<std::int64_t, std::int64_t> kind{0, 0};
      if (!one_kind) {
        kind = {sched::intolerable_taints(*scoring_->pod, *nodes_.nodes[i]),
                sched::preferred_affinity(*scoring_->pod, *nodes_.nodes[i])};
        if (first_of_kind.contains(kind)) continue;
      }
      const std::optional<bool> fit = fits(i);
      if (!fit) return std::nullopt;
      if (!*fit) continue;
      if (one_kind) return i;
      first_of_kind.emplace(kind, i);
    }
    if (first_of_kind.empty()) return std::nullopt;
    std::vector<std::size_t> firsts;
    for (const auto& [kind, i] : first_of_kind) firsts.push_back(i);
    std::ranges::sort(firsts);  // ties between kinds go to the earlier node
    scored_nodes scored(*scoring_, nodes_.nodes, node_resources_, resources_);
    for (std::size_t i : firsts) scored.add(i, 0);
    return scored.best();
  }

  // Whether the unit fits node i for the pod (its filters, the gang's nodes, its devices' node resources), searching
  // the node unless that is known; what a search finds is remembered. nullopt: the search failed.
  std::optional<bool> unit_fits(const std::vector<member>& unit, std::span<const model::resource_claim* const> claims,
                                std::size_t shape, std::optional<std::size_t> pod, pod_node_filter* filter,
                                std::size_t i) {
    if (!in_gang_scope(i) || unfit_.known_unfit(shape, i) || (filter != nullptr && !filter->feasible(i))) return false;
    if (const auto* known = unfit_.fit_on(shape, i, demand_.epoch()))
      return node_allocatable_fits(pod, i, unit, known->results, filter);
    auto outcome = owner(*nodes_.nodes[i]).allocate(*nodes_.nodes[i], claims);
    if (!outcome) return std::nullopt;
    report_.search_steps += outcome->search_steps;
    if (auto* fit = outcome->fit()) {
      const bool takes_pod = node_allocatable_fits(pod, i, unit, fit->results, filter);
      unfit_.remember_fit(shape, i, demand_.epoch(),
                          {std::move(fit->results), {fit->counters_stranded, fit->placements_lost}});
      return takes_pod;
    }
    // As in run_unit: a node ruled out by a request for all devices of its pool keeps its own message.
    if (const auto* bad = std::get_if<alloc::invalid_pools>(&outcome->result); bad && !bad->all_devices_error.empty())
      return false;
    unfit_.remember_unfit(shape, i, std::holds_alternative<alloc::invalid_pools>(outcome->result));
    return false;
  }

  // DynamicResources' score of a unit's devices on a node (it scores only with the DRAPrioritizedList feature).
  std::int64_t unit_score(std::span<const model::resource_claim* const> claims,
                          std::span<const model::allocation_result> results) const {
    return features_.prioritized_list ? prioritized_list_score(claims, results) : 0;
  }

  // The devices a unit known to fit on node i of the list gets there: as found before, unless forgotten since.
  std::vector<model::allocation_result> devices_on(std::size_t i, std::span<const model::resource_claim* const> claims,
                                                   std::size_t shape) {
    if (const auto* known = unfit_.fit_on(shape, i, demand_.epoch())) return known->results;
    auto outcome = owner(*nodes_.nodes[i]).allocate(*nodes_.nodes[i], claims);
    assert(outcome && outcome->fit() != nullptr);
    return std::move(outcome->fit()->results);
  }

  // Whether a fit at `cost` ends a unit's search: at no cost, or once a policy that ranks only for a while stopped.
  bool takes_first_fit(std::pair<double, double> cost) const {
    if constexpr (requires { node_policy_.ranking(); })
      if (!node_policy_.ranking()) return true;
    return cost == std::pair{0.0, 0.0};
  }
  // Tells a policy that ranks until the queue's first rejection (until_first_rejection) that it came.
  void note_rejection(const model::claim_outcome& o) {
    if constexpr (requires { node_policy_.first_rejection(); })
      if (node_policy_.ranking() && std::holds_alternative<model::claim_unschedulable>(o.status)) {
        node_policy_.first_rejection();
        unfit_.forget_fits();  // found in the policy's order of candidates, not first fit's
      }
  }

  // Whether a gang's trial may use node i of the list (every node outside gangs).
  bool in_gang_scope(std::size_t i) const { return gang_scope_ == nullptr || gang_scope_->nodes[i] != 0; }

  // Which allocator tries `node`: allocators_[i % threads] for node i, the first for nodes not in the list.
  std::size_t owner_index(const model::node* node) const {
    if (allocators_.size() == 1) return 0;
    const auto indexed = node_index_.find(node);
    return indexed == node_index_.end() ? 0 : indexed->second % allocators_.size();
  }
  allocator_type& owner(const model::node& node) { return *allocators_[owner_index(&node)]; }
  // The allocators as a fit oracle for explanations: each node asked of its own; under a policy that weighs facts,
  // of a first-fit allocator on the same ledger instead. Whether claims fit a node does not depend on the order
  // candidates are tried in, and an explanation asks it many times per node: without facts to compute for each.
  struct owner_oracle {
    scenario_run* run = nullptr;
    bool operator()(const model::node& node, std::span<const model::resource_claim* const> claims) const {
      if constexpr (alloc::uses_facts<Policy>)
        return allocator_oracle<fit_allocator_type>{&run->fit_allocator()}(node, claims);
      else
        return allocator_oracle<allocator_type>{&run->owner(node)}(node, claims);
    }
  };
  using fit_allocator_type = alloc::basic_allocator<alloc::first_fit, Engine>;
  fit_allocator_type& fit_allocator() {
    if (!fit_allocator_) {
      fit_allocator_.emplace(features_, state_, classes_, slices_, engine_, alloc::first_fit{});
      fit_allocator_->set_taint_rules(rules_);
    }
    return *fit_allocator_;
  }

  // The chosen node's shares get their IDs when the unit commits, in the order of its results, whichever allocator
  // (and thread) found them: as one allocator trying the nodes in turn would number them.
  void number_shares(std::vector<model::allocation_result>& results) {
    for (auto& result : results)
      for (auto& device : result.results)
        if (device.share_id) device.share_id = allocator_type::share_id(share_serial_++);
  }

  // Whether the runner, reading the outcomes of a unit's nodes in order, stops at a node with this outcome.
  static bool stops_at(const result<alloc::allocation_outcome>& outcome) {
    if (!outcome) return true;
    const auto* fit = outcome->fit();
    if (fit == nullptr) return false;
    if constexpr (alloc::node_ranking_policy<Policy>)
      return fit->counters_stranded == 0.0 && fit->placements_lost == 0.0;
    else
      return !scores_nodes;  // a scoring policy compares every node that fits
  }

  // The outcome class and the outcome of each candidate node of one unit of work, asked of the allocator that owns
  // the node: its own once, then, with several threads, the rest of the unit's nodes at once (detail::try_nodes).
  class node_trials {
   public:
    node_trials(scenario_run& run, std::span<const model::node* const> candidates,
                std::span<const model::resource_claim* const> claims, std::size_t shape, pod_node_filter* filter)
        : run_(run), candidates_(candidates), claims_(claims), shape_(shape), filter_(filter) {}

    std::optional<std::uint32_t> class_of(std::size_t position) {
      if (!trials_.empty() && trials_[position].class_known) return trials_[position].outcome_class;
      return allocator_at(position).outcome_class(*candidates_[position], claims_);
    }

    result<alloc::allocation_outcome> search(std::size_t position) {
      const bool tried = !trials_.empty() && trials_[position].outcome;
      if (!tried && searched_ >= searched_alone && run_.allocators_.size() > 1) try_rest_from(position);
      ++searched_;
      if (!trials_.empty() && trials_[position].outcome) return std::move(*trials_[position].outcome);
      return allocator_at(position).allocate(*candidates_[position], claims_);
    }

   private:
    allocator_type& allocator_at(std::size_t position) { return run_.owner(*candidates_[position]); }

    // The nodes from `first` on that the runner may search (not known to be unfit), on every thread.
    void try_rest_from(std::size_t first) {
      trials_.resize(candidates_.size());
      std::vector<std::size_t> positions;
      for (std::size_t p = first; p < candidates_.size(); ++p) {
        const auto indexed = run_.node_index_.find(candidates_[p]);
        if (indexed != run_.node_index_.end() && run_.unfit_.known_unfit(shape_, indexed->second)) continue;
        if constexpr (alloc::node_ranking_policy<Policy> || scores_nodes)
          if (indexed != run_.node_index_.end() &&
              run_.unfit_.fit_on(shape_, indexed->second, run_.demand_.epoch()) != nullptr)
            continue;
        if (filter_ != nullptr && (indexed == run_.node_index_.end() || !filter_->feasible(indexed->second))) continue;
        if (!trials_[p].outcome) positions.push_back(p);
      }
      if (!run_.threads_) run_.threads_.emplace(run_.allocators_.size());
      try_nodes<allocator_type>(*run_.threads_, candidates_, positions, claims_, run_.allocators_,
                                [this](std::size_t p) { return run_.owner_index(candidates_[p]); },
                                &scenario_run::stops_at, trials_);
    }

    // Nodes a unit searches one by one before the threads take the rest: most units fit on the first or second
    // node they need searched (a node is known unfit once it has been), and waking threads costs more than that.
    static constexpr std::size_t searched_alone = 2;

    scenario_run& run_;
    std::span<const model::node* const> candidates_;
    std::span<const model::resource_claim* const> claims_;
    std::size_t shape_;
    pod_node_filter* filter_;  // the unit's pod's node filters, if any: nodes they refuse are not tried
    std::vector<node_trial> trials_;  // per candidate, once threads have tried some (empty until then)
    std::size_t searched_ = 0;  // nodes searched for the unit so far
  };

  // Why a unit fits nowhere, worked out only for such units (the search itself does no extra work). A node's verdict
  // for a one-claim unit is kept for the next claim of that spec until an allocation touches the node's pools: a
  // queue of pods that fit nowhere is explained node by node only where something changed.
  model::explanation explain(std::span<const model::node* const> tried,
                             std::span<const model::resource_claim* const> unit, std::size_t shape) {
    if (!funnels_) {
      funnels_.emplace(features_, state_, classes_, slices_, engine_);
      funnels_->set_taint_rules(rules_);
      // Each node's pools and selector results from the allocator that tried it (which has them already).
      funnels_->set_pool_source([this](const model::node& node) { return owner(node).pools_for(node); });
      funnels_->set_verdict_source([this](const model::node& node, std::string_view expression,
                                          const alloc::device_ref& id, const model::device& device) {
        return owner(node).known_selector_result(node, expression, id, device);
      });
    }
    owner_oracle oracle{this};
    unit_diagnosis diagnosis;
    diagnosis.nodes.reserve(tried.size());
    for (const auto* node : tried) {
      const auto indexed = unit.size() == 1 ? node_index_.find(node) : node_index_.end();
      if (indexed != node_index_.end())
        if (const node_diagnosis* known = unfit_.known_why(shape, indexed->second)) {
          node_diagnosis& d = diagnosis.nodes.emplace_back(*known);
          if (!d.claim.empty()) d.claim = alloc::object_name(unit[0]->meta);
          continue;
        }
      diagnosis.nodes.push_back(diagnose_node(*funnels_, *node, unit, oracle));
      if (indexed != node_index_.end()) unfit_.remember_why(shape, indexed->second, diagnosis.nodes.back());
    }
    return summarize(diagnosis);
  }

  const model::scenario& s_;
  const Engine& engine_;
  alloc::features features_;
  Policy node_policy_;  // a copy for ranking nodes (the allocator owns the other)
  std::optional<node_usage> usage_;
  std::optional<funnel_builder<Engine>> funnels_;
  run_report report_;
  alloc::ledger state_;
  std::vector<const model::device_class*> classes_;
  std::vector<const model::resource_slice*> slices_;
  std::vector<const model::device_taint_rule*> rules_;
  std::optional<allocator_type> allocator_;
  // The allocators that try nodes, one per thread (run_options::threads): node i is tried by allocators_[i % size],
  // the first being allocator_ (which also serves explanations).
  std::deque<allocator_type> extra_allocators_;
  std::optional<alloc::basic_allocator<alloc::first_fit, Engine>> fit_allocator_;  // see owner_oracle
  std::vector<allocator_type*> allocators_;
  std::uint64_t share_serial_ = 1;  // the next share ID's serial (number_shares)
  // What the queue still asks for, including the unit of work being allocated (policies that use facts only).
  alloc::pending_demand demand_;
  std::vector<std::vector<const model::device_claim*>> pod_demand_;  // per pod: what its unit of work asks for
  node_list nodes_;
  std::unordered_map<const model::node*, std::size_t> node_index_;  // position in nodes_.nodes
  unfit_memo unfit_;  // nodes known not to fit a unit's shape (and why): not searched (or explained) again
  std::map<std::pair<model::text, model::text>, std::size_t> claim_index_, template_index_;
  std::set<std::pair<model::text, model::text>> generated_names_;  // namespace, name of each claim made
  std::vector<bool> handled_;
  std::vector<model::node> pinned_nodes_;  // nodes named by pods but not in the node list
  std::vector<std::shared_ptr<const sched::extended_claim_requests>> extended_specs_;  // every extended claim's texts
  std::vector<sched::node_usage> resources_;  // per node of the list: what its pods request (bound, then placed)
  node_allocatable_accounting node_allocatable_;  // the devices with nodeAllocatableResources (KEP-5517)
  std::optional<node_allocatable_verdict> node_allocatable_chosen_;  // for the pending pod's chosen node
  bool node_fields_ = false;  // some node is cordoned, tainted or has allocatable: pods' node filters apply
  std::vector<std::optional<std::size_t>> run_allocation_;  // per scenario claim: its outcome, once this run allocated it
  std::vector<std::optional<std::size_t>> generated_allocation_;  // per generated claim: its outcome, once allocated
  const gang_scope* gang_scope_ = nullptr;  // while a gang's trial runs: the nodes it may use
  const sched::pod_scoring* scoring_ = nullptr;  // while a pending pod's units run under a scoring policy: its scoring
  bool score_every_node_ = false;  // run_options::score_every_node
  std::vector<sched::node_resources> node_resources_;  // per node of the list, under a scoring policy
  bool nodes_prefer_no_schedule_ = false;  // some node has a PreferNoSchedule taint (scoring policies only)
  resource_rankings rankings_;  // the nodes by resource scores, per kind of pod (scoring policies only)
  std::optional<pod_group_index> groups_;  // the scenario's PodGroups and their pods (set when the run starts)
  // Per PodGroup: the claims made from its template entries (entry name, index into report_.generated).
  std::vector<std::vector<std::pair<model::text, std::size_t>>> group_generated_;
  std::optional<trial_threads> threads_;  // started when a unit first needs them (last: stopped first)
};

}  // namespace detail

// Allocates every pending claim of the scenario as kube-scheduler's DRA
// plugin would (see the scenario format): pods in input order, each pod's
// pending claims — named directly, through its status, or generated from a
// template — together in one unit of work, then the claims no pod
// references; each success is committed before the next unit of work.
// DeviceTaintRules add their taints to the devices they select. A policy guarded by first fit
// (alloc::guarded_by_first_fit, e.g. best fit) never reports less than first fit would place.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy = alloc::first_fit>
[[nodiscard]] run_report run_scenario(const model::scenario& s, const Engine& engine,
                                      alloc::features features = alloc::features::all(), Policy policy = {},
                                      run_options options = {}) {
  if constexpr (!alloc::guarded_by_first_fit<Policy>) {
    run_report report = detail::scenario_run<Engine, Policy>(s, engine, features, policy, options).run();
    assert(alloc::find_overcommit(s, report.outcomes).empty());  // debug builds re-check the promise on every run
    return report;
  } else {
    // With threads to spare, first fit's run goes beside the policy's: both only read the scenario and the engine.
    // The guard's runs go through run_scenario, which dra/sim/runs.hpp can declare compiled elsewhere.
    auto first_fit_run = [&] { return run_scenario<Engine, alloc::first_fit>(s, engine, features, {}, options); };
    std::future<run_report> first_fit_aside;
    if (options.threads > 1) {
      try {
        first_fit_aside = std::async(std::launch::async, first_fit_run);
      } catch (const std::system_error&) {  // no thread to be had: run it after
      }
    }
    run_report report = detail::scenario_run<Engine, Policy>(s, engine, features, policy, options).run();
    run_report baseline = first_fit_aside.valid() ? first_fit_aside.get() : first_fit_run();
    const placement_counts first_fit_counts = count_placements(baseline);
    if (places_less(count_placements(report), first_fit_counts)) {
      // Packing often wins before the first rejection and loses after it, where first fit fills the fragments it
      // left with later, smaller claims: keep the policy's start and first fit's end, if that beats first fit.
      run_report hybrid = run_scenario<Engine, detail::until_first_rejection<Policy>>(
          s, engine, features, detail::until_first_rejection<Policy>{policy}, options);
      if (!places_less(count_placements(hybrid), first_fit_counts)) {
        report = std::move(hybrid);
        report.placements = run_report::answer::first_fit_after_rejection;
      } else {
        report = std::move(baseline);
        report.placements = run_report::answer::first_fit;
      }
    }
    assert(alloc::find_overcommit(s, report.outcomes).empty());
    return report;
  }
}

}  // namespace dra::sim
