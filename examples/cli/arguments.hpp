// Turns the dra command's argv into an invocation, with a usage error for anything it does not know.
#pragma once

#include "help.hpp"
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

inline constexpr std::array<std::string_view, 9> command_names{"summary",   "validate", "flatten", "select", "allocate",
                                                               "explain",   "occupancy", "capacity", "help"};

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
  bool help_asked = false;  // --help: the help of the command named before or after it
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
    } else if (flag == "--scheduler-config") {
      auto v = value();
      if (!v) return std::move(v).error();
      parsed.scheduler_config = std::move(*v);
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
    } else if (flag == "--feature-gates") {  // repeatable, as kube-scheduler's
      auto v = value();
      if (!v) return std::move(v).error();
      parsed.feature_gates = parsed.feature_gates ? *parsed.feature_gates + "," + *v : std::move(*v);
    } else if (flag == "--namespace" || arg == "-n") {
      auto v = value();
      if (!v) return std::move(v).error();
      if (v->empty() || v->find('/') != std::string::npos)
        return dra::error{"--namespace must be a namespace's name, not \"" + *v + "\""};
      parsed.namespace_ = std::move(*v);
    } else if (arg == "--preempt") {
      parsed.preempt = true;
    } else if (arg == "-A" || arg == "--all-namespaces") {
      parsed.namespace_.reset();
    } else if (arg == "-h" || arg == "--help") {
      help_asked = true;
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
  if (help_asked || parsed.command == "help") {
    // `dra help COMMAND` names it where FILE goes; `dra COMMAND --help` before it.
    parsed.help_topic = parsed.command == "help" ? parsed.file.value_or("") : parsed.command;
    parsed.command = "help";
    return parsed;
  }
  if (!command_seen) parsed.command = std::string(default_command);
  if (parsed.output == output_format::svg && parsed.command != "occupancy")
    return dra::error{"--output svg is only for the occupancy command"};
  if (parsed.output == output_format::prometheus && (parsed.command != "capacity" || parsed.pod))
    return dra::error{"--output prometheus is only for capacity without --pod"};
  if (parsed.score && parsed.command != "allocate" && parsed.command != "occupancy" &&
      !(parsed.command == "capacity" && parsed.pod))
    return dra::error{"--score is for allocate, occupancy and capacity --pod"};
  if (parsed.scheduler_config && parsed.command != "allocate" && parsed.command != "occupancy" &&
      !(parsed.command == "capacity" && parsed.pod))
    return dra::error{"--scheduler-config is for allocate, occupancy and capacity --pod"};
  if ((parsed.pod || parsed.max || parsed.by) && parsed.command != "capacity")
    return dra::error{"--pod, --max and --by are only for the capacity command"};
  if (parsed.preempt && !(parsed.command == "capacity" && parsed.pod))
    return dra::error{"--preempt is for capacity --pod"};
  if (parsed.namespace_ && parsed.command != "allocate" && parsed.command != "explain" && parsed.command != "capacity")
    return dra::error{"--namespace is for allocate, explain and capacity"};
  if ((!parsed.add_nodes.empty() || !parsed.drain.empty()) && parsed.command != "allocate" &&
      parsed.command != "capacity" && parsed.command != "explain")
    return dra::error{"--add-node and --drain are for allocate, capacity and explain"};
  return parsed;
}

}  // namespace dra_cli
