// The `dra capacity` command: how many more of a pod fit (--pod), or what is allocated and available; it parses the
// pod argument and prints, the library (sim::capacity, sim::availability) computes.
#pragma once

#include "allocate_command.hpp"
#include "invocation.hpp"

#include <dra/cel/selector.hpp>
#include <dra/compiled_runs.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>
#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/output/capacity_output.hpp>
#include <dra/sim/output/stranded_output.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/output/scenario_output.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace dra_cli {

namespace detail {

// Rows of cells, columns padded to their widest cell, trailing spaces dropped.
inline void print_columns(const std::vector<std::vector<std::string>>& rows, std::ostream& out) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths.resize(std::max(widths.size(), row.size()));
      widths[i] = std::max(widths[i], row[i].size());
    }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i)
      line += row[i] + (i + 1 < row.size() ? std::string(widths[i] - row[i].size() + 2, ' ') : "");
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

inline std::string count(std::size_t n) { return std::to_string(n); }

inline void print_capacity(const dra::model::scenario& s, const dra::sim::capacity_report& r, std::ostream& out) {
  out << r.pod << ": " << r.fits << (r.fits == 1 ? " copy fits" : " copies fit") << "\n";
  if (!r.nodes.empty()) {
    std::vector<std::vector<std::string>> rows{{"NODE", "COPIES"}};
    for (const auto& n : r.nodes) rows.push_back({n.node, count(n.fits)});
    print_columns(rows, out);
  }
  if (!r.run.evictions.empty()) {
    std::vector<std::vector<std::string>> rows{{"PREEMPTED", "NODE", "PRIORITY", "BY"}};
    for (const auto& e : r.run.evictions) {
      const dra::model::pod& victim = s.pods[e.pod].object;
      rows.push_back({dra::model::namespaced_name(victim.meta), std::string(victim.node_name.value_or("")),
                      std::to_string(victim.priority),
                      dra::model::namespaced_name(dra::sim::pod_at(s, r.run, e.preemptor).meta)});
    }
    print_columns(rows, out);
  }
  if (!r.next) {
    out << "stopped at --max " << r.fits << "\n";
    return;
  }
  // A copy that preempted and still did not fit: why its retry failed.
  const auto& retry = r.next->preemption;
  out << "the next one does not fit: " << (retry ? retry->retry_unschedulable : r.next->unschedulable) << "\n";
  for (std::size_t k : r.next_claims) {
    const auto& o = r.run.outcomes[k];
    if (const auto* refused = o.unschedulable(); refused != nullptr && refused->why)
      out << "  " << dra::sched::one_line(*refused->why, o.claim) << "\n";
    else if (const auto* failure = o.error())
      out << "  " << o.claim << ": " << failure->to_string() << "\n";
  }
}

inline void print_availability(const dra::sim::availability_report& r, std::ostream& out) {
  std::vector<std::vector<std::string>> rows{{"CLASS", "NODE", "POOL", "DEVICES", "ALLOCATED", "AVAILABLE"}};
  for (const auto& c : r.classes) {
    rows.push_back({c.device_class, "", "", count(c.devices), count(c.allocated), count(c.available)});
    for (const auto& p : c.pools)
      rows.push_back({"", p.node.empty() ? "-" : p.node, p.driver + "/" + p.pool, count(p.devices), count(p.allocated),
                      count(p.available)});
    for (const auto& p : c.partitions)
      rows.push_back({"  " + *r.attribute + "=" + p.value, "", "", count(p.devices), "", count(p.available)});
  }
  print_columns(rows, out);
  if (!r.shared.empty()) {
    out << "\n";
    std::vector<std::vector<std::string>> shared{
        {"SHARED DEVICE", "NODE", "CAPACITY", "TOTAL", "CONSUMED", "AVAILABLE"}};
    for (const auto& d : r.shared)
      for (const auto& c : d.capacity)
        shared.push_back({d.driver + "/" + d.pool + "/" + d.device, d.node.empty() ? "-" : d.node, c.name,
                          c.total.to_string(), c.consumed.to_string(), c.available.to_string()});
    print_columns(shared, out);
  }
  if (!r.nodes.empty()) {
    out << "\n";
    std::vector<std::vector<std::string>> nodes{{"NODE", "RESOURCE", "ALLOCATABLE", "REQUESTED"}};
    for (const auto& n : r.nodes)
      for (const auto& [name, amount] : n.allocatable) {
        const auto* requested = dra::model::find(n.requested, name);
        nodes.push_back({n.node, std::string(name), amount.to_string(), requested ? requested->to_string() : "0"});
      }
    print_columns(nodes, out);
  }
  if (const std::string stranded = dra::sim::stranded_text(r.stranded); !stranded.empty()) out << "\n" << stranded;
}

}  // namespace detail

// The pod --pod names: a file holding one Pod (its ResourceClaimTemplates join the scenario, in `with_templates`),
// or namespace/name (kubectl's pod/NAME too; a bare name in -n's namespace) of a pod of `s`. Prints why not on `err`.
inline const dra::model::located<dra::model::pod>* pod_to_copy(const invocation& call, const std::string& name,
                                                               const dra::model::scenario& s,
                                                               std::optional<dra::json::document>& pod_file,
                                                               dra::model::scenario& with_templates,
                                                               std::ostream& err) {
  std::error_code ignored;
  if (std::filesystem::is_regular_file(name, ignored)) {
    auto loaded = dra::json::load_file(name);
    if (!loaded) {
      err << "dra: --pod: " << loaded.error().to_string() << "\n";
      return nullptr;
    }
    pod_file.emplace(std::move(*loaded));
    if (pod_file->scenario().pods.size() != 1) {
      err << "dra: --pod: " << name << " must hold one Pod, not " << pod_file->scenario().pods.size() << "\n";
      return nullptr;
    }
    with_templates = s;
    for (const auto& t : pod_file->scenario().claim_templates) with_templates.claim_templates.push_back(t);
    return &pod_file->scenario().pods.front();
  }
  const std::string_view bare = std::string_view(name).starts_with("pod/") ? std::string_view(name).substr(4) : name;
  auto found = dra::sim::find_pod(s, qualified(call, bare));
  if (!found) {
    err << "dra: --pod: " << found.error().to_string() << "\n";
    return nullptr;
  }
  return *found;
}

template <dra::alloc::allocation_policy Policy>
int run_capacity_of_pod(const invocation& call, const dra::model::scenario& s, dra::json::input_format format,
                        std::ostream& out, std::ostream& err) {
  const auto features = requested_features(call, err);
  if (!features) return 2;
  std::optional<dra::json::document> pod_file;
  dra::model::scenario with_templates;
  const auto* pod = pod_to_copy(call, *call.pod, s, pod_file, with_templates, err);
  if (pod == nullptr) return 1;
  const dra::model::scenario& scenario = pod_file ? with_templates : s;
  const dra::compiled::selector_engine engine;
  dra::sim::capacity_options options{.max = call.max.value_or(dra::sim::default_max_copies),
                                     .run = machine_run_options(call),
                                     .preempt = call.preempt};
  auto report = dra::sim::capacity(scenario, *pod, engine, *features, Policy{}, options);
  if (!report) {
    err << "dra: " << report.error().to_string() << "\n";
    return 1;
  }
  for (const auto& w : report->run.warnings) err << "dra: warning: " << w << "\n";
  if (const auto note = dra::sim::answer_note(report->run.placements); !note.empty())
    err << "dra: note: " << note << "\n";
  if (call.output == output_format::scenario) return print_scenario_after(scenario, format, report->run, out, err, 0);
  if (call.output == output_format::json)
    out << dra::sim::to_json(scenario, *report);
  else
    detail::print_capacity(scenario, *report, out);
  return 0;
}

}  // namespace dra_cli
