// The nodes a scenario run places pods on: the scenario's Node objects, or nodes named after its slices.
#pragma once

#include <dra/model/scenario.hpp>

#include <deque>
#include <set>
#include <vector>

namespace dra::sched {

// The nodes a scenario offers: its Node objects, else one per distinct slice nodeName (sorted), else node-0.
struct node_list {
  std::vector<model::node> owned;
  std::vector<const model::node*> nodes;

  explicit node_list(const model::scenario& s) {
    if (!s.nodes.empty()) {
      for (const auto& n : s.nodes) nodes.push_back(&n.object);
      return;
    }
    std::set<model::text> names;
    for (const auto& slice : s.slices)
      if (slice.object.node_name && !slice.object.node_name->empty()) names.insert(*slice.object.node_name);
    if (names.empty()) {
      model::node n;
      n.meta.name = "node-0";
      owned.push_back(n);
    }
    for (auto name : names) {
      model::node n;
      n.meta.name = name;
      n.meta.labels.push_back({"kubernetes.io/hostname", name});
      owned.push_back(std::move(n));
    }
    for (const auto& n : owned) nodes.push_back(&n);
  }

  // The node of that name: the list's, or a bare node made for a name the list lacks (a pod bound to a node the
  // scenario does not have), kept in `made`, where it stays put.
  [[nodiscard]] const model::node* named(model::text name, std::deque<model::node>& made) const {
    for (const model::node* n : nodes)
      if (n->meta.name == name) return n;
    model::node& n = made.emplace_back();
    n.meta.name = name;
    return &n;
  }
};

}  // namespace dra::sched
