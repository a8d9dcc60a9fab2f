// Which claims a pod's scheduling cycle allocates — named directly, through the pod's status, made from a template,
// its PodGroup's, or made for its extended resources — as Kubernetes' resourceclaim controller and kube-scheduler
// find or make them; one resolver serves the cycle, best fit's pending demand and every analysis.
#pragma once

#include <dra/core/result.hpp>
#include <dra/model/pod_group.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/cluster_state.hpp>
#include <dra/sched/detail/extended_claims.hpp>
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/generated_names.hpp>
#include <dra/sched/pod_groups.hpp>
#include <dra/sched/run_report.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sched {

// A pending claim of a unit of work: a scenario claim, a generated one, or a missing template's (neither).
struct unit_member {
  std::optional<std::size_t> claim;      // index into scenario.claims
  std::optional<std::size_t> generated;  // index into run_report::generated
  std::string missing_name;              // for a missing template: the claim that would have been made
  std::optional<std::size_t> group;      // a PodGroup's claim: the group's index
};

// A pod's pending claims, and the first reason one cannot be had (a missing template or PodGroup, a name taken).
struct resolved_claims {
  std::vector<unit_member> unit;
  std::optional<dra::error> error;
};

// Where a group entry's claim is: a scenario claim (named, or named in the group's status), one the run made from
// the template, or none (`none_needed`: the group's status says no claim was needed; else not made yet).
struct group_claim {
  std::optional<std::size_t> claim;
  std::optional<std::size_t> generated;
  std::optional<model::text> missing;  // a named claim not in the scenario
  bool none_needed = false;
};

// What the queue asks of devices before any pod runs: per pod, the specs of the claims its cycle will allocate
// (pending claims it names, templates it will make claims from; a PodGroup's claim counted with the first of the
// group's pods only, as one claim is made per group), and the pending claims no pod names.
struct queue_demand {
  std::vector<std::vector<const model::device_claim*>> per_pod;
  std::vector<const model::device_claim*> unreferenced;
};

class claim_resolver {
 public:
  // `queue`: the pods' indices in queue order (a PodGroup's pods are listed in it).
  claim_resolver(const model::scenario& s, std::span<const std::size_t> queue) : s_(s), groups_(s, queue) {
    for (std::size_t i = 0; i < s.claims.size(); ++i)
      claims_.emplace(std::pair{s.claims[i].object.meta.namespace_, s.claims[i].object.meta.name}, i);
    for (std::size_t i = 0; i < s.claim_templates.size(); ++i)
      templates_.emplace(
          std::pair{s.claim_templates[i].object.meta.namespace_, s.claim_templates[i].object.meta.name}, i);
  }

  [[nodiscard]] const pod_group_index& groups() const noexcept { return groups_; }

  // The scenario claim of that name, if any.
  [[nodiscard]] std::optional<std::size_t> claim_named(model::text namespace_, model::text name) const {
    const auto it = claims_.find(std::pair{namespace_, name});
    return it == claims_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }

  // The scenario claims `pod` names: directly, or through its status for a template entry or its extended
  // resources (claims not yet made from a template are not among them).
  [[nodiscard]] std::vector<std::size_t> claims_named_by(const model::pod& pod) const {
    std::vector<std::size_t> out;
    auto add = [&](model::text name) {
      if (const auto c = claim_named(pod.meta.namespace_, name)) out.push_back(*c);
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

  // The specs of the claims `pod` uses, allocated or not, in its entries' order: the scenario claim an entry names
  // (directly or through the pod's status), else its template's (an entry whose status names no claim needs none).
  // Claims made for extended resources are left out.
  [[nodiscard]] std::vector<const model::device_claim*> claim_specs_of(const model::pod& pod) const {
    std::vector<const model::device_claim*> out;
    for (const auto& ref : pod.resource_claims) {
      std::optional<model::text> name = ref.resource_claim_name;
      if (!name)
        if (const auto* status = status_of(pod, ref)) {
          if (!status->resource_claim_name) continue;
          name = status->resource_claim_name;
        }
      if (name) {
        if (const auto c = claim_named(pod.meta.namespace_, *name)) out.push_back(&s_.claims[*c].object.spec);
      } else if (ref.resource_claim_template_name) {
        if (const auto t = template_named(pod.meta.namespace_, *ref.resource_claim_template_name))
          out.push_back(&s_.claim_templates[*t].object.spec);
      }
    }
    return out;
  }

  // The group entry `ref` refers to (equal in every field), when the pod belongs to an existing group.
  [[nodiscard]] const model::pod_resource_claim* group_entry(const model::pod& pod,
                                                             const model::pod_resource_claim& ref) const {
    const auto group = groups_.of(pod).group;
    return group ? model::group_claim_entry(groups_.group(*group), ref) : nullptr;
  }

  [[nodiscard]] group_claim find_group_claim(std::size_t g, const model::pod& pod, const model::pod_resource_claim& entry,
                                             const cluster_state& state) const {
    std::optional<model::text> name = entry.resource_claim_name;
    if (!name)
      for (const auto& status : groups_.group(g).resource_claim_statuses)
        if (status.name == entry.name) {
          if (!status.resource_claim_name) return {std::nullopt, std::nullopt, std::nullopt, true};
          name = status.resource_claim_name;
        }
    if (name) {
      const auto c = claim_named(pod.meta.namespace_, *name);
      if (!c) return {std::nullopt, std::nullopt, name, false};
      return {c, std::nullopt, std::nullopt, false};
    }
    for (const auto& [made_for, generated] : state.group_generated[g])
      if (made_for == entry.name) return {std::nullopt, generated, std::nullopt, false};
    return {};
  }

  // The pod's spec.resourceClaims entry that names claim `name`, directly or through its status; empty if none.
  [[nodiscard]] static model::text entry_naming(const model::pod& pod, model::text name) {
    for (const auto& ref : pod.resource_claims) {
      if (ref.resource_claim_name == name) return ref.name;
      for (const auto& status : pod.resource_claim_statuses)
        if (status.name == ref.name && status.resource_claim_name == name) return ref.name;
    }
    return {};
  }

  // Calls visit(claim, allocation) for each claim `pod` uses that is allocated already: in the input, or by an
  // earlier pod's cycle (a claim several pods share, a PodGroup's claim).
  template <class Visit>
  void for_each_allocated_claim(const model::pod& pod, const cluster_state& state, const run_report& report,
                                Visit visit) const {
    auto scenario_claim = [&](std::size_t c) {
      if (const model::allocation_result* allocation = state.allocation_of(s_, report, c))
        visit(s_.claims[c].object, *allocation);
    };
    for (std::size_t c : claims_named_by(pod)) scenario_claim(c);
    for (const auto& ref : pod.resource_claims)
      if (const model::pod_resource_claim* entry = group_entry(pod, ref)) {
        const group_claim found = find_group_claim(*groups_.of(pod).group, pod, *entry, state);
        if (found.claim) scenario_claim(*found.claim);
        if (found.generated)
          if (const model::allocation_result* allocation = state.generated_allocation(report, *found.generated))
            visit(report.generated[*found.generated].claim, *allocation);
      }
  }

  // The node selectors of the claims `pod` uses that are allocated already: the pod may only go where they are.
  [[nodiscard]] std::vector<const model::node_selector*> allocated_selectors(const model::pod& pod,
                                                                            const cluster_state& state,
                                                                            const run_report& report) const {
    std::vector<const model::node_selector*> out;
    for_each_allocated_claim(pod, state, report, [&](const model::resource_claim&, const model::allocation_result& a) {
      if (a.node_selector) out.push_back(&*a.node_selector);
    });
    return out;
  }

  // What the claims `pod` would make from its templates ask for (a PodGroup's claim only while not yet made).
  [[nodiscard]] std::vector<const model::device_claim*> template_demand(const model::pod& pod,
                                                                        const cluster_state& state) const {
    std::vector<const model::device_claim*> out;
    for (const auto& ref : pod.resource_claims) {
      if (!ref.resource_claim_template_name) continue;
      if (const model::pod_resource_claim* entry = group_entry(pod, ref)) {
        const group_claim found = find_group_claim(*groups_.of(pod).group, pod, *entry, state);
        if (found.claim || found.generated || found.none_needed) continue;
      }
      if (const auto t = template_named(pod.meta.namespace_, *ref.resource_claim_template_name))
        out.push_back(&s_.claim_templates[*t].object.spec);
    }
    return out;
  }

  // The pending demand at the start, as the cycles will find it (queue_demand).
  [[nodiscard]] queue_demand demand_of_queue() const {
    queue_demand out;
    std::vector<bool> counted(s_.claims.size(), false);
    auto pending_claim = [&](const model::pod& pod, model::text name) -> const model::device_claim* {
      const auto c = claim_named(pod.meta.namespace_, name);
      if (!c || s_.claims[*c].object.allocation || counted[*c]) return nullptr;
      counted[*c] = true;
      return &s_.claims[*c].object.spec;
    };
    out.per_pod.resize(s_.pods.size());
    for (std::size_t p = 0; p < s_.pods.size(); ++p) {
      const model::pod& pod = s_.pods[p].object;
      for (const auto& ref : pod.resource_claims) {
        const model::device_claim* spec = nullptr;
        if (const model::pod_resource_claim* entry = group_entry(pod, ref)) {
          // The group's claim, one for the group: counted with the first of its pods in the queue that uses it.
          const std::size_t g = *groups_.of(pod).group;
          if (first_member_using(g, *entry) == p) spec = group_spec(g, pod, *entry, pending_claim);
        } else if (ref.resource_claim_name) {
          spec = pending_claim(pod, *ref.resource_claim_name);
        } else if (ref.resource_claim_template_name) {
          spec = template_or_status_spec(pod, ref, pending_claim);
        }
        if (spec != nullptr) out.per_pod[p].push_back(spec);
      }
    }
    for (std::size_t i = 0; i < s_.claims.size(); ++i)
      if (!s_.claims[i].object.allocation && !counted[i]) out.unreferenced.push_back(&s_.claims[i].object.spec);
    return out;
  }

  // The pod's pending claims, found or made as the resourceclaim controller would (it reads the pod's status first);
  // what it makes is recorded in `report` and `state`, and the scenario claims it names count as answered.
  [[nodiscard]] resolved_claims resolve(std::size_t pod_index, const model::pod& pod, cluster_state& state,
                                        run_report& report) const {
    resolved_claims out;
    const pod_group_index::lookup group = groups_.of(pod);
    if (group.names_group && !group.group)
      out.error = dra::error{"pod " + model::namespaced_name(pod.meta) + ": PodGroup " +
                                 model::namespaced_name(pod.meta.namespace_, *pod.pod_group_name) + " not found",
                             "", "", errc::not_found};
    auto keep_first = [&](std::optional<dra::error> failure) {
      if (failure && !out.error) out.error = std::move(failure);
    };
    auto add_claim = [&](std::optional<std::size_t> i) {
      if (i && std::none_of(out.unit.begin(), out.unit.end(), [&](const unit_member& m) { return m.claim == i; }))
        out.unit.push_back({i, std::nullopt, {}, std::nullopt});
    };
    for (const auto& ref : pod.resource_claims) {
      if (const model::pod_resource_claim* entry = group_entry(pod, ref)) {
        keep_first(add_group_claim(*group.group, pod_index, pod, *entry, out.unit, state, report));
        continue;
      }
      if (ref.resource_claim_name) {
        add_claim(pending_claim(pod, *ref.resource_claim_name, "", state, report));
        continue;
      }
      if (!ref.resource_claim_template_name) continue;  // neither: nothing Kubernetes would allocate
      const auto status = status_of(pod, ref);
      if (status != nullptr) {
        // The controller decided: the claim it made, or none needed.
        if (status->resource_claim_name)
          add_claim(pending_claim(pod, *status->resource_claim_name, " (from a template)", state, report));
        continue;
      }
      keep_first(generate(pod_index, pod, ref, out.unit, std::nullopt, state, report));
    }
    // The claim kube-scheduler made for the pod's extended resources in an earlier attempt.
    if (pod.extended_resource_claim_status)
      add_claim(pending_claim(pod, pod.extended_resource_claim_status->resource_claim_name, " (extended resources)",
                              state, report));
    for (const auto& m : out.unit)
      if (m.claim) state.answered[*m.claim] = true;
    return out;
  }

  // Why kube-scheduler's DynamicResources plugin keeps `pending` out of the scheduling queue (PreEnqueue), in its
  // words: a claim the pod names (directly, or in its status for a template entry) that does not exist or is being
  // deleted, or a template entry's claim that is not the pod's own (its controller owner is another object). Claims
  // the controller is yet to make are not a reason: the run makes them (resolve). The PodGroup's entries are the
  // group's. Empty when the pod may be queued.
  [[nodiscard]] std::optional<std::string> pre_enqueue_rejection(const model::pod& pending) const {
    for (const auto& ref : pending.resource_claims) {
      if (group_entry(pending, ref) != nullptr) continue;
      std::optional<model::text> name = ref.resource_claim_name;
      const bool from_template = !name && ref.resource_claim_template_name;
      if (from_template)
        if (const auto* status = status_of(pending, ref)) name = status->resource_claim_name;
      if (!name) continue;  // nothing named: the controller makes the claim, or none is needed
      const auto c = claim_named(pending.meta.namespace_, *name);
      if (!c)
        return "could not find ResourceClaim \"" + model::namespaced_name(pending.meta.namespace_, *name) + "\"";
      const model::object_meta& claim = s_.claims[*c].object.meta;
      if (claim.deleting) return "resourceclaim \"" + std::string(claim.name) + "\" is being deleted";
      // Owned means controlled by the pod's uid, as metav1.IsControlledBy compares.
      if (from_template && (claim.controller_uid.empty() || claim.controller_uid != pending.meta.uid))
        return "ResourceClaim " + model::namespaced_name(claim) + " was not created for Pod " +
               model::namespaced_name(pending.meta) + " (Pod is not owner)";
    }
    return std::nullopt;
  }

  // The claim kube-scheduler makes for `pod`'s extended resources with `requests` (`<pod>-extended-resources`).
  [[nodiscard]] static generated_claim extended_claim(std::size_t pod_index, const model::pod& pod,
                                                      extended_claim_requests requests) {
    generated_claim g;
    g.pod = pod_index;
    g.name = std::make_shared<const std::string>(std::string(pod.meta.name) +
                                                 std::string(extended_resource_claim_suffix));
    g.extended = std::make_shared<const extended_claim_requests>(std::move(requests));
    g.claim = detail::claim_for_extended_resources(pod, *g.name, *g.extended);
    return g;
  }

 private:
  [[nodiscard]] std::optional<std::size_t> template_named(model::text namespace_, model::text name) const {
    const auto it = templates_.find(std::pair{namespace_, name});
    return it == templates_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }

  [[nodiscard]] static const model::pod_resource_claim_status* status_of(const model::pod& pod,
                                                                        const model::pod_resource_claim& ref) {
    for (const auto& status : pod.resource_claim_statuses)
      if (status.name == ref.name) return &status;
    return nullptr;
  }

  // The first pod of group g, in queue order, that uses the group's `entry`.
  [[nodiscard]] std::optional<std::size_t> first_member_using(std::size_t g,
                                                              const model::pod_resource_claim& entry) const {
    for (std::size_t member : groups_.members(g)) {
      const model::pod& pod = s_.pods[member].object;
      for (const auto& ref : pod.resource_claims)
        if (group_entry(pod, ref) == &entry) return member;
    }
    return std::nullopt;
  }

  // A template entry's spec for the demand: the claim its status names (if pending), or its template's.
  template <class PendingClaim>
  [[nodiscard]] const model::device_claim* template_or_status_spec(const model::pod& pod,
                                                                   const model::pod_resource_claim& ref,
                                                                   PendingClaim& pending_claim) const {
    if (const auto* status = status_of(pod, ref))
      return status->resource_claim_name ? pending_claim(pod, *status->resource_claim_name) : nullptr;
    const auto t = template_named(pod.meta.namespace_, *ref.resource_claim_template_name);
    return t ? &s_.claim_templates[*t].object.spec : nullptr;
  }

  // A group entry's spec for the demand: the claim it or the group's status names (if pending), or its template's.
  template <class PendingClaim>
  [[nodiscard]] const model::device_claim* group_spec(std::size_t g, const model::pod& pod,
                                                      const model::pod_resource_claim& entry,
                                                      PendingClaim& pending_claim) const {
    if (entry.resource_claim_name) return pending_claim(pod, *entry.resource_claim_name);
    for (const auto& status : groups_.group(g).resource_claim_statuses)
      if (status.name == entry.name)
        return status.resource_claim_name ? pending_claim(pod, *status.resource_claim_name) : nullptr;
    if (!entry.resource_claim_template_name) return nullptr;
    const auto t = template_named(pod.meta.namespace_, *entry.resource_claim_template_name);
    return t ? &s_.claim_templates[*t].object.spec : nullptr;
  }

  // The claim a pod entry names directly or through its status; nullopt when there is none to allocate.
  std::optional<std::size_t> pending_claim(const model::pod& pod, model::text name, std::string_view how,
                                           const cluster_state& state, run_report& report) const {
    const auto c = claim_named(pod.meta.namespace_, name);
    if (!c) {
      report.warnings.push_back("pod " + model::namespaced_name(pod.meta) + ": ResourceClaim " +
                                model::namespaced_name(pod.meta.namespace_, name) + std::string(how) +
                                " not found; skipped");
      return std::nullopt;
    }
    // Allocated (in the input or by an earlier pod) is decided; a claim an earlier pod left unallocated (it waited for
    // its gates, or found no node) is tried again with this pod, as kube-scheduler tries it with every pod naming it.
    if (s_.claims[*c].object.allocation || state.claim_outcome[*c]) return std::nullopt;
    return c;
  }

  // Makes the claim a template entry asks for, named and annotated as the resourceclaim controller would; an error
  // when the template does not exist. For a PodGroup's entry (`group`), the claim is the group's: named after the
  // group, made once.
  std::optional<dra::error> generate(std::size_t pod_index, const model::pod& pod, const model::pod_resource_claim& ref,
                                     std::vector<unit_member>& unit, std::optional<std::size_t> group,
                                     cluster_state& state, run_report& report) const {
    const model::object_meta& owner = group ? s_.pod_groups[*group].object.meta : pod.meta;
    const std::string made_for = "pod " + model::namespaced_name(pod.meta) + ", claim " + std::string(ref.name);
    const std::string template_name = model::namespaced_name(pod.meta.namespace_, *ref.resource_claim_template_name);
    const auto t = template_named(pod.meta.namespace_, *ref.resource_claim_template_name);
    if (!t) {
      unit.push_back({std::nullopt, std::nullopt,
                      model::namespaced_name(pod.meta.namespace_, generated_claim_name(owner, ref.name)), group});
      return dra::error{made_for + ": ResourceClaimTemplate " + template_name + " not found", "", "", errc::not_found};
    }
    // As the API server does, a name already in use is drawn again.
    std::shared_ptr<const std::string> name;
    for (std::uint32_t attempt = 0; !name; ++attempt) {
      std::string candidate = generated_claim_name(owner, ref.name, attempt);
      const auto key = std::pair{pod.meta.namespace_, model::text(candidate)};
      if (!claims_.contains(key) && !state.generated_names.contains(key))
        name = std::make_shared<const std::string>(std::move(candidate));
    }
    const model::resource_claim_template& from = s_.claim_templates[*t].object;
    generated_claim g{pod_index, ref.name, *t, {}, name, group, nullptr};
    g.claim.meta.name = *g.name;
    g.claim.meta.namespace_ = pod.meta.namespace_;
    g.claim.meta.labels = from.claim_meta.labels;
    g.claim.meta.annotations = from.claim_meta.annotations;
    // The controller's own annotation, over the template's if it has one.
    std::erase_if(g.claim.meta.annotations, [](const auto& a) { return a.name == pod_claim_name_annotation; });
    g.claim.meta.annotations.push_back({pod_claim_name_annotation, ref.name});
    model::sort_by_key(g.claim.meta.annotations);
    g.claim.spec = from.spec;
    unit.push_back({std::nullopt, report.generated.size(), {}, group});
    state.generated_outcome.emplace_back();
    state.generated_names.emplace(g.claim.meta.namespace_, g.claim.meta.name);  // views the claim's own name
    report.generated.push_back(std::move(g));
    return std::nullopt;
  }

  // A pod's entry for one of its group's claims: the one claim of the group, allocated with the first of its pods
  // placed (until then every pod of the group tries it), made from the template once for the group.
  std::optional<dra::error> add_group_claim(std::size_t g, std::size_t pod_index, const model::pod& pod,
                                            const model::pod_resource_claim& entry, std::vector<unit_member>& unit,
                                            cluster_state& state, run_report& report) const {
    const group_claim found = find_group_claim(g, pod, entry, state);
    if (found.none_needed) return std::nullopt;
    if (found.missing) {
      report.warnings.push_back("PodGroup " + model::namespaced_name(pod.meta.namespace_, groups_.group(g).meta.name) +
                                ": ResourceClaim " + model::namespaced_name(pod.meta.namespace_, *found.missing) +
                                " not found; skipped");
      return std::nullopt;
    }
    if (found.claim) {
      if (state.allocation_of(s_, report, *found.claim) == nullptr) unit.push_back({*found.claim, std::nullopt, {}, g});
      return std::nullopt;
    }
    if (found.generated) {
      if (!state.generated_outcome[*found.generated]) unit.push_back({std::nullopt, *found.generated, {}, g});
      return std::nullopt;
    }
    const std::size_t made = report.generated.size();
    auto failure = generate(pod_index, pod, entry, unit, g, state, report);
    if (report.generated.size() > made) state.group_generated[g].emplace_back(entry.name, made);
    return failure;
  }

  const model::scenario& s_;
  pod_group_index groups_;
  std::map<std::pair<model::text, model::text>, std::size_t> claims_, templates_;
};

}  // namespace dra::sched
