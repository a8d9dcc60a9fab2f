// The text kube-scheduler gives a pod no node takes: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were
// unschedulable." (framework.FitError).
#pragma once

#include <dra/sched/filters.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <string>
#include <vector>

namespace dra::sched {

// How many nodes gave each reason: one count per distinct reason text.
struct reason_count {
  node_reason reason;
  std::size_t nodes = 0;
  friend bool operator==(const reason_count&, const reason_count&) = default;
};

// Counts each node's reasons (a node refused for cpu and memory counts once for each), by reason text.
[[nodiscard]] inline std::vector<reason_count> count_reasons(const std::vector<std::vector<node_reason>>& per_node) {
  std::vector<reason_count> out;
  for (const auto& reasons : per_node)
    for (const auto& reason : reasons) {
      auto same = std::find_if(out.begin(), out.end(), [&](const reason_count& c) { return c.reason.message == reason.message; });
      if (same == out.end())
        out.push_back({reason, 1});
      else
        ++same->nodes;
    }
  return out;
}

// FitError.Error(): "0/N nodes are available: " then "<count> <reason>" for each distinct reason, those strings
// sorted as strings (so "10 …" sorts before "2 …", as in Go), joined by ", ", and a final ".".
[[nodiscard]] inline std::string fit_error_message(std::size_t nodes, const std::vector<reason_count>& reasons) {
  std::vector<std::string> parts;
  parts.reserve(reasons.size());
  for (const auto& r : reasons) parts.push_back(std::to_string(r.nodes) + " " + r.reason.message);
  std::sort(parts.begin(), parts.end());
  std::string out = "0/" + std::to_string(nodes) + " nodes are available: ";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : ", ") + parts[i];
  return out + ".";
}

// The same for a pod refused before any node was filtered (a pre-filter's message): "0/N nodes are available: pod
// affinity terms conflict."
[[nodiscard]] inline std::string pre_filter_error_message(std::size_t nodes, std::string_view message) {
  return "0/" + std::to_string(nodes) + " nodes are available: " + std::string(message) + ".";
}

}  // namespace dra::sched
