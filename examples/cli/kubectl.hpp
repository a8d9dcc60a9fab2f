// `kubectl dra`: run as kubectl-dra, the command gathers its scenario from the cluster with `kubectl get … -o json`
// (kubectl's connection flags passed through) instead of reading a file.
#pragma once

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace dra_cli {

// The kinds the command reads, in the order it reads them; the namespaced ones take -n/-A.
struct kubectl_kind {
  std::string_view resource;
  bool namespaced;
};
inline constexpr std::array<kubectl_kind, 7> kubectl_kinds{{{"resourceslices", false},
                                                            {"deviceclasses", false},
                                                            {"devicetaintrules", false},
                                                            {"nodes", false},
                                                            {"resourceclaims", true},
                                                            {"resourceclaimtemplates", true},
                                                            {"pods", true}}};

// kubectl's flags taken off the command line: --context, --kubeconfig (everywhere), -n/--namespace and
// -A/--all-namespaces (for namespaced kinds), as given.
struct kubectl_flags {
  std::vector<std::string> connection;
  std::vector<std::string> namespaces;
};

// Splits kubectl's flags from the rest of `args` (what dra parses). A flag that needs a value and has none is
// an error message.
[[nodiscard]] inline std::optional<std::string> take_kubectl_flags(std::vector<std::string_view>& args,
                                                                   kubectl_flags& flags) {
  std::vector<std::string_view> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    auto with_value = [&](std::vector<std::string>& into, std::string_view flag) -> std::optional<std::string> {
      if (arg.starts_with(std::string(flag) + "=")) {
        into.emplace_back(arg);
        return std::nullopt;
      }
      if (i + 1 >= args.size()) return "option " + std::string(flag) + " needs a value";
      into.emplace_back(arg);
      into.emplace_back(args[++i]);
      return std::nullopt;
    };
    std::optional<std::string> problem;
    if (arg == "--context" || arg.starts_with("--context="))
      problem = with_value(flags.connection, "--context");
    else if (arg == "--kubeconfig" || arg.starts_with("--kubeconfig="))
      problem = with_value(flags.connection, "--kubeconfig");
    else if (arg == "--namespace" || arg.starts_with("--namespace="))
      problem = with_value(flags.namespaces, "--namespace");
    else if (arg == "-n")
      problem = with_value(flags.namespaces, "-n");
    else if (arg == "-A" || arg == "--all-namespaces")
      flags.namespaces.emplace_back(arg);
    else
      rest.push_back(arg);
    if (problem) return problem;
  }
  args = std::move(rest);
  return std::nullopt;
}

// Runs `argv` (found on PATH) and returns what it printed on stdout, or a message: not found, or its exit status.
[[nodiscard]] inline std::optional<std::string> run_captured(const std::vector<std::string>& argv,
                                                             std::string& output) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return std::string("cannot make a pipe: ") + std::strerror(errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);
  std::vector<char*> raw;
  for (const auto& a : argv) raw.push_back(const_cast<char*>(a.c_str()));
  raw.push_back(nullptr);
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  if (spawned != 0) {
    close(pipe_ends[0]);
    return spawned == ENOENT ? argv[0] + " not found on PATH" : "cannot run " + argv[0] + ": " + std::strerror(spawned);
  }
  char buffer[65536];
  for (ssize_t n; (n = read(pipe_ends[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    output.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipe_ends[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  std::string command;
  for (const auto& a : argv) command += (command.empty() ? "" : " ") + a;
  return "`" + command + "` failed" +
         (WIFEXITED(status) ? " (exit status " + std::to_string(WEXITSTATUS(status)) + ")" : " (killed by a signal)");
}

// The cluster's snapshot: `kubectl get KIND -o json` for each kind, concatenated (dra reads them one after another).
[[nodiscard]] inline std::optional<std::string> kubectl_snapshot(const kubectl_flags& flags, std::string& snapshot) {
  for (const auto& kind : kubectl_kinds) {
    std::vector<std::string> argv{"kubectl", "get", std::string(kind.resource), "-o", "json"};
    argv.insert(argv.end(), flags.connection.begin(), flags.connection.end());
    if (kind.namespaced) argv.insert(argv.end(), flags.namespaces.begin(), flags.namespaces.end());
    if (auto failed = run_captured(argv, snapshot)) return failed;
    snapshot += "\n";
  }
  return std::nullopt;
}

}  // namespace dra_cli
