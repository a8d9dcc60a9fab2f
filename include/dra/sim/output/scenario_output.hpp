// The scenario after a run (`dra allocate --output scenario`): every input object with the run's allocations written
// back, so that the next run continues from there.
#pragma once

#include <dra/core/result.hpp>
#include <dra/json/defaults.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/overlay.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/claim_resolver.hpp>
#include <dra/sched/generated_names.hpp>
#include <dra/sim/runner.hpp>

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sim {

namespace detail {

// The apiVersion an object was written with, or `fallback`.
inline std::string api_version_of(std::string_view json, std::string_view fallback) {
  simdjson::dom::parser parser;
  std::string_view version;
  if (parser.parse(simdjson::padded_string(json))["apiVersion"].get(version) != simdjson::SUCCESS) version = fallback;
  return std::string(version);
}

// What a run did to each object of the scenario.
struct run_effects {
  std::vector<const model::claim_allocated*> claim_allocated;     // per scenario claim: its allocation, if any
  std::vector<std::optional<std::size_t>> claim_pod;              // per scenario claim: the pod it was allocated for
  std::vector<const model::claim_allocated*> generated_allocated;  // per generated claim
  std::vector<std::optional<std::string_view>> pod_node;          // per pod: the node its unit went to
  std::vector<std::vector<std::size_t>> pod_generated;            // per pod: the claims generated for it
  std::vector<std::vector<std::size_t>> group_generated;          // per PodGroup: the group claims generated for it
  std::vector<std::optional<std::size_t>> claim_group;            // per scenario claim: the PodGroup it is reserved for
  // per scenario claim: the pods placed by the run that use it (naming it, or through their status), in placement
  // order; kube-scheduler reserves the claim for each of them, allocated by the run or before it
  std::vector<std::vector<std::size_t>> claim_users;
  // per pod: what its claims' devices add to its node resources (KEP-5517), when placed with any
  std::vector<const std::vector<model::node_allocatable_claim_status>*> pod_node_allocatable;
  // per pod and per PodGroup: whether a claim written names it (reservedFor, ownerReferences), so it needs a uid
  std::vector<bool> pod_named, group_named;
  std::vector<bool> evicted;  // per scenario pod: preemption evicted it (deleted)
  std::set<std::pair<model::text, model::text>> evicted_names;  // their namespaces and names
  enum class release : std::uint8_t { kept, deallocated, deleted };
  std::vector<release> released;  // per scenario claim: what the evictions did to it
  std::vector<const std::string*> nominated;  // per pod: the node preemption nominated while it is still pending

  run_effects(const model::scenario& s, const run_report& report)
      : claim_allocated(s.claims.size(), nullptr),
        claim_pod(s.claims.size()),
        generated_allocated(report.generated.size(), nullptr),
        pod_node(s.pods.size() + report.added_pods.size()),
        pod_generated(s.pods.size() + report.added_pods.size()),
        group_generated(s.pod_groups.size()),
        claim_group(s.claims.size()),
        claim_users(s.claims.size()),
        pod_node_allocatable(s.pods.size() + report.added_pods.size(), nullptr),
        pod_named(s.pods.size() + report.added_pods.size(), false),
        group_named(s.pod_groups.size(), false),
        evicted(s.pods.size(), false),
        released(s.claims.size(), release::kept),
        nominated(s.pods.size() + report.added_pods.size(), nullptr) {
    for (const eviction& e : report.evictions) {
      evicted[e.pod] = true;
      evicted_names.emplace(s.pods[e.pod].object.meta.namespace_, s.pods[e.pod].object.meta.name);
    }
    for (const released_claim& r : report.released)
      released[r.claim] = r.deleted ? release::deleted : release::deallocated;
    for (std::size_t i = 0; i < report.outcomes.size() && i < report.subjects.size(); ++i) {
      const model::claim_outcome& o = report.outcomes[i];
      const outcome_subject& subject = report.subjects[i];
      const model::claim_allocated* allocated = o.allocated();
      if (allocated == nullptr) continue;
      if (subject.claim) {
        claim_allocated[*subject.claim] = allocated;
        claim_pod[*subject.claim] = subject.pod;
        claim_group[*subject.claim] = subject.pod_group;
      }
      if (subject.generated) generated_allocated[*subject.generated] = allocated;
      if (subject.pod) pod_node[*subject.pod] = allocated->node;
    }
    for (std::size_t g = 0; g < report.generated.size(); ++g) {
      const generated_claim& made = report.generated[g];
      (made.pod_group ? group_generated[*made.pod_group] : pod_generated[made.pod]).push_back(g);
    }
    // Pods placed without a claim to allocate are bound too.
    for (const pod_outcome& p : report.pods) {
      if (p.preemption && !p.node) nominated[p.pod] = &p.preemption->nominated_node;
      if (p.node) pod_node[p.pod] = *p.node;
      if (p.node && !p.node_allocatable.empty()) pod_node_allocatable[p.pod] = &p.node_allocatable;
    }
    find_claim_users(s, report);
    for (std::size_t c = 0; c < s.claims.size(); ++c) {
      if (claim_group[c] && claim_allocated[c] != nullptr) group_named[*claim_group[c]] = true;
      if (!claim_group[c] && claim_pod[c] && claim_allocated[c] != nullptr) pod_named[*claim_pod[c]] = true;
      for (std::size_t user : claim_users[c]) pod_named[user] = true;
    }
    for (std::size_t p = 0; p < pod_generated.size(); ++p) pod_named[p] = pod_named[p] || !pod_generated[p].empty();
    for (std::size_t g = 0; g < group_generated.size(); ++g)
      group_named[g] = group_named[g] || !group_generated[g].empty();
  }

 private:
  void find_claim_users(const model::scenario& s, const run_report& report) {
    const sched::claim_resolver claims(s, {});
    for (const pod_outcome& p : report.pods) {
      if (!p.node) continue;
      for (std::size_t c : claims.claims_named_by(pod_at(s, report, p.pod)))
        if (!claim_group[c]) claim_users[c].push_back(p.pod);
    }
  }
};

// The uid an object is written with: its own, or, for one written without (a scenario written by hand, a copy
// `dra capacity` made), a UUID (version 8: made up, not random) drawn from its kind, namespace and name, so that the
// claims that name it (reservedFor, ownerReferences) and the object itself agree, run after run.
inline std::string uid_of(std::string_view kind, const model::object_meta& meta) {
  if (!meta.uid.empty()) return std::string(meta.uid);
  const std::string seed = std::string(kind) + "/" + model::namespaced_name(meta);
  const std::uint64_t high = sched::fnv1a(seed), low = sched::fnv1a(seed, 0x84222325cbf29ce4ULL);
  char out[37];
  std::snprintf(out, sizeof out, "%08x-%04x-8%03x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xffff), static_cast<unsigned>(high & 0xfff),
                static_cast<unsigned>(0x8000 | ((low >> 48) & 0x3fff)),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return out;
}

// metadata.uid for an object written without one that a claim names (uid_of).
inline json::field_override uid_change(std::string_view kind, const model::object_meta& meta) {
  return {{"metadata", "uid"}, [uid = uid_of(kind, meta)](json::writer& w) { w.string(uid); }};
}

// Whether a claim's reservation names a pod preemption evicted.
inline bool names_evicted(const run_effects& effects, const model::resource_claim_consumer_reference& r,
                          model::text claim_namespace) {
  return r.resource == "pods" && r.api_group.empty() && effects.evicted_names.contains({claim_namespace, r.name});
}

// What a claim is reserved for (or owned by): a pod, or (a PodGroup's claim) the PodGroup.
struct claim_consumer {
  std::string_view api_group;  // "" for pods
  std::string_view resource;
  std::string_view kind;
  std::string api_version;  // the owner's, for ownerReferences
  const model::object_meta* meta = nullptr;
  std::string uid;
};
inline claim_consumer pod_consumer(const model::pod& pod) {
  return {"", "pods", "Pod", "v1", &pod.meta, uid_of("Pod", pod.meta)};
}
inline claim_consumer group_consumer(const model::located<model::pod_group>& group) {
  return {"scheduling.k8s.io", "podgroups", "PodGroup",
          api_version_of(group.source.json, "scheduling.k8s.io/v1beta1"), &group.object.meta,
          uid_of("PodGroup", group.object.meta)};
}

// status.allocation (when the run allocated the claim: `allocated`) and status.reservedFor: `reserved` already there,
// then each of `consumers` not among them. `reserved_shrank`: `reserved` left out some of the input's (pods
// preemption evicted), so reservedFor is written even when nobody is added.
inline std::vector<json::field_override> claim_status(
    const model::claim_allocated* allocated, const std::vector<model::resource_claim_consumer_reference>& reserved,
    std::vector<claim_consumer> consumers, bool reserved_shrank = false) {
  std::vector<json::field_override> out;
  if (allocated != nullptr)
    out.push_back({{"status", "allocation"}, [allocated](json::writer& w) { json::write(w, allocated->allocation); }});
  std::erase_if(consumers, [&](const claim_consumer& c) {
    return std::ranges::any_of(reserved,
                               [&](const auto& r) { return r.resource == c.resource && r.name == c.meta->name; });
  });
  if (consumers.empty() && !reserved_shrank && (reserved.empty() || allocated == nullptr)) return out;
  out.push_back({{"status", "reservedFor"}, [&reserved, consumers = std::move(consumers)](json::writer& w) {
                   auto consumer = [&w](std::string_view group, std::string_view resource, std::string_view name,
                                        std::string_view uid) {
                     w.begin_object();
                     if (!group.empty()) w.field("apiGroup", group);  // omitted when empty, as Go writes it
                     w.field("resource", resource).field("name", name).field("uid", uid).end_object();
                   };
                   w.begin_array();
                   for (const auto& r : reserved) consumer(r.api_group, r.resource, r.name, r.uid);
                   for (const auto& c : consumers) consumer(c.api_group, c.resource, c.meta->name, c.uid);
                   w.end_array();
                 }});
  return out;
}

inline void write_string_map(json::writer& w, std::string_view key, const model::sorted_map<model::text>& map) {
  if (map.empty()) return;
  w.key(key).begin_object();
  for (const auto& [name, value] : map) w.field(name, value);
  w.end_object();
}

// status.allocation and reservedFor (its consumer: the pod, or a PodGroup) of a generated claim, when allocated; then
// the end of the claim.
inline void end_generated(json::writer& w, const model::claim_allocated* allocated, const claim_consumer& consumer) {
  if (allocated != nullptr) {
    w.key("status").begin_object().key("allocation");
    json::write(w, allocated->allocation);
    w.key("reservedFor").begin_array().begin_object();
    if (!consumer.api_group.empty()) w.field("apiGroup", consumer.api_group);
    w.field("resource", consumer.resource).field("name", consumer.meta->name);
    w.field("uid", consumer.uid).end_object().end_array().end_object();
  }
  w.end_object();
}

// metadata.ownerReferences of a claim made for `owner`: it alone, as its controller (blockOwnerDeletion is no longer
// set since Kubernetes 1.35).
inline void write_owner(json::writer& w, const claim_consumer& owner) {
  w.key("ownerReferences").begin_array().begin_object().field("apiVersion", owner.api_version);
  w.field("kind", owner.kind).field("name", owner.meta->name).field("uid", owner.uid);
  w.key("controller").boolean(true).end_object().end_array();
}

// The claim kube-scheduler creates for a pod's extended resources at PreBind: annotated, owned by the pod, one
// ExactCount request per container and resource.
inline void write_extended(json::writer& w, const generated_claim& g, const model::claim_allocated* allocated,
                           const claim_consumer& pod) {
  w.begin_object().field("apiVersion", "resource.k8s.io/v1").field("kind", "ResourceClaim");
  w.key("metadata").begin_object().field("name", g.claim.meta.name);
  if (!g.claim.meta.namespace_.empty()) w.field("namespace", g.claim.meta.namespace_);
  write_string_map(w, "annotations", g.claim.meta.annotations);
  write_owner(w, pod);
  w.end_object().key("spec").begin_object().key("devices").begin_object().key("requests").begin_array();
  for (const auto& r : g.extended->requests) {
    w.begin_object().field("name", r.name).key("exactly").begin_object().field("deviceClassName", r.device_class);
    w.field("allocationMode", "ExactCount").key("count").integer(r.count).end_object().end_object();
  }
  w.end_array().end_object().end_object();
  end_generated(w, allocated, pod);
}

// A claim generated from a template, as the resourceclaim controller would create it: the template's apiVersion
// and spec.spec as written, the generated name and the template's claim labels and annotations; or a pod's
// extended-resource claim, as kube-scheduler makes it.
inline dra::status write_generated(json::writer& w, const generated_claim& g, const model::scenario& s,
                                   const model::claim_allocated* allocated, const claim_consumer& consumer) {
  if (g.extended) {
    if (allocated != nullptr) write_extended(w, g, allocated, consumer);  // made at PreBind: only for a pod that fits
    return {};
  }
  const auto& t = s.claim_templates[g.claim_template];
  auto defaulted = json::with_api_server_defaults(t.source.json);
  if (!defaulted) return std::move(defaulted).error().within(model::object_label("ResourceClaimTemplate", t.object.meta));
  simdjson::dom::parser parser;
  const simdjson::padded_string text(*defaulted ? std::string_view(**defaulted) : t.source.json);
  simdjson::dom::element root;
  std::string_view api_version = "resource.k8s.io/v1";
  simdjson::dom::element spec;
  if (parser.parse(text).get(root) != simdjson::SUCCESS)
    return dra::error{"no source text to write the claim from", "", model::object_label("ResourceClaimTemplate", t.object.meta)};
  if (root["apiVersion"].get(api_version) != simdjson::SUCCESS) api_version = "resource.k8s.io/v1";
  const bool has_spec = root["spec"]["spec"].get(spec) == simdjson::SUCCESS;
  w.begin_object().field("apiVersion", api_version).field("kind", "ResourceClaim");
  w.key("metadata").begin_object().field("name", g.claim.meta.name);
  w.field("generateName", sched::claim_generate_name(consumer.meta->name, g.entry));
  if (!g.claim.meta.namespace_.empty()) w.field("namespace", g.claim.meta.namespace_);
  write_string_map(w, "labels", g.claim.meta.labels);
  write_string_map(w, "annotations", g.claim.meta.annotations);
  write_owner(w, consumer);
  w.end_object().key("spec");
  if (has_spec)
    json::write_element(w, spec);
  else
    w.begin_object().end_object();
  end_generated(w, allocated, consumer);
  return {};
}

// status.resourceClaimStatuses of a pod or PodGroup: the entries it had, then one per claim generated for it.
inline json::field_override claim_statuses_change(const std::vector<model::pod_resource_claim_status>& statuses,
                                                  std::vector<std::size_t> generated, const run_report& report) {
  return {{"status", "resourceClaimStatuses"}, [&statuses, generated = std::move(generated), &report](json::writer& w) {
                   w.begin_array();
                   for (const auto& st : statuses) {
                     w.begin_object().field("name", st.name);
                     if (st.resource_claim_name) w.field("resourceClaimName", *st.resource_claim_name);
                     w.end_object();
                   }
                   for (auto g : generated)
                     w.begin_object()
                         .field("name", report.generated[g].entry)
                         .field("resourceClaimName", report.generated[g].claim.meta.name)
                         .end_object();
                   w.end_array();
                 }};
}

// status.extendedResourceClaimStatus of a pod whose extended-resource claim was allocated, as PreBind writes it.
inline json::field_override extended_status(const generated_claim& g) {
  return {{"status", "extendedResourceClaimStatus"}, [&g](json::writer& w) {
            w.begin_object().key("requestMappings").begin_array();
            for (const auto& m : g.extended->mappings)
              w.begin_object()
                  .field("containerName", m.container)
                  .field("resourceName", m.resource)
                  .field("requestName", m.request)
                  .end_object();
            w.end_array().field("resourceClaimName", g.claim.meta.name).end_object();
          }};
}

// status.nodeAllocatableResourceClaimStatuses of a pod whose claims' devices add to its node resources (KEP-5517),
// as PreBind patches it: per claim, the containers that reference it, the mapped amounts, the overheads.
inline json::field_override node_allocatable_status(const std::vector<model::node_allocatable_claim_status>& statuses) {
  return {{"status", "nodeAllocatableResourceClaimStatuses"}, [&statuses](json::writer& w) {
            w.begin_array();
            for (const auto& st : statuses) {
              w.begin_object().field("resourceClaimName", st.resource_claim_name);
              if (!st.containers.empty()) {
                w.key("containers").begin_array();
                for (model::text c : st.containers) w.string(c);
                w.end_array();
              }
              if (!st.mapping.empty()) {
                w.key("mapping").begin_array();
                for (const auto& [name, q] : st.mapping)
                  w.begin_object().field("name", name).field("quantity", q.to_string()).end_object();
                w.end_array();
              }
              if (!st.overhead.empty()) {
                w.key("overhead").begin_array();
                for (const auto& o : st.overhead) {
                  w.begin_object().field("name", o.name);
                  if (o.per_pod) w.field("perPod", o.per_pod->to_string());
                  if (o.per_container) w.field("perContainer", o.per_container->to_string());
                  w.end_object();
                }
                w.end_array();
              }
              w.end_object();
            }
            w.end_array();
          }};
}

// The pod bound to its unit's node (when it named none) and linked to the claims generated for it: the
// extended-resource claim in its own status field once allocated (PreBind), the others in resourceClaimStatuses.
inline std::vector<json::field_override> pod_changes(
    const model::pod& pod, std::optional<std::string_view> node, std::vector<std::size_t> generated,
    const run_report& report, const std::vector<const model::claim_allocated*>& allocated,
    const std::vector<model::node_allocatable_claim_status>* node_allocatable) {
  std::vector<json::field_override> out;
  if (node && !pod.node_name) out.push_back({{"spec", "nodeName"}, [node](json::writer& w) { w.string(*node); }});
  const auto extended = std::find_if(generated.begin(), generated.end(),
                                     [&](std::size_t g) { return report.generated[g].extended != nullptr; });
  if (extended != generated.end()) {
    if (allocated[*extended] != nullptr) out.push_back(extended_status(report.generated[*extended]));
    generated.erase(extended);
  }
  if (!generated.empty()) out.push_back(claim_statuses_change(pod.resource_claim_statuses, std::move(generated), report));
  if (node_allocatable != nullptr) out.push_back(node_allocatable_status(*node_allocatable));
  return out;
}

}  // namespace detail

// The scenario after `report`'s run, as one Kubernetes List in JSON: every
// object of `s` in input order, written as it was except that
// - a claim the run allocated gets status.allocation, and the pod whose
//   unit of work allocated it is added to status.reservedFor;
// - a pod placed on a node (its unit of work allocated, or a pending pod
//   without claims that a node took) gets spec.nodeName (when it named no
//   node) and, for each claim generated for it, an entry in
//   status.resourceClaimStatuses (as Kubernetes' resourceclaim controller
//   records the claims it makes); when its claims' devices add to its node
//   resources (KEP-5517), status.nodeAllocatableResourceClaimStatuses;
// - every claim generated from a template follows its pod (right after
//   it), allocated or not, as the controller would have created it (its
//   name and generateName, the pod-claim-name annotation, the pod as its
//   controller owner); a PodGroup's claims follow the PodGroup, are owned by
//   and reserved for it, and are named in its status.resourceClaimStatuses;
// - a pod preemption evicted is left out (deleted), and so is a claim made
//   from its template; another claim it used loses it from reservedFor and,
//   reserved for nobody any more, its allocation; a pod nominated but not
//   placed gets status.nominatedNodeName; a PodDisruptionBudget the evictions
//   spent gets the status.disruptionsAllowed left;
// - a pod or PodGroup written without a uid that a claim now names (owner,
//   reservedFor) gets one (detail::uid_of), so that both agree when read back;
// - claims and templates show the fields the API server defaults
//   (json::api_server_defaults) where they were left out.
// Feeding the result back in allocates nothing twice. Objects need the text
// they were read from (scenarios built in C++ have none: an error).
[[nodiscard]] inline result<std::string> scenario_after(const model::scenario& s, const run_report& report) {
  enum class kind { claim, pod, pod_group, disruption_budget, other };
  struct item {
    std::size_t position;
    kind what;
    std::size_t index;
    std::string_view json;
  };
  std::vector<item> items;
  auto add_all = [&](const auto& list, kind what) {
    for (std::size_t i = 0; i < list.size(); ++i) items.push_back({list[i].source.index, what, i, list[i].source.json});
  };
  add_all(s.slices, kind::other);
  add_all(s.classes, kind::other);
  add_all(s.claims, kind::claim);
  add_all(s.claim_templates, kind::other);
  add_all(s.taint_rules, kind::other);
  add_all(s.nodes, kind::other);
  add_all(s.pods, kind::pod);
  add_all(s.pod_groups, kind::pod_group);
  add_all(s.workloads, kind::other);
  add_all(s.priority_classes, kind::other);
  add_all(s.disruption_budgets, kind::disruption_budget);
  add_all(s.others, kind::other);
  // Pods placed after the run's own (sim::capacity's copies) come last, as pods after the scenario's.
  for (std::size_t k = 0; k < report.added_pods.size(); ++k)
    items.push_back({items.size(), kind::pod, s.pods.size() + k, report.added_pods[k].source.json});
  std::ranges::stable_sort(items.begin(), items.end() - static_cast<std::ptrdiff_t>(report.added_pods.size()), {},
                           &item::position);

  const detail::run_effects effects(s, report);
  json::writer w(2);
  w.begin_object().field("apiVersion", "v1").field("kind", "List").key("items").begin_array();
  for (const item& i : items) {
    if (i.json.empty())
      return dra::error{"object #" + std::to_string(i.position) + " has no source text to write back"};
    std::vector<json::field_override> changes;
    using release = detail::run_effects::release;
    if ((i.what == kind::claim && effects.released[i.index] == release::deleted) ||
        (i.what == kind::pod && i.index < s.pods.size() && effects.evicted[i.index]))
      continue;  // deleted by preemption: the victim, and the claim made for it
    // The claim's reservations but the evicted pods' (the resourceclaim controller removes them).
    std::vector<model::resource_claim_consumer_reference> reserved;
    if (i.what == kind::claim)
      for (const auto& r : s.claims[i.index].object.reserved_for)
        if (!detail::names_evicted(effects, r, s.claims[i.index].object.meta.namespace_)) reserved.push_back(r);
    const bool shrank = i.what == kind::claim && reserved.size() != s.claims[i.index].object.reserved_for.size();
    if (i.what == kind::claim && effects.released[i.index] == release::deallocated) {
      changes.push_back({{"status", "allocation"}, [](json::writer& w) { w.null(); }});
      changes.push_back({{"status", "reservedFor"}, [](json::writer& w) { w.begin_array().end_array(); }});
    } else if (i.what == kind::claim &&
               (effects.claim_allocated[i.index] != nullptr || !effects.claim_users[i.index].empty() || shrank)) {
      // Reserved for its PodGroup, or for the pod it was allocated for and every other placed pod that uses it.
      std::vector<detail::claim_consumer> consumers;
      const auto allocated_for =
          effects.claim_allocated[i.index] != nullptr ? effects.claim_pod[i.index] : std::nullopt;
      if (const auto group = effects.claim_group[i.index])
        consumers.push_back(detail::group_consumer(s.pod_groups[*group]));
      else if (allocated_for)
        consumers.push_back(detail::pod_consumer(pod_at(s, report, *allocated_for)));
      for (std::size_t user : effects.claim_users[i.index])
        if (user != allocated_for) consumers.push_back(detail::pod_consumer(pod_at(s, report, user)));
      changes = detail::claim_status(effects.claim_allocated[i.index], reserved, std::move(consumers), shrank);
    } else if (i.what == kind::pod) {
      const model::pod& pod = pod_at(s, report, i.index);
      changes = detail::pod_changes(pod, effects.pod_node[i.index], effects.pod_generated[i.index], report,
                                    effects.generated_allocated, effects.pod_node_allocatable[i.index]);
      if (effects.pod_named[i.index] && pod.meta.uid.empty()) changes.push_back(detail::uid_change("Pod", pod.meta));
      if (const std::string* node = effects.nominated[i.index])
        changes.push_back({{"status", "nominatedNodeName"}, [node](json::writer& w) { w.string(*node); }});
    } else if (i.what == kind::pod_group) {
      const model::pod_group& group = s.pod_groups[i.index].object;
      if (!effects.group_generated[i.index].empty())
        changes.push_back(detail::claim_statuses_change(group.resource_claim_statuses,
                                                        effects.group_generated[i.index], report));
      if (effects.group_named[i.index] && group.meta.uid.empty())
        changes.push_back(detail::uid_change("PodGroup", group.meta));
    } else if (i.what == kind::disruption_budget) {
      for (const sched::budget_spent& b : report.budgets)
        if (b.budget == i.index)
          changes.push_back({{"status", "disruptionsAllowed"},
                             [allowed = b.disruptions_allowed](json::writer& w) { w.integer(allowed); }});
    }
    auto defaulted = json::with_api_server_defaults(i.json);
    if (!defaulted) return std::move(defaulted).error().within("items[" + std::to_string(i.position) + "]");
    if (auto written = json::write_overlaid(w, *defaulted ? std::string_view(**defaulted) : i.json, changes); !written)
      return std::move(written).error().within("items[" + std::to_string(i.position) + "]");
    if (i.what != kind::pod && i.what != kind::pod_group) continue;
    const bool group = i.what == kind::pod_group;
    const detail::claim_consumer consumer = group ? detail::group_consumer(s.pod_groups[i.index])
                                                  : detail::pod_consumer(pod_at(s, report, i.index));
    for (auto g : group ? effects.group_generated[i.index] : effects.pod_generated[i.index])
      if (auto written = detail::write_generated(w, report.generated[g], s, effects.generated_allocated[g], consumer);
          !written)
        return std::move(written).error();
  }
  w.end_array().end_object();
  return std::move(w).str() + "\n";
}

}  // namespace dra::sim
