// Turns the dra command's argv into an invocation, with a usage error for anything it does not know.
#pragma once

#include "invocation.hpp"

#include <dra/core/result.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dra_cli {

inline constexpr std::array<std::string_view, 8> command_names{"summary", "validate",  "flatten",
                                                               "select",  "allocate",  "explain",
                                                               "occupancy", "capacity"};

inline constexpr std::string_view usage_text =
    "usage: dra [COMMAND] [FILE|-] [ARGS...] [--output text|json|scenario|svg]\n"
    "\n"
    "commands:\n"
    "  allocate [FILE] [--features all|none|A,B] [--policy first_fit|sorted|shared_capacity] [--score kube]\n"
    "           [--output text|json|scenario]  allocate every pending claim (the default command);\n"
    "                                             --output scenario prints the input objects with the\n"
    "                                             allocations written back, in the input's format\n"
    "  explain  [FILE] [CLAIM... | pod/NAME...]   why each claim (all pending ones by default) got its devices or none,\n"
    "                                             or why a pod went to its node or to none:\n"
    "                                             per node and request, the devices left after each check\n"
    "  capacity [FILE] --pod POD [--max N] [--policy P] [--score kube] [--output text|json|scenario]\n"
    "                                             how many more copies of POD (namespace/name, or a file with\n"
    "                                             one Pod and its templates) fit after the pending pods, per\n"
    "                                             node, and why the next one does not\n"
    "  capacity [FILE] [--by ATTRIBUTE] [--output text|json|prometheus]\n"
    "                                             devices per class (and partition value), allocated and\n"
    "                                             available; shared devices' capacity; nodes' resources\n"
    "  occupancy [FILE] [--policy P] [--score kube] [--output text|json|svg]\n"
    "                                             after allocating, what each claim holds of every counter\n"
    "                                             set (memory slices as cells) and shared device\n"
    "  summary  [FILE]                            objects by kind, pools, devices, pending claims\n"
    "  validate [FILE]                            every problem with the objects (exit 1 if any)\n"
    "  flatten  [FILE]                            the objects with every mixin applied\n"
    "  select   [FILE] EXPR [--class NAME]        the devices a CEL selector matches\n"
    "\n"
    "FILE is a scenario: Kubernetes Lists, JSON arrays or objects, one after another, or YAML\n"
    "documents separated by '---'. '-' reads stdin; without FILE, stdin is read when it is a pipe\n"
    "or a file, else the embedded default scenario (a DGX A100 with MIG partitions) is used.\n"
    "--output json prints machine-readable output; allocate and occupancy print JSON when stdout is not a terminal;\n"
    "--output svg (occupancy only) draws a standalone SVG picture.\n"
    "--score kube (allocate, capacity --pod, occupancy) puts each pending pod on the node kube-scheduler's\n"
    "default scoring ranks highest among those that fit it, rather than the first (devices as --policy says).\n"
    "--add-node NODE=K (allocate, capacity, explain; repeatable) adds K copies of node NODE and its\n"
    "ResourceSlices, named NODE-whatif-0...; --drain NODE (repeatable) removes the node: its pods are\n"
    "pending again and its devices' allocations released. Both change only the scenario in memory.\n"
    "Run as kubectl-dra (`kubectl dra COMMAND`), the scenario is the cluster's, read with kubectl get;\n"
    "--context, --kubeconfig, -n/--namespace and -A/--all-namespaces are passed to kubectl.\n"
    "--version prints dra's version and the memory allocator the command runs on.\n"
    "\n"
    "exit status: 0 success; 1 bad input (allocate: also a claim in error); 2 usage error;\n"
    "3 allocate: some claims are unschedulable (and none in error).\n";

// A whole non-negative number, or nullopt.
[[nodiscard]] inline std::optional<std::size_t> count_of(std::string_view text) {
  std::size_t n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

// argv without the program name. `default_command` is what runs when none is named.
[[nodiscard]] inline dra::result<invocation> parse_arguments(std::span<const std::string_view> args,
                                                             std::string_view default_command) {
  invocation parsed;
  std::size_t i = 0;
  auto next_value = [&](std::string_view flag) -> dra::result<std::string> {
    if (i + 1 >= args.size()) return dra::error{"option " + std::string(flag) + " needs a value"};
    return std::string(args[++i]);
  };
  bool command_seen = false;
  bool file_seen = false;
  for (; i < args.size(); ++i) {
    std::string_view arg = args[i];
    std::string_view flag = arg;
    std::optional<std::string> inline_value;
    if (arg.starts_with("--") && arg.find('=') != std::string_view::npos) {
      flag = arg.substr(0, arg.find('='));
      inline_value = std::string(arg.substr(arg.find('=') + 1));
    }
    auto value = [&]() -> dra::result<std::string> {
      if (inline_value) return *inline_value;
      return next_value(flag);
    };
    if (flag == "--output" || flag == "-o") {
      auto v = value();
      if (!v) return std::move(v).error();
      if (*v == "json")
        parsed.output = output_format::json;
      else if (*v == "text")
        parsed.output = output_format::text;
      else if (*v == "scenario")
        parsed.output = output_format::scenario;
      else if (*v == "svg")
        parsed.output = output_format::svg;
      else if (*v == "prometheus")
        parsed.output = output_format::prometheus;
      else
        return dra::error{"--output must be text, json, scenario, svg or prometheus, not \"" + *v + "\""};
      parsed.output_given = true;
    } else if (flag == "--class") {
      auto v = value();
      if (!v) return std::move(v).error();
      parsed.device_class = std::move(*v);
    } else if (flag == "--policy") {
      auto v = value();
      if (!v) return std::move(v).error();
      if (*v != "first_fit" && *v != "sorted" && *v != "shared_capacity")
        return dra::error{"--policy must be first_fit, sorted or shared_capacity, not \"" + *v + "\""};
      parsed.policy = std::move(*v);
    } else if (flag == "--score") {
      auto v = value();
      if (!v) return std::move(v).error();
      if (*v != "kube") return dra::error{"--score must be kube, not \"" + *v + "\""};
      parsed.score = std::move(*v);
    } else if (flag == "--pod" || flag == "--by" || flag == "--drain") {
      auto v = value();
      if (!v) return std::move(v).error();
      if (flag == "--pod") parsed.pod = std::move(*v);
      if (flag == "--by") parsed.by = std::move(*v);
      if (flag == "--drain") parsed.drain.push_back(std::move(*v));
    } else if (flag == "--max") {
      auto v = value();
      if (!v) return std::move(v).error();
      auto n = count_of(*v);
      if (!n) return dra::error{"--max must be a number, not \"" + *v + "\""};
      parsed.max = *n;
    } else if (flag == "--add-node") {
      auto v = value();
      if (!v) return std::move(v).error();
      const auto equals = v->rfind('=');
      const auto n = equals == std::string::npos ? std::nullopt : count_of(std::string_view(*v).substr(equals + 1));
      if (!n || equals == 0) return dra::error{"--add-node must be NODE=COUNT, not \"" + *v + "\""};
      parsed.add_nodes.emplace_back(v->substr(0, equals), *n);
    } else if (flag == "--features") {
      auto v = value();
      if (!v) return std::move(v).error();
      parsed.features = std::move(*v);
    } else if (arg == "-h" || arg == "--help") {
      parsed.command = "help";
      return parsed;
    } else if (arg == "--version") {
      parsed.command = "version";
      return parsed;
    } else if (arg.starts_with("--") || (arg.starts_with("-") && arg != "-")) {
      return dra::error{"unknown option \"" + std::string(arg) + "\""};
    } else if (!command_seen && !file_seen && std::ranges::find(command_names, arg) != command_names.end()) {
      parsed.command = std::string(arg);
      command_seen = true;
    } else if (!file_seen) {
      parsed.file = std::string(arg);
      file_seen = true;
    } else {
      parsed.arguments.emplace_back(arg);
    }
  }
  if (!command_seen) parsed.command = std::string(default_command);
  if (parsed.output == output_format::svg && parsed.command != "occupancy")
    return dra::error{"--output svg is only for the occupancy command"};
  if (parsed.output == output_format::prometheus && (parsed.command != "capacity" || parsed.pod))
    return dra::error{"--output prometheus is only for capacity without --pod"};
  if (parsed.score && parsed.command != "allocate" && parsed.command != "occupancy" &&
      !(parsed.command == "capacity" && parsed.pod))
    return dra::error{"--score is for allocate, occupancy and capacity --pod"};
  if ((parsed.pod || parsed.max || parsed.by) && parsed.command != "capacity")
    return dra::error{"--pod, --max and --by are only for the capacity command"};
  if ((!parsed.add_nodes.empty() || !parsed.drain.empty()) && parsed.command != "allocate" &&
      parsed.command != "capacity" && parsed.command != "explain")
    return dra::error{"--add-node and --drain are for allocate, capacity and explain"};
  return parsed;
}

}  // namespace dra_cli
