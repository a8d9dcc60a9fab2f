// The `dra allocate` command: runs the scenario and prints the results as JSON or as a readable table.
#pragma once

#include "invocation.hpp"

#include <dra/alloc/feature_gates.hpp>
#include <dra/alloc/features.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace dra_cli {

namespace detail {

// `text` starting at `column`, broken at spaces into lines of at most `width` characters (a word longer than that
// stays whole), the lines after the first indented to `column`.
inline std::string wrapped(std::string_view text, std::size_t column, std::size_t width = 120) {
  const std::size_t room = width > column + 40 ? width - column : 40;
  std::string out;
  while (text.size() > room) {
    std::size_t cut = text.rfind(' ', room);
    if (cut == std::string_view::npos || cut == 0) cut = text.find(' ', room);
    if (cut == std::string_view::npos) break;
    out.append(text.substr(0, cut)).append("\n").append(column, ' ');
    text.remove_prefix(cut + 1);
  }
  return out.append(text);
}

// One line per allocated device; claims that did not get devices say why.
inline void print_claims(const std::vector<dra::model::claim_outcome>& outcomes, std::ostream& out) {
  struct row {
    std::string claim, node, device, consumed;
    bool note = false;    // a line of its own (an explanation), not a table row
    bool reason = false;  // why a claim has no devices: wrapped, and no width for the column after it
  };
  std::vector<row> rows{{"CLAIM", "NODE", "DEVICE", "CONSUMED CAPACITY"}};
  for (const auto& o : outcomes) {
    if (const auto* failure = o.error()) {
      rows.push_back({o.claim, "-", "error: " + failure->to_string(), "", false, true});
      continue;
    }
    if (const auto* unschedulable = o.unschedulable()) {
      rows.push_back({o.claim, "-", "unschedulable: " + unschedulable->reason, "", false, true});
      if (unschedulable->why)
        rows.push_back({"  " + dra::sched::one_line(*unschedulable->why, o.claim), "", "", "", true});
      continue;
    }
    const dra::model::claim_allocated& allocated = *o.allocated();
    const std::string& node = allocated.node;
    bool first = true;
    for (const auto& r : allocated.allocation.results) {
      std::string consumed;
      for (const auto& c : r.consumed_capacity) {
        if (!consumed.empty()) consumed += ", ";
        consumed += std::string(c.name) + "=" + c.value.to_string();
      }
      std::string device =
          r.request + " -> " + std::string(r.driver) + "/" + std::string(r.pool) + "/" + std::string(r.device);
      if (r.admin_access.value_or(false)) device += " (admin access)";
      rows.push_back({first ? o.claim : "", first ? node : "", device, consumed});
      first = false;
    }
    if (first) rows.push_back({o.claim, node, "(no devices)", ""});
  }
  // A long reason must not push the consumed capacity's column right: reasons have none, and wrap.
  std::size_t w0 = 0, w1 = 0, w2 = 0;
  for (const auto& r : rows) {
    if (r.note) continue;
    w0 = std::max(w0, r.claim.size());
    w1 = std::max(w1, r.node.size());
    if (!r.reason) w2 = std::max(w2, r.device.size());
  }
  const std::size_t device_column = w0 + 2 + w1 + 2;
  for (const auto& r : rows) {
    if (r.note) {
      out << r.claim << "\n";
      continue;
    }
    std::string line = r.claim + std::string(w0 - r.claim.size() + 2, ' ') + r.node +
                       std::string(w1 - r.node.size() + 2, ' ');
    if (r.reason) {
      line += wrapped(r.device, device_column);
    } else {
      line += r.device;
      if (!r.consumed.empty()) line += std::string(w2 - r.device.size() + 2, ' ') + r.consumed;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

// What the pods' table says of one pod: its node, or why it has none; for a pod preemption nominated a node, the
// pods evicted there.
inline std::string pod_cell(const dra::model::scenario& s, const dra::sim::pod_outcome& p) {
  std::string cell = p.node ? *p.node : "- " + p.unschedulable;
  if (p.preemption) {
    std::string victims;
    for (const std::string& v : dra::sim::victim_names(s, *p.preemption)) victims += (victims.empty() ? "" : ", ") + v;
    const std::size_t violations = p.preemption->pdb_violations;
    if (violations > 0)
      victims += dra::concat("; ", std::to_string(violations), violations == 1 ? " eviction exceeds" : " evictions exceed",
                             " a PodDisruptionBudget");
    cell += p.node ? " (preempting " + victims + ")"
                   : " (nominated " + p.preemption->nominated_node + " after preempting " + victims + ")";
  }
  return cell;
}

// One line per pending pod: its node, or why it has none; then the pods preemption evicted.
inline void print_pods(const dra::model::scenario& s, const dra::sim::run_report& report, std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> rows{{"POD", "NODE"}};
  for (const auto& p : report.pods) {
    const dra::model::pod& pod = dra::sim::pod_at(s, report, p.pod);
    rows.emplace_back(dra::model::namespaced_name(pod.meta.namespace_, pod.meta.name), pod_cell(s, p));
  }
  for (const auto& e : report.evictions)
    rows.emplace_back(dra::model::namespaced_name(s.pods[e.pod].object.meta),
                      "- preempted by " + dra::model::namespaced_name(dra::sim::pod_at(s, report, e.preemptor).meta));
  std::size_t width = 0;
  for (const auto& [pod, node] : rows) width = std::max(width, pod.size());
  for (const auto& [pod, node] : rows) out << pod << std::string(width - pod.size() + 2, ' ') << node << "\n";
}

// The claims' table, then (when the scenario has pending pods) the pods'.
inline void print_table(const dra::model::scenario& s, const dra::sim::run_report& report, std::ostream& out) {
  print_claims(report.outcomes, out);
  if (report.pods.empty()) return;
  out << "\n";
  print_pods(s, report, out);
}

// The report as -n shows it: only that namespace's claims and pods (the run itself scheduled every namespace's).
inline dra::sim::run_report in_namespace_only(const invocation& call, const dra::model::scenario& s,
                                              const dra::sim::run_report& report) {
  dra::sim::run_report shown = report;
  shown.outcomes.clear();
  shown.subjects.clear();
  for (std::size_t k = 0; k < report.outcomes.size(); ++k)
    if (in_namespace(call, report.outcomes[k].claim)) {
      shown.outcomes.push_back(report.outcomes[k]);
      shown.subjects.push_back(report.subjects[k]);
    }
  std::erase_if(shown.pods, [&](const dra::sim::pod_outcome& p) {
    const dra::model::pod& pod = dra::sim::pod_at(s, report, p.pod);
    return !in_namespace(call, dra::model::namespaced_name(pod.meta.namespace_, pod.meta.name));
  });
  std::erase_if(shown.evictions, [&](const dra::sim::eviction& e) {
    return !in_namespace(call, dra::model::namespaced_name(s.pods[e.pod].object.meta));
  });
  return shown;
}

}  // namespace detail

// Scenario runs try nodes on every core the machine offers (the results are the same on any number). Nodes are
// scored with --score kube or --scheduler-config, by the configured profile if any.
[[nodiscard]] inline dra::sim::run_options machine_run_options(const invocation& call) {
  const bool scored = call.score || call.scoring_profile;
  return {.threads = std::max(1u, std::thread::hardware_concurrency()),
          .nodes = scored ? dra::sim::node_choice::kube_score : dra::sim::node_choice::first_feasible,
          .profile = call.scoring_profile.value_or(dra::model::scheduler_profile{})};
}

// allocate's exit status: 1 when a claim is in error (its input is broken), else 3 when a claim or a pod is
// unschedulable (a pod waiting for its scheduling gates is not), else 0; with -n, of that namespace's.
[[nodiscard]] inline int allocate_exit_code(const dra::sim::run_report& report) {
  if (std::ranges::any_of(report.outcomes, [](const auto& o) { return o.error() != nullptr; })) return 1;
  if (std::ranges::any_of(report.outcomes, [](const auto& o) { return o.allocated() == nullptr; })) return 3;
  if (std::ranges::any_of(report.pods, [](const auto& p) { return !p.node && !p.gated; })) return 3;
  return 0;
}

// Writes the scenario after `report`'s run (--output scenario) in the input's format: JSON in, JSON out; YAML in,
// YAML out. Returns `exit_code`, or 1 when it cannot be written.
inline int print_scenario_after(const dra::model::scenario& s, dra::json::input_format format,
                                const dra::sim::run_report& report, std::ostream& out, std::ostream& err,
                                int exit_code) {
  auto written = dra::sim::scenario_after(s, report);
  if (written && format == dra::json::input_format::yaml) written = dra::json::to_yaml(*written);
  if (!written) {
    err << "dra: " << written.error().to_string() << "\n";
    return 1;
  }
  out << *written;
  return exit_code;
}

// Runs `dra allocate` with a given selector engine and feature set on `s` (the input, or its what-if change). Prints
// JSON with --output json, or by default when stdout is not a terminal; a table otherwise; the scenario with the
// allocations written back with --output scenario. Exit code as allocate_exit_code says.
template <dra::alloc::allocation_policy Policy = dra::alloc::first_fit, dra::alloc::selector_engine Engine>
int run_allocate_with(const Engine& engine, const dra::alloc::features& features, const invocation& call,
                      const dra::model::scenario& s, dra::json::input_format format, std::ostream& out,
                      std::ostream& err) {
  auto report = dra::sim::run_scenario(s, engine, features, Policy{}, machine_run_options(call));
  for (const auto& w : report.warnings) err << "dra: warning: " << w << "\n";
  if (const auto note = dra::sim::answer_note(report.placements); !note.empty()) err << "dra: note: " << note << "\n";
  if (call.output == output_format::scenario)
    return print_scenario_after(s, format, report, out, err, allocate_exit_code(report));
  if (call.namespace_) report = detail::in_namespace_only(call, s, report);
  const bool json = call.output_given ? call.output == output_format::json : isatty(fileno(stdout)) == 0;
  if (json)
    out << dra::sim::output_document(s, report);
  else
    detail::print_table(s, report, out);
  return allocate_exit_code(report);
}

// The switches --features and --feature-gates give: all by default; --features all|none|A,B, or a release's defaults
// (--features 1.36); --feature-gates (kube-scheduler's) on top, from 1.37's defaults when --features names no release
// or list. Notes go to `err`; nullopt, with a message on `err`, when either is invalid.
inline std::optional<dra::alloc::features> requested_features(const invocation& call, std::ostream& err) {
  std::optional<dra::alloc::features> base;
  std::string release(dra::alloc::known_releases.back());
  if (call.features && dra::alloc::is_known_release(*call.features)) {
    release = *call.features;
  } else if (call.features) {
    auto parsed = dra::alloc::features::parse(*call.features);
    if (!parsed) {
      err << "dra: --features: " << parsed.error().message << "\n";
      return std::nullopt;
    }
    base = *parsed;
  } else if (!call.feature_gates) {
    return dra::alloc::features::all();
  }
  if (base && !call.feature_gates) return base;
  std::vector<std::string> notes;
  auto gated = dra::alloc::with_feature_gates(call.feature_gates.value_or(""), release, base, notes);
  for (const std::string& note : notes) err << "dra: note: " << note << "\n";
  if (!gated) {
    err << "dra: --feature-gates: " << gated.error().message << "\n";
    return std::nullopt;
  }
  return *gated;
}

}  // namespace dra_cli
