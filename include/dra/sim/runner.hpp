// The scenario runner: the dra command's scheduling loop (pods in order, node choice, commit between units of work).
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/check.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sim/node_usage.hpp>

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dra::sim {

struct run_report {
  std::vector<model::claim_outcome> outcomes;  // one per pending claim, in processing order
  std::vector<std::string> warnings;           // for stderr (claims that do not exist, ...)
  std::uint64_t search_steps = 0;
};

namespace detail {

// The nodes a scenario offers: its Node objects, else one per distinct slice nodeName (sorted), else node-0.
struct node_list {
  std::vector<model::node> owned;
  std::vector<const model::node*> nodes;

  explicit node_list(const model::scenario& s) {
    if (!s.nodes.empty()) {
      for (const auto& n : s.nodes) nodes.push_back(&n.object);
      return;
    }
    std::set<model::text> names;
    for (const auto& slice : s.slices)
      if (slice.object.node_name && !slice.object.node_name->empty()) names.insert(*slice.object.node_name);
    if (names.empty()) {
      model::node n;
      n.meta.name = "node-0";
      owned.push_back(n);
    }
    for (auto name : names) {
      model::node n;
      n.meta.name = name;
      n.meta.labels.push_back({"kubernetes.io/hostname", name});
      owned.push_back(std::move(n));
    }
    for (const auto& n : owned) nodes.push_back(&n);
  }
};

}  // namespace detail

// Allocates every pending claim of the scenario as kube-scheduler's DRA
// plugin would (see the scenario format), committing each success before
// the next unit of work.
template <alloc::selector_engine Engine, alloc::allocation_policy Policy = alloc::first_fit>
[[nodiscard]] run_report run_scenario(const model::scenario& s, const Engine& engine,
                                      alloc::features features = alloc::features::all(), Policy policy = {}) {
  run_report report;
  alloc::ledger state;
  for (const auto& c : s.claims)
    if (c.object.allocation) state.add(*c.object.allocation);
  std::vector<const model::device_class*> classes;
  for (const auto& c : s.classes) classes.push_back(&c.object);
  std::vector<const model::resource_slice*> slices;
  for (const auto& sl : s.slices) slices.push_back(&sl.object);
  const Policy node_policy = policy;
  alloc::basic_allocator<Policy, Engine> allocator(features, state, classes, slices, engine, std::move(policy));
  detail::node_list nodes(s);
  // Only policies that rank nodes need to know how used each node is.
  std::optional<node_usage> usage;
  if constexpr (alloc::node_ranking_policy<Policy>) usage.emplace(s, nodes.nodes);

  std::map<std::pair<model::text, model::text>, std::size_t> claim_index;
  for (std::size_t i = 0; i < s.claims.size(); ++i)
    claim_index.emplace(std::pair{s.claims[i].object.meta.namespace_, s.claims[i].object.meta.name}, i);
  std::vector<bool> handled(s.claims.size(), false);

  auto run_unit = [&](const std::vector<std::size_t>& unit, const model::node* only) {
    std::vector<const model::resource_claim*> claims;
    for (auto i : unit) claims.push_back(&s.claims[i].object);
    std::vector<const model::node*> candidates;
    model::node named;
    if (only != nullptr)
      candidates.push_back(only);
    else if constexpr (alloc::node_ranking_policy<Policy>)
      candidates = usage->ranked(nodes.nodes, node_policy);
    else
      candidates = nodes.nodes;
    std::optional<std::string> failure;
    bool invalid_pools = false;
    const model::node* chosen = nullptr;
    std::vector<model::allocation_result> results;
    double chosen_cost = 0;
    for (const auto* node : candidates) {
      auto outcome = allocator.allocate(*node, claims);
      if (!outcome) {
        if (chosen == nullptr) failure = outcome.error().to_string();
        break;
      }
      report.search_steps += outcome->search_steps;
      if (outcome->fits) {
        // A node-ranking policy takes the fitting node whose devices cost the fewest placements
        // (ties: the earlier in its ranking); first fit takes the first node that fits.
        if (chosen != nullptr && !(outcome->placements_lost < chosen_cost)) continue;
        chosen = node;
        chosen_cost = outcome->placements_lost;
        results = std::move(outcome->results);
        if (!alloc::node_ranking_policy<Policy> || chosen_cost == 0) break;
        continue;
      }
      invalid_pools = invalid_pools || outcome->invalid_pools;
    }
    for (std::size_t k = 0; k < unit.size(); ++k) {
      model::claim_outcome o;
      o.claim = alloc::object_name(claims[k]->meta);
      if (failure) {
        o.error = *failure;
      } else if (chosen != nullptr) {
        o.node = std::string(chosen->meta.name);
        state.add(results[k]);
        if (usage) usage->add(results[k]);
        o.allocation = std::move(results[k]);
      } else if (invalid_pools) {
        o.error = "invalid resource pools were encountered";
      } else {
        o.unschedulable = "cannot allocate all claims";
      }
      report.outcomes.push_back(std::move(o));
    }
  };

  std::vector<model::node> pinned_nodes;  // nodes named by pods but not in the node list
  pinned_nodes.reserve(s.pods.size());
  for (const auto& located_pod : s.pods) {
    const model::pod& pod = located_pod.object;
    std::vector<std::size_t> unit;
    for (const auto& ref : pod.resource_claims) {
      if (!ref.resource_claim_name) {
        report.warnings.push_back("pod " + alloc::object_name(pod.meta) + ": claim " + std::string(ref.name) +
                                  " comes from a template, which dra does not resolve; skipped");
        continue;
      }
      auto it = claim_index.find(std::pair{pod.meta.namespace_, *ref.resource_claim_name});
      if (it == claim_index.end()) {
        std::string name = pod.meta.namespace_.empty()
                               ? std::string(*ref.resource_claim_name)
                               : std::string(pod.meta.namespace_) + "/" + std::string(*ref.resource_claim_name);
        report.warnings.push_back("pod " + alloc::object_name(pod.meta) + ": ResourceClaim " + name +
                                  " not found; skipped");
        continue;
      }
      std::size_t i = it->second;
      if (s.claims[i].object.allocation || handled[i]) continue;
      if (std::find(unit.begin(), unit.end(), i) != unit.end()) continue;
      unit.push_back(i);
    }
    if (unit.empty()) continue;
    for (auto i : unit) handled[i] = true;
    const model::node* only = nullptr;
    if (pod.node_name) {
      for (const auto* n : nodes.nodes)
        if (n->meta.name == *pod.node_name) only = n;
      if (only == nullptr) {
        model::node n;
        n.meta.name = *pod.node_name;
        pinned_nodes.push_back(std::move(n));
        only = &pinned_nodes.back();
      }
    }
    run_unit(unit, only);
  }
  for (std::size_t i = 0; i < s.claims.size(); ++i)
    if (!s.claims[i].object.allocation && !handled[i]) {
      handled[i] = true;
      run_unit({i}, nullptr);
    }
  // Debug builds re-check the never-over-commit promise on every run.
  assert(alloc::find_overcommit(s, report.outcomes).empty());
  return report;
}

}  // namespace dra::sim
