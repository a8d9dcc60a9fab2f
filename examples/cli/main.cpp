// The dra command: parses flags, loads the input and hands it to a subcommand (commands.hpp); all behaviour lives in
// the library and the subcommands' sources.
#include "arguments.hpp"
#include "commands.hpp"
#include "default_scenario.hpp"
#include "heap.hpp"
#include "help.hpp"
#include "kubectl.hpp"

#include <dra/json/ingest.hpp>
#include <dra/json/scheduler_config.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sim/analysis/summary.hpp>
#include <dra/sim/analysis/what_if.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

// Without FILE, a pipe or a redirected file on stdin is the input (`kubectl get … -o json | dra`);
// a terminal or /dev/null (character devices) means the embedded default scenario.
bool stdin_has_input() {
  struct stat info {};
  if (isatty(STDIN_FILENO) != 0 || fstat(STDIN_FILENO, &info) != 0) return false;
  return S_ISFIFO(info.st_mode) || S_ISREG(info.st_mode) || S_ISSOCK(info.st_mode);
}

// Run as kubectl-dra (kubectl's plugin name), the cluster's snapshot from `kubectl get`; else empty.
std::optional<std::string> cluster_snapshot;

dra::result<dra::json::document> load_input(const dra_cli::invocation& call) {
  // Large inputs are read on every core the machine offers; a file is mapped, not copied, as the
  // command owns it for its whole run.
  const dra::json::load_options options{.threads = std::max(1u, std::thread::hardware_concurrency()),
                                        .map_files = true};
  if (cluster_snapshot) {
    std::istringstream in(*cluster_snapshot);
    return dra::json::load(in, "kubectl get", options);
  }
  if (!call.file && stdin_has_input()) return dra::json::load(std::cin, "<stdin>", options);
  if (!call.file) {
    auto doc = dra::json::load(dra_cli::default_scenario);
    if (!doc && doc.error().object.empty()) {
      dra::error e = std::move(doc).error();
      e.object = std::string(dra_cli::default_scenario_name);
      return e;
    }
    return doc;
  }
  if (*call.file == "-") return dra::json::load(std::cin, "<stdin>", options);
  return dra::json::load_file(*call.file, options);
}

// Ends the process once the output is written, without destroying the loaded scenario: its
// objects are freed by the process's end at once, where freeing them one by one took a fifth of
// `dra summary` on a 100 MB input (compilers skip freeing their trees at exit for the same reason).
[[noreturn]] void exit_keeping(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

// --add-node and --drain: the scenario the commands that take them run on (the input itself without them).
std::optional<dra::sim::changed_scenario> what_if_of(const dra_cli::invocation& call, const dra::json::document& doc) {
  dra::sim::what_if_changes changes;
  for (const auto& [node, count] : call.add_nodes) changes.add_nodes.push_back({node, count});
  changes.drain = call.drain;
  if (changes.empty()) return std::nullopt;
  auto changed = dra::sim::what_if(doc.scenario(), changes);
  if (!changed) {
    std::cerr << "dra: " << changed.error().to_string() << "\n";
    exit_keeping(1);
  }
  for (const auto& pod : changed->drained_pods) std::cerr << "dra: --drain: pod " << pod << " is pending again\n";
  return std::move(*changed);
}

int run_command(const dra_cli::invocation& call, const std::vector<std::string>& explained,
                std::string_view expression, const dra::json::document& doc) {
  if (call.command == "flatten") return dra_cli::run_flatten(doc, std::cout);
  if (call.command == "validate") return dra_cli::run_validate(doc, call.output == dra_cli::output_format::json, std::cout);
  const auto changed = what_if_of(call, doc);
  const dra::model::scenario& s = changed ? changed->scenario : doc.scenario();
  if (call.command == "allocate") return dra_cli::run_allocate(call, s, doc.format(), std::cout, std::cerr);
  if (call.command == "capacity") return dra_cli::run_capacity(call, s, doc.format(), std::cout, std::cerr);
  if (call.command == "explain") return dra_cli::run_explain(call, explained, s, std::cout, std::cerr);
  if (call.command == "occupancy") return dra_cli::run_occupancy(call, doc, std::cout, std::cerr);
  if (call.command == "select") return dra_cli::run_select(call, doc, expression, std::cout, std::cerr);
  return dra_cli::run_summary(call, doc, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  dra_cli::prepare_heap();
  std::vector<std::string_view> args(argv + 1, argv + argc);
  // `kubectl dra …`: kubectl's flags go to kubectl, the rest to dra, and the scenario is the cluster's.
  const bool as_kubectl_plugin = std::filesystem::path(argv[0]).filename() == "kubectl-dra";
  dra_cli::kubectl_flags kubectl;
  if (as_kubectl_plugin)
    if (auto problem = dra_cli::take_kubectl_flags(args, kubectl)) {
      std::cerr << "kubectl-dra: " << *problem << "\n\n" << dra_cli::usage_text;
      return 2;
    }
  // The main job: allocate the scenario (the embedded default without FILE).
  auto parsed = dra_cli::parse_arguments(args, "allocate");
  if (!parsed) {
    std::cerr << "dra: " << parsed.error().to_string() << "\n\n" << dra_cli::usage_text;
    return 2;
  }
  const dra_cli::invocation& call = *parsed;
  if (call.command == "help") {
    if (dra_cli::print_help(call.help_topic, std::cout)) return 0;
    std::cerr << "dra: no command \"" << call.help_topic << "\"\n\n" << dra_cli::usage_text;
    return 2;
  }
  if (call.output == dra_cli::output_format::scenario && call.command != "allocate" && call.command != "capacity") {
    std::cerr << "dra: --output scenario is for allocate and capacity --pod only\n\n" << dra_cli::usage_text;
    return 2;
  }
  if (call.command == "version") {
    std::cout << "dra " << DRA_VERSION << " (allocator: " << dra_cli::allocator_name()
              << ", JSON kernel: " << dra::json::json_kernel() << ")\n";
    return 0;
  }
  if (call.scheduler_config) {  // read before the scenario: a broken configuration fails fast
    auto profile = dra::json::load_scheduler_profile(*call.scheduler_config);
    if (!profile) {
      std::cerr << "dra: " << profile.error().to_string() << "\n";
      return 1;
    }
    parsed->scoring_profile = std::move(*profile);
  }
  // The cluster is the input: a FILE argument is a name (explain), the expression (select), or a mistake.
  const bool file_names_input = call.command != "explain" && !(call.command == "select" && call.arguments.empty());
  if (as_kubectl_plugin && call.file && file_names_input) {
    std::cerr << "kubectl-dra: \"" << *call.file << "\": kubectl dra reads the cluster, not a file (to read a file, "
              << "run dra " << call.command << " " << *call.file << ")\n";
    return 2;
  }
  if (as_kubectl_plugin) {
    std::string snapshot;
    std::vector<std::string> notes;
    const auto failed = dra_cli::kubectl_snapshot(kubectl, snapshot, notes);
    for (const std::string& note : notes) std::cerr << "kubectl-dra: note: " << note << "\n";
    if (failed) {
      std::cerr << "kubectl-dra: " << *failed << "\n";
      return 1;
    }
    cluster_snapshot = std::move(snapshot);
  }
  dra_cli::invocation input = call;
  std::string expression;
  if (call.command == "select") {
    if (call.arguments.empty() && call.file) {  // `dra select EXPR`: the embedded scenario
      expression = *call.file;
      input.file.reset();
    } else if (call.arguments.size() == 1) {
      expression = call.arguments[0];
    } else {
      std::cerr << "dra: select needs one CEL expression\n\n" << dra_cli::usage_text;
      return 2;
    }
  }
  std::vector<std::string> explained;  // `dra explain [FILE] [CLAIM...]`: a FILE that is no file is a claim
  if (call.command == "explain") {
    explained = call.arguments;
    std::error_code ignored;
    if (call.file && *call.file != "-" && (as_kubectl_plugin || !std::filesystem::exists(*call.file, ignored))) {
      explained.insert(explained.begin(), *call.file);
      input.file.reset();
    }
  }
  auto doc = load_input(input);
  const bool json_output = call.output == dra_cli::output_format::json;
  if (!doc && call.command == "validate") return dra_cli::report_load_failure(doc.error(), json_output, std::cout);
  if (!doc) {
    std::cerr << "dra: " << doc.error().to_string() << "\n";
    return 1;
  }
  for (const std::string& warning : doc->scenario().warnings) std::cerr << "dra: warning: " << warning << "\n";
  if (call.command == "summary" || call.command == "allocate")
    for (const std::string& warning : dra::sim::skipped_device_warnings(doc->scenario()))
      std::cerr << "dra: warning: " << warning << "\n";
  exit_keeping(run_command(call, explained, expression, *doc));
}
