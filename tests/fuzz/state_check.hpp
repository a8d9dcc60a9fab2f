// The command fuzzers' judge of a cluster's state after a run, in the terms of the model the bytes drew
// (cluster_bytes.hpp), not the engine's: no node over its cpu, memory or pods, no exclusive device held twice, no
// counter set or shared capacity over its total, every device of the class and node its claim and pod need, every
// placed pod's claims allocated and reserved for it. It reads the state as `--output scenario` wrote it, read back.
#pragma once

#include "cluster_bytes.hpp"

#include <dra/core/quantity.hpp>
#include <dra/json/ingest.hpp>
#include <dra/model/scenario.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace dra_fuzz {

// A finding: says what and stops the fuzzer.
[[noreturn]] inline void fail(std::string_view fuzzer, const std::string& what) {
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(fuzzer.size()), fuzzer.data(), what.c_str());
  std::abort();
}

// Loads scenario text the fuzzer itself made (or an output of dra's it must be able to read back).
inline dra::json::document load_or_fail(std::string_view fuzzer, const std::string& text, std::string_view what) {
  auto doc = dra::json::load(text);
  if (!doc) fail(fuzzer, std::string(what) + " does not load: " + doc.error().to_string() + "\n" + text);
  return std::move(*doc);
}

// The model pod a scenario pod is: itself, or the pod `dra capacity` copied (`<pod>-<k>`).
inline const pod* model_pod(const cluster& c, std::string_view name) {
  for (const auto& p : c.pods)
    if (p.name == name) return &p;
  const auto dash = name.rfind('-');
  if (dash == std::string_view::npos || dash + 1 == name.size()) return nullptr;
  if (!std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dash) + 1, name.end(),
                   [](char ch) { return ch >= '0' && ch <= '9'; }))
    return nullptr;
  for (const auto& p : c.pods)
    if (p.name == name.substr(0, dash)) return &p;
  return nullptr;
}

// What a claim of the state asks for, from its name: a standalone claim, a template's claim of a pod (or of a copy),
// or a pod's extended-resource claim (one GPU per request).
inline std::optional<claim_kind> kind_of_claim(const cluster& c, std::string_view claim) {
  for (const auto& s : c.claims)
    if (s.name == claim) return s.kind;
  if (claim.ends_with("-extended-resources")) return claim_kind::one_gpu;
  // A template's claim: `<pod>-<entry>-` and the API server's five characters (the model's names are short).
  if (claim.size() < 6 || claim[claim.size() - 6] != '-') return std::nullopt;
  const std::string_view base = claim.substr(0, claim.size() - 6);
  for (std::size_t cut = base.find('-'); cut != std::string_view::npos; cut = base.find('-', cut + 1))
    if (const pod* p = model_pod(c, base.substr(0, cut)))
      for (const auto& e : p->claims)
        if (e.from_template && base.substr(cut + 1) == e.entry) return e.from_template;
  return std::nullopt;
}

namespace detail {

struct located_device {
  const device* d = nullptr;
  std::string node;  // "" for the pool every node reaches
};

inline std::optional<located_device> find_device(const cluster& c, std::string_view pool, std::string_view name) {
  if (pool == "everywhere") {
    for (const auto& d : c.cluster_devices)
      if (d.name == name) return located_device{&d, ""};
    return std::nullopt;
  }
  for (const auto& n : c.nodes)
    if (n.name == pool)
      for (const auto& d : n.devices)
        if (d.name == name) return located_device{&d, n.name};
  return std::nullopt;
}

// The kind of device a request's result must be, by the request names claim_spec and extended claims use.
inline std::string_view wanted_kind(std::string_view request) {
  if (request.find("half") != std::string_view::npos) return "mig";
  if (request == "net") return "nic";
  return "gpu";
}

class state_judge {
 public:
  state_judge(const cluster& c, const dra::model::scenario& s) : c_(c), s_(s) {}

  std::string verdict() {
    std::string wrong = node_loads();
    if (wrong.empty()) wrong = claims();
    if (wrong.empty()) wrong = placed_pods();
    return wrong;
  }

 private:
  std::string node_loads() {
    std::map<std::string, std::tuple<int, int, int>, std::less<>> load;  // cpu, memory, pods
    for (const auto& located : s_.pods) {
      const auto& p = located.object;
      if (!p.node_name || dra::model::is_terminal(p)) continue;
      const pod* m = model_pod(c_, p.meta.name);
      if (m == nullptr) return "the state has a pod the input did not: " + std::string(p.meta.name);
      const auto n = std::ranges::find(c_.nodes, std::string_view(*p.node_name), &node::name);
      if (n == c_.nodes.end()) return "pod " + std::string(p.meta.name) + " is bound to a node the cluster lacks";
      if (m->node.empty() && n->unschedulable) return "pod " + m->name + " was placed on cordoned node " + n->name;
      auto& [cpu, memory, pods] = load[n->name];
      cpu += m->cpu, memory += m->memory_gi, ++pods;
      if (cpu > n->cpu || memory > n->memory_gi || pods > n->pods)
        return "node " + n->name + " is over its cpu, memory or pods with pod " + std::string(p.meta.name);
    }
    return {};
  }

  std::string claims() {
    std::map<std::pair<std::string, std::string>, int> held;     // exclusive devices: pool, device
    std::map<std::pair<std::string, std::string>, int> drawn;    // counter sets: pool, set
    std::map<std::pair<std::string, std::string>, double> used;  // nic bandwidth: pool, device
    for (const auto& located : s_.claims) {
      const auto& claim = located.object;
      if (!claim.allocation) continue;
      const std::string name(claim.meta.name);
      const auto kind = kind_of_claim(c_, name);
      std::optional<std::string> model;
      for (const auto& r : claim.allocation->results) {
        const auto found = find_device(c_, r.pool, r.device);
        const std::string label = name + " holds " + std::string(r.pool) + "/" + std::string(r.device);
        if (!found) return label + ", which the cluster lacks";
        const device& d = *found->d;
        if (d.kind != wanted_kind(r.request)) return label + " of kind " + d.kind + " for request " + r.request;
        if (d.tainted) return label + ", tainted NoSchedule";
        if (kind == claim_kind::a100 && d.model != "a100") return label + ", a " + d.model + " for an a100 claim";
        if (kind == claim_kind::two_gpus_same_model && model && *model != d.model) return label + ": models differ";
        model = d.model;
        if (auto wrong = consumer_node(claim, found->node, label); !wrong.empty()) return wrong;
        if (d.kind == "nic") {
          const auto* asked = dra::model::find(r.consumed_capacity, "bandwidth");
          if (asked == nullptr) return label + " without consumed bandwidth";
          if ((used[{std::string(r.pool), d.name}] += asked->approximate_double()) > d.bandwidth)
            return label + ": bandwidth over " + std::to_string(d.bandwidth);
          continue;
        }
        if (++held[{std::string(r.pool), d.name}] > 1) return label + ", which another claim holds";
        if (!d.counter_set.empty() && (drawn[{std::string(r.pool), d.counter_set}] += d.mem) > partitioned_gpu_mem)
          return label + ": counter set " + d.counter_set + " over its total";
      }
      if (kind == claim_kind::two_gpus_same_model && claim.allocation->results.size() != 2)
        return name + " got " + std::to_string(claim.allocation->results.size()) + " devices for two";
    }
    return {};
  }

  // A node-local device's claim must be reserved only for pods bound to that node.
  std::string consumer_node(const dra::model::resource_claim& claim, const std::string& node,
                            const std::string& label) {
    if (node.empty()) return {};
    for (const auto& r : claim.reserved_for)
      for (const auto& located : s_.pods)
        if (located.object.meta.name == r.name && located.object.node_name &&
            std::string_view(*located.object.node_name) != node)
          return label + " but is reserved for " + std::string(r.name) + " on " +
                 std::string(*located.object.node_name);
    return {};
  }

  const dra::model::resource_claim* claim_named(std::string_view name) const {
    for (const auto& c : s_.claims)
      if (c.object.meta.name == name) return &c.object;
    return nullptr;
  }

  // Every pod the run placed has each claim it names allocated and reserved for it.
  std::string placed_pods() {
    for (const auto& located : s_.pods) {
      const auto& p = located.object;
      const pod* m = model_pod(c_, p.meta.name);
      if (!p.node_name || m == nullptr || !m->node.empty()) continue;
      std::vector<std::string> needed;
      for (const auto& entry : p.resource_claims) {
        if (entry.resource_claim_name) {
          needed.emplace_back(*entry.resource_claim_name);
          continue;
        }
        const auto status =
            std::ranges::find(p.resource_claim_statuses, entry.name, &dra::model::pod_resource_claim_status::name);
        if (status == p.resource_claim_statuses.end() || !status->resource_claim_name)
          return "placed pod " + std::string(p.meta.name) + " has no claim for entry " + std::string(entry.name);
        needed.emplace_back(*status->resource_claim_name);
      }
      if (m->extended_gpus > 0) {
        if (!p.extended_resource_claim_status)
          return "placed pod " + std::string(p.meta.name) + " has no extended-resource claim";
        needed.emplace_back(p.extended_resource_claim_status->resource_claim_name);
      }
      for (const auto& name : needed) {
        const auto* claim = claim_named(name);
        if (claim == nullptr || !claim->allocation)
          return "placed pod " + std::string(p.meta.name) + " has claim " + name + " unallocated";
        if (std::ranges::none_of(claim->reserved_for, [&](const auto& r) { return r.name == p.meta.name; }))
          return "claim " + name + " is not reserved for placed pod " + std::string(p.meta.name);
      }
    }
    return {};
  }

  const cluster& c_;
  const dra::model::scenario& s_;
};

}  // namespace detail

// Empty when the state `s` (a run's outcome, written and read back) obeys every rule of `c`'s model; else the first
// rule it breaks.
inline std::string judge_state(const cluster& c, const dra::model::scenario& s) {
  return detail::state_judge(c, s).verdict();
}

}  // namespace dra_fuzz
