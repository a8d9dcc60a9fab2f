// The text kube-scheduler gives a pod no node takes: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were
// unschedulable." (framework.FitError).
#pragma once

#include <dra/sched/filters.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <string>
#include <unordered_map>
#include <vector>

namespace dra::sched {

// How many nodes gave each reason: one count per distinct reason text.
struct reason_count {
  node_reason reason;
  std::size_t nodes = 0;
  friend bool operator==(const reason_count&, const reason_count&) = default;
};

namespace detail {

// Adds `nodes` to the count of `reason`'s text, a new count at the end for a text not counted yet.
inline void add_count(std::vector<reason_count>& counts, const node_reason& reason, std::size_t nodes) {
  const auto same = std::find_if(counts.begin(), counts.end(),
                                 [&](const reason_count& c) { return c.reason.message == reason.message; });
  if (same == counts.end())
    counts.push_back({reason, nodes});
  else
    same->nodes += nodes;
}

}  // namespace detail

// Counts each node's reasons (a node refused for cpu and memory counts once for each), by reason text.
[[nodiscard]] inline std::vector<reason_count> count_reasons(const std::vector<std::vector<node_reason>>& per_node) {
  std::vector<reason_count> out;
  for (const auto& reasons : per_node)
    for (const auto& reason : reasons) detail::add_count(out, reason, 1);
  return out;
}

// Lists of node reasons, each kept once and named by a number: a run's nodes give the same few lists over and over
// ("Insufficient cpu"), so a pod's filters hold a number per node and count them without copying a text.
class reason_lists {
 public:
  using id = std::uint32_t;
  static constexpr id passed = 0;  // the empty list: the node refused nothing

  reason_lists() : lists_(1) { index_.emplace(std::string(), passed); }

  [[nodiscard]] id intern(std::vector<node_reason> reasons) {
    if (reasons.empty()) return passed;
    std::string key;
    for (const node_reason& r : reasons) {
      key += std::to_string(static_cast<int>(r.code)) + ',' + std::to_string(r.message.size()) + ':';
      key += r.message;
    }
    const auto [it, added] = index_.try_emplace(std::move(key), static_cast<id>(lists_.size()));
    if (added) lists_.push_back(std::move(reasons));
    return it->second;
  }
  [[nodiscard]] const std::vector<node_reason>& operator[](id list) const { return lists_[list]; }

  // count_reasons over the lists `per_node` names, in the same order.
  [[nodiscard]] std::vector<reason_count> count(std::span<const id> per_node) const {
    std::vector<std::size_t> times(lists_.size(), 0);
    std::vector<id> first_seen;
    for (const id list : per_node)
      if (times[list]++ == 0) first_seen.push_back(list);
    std::vector<reason_count> out;
    for (const id list : first_seen)
      for (const node_reason& reason : lists_[list]) detail::add_count(out, reason, times[list]);
    return out;
  }

 private:
  std::vector<std::vector<node_reason>> lists_;
  std::unordered_map<std::string, id> index_;  // each list's codes and texts, one after another
};

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
