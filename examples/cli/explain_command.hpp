// The `dra explain` command's text output: the whole funnel of the named claims, pods and PodGroups (explain.cpp runs
// the scenario and prints it, or JSON).
#pragma once

#include "allocate_command.hpp"
#include "invocation.hpp"

#include <dra/alloc/features.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/explain/pod_group.hpp>
#include <dra/sim/explain/pod.hpp>
#include <dra/sim/explain/claims.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/runner.hpp>
#include <dra/compiled_runs.hpp>

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace dra_cli {

namespace detail {

// "30 reachable → 14 class mig.nvidia.com → 4 selectors → 3 free → 0 counters left → 0 capacity left → 0 tolerated"
inline std::string funnel_line(const dra::sched::request_funnel& f) {
  auto n = [](std::size_t v) { return std::to_string(v); };
  std::string line = n(f.reachable) + " reachable";
  if (f.in_usable_pools != f.reachable) line += " -> " + n(f.in_usable_pools) + " in usable pools";
  line += " -> " + n(f.class_match) + " class -> " + n(f.selector_match) + " selectors";
  if (f.selector_errors > 0) line += " (" + n(f.selector_errors) + " CEL errors)";
  line += " -> " + n(f.free) + " free -> " + n(f.counters_left) + " counters left -> " + n(f.capacity_left) +
          " capacity left -> " + n(f.tolerated) + " tolerated";
  if (!f.constraint.empty()) line += "; " + f.constraint + ": " + n(f.constraint_best);
  return line + "; " + n(f.needed) + " needed";
}

inline void print_request(const dra::sched::request_funnel& f, const std::vector<std::pair<std::string, std::string>>& chosen,
                          std::ostream& out) {
  using code = dra::model::explanation_code;
  using stage = dra::model::funnel_stage;
  out << "    request " << f.request << ": " << funnel_line(f) << "\n";
  // Every device the request got (a request for several devices gets them all from this funnel).
  std::vector<std::string_view> picked;
  for (const auto& [request, device] : chosen)
    if (request == f.request) picked.push_back(device);
  for (std::string_view device : picked) out << "      chose " << device << "\n";
  if (picked.empty() && f.verdict != code::fits)
    out << "      " << dra::model::name_of(f.verdict) << ": " << f.message << "\n";
  // Devices passed over for a reason other than not matching (those are only counted above), up to the last chosen
  // one; the request's own devices are not passed over.
  std::size_t misses = 0;
  std::size_t unmet = picked.size();  // chosen devices not yet met in the funnel's list
  for (const auto& d : f.devices) {
    if (!picked.empty() && unmet == 0) break;
    if (std::find(picked.begin(), picked.end(), d.device) != picked.end()) {
      --unmet;
      continue;
    }
    if (d.dropped == stage::device_class || d.dropped == stage::selector) {
      if (!d.why.empty()) out << "      passed over " << d.device << ": " << d.why << "\n";
      ++misses;
      continue;
    }
    if (d.dropped == stage::usable) {
      if (!picked.empty()) out << "      passed over " << d.device << ": usable, taken by another request of the unit or left by the constraints\n";
      continue;
    }
    out << "      passed over " << d.device << ": " << dra::model::name_of(d.dropped) << ", " << d.why << "\n";
  }
  if (misses > 0 && !picked.empty())
    out << "      (" << misses << (misses == 1 ? " earlier device does" : " earlier devices do")
        << " not match the class or the selectors)\n";
}

inline void print_explanations(const std::vector<dra::sim::claim_explanation>& all, std::ostream& out) {
  constexpr std::size_t max_nodes = 10;  // a readable page; JSON has them all
  using code = dra::model::explanation_code;
  for (const auto& e : all) {
    out << e.claim << ": " << dra::model::name_of(e.status);
    if (e.node) out << " on " << *e.node;
    if (!e.error.empty()) out << ": " << e.error;
    out << "\n";
    if (e.summary) out << "  " << dra::sched::one_line(*e.summary, e.claim) << "\n";
    std::size_t shown = 0;
    for (const auto& n : e.diagnosis.nodes) {
      if (++shown > max_nodes) {
        out << "  ... " << (e.diagnosis.nodes.size() - max_nodes) << " more nodes (--output json lists them all)\n";
        break;
      }
      out << "  node " << n.node << ": " << dra::model::name_of(n.verdict);
      if (n.verdict != code::fits) out << " (claim " << n.claim << ", request " << n.request << ")";
      out << "\n";
      for (const auto& c : n.claims)
        for (const auto& alternatives : c.requests)
          for (const auto& f : alternatives) print_request(f, e.chosen, out);
      if (n.verdict == code::conflict || (n.verdict != code::fits && n.message.find("each request") == 0))
        out << "    " << n.message << "\n";
    }
  }
}

// "1 node", "3 nodes".
inline std::string counted(std::size_t n, std::string_view thing) {
  return std::to_string(n) + " " + std::string(thing) + (n == 1 ? "" : "s");
}

// The preemption that nominated a pod a node: each candidate node with its victims, the one chosen and the rule
// that set each other aside; then how the dry run counted the other nodes, and the retry.
inline void print_preemption(const dra::sim::preemption_explanation& e, std::ostream& out) {
  constexpr std::size_t max_candidates = 10;  // a readable page; JSON has them all
  out << "  preemption: nominated " << e.nominated_node << " (" << dra::sched::rule_name(e.rule) << ") among "
      << counted(e.candidates.size(), "candidate node") << "\n";
  std::size_t shown = 0;
  for (const auto& c : e.candidates) {
    if (++shown > max_candidates) {
      out << "    ... " << (e.candidates.size() - max_candidates)
          << " more candidates (--output json lists them all)\n";
      break;
    }
    out << "    " << c.node << ": "
        << (c.set_aside_by ? "set aside (" + std::string(dra::sched::rule_name(*c.set_aside_by)) + ")" : "chosen")
        << "; evicts ";
    for (std::size_t k = 0; k < c.victims.size(); ++k)
      out << (k == 0 ? "" : ", ") << c.victims[k].pod << " (priority " << c.victims[k].priority << ")";
    if (c.pdb_violations > 0)
      out << "; " << c.pdb_violations
          << (c.pdb_violations == 1 ? " eviction exceeds" : " evictions exceed") << " a PodDisruptionBudget";
    out << "\n";
  }
  for (const auto& r : e.other_nodes) out << "    " << counted(r.nodes, "node") << ": " << r.reason.message << "\n";
  if (e.nodes_not_tried > 0)
    out << "    " << counted(e.nodes_not_tried, "node") << " not tried: the dry run had found enough candidates\n";
  out << "  retried after the victims left: "
      << (e.retry_node ? "placed on " + *e.retry_node : e.retry_unschedulable) << "\n";
}

// A pod's answer, then its claims' explanations.
inline void print_pods(const std::vector<dra::sim::pod_explanation>& pods, std::ostream& out) {
  for (const auto& p : pods) {
    out << "pod " << p.pod << ": " << dra::sim::name_of(p.status);
    if (p.node) out << (p.status == dra::sim::pod_status::placed ? " on " : ", bound to ") << *p.node;
    if (p.preempted_by) out << "; preempted by " << *p.preempted_by;
    out << "\n";
    if (!p.unschedulable.empty()) out << "  " << p.unschedulable << "\n";
    for (const auto& r : p.reasons)
      out << "  " << r.nodes << " of " << p.nodes << " nodes: " << dra::model::name_of(r.reason.code) << ": "
          << r.reason.message << "\n";
    if (p.preemption) print_preemption(*p.preemption, out);
    print_explanations(p.claims, out);
  }
}

}  // namespace detail

namespace detail {

inline void print_pod_group(const dra::sim::pod_group_explanation& e, std::ostream& out) {
  out << "PodGroup " << e.group << ": " << e.policy << "\n";
  for (const auto& p : e.pods) {
    out << "  pod " << p.pod << ": ";
    if (p.node)
      out << "on " << *p.node << "\n";
    else
      out << (p.unschedulable.empty() ? std::string("not scheduled") : p.unschedulable) << "\n";
  }
}

}  // namespace detail

}  // namespace dra_cli
