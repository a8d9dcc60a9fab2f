// `kubectl dra`: run as kubectl-dra, the command gathers its scenario from the cluster with one `kubectl get … -A -o
// json` of every kind a snapshot needs (kubectl's connection flags passed through) instead of reading a file.
#pragma once

#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace dra_cli {

// The kinds a snapshot holds, as kubectl names them: fully qualified, so that a custom resource of the same plural
// (Volcano's podgroups, Kueue's workloads) is never read instead. `optional` kinds are alpha or beta APIs a cluster
// may not serve: the snapshot is taken without them, with a note.
struct kubectl_kind {
  std::string_view resource;
  bool optional;
};
inline constexpr std::array<kubectl_kind, 11> kubectl_kinds{{{"resourceslices.resource.k8s.io", false},
                                                            {"deviceclasses.resource.k8s.io", false},
                                                            {"devicetaintrules.resource.k8s.io", true},
                                                            {"nodes", false},
                                                            {"resourceclaims.resource.k8s.io", false},
                                                            {"resourceclaimtemplates.resource.k8s.io", false},
                                                            {"pods", false},
                                                            {"podgroups.scheduling.k8s.io", true},
                                                            {"workloads.scheduling.k8s.io", true},
                                                            {"priorityclasses.scheduling.k8s.io", false},
                                                            {"poddisruptionbudgets.policy", false}}};

// kubectl's connection flags, taken off the command line as given and passed to kubectl. -n and -A stay with dra:
// they narrow what it reports, never the cluster's state it reads.
struct kubectl_flags {
  std::vector<std::string> connection;
};

// Splits kubectl's connection flags from the rest of `args` (what dra parses). A flag that needs a value and has
// none is an error message.
[[nodiscard]] inline std::optional<std::string> take_kubectl_flags(std::vector<std::string_view>& args,
                                                                   kubectl_flags& flags) {
  constexpr std::array<std::string_view, 12> with_values{
      "--context", "--kubeconfig", "--cluster",     "--user",      "--server",      "-s",
      "--token",   "--as",         "--as-group",    "--as-uid",    "--request-timeout", "--certificate-authority"};
  std::vector<std::string_view> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--insecure-skip-tls-verify" || arg.starts_with("--insecure-skip-tls-verify=")) {
      flags.connection.emplace_back(arg);
      continue;
    }
    const auto flag = std::ranges::find_if(with_values, [&](std::string_view f) {
      return arg == f || (f.starts_with("--") && arg.starts_with(f) && arg.size() > f.size() && arg[f.size()] == '=');
    });
    if (flag == with_values.end()) {
      rest.push_back(arg);
      continue;
    }
    flags.connection.emplace_back(arg);
    if (arg != *flag) continue;  // --flag=value
    if (i + 1 >= args.size()) return "option " + std::string(*flag) + " needs a value";
    flags.connection.emplace_back(args[++i]);
  }
  args = std::move(rest);
  return std::nullopt;
}

// What a program printed, and how it ended.
struct captured_run {
  std::string out, err;
  std::optional<std::string> failure;  // not found, or its exit status; nothing when it succeeded
};

namespace detail {

// Reads both pipes until the child closes them, so that neither fills up while the other is read.
inline void read_both(int out_fd, int err_fd, std::string& out, std::string& err) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* into[2] = {&out, &err};
  char buffer[65536];
  for (int open = 2; open > 0;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || fds[k].revents == 0) continue;
      const ssize_t n = read(fds[k].fd, buffer, sizeof buffer);
      if (n > 0) {
        into[k]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[k].fd = -1;  // poll skips negative descriptors
        --open;
      }
    }
  }
}

}  // namespace detail

// Runs `argv` (found on PATH), keeping what it prints on stdout and stderr.
[[nodiscard]] inline captured_run run_captured(const std::vector<std::string>& argv) {
  captured_run run;
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) return {{}, {}, std::string("cannot make a pipe: ") + std::strerror(errno)};
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return {{}, {}, std::string("cannot make a pipe: ") + std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<char*> raw;
  for (const auto& a : argv) raw.push_back(const_cast<char*>(a.c_str()));
  raw.push_back(nullptr);
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    run.failure = spawned == ENOENT ? argv[0] + " not found on PATH" : "cannot run " + argv[0] + ": " + std::strerror(spawned);
    return run;
  }
  detail::read_both(out_pipe[0], err_pipe[0], run.out, run.err);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return run;
  std::string command;
  for (const auto& a : argv) command += (command.empty() ? "" : " ") + a;
  run.failure = "`" + command + "` failed" +
                (WIFEXITED(status) ? " (exit status " + std::to_string(WEXITSTATUS(status)) + ")" : " (killed by a signal)");
  return run;
}

// The resource type kubectl says the server does not have (`error: the server doesn't have a resource type "X"`).
[[nodiscard]] inline std::string_view unserved_resource(std::string_view kubectl_error) {
  constexpr std::string_view marker = "doesn't have a resource type \"";
  const std::size_t at = kubectl_error.find(marker);
  if (at == std::string_view::npos) return {};
  const std::string_view rest = kubectl_error.substr(at + marker.size());
  return rest.substr(0, rest.find('"'));
}

// The cluster's snapshot: every kind of every namespace in one `kubectl get`; when the cluster serves no optional
// kind, again without it (`notes` says which were left out). A failure's message ends with kubectl's own.
[[nodiscard]] inline std::optional<std::string> kubectl_snapshot(const kubectl_flags& flags, std::string& snapshot,
                                                                 std::vector<std::string>& notes) {
  std::vector<kubectl_kind> kinds(kubectl_kinds.begin(), kubectl_kinds.end());
  for (;;) {
    std::string resources;
    for (const auto& kind : kinds) (resources += resources.empty() ? "" : ",") += kind.resource;
    std::vector<std::string> argv{"kubectl", "get", resources, "-A", "-o", "json"};
    argv.insert(argv.end(), flags.connection.begin(), flags.connection.end());
    captured_run run = run_captured(argv);
    if (!run.failure) {
      snapshot = std::move(run.out);
      return std::nullopt;
    }
    const std::string_view unserved = unserved_resource(run.err);
    const auto dropped = std::ranges::find_if(kinds, [&](const kubectl_kind& k) { return k.optional && k.resource == unserved; });
    if (unserved.empty() || dropped == kinds.end()) {
      while (!run.err.empty() && run.err.back() == '\n') run.err.pop_back();
      return run.err.empty() ? *run.failure : *run.failure + ": " + run.err;
    }
    notes.push_back("the cluster does not serve " + std::string(unserved) + ": the snapshot is taken without them");
    kinds.erase(dropped);
  }
}

}  // namespace dra_cli
