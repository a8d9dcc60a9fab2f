// What the command fuzzers check of any run: its answer as a comparable summary (each pending pod's node or refusal,
// each claim's devices), the same answer on any number of threads, JSON that parses, nothing over-committed, and
// `--output scenario` read back holding exactly what the run placed.
#pragma once

#include "byte_reader.hpp"
#include "state_check.hpp"

#include <dra/alloc/check.hpp>
#include <dra/cel/selector.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/output/scenario_output.hpp>
#include <dra/sim/runner.hpp>

#include <simdjson.h>

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace dra_fuzz {

// How a fuzzer runs its cluster, from two of its bytes: first fit or best fit, nodes in order or by kube-scheduler's
// scores.
struct run_choice {
  bool best_fit = false;
  dra::sim::run_options options;
};

inline run_choice draw_run_choice(byte_reader& in) {
  run_choice out;
  out.best_fit = in.chance(2);
  if (in.chance(2)) out.options.nodes = dra::sim::node_choice::kube_score;
  return out;
}

// Calls `f` with the chosen policy's value.
template <class F>
void with_policy(const run_choice& how, F&& f) {
  if (how.best_fit)
    f(dra::alloc::sorted{});
  else
    f(dra::alloc::first_fit{});
}

inline const dra::cel::selector_engine& engine() {
  static const dra::cel::selector_engine e;
  return e;
}

// A run's answer by name: "pod ns/name" -> its node or "- <why not>", "claim ns/name" -> its devices or its refusal.
using answer = std::map<std::string, std::string>;

inline std::string results_text(const dra::model::allocation_result& a) {
  std::string out;
  for (const auto& r : a.results) {
    out += r.request + "=" + std::string(r.pool) + "/" + std::string(r.device);
    for (const auto& c : r.consumed_capacity) out += " " + std::string(c.name) + ":" + c.value.to_string();
    out += ";";
  }
  return out;
}

inline answer answer_of(const dra::model::scenario& s, const dra::sim::run_report& report) {
  answer out;
  for (const auto& p : report.pods) {
    const auto& pod = dra::sim::pod_at(s, report, p.pod);
    out["pod " + dra::model::namespaced_name(pod.meta.namespace_, pod.meta.name)] =
        p.node ? *p.node : (p.gated ? "gated" : "- " + p.unschedulable);
  }
  for (const auto& e : report.evictions)
    out["evicted " + dra::model::namespaced_name(s.pods[e.pod].object.meta)] =
        dra::model::namespaced_name(dra::sim::pod_at(s, report, e.preemptor).meta);
  for (const auto& o : report.outcomes) {
    std::string& entry = out["claim " + o.claim];
    if (const auto* allocated = o.allocated())
      entry = allocated->node + ": " + results_text(allocated->allocation);
    else if (const auto* refused = o.unschedulable())
      entry = "- " + refused->reason;
    else if (const auto* failure = o.error())
      entry = "error: " + failure->to_string();
  }
  return out;
}

inline std::string difference(const answer& a, const answer& b, std::string_view a_name, std::string_view b_name) {
  for (const auto& [key, value] : a) {
    const auto other = b.find(key);
    if (other == b.end())
      return key + ": " + std::string(b_name) + " lacks it (" + std::string(a_name) + ": " + value + ")";
    if (other->second != value)
      return key + ": " + std::string(a_name) + " says " + value + ", " + std::string(b_name) + " says " +
             other->second;
  }
  for (const auto& [key, value] : b)
    if (!a.contains(key))
      return key + ": " + std::string(a_name) + " lacks it (" + std::string(b_name) + ": " + value + ")";
  return {};
}

inline void require_json(std::string_view fuzzer, const std::string& text, std::string_view what) {
  simdjson::dom::parser parser;
  simdjson::dom::element ignored;
  if (parser.parse(simdjson::padded_string(text)).get(ignored) != simdjson::SUCCESS)
    fail(fuzzer, std::string(what) + " is not JSON:\n" + text);
}

// Runs `s` with one thread and with three: the same answer either way (and no over-commit); returns the first.
template <class Policy>
dra::sim::run_report checked_run(std::string_view fuzzer, const dra::model::scenario& s,
                                 dra::sim::run_options options = {}) {
  options.threads = 1;
  auto report = dra::sim::run_scenario(s, engine(), dra::alloc::features::all(), Policy{}, options);
  options.threads = 3;
  const auto threaded = dra::sim::run_scenario(s, engine(), dra::alloc::features::all(), Policy{}, options);
  if (auto diff = difference(answer_of(s, report), answer_of(s, threaded), "1 thread", "3 threads"); !diff.empty())
    fail(fuzzer, diff);
  if (auto over = dra::alloc::find_overcommit(s, report.outcomes, dra::sched::released_claims(report)); !over.empty())
    fail(fuzzer, "over-commit: " + over);
  require_json(fuzzer, dra::sim::output_document(s, report), "the output document");
  return report;
}

// `--output scenario` of a run, read back: it must load, bind every pod the run placed where it placed it (and no
// other pending pod), and hold every claim the run allocated with the run's devices.
inline dra::json::document read_back(std::string_view fuzzer, const dra::model::scenario& s,
                                     const dra::sim::run_report& report) {
  auto written = dra::sim::scenario_after(s, report);
  if (!written) fail(fuzzer, "--output scenario fails: " + written.error().to_string());
  auto doc = load_or_fail(fuzzer, *written, "--output scenario");
  const auto& after = doc.scenario();
  std::map<std::string, std::string> bound;
  for (const auto& p : after.pods)
    bound[dra::model::namespaced_name(p.object.meta.namespace_, p.object.meta.name)] =
        p.object.node_name ? std::string(*p.object.node_name) : "";
  for (const auto& p : report.pods) {
    const auto& pod = dra::sim::pod_at(s, report, p.pod);
    const std::string name = dra::model::namespaced_name(pod.meta.namespace_, pod.meta.name);
    if (bound[name] != p.node.value_or(""))
      fail(fuzzer, "--output scenario binds " + name + " to \"" + bound[name] + "\", the run to \"" +
                       p.node.value_or("") + "\"");
  }
  std::map<std::string, std::string> allocations;
  for (const auto& c : after.claims)
    if (c.object.allocation)
      allocations[dra::model::namespaced_name(c.object.meta.namespace_, c.object.meta.name)] =
          results_text(*c.object.allocation);
  for (const auto& o : report.outcomes)
    if (const auto* allocated = o.allocated();
        allocated != nullptr && allocations[o.claim] != results_text(allocated->allocation))
      fail(fuzzer, "--output scenario gives " + o.claim + " \"" + allocations[o.claim] + "\", the run \"" +
                       results_text(allocated->allocation) + "\"");
  return doc;
}

// Runs the read-back state again: nothing the first run decided is pending again, and (the state only filled up)
// no pod the first run refused is placed now, but by preemption: the pods the first run placed after a refused pod of
// higher priority are bound now, and so its victims. When the first run preempted, a pod it refused before the
// victims left (or while it held their room for the nominated pod) may fit the written cluster: kube-scheduler would
// try it again, dra does not, so such pods are not checked.
template <class Policy>
void rerun_places_nothing_new(std::string_view fuzzer, const dra::model::scenario& s, const dra::sim::run_report& first,
                              const dra::model::scenario& after) {
  const answer before = answer_of(s, first);
  const auto again = dra::sim::run_scenario(after, engine(), dra::alloc::features::all(), Policy{});
  std::set<std::string> preempting;
  for (const auto& p : again.pods)
    if (p.preemption) preempting.insert("pod " + dra::model::namespaced_name(after.pods[p.pod].object.meta));
  for (const auto& [key, value] : answer_of(after, again)) {
    const auto earlier = before.find(key);
    if (earlier == before.end()) continue;  // a claim the first run did not decide (none should be)
    if (earlier->second.starts_with("- ") || earlier->second == "gated") {
      if (!value.starts_with("- ") && value != "gated" && key.starts_with("pod ") && !preempting.contains(key) &&
          first.evictions.empty())
        fail(fuzzer, key + " refused by the run is placed on its output: " + value + " (was " + earlier->second + ")");
      continue;
    }
    if (!earlier->second.starts_with("error"))
      fail(fuzzer, key + " decided by the run is pending on its output: " + value);
  }
}

}  // namespace dra_fuzz
