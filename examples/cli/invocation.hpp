// The parsed command line of the dra command, shared by all its subcommands.
#pragma once

#include <dra/model/scheduler_config.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra_cli {

enum class output_format { text, json, scenario, svg, prometheus };  // scenario: allocate, capacity --pod; svg: occupancy;
                                                                   // prometheus: capacity without --pod

struct invocation {
  std::string command;                 // summary, validate, flatten, select, allocate, explain, occupancy, capacity
  std::optional<std::string> file;     // a path, "-" for stdin, none for stdin when piped, else the embedded default
  std::vector<std::string> arguments;  // positional arguments after FILE (e.g. the CEL expression of select)
  output_format output = output_format::text;
  bool output_given = false;                // --output was on the command line
  std::optional<std::string> device_class;  // select --class NAME
  std::optional<std::string> features;      // --features all|none|A,B|RELEASE
  std::optional<std::string> feature_gates;  // --feature-gates A=true,B=false (kube-scheduler's; repeats joined)
  std::optional<std::string> policy;        // allocate/occupancy/capacity --policy first_fit|sorted|shared_capacity
  std::optional<std::string> score;         // allocate/occupancy/capacity --score kube
  // allocate/occupancy/capacity --scheduler-config FILE (implies --score kube), and its profile once read (main.cpp)
  std::optional<std::string> scheduler_config;
  std::optional<dra::model::scheduler_profile> scoring_profile;
  std::optional<std::string> pod;           // capacity --pod NAMESPACE/NAME or a file with one Pod
  std::optional<std::size_t> max;           // capacity --max N
  std::optional<std::string> by;            // capacity --by ATTRIBUTE
  bool preempt = false;                     // capacity --pod POD --preempt: copies may evict lower-priority pods
  std::vector<std::pair<std::string, std::size_t>> add_nodes;  // allocate/capacity/explain --add-node NODE=K
  std::vector<std::string> drain;                              // allocate/capacity/explain --drain NODE
  // -n/--namespace NS: names without a namespace (pod/NAME, CLAIM, --pod NAME) are NS's, and allocate and explain
  // show only NS's pods and claims; the cluster's state stays whole. -A/--all-namespaces: every namespace's (the
  // default), names without one in "default".
  std::optional<std::string> namespace_;
  std::string help_topic;  // `dra help COMMAND`, `dra COMMAND --help`: that command's help
};

// A name as kubectl reads it: namespace/name as given, a bare name in -n's namespace (else "default").
[[nodiscard]] inline std::string qualified(const invocation& call, std::string_view name) {
  if (name.find('/') != std::string_view::npos) return std::string(name);
  return call.namespace_.value_or("default") + "/" + std::string(name);
}

// Whether namespace/name is in -n's namespace (every name is, without -n).
[[nodiscard]] inline bool in_namespace(const invocation& call, std::string_view name) {
  if (!call.namespace_) return true;
  const std::string_view ns = *call.namespace_;
  return name.size() > ns.size() && name.starts_with(ns) && name[ns.size()] == '/';
}

}  // namespace dra_cli
