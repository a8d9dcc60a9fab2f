// What-if changes to a scenario, in memory: K more copies of a node (the scale-up question) and a drained node whose
// pods must go elsewhere (the scale-down question); the changed scenario runs and writes out like any other.
#pragma once

#include <dra/core/result.hpp>
#include <dra/json/overlay.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>

#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sim {

// `count` copies of node `node`.
struct node_copies {
  std::string node;
  std::size_t count = 0;
};

// The changes a what-if makes: nodes copied first, then nodes drained.
struct what_if_changes {
  std::vector<node_copies> add_nodes;
  std::vector<std::string> drain;
  [[nodiscard]] bool empty() const noexcept { return add_nodes.empty() && drain.empty(); }
};

// Strings that objects of a changed scenario view (names, JSON texts): a deque, so that they never move; it moves
// with its owner but is not copied (a copy's objects would view the original's strings).
class string_store {
 public:
  string_store() = default;
  string_store(string_store&&) = default;
  string_store& operator=(string_store&&) = default;
  string_store(const string_store&) = delete;
  string_store& operator=(const string_store&) = delete;
  ~string_store() = default;

  // A copy of `text` that lives as long as the store.
  model::text own(std::string text) { return strings_.emplace_back(std::move(text)); }

 private:
  std::deque<std::string> strings_;
};

// A scenario with what-if changes. Changed and added objects view `strings`; the rest views what the original
// scenario viewed.
struct changed_scenario {
  model::scenario scenario;
  std::vector<std::string> added_nodes;   // the node copies' names, in the order they were added
  std::vector<std::string> drained_pods;  // "namespace/name" of each pod a drain made pending, in input order
  string_store strings;
};

namespace detail {

// `object_json` without the fields `removed` (paths from the top, at least two keys long), as compact JSON: each
// parent object is written again without them.
[[nodiscard]] inline result<std::string> without_fields(std::string_view object_json,
                                                        const std::vector<std::vector<std::string_view>>& removed) {
  simdjson::dom::parser parser;
  const simdjson::padded_string text(object_json);
  simdjson::dom::element root;
  if (auto code = parser.parse(text).get(root); code != simdjson::SUCCESS)
    return dra::error{std::string("cannot read the object again: ") + simdjson::error_message(code)};
  std::vector<std::pair<std::vector<std::string_view>, std::vector<std::string_view>>> parents;  // path, keys gone
  for (const auto& path : removed) {
    std::vector<std::string_view> parent(path.begin(), path.end() - 1);
    auto it = std::ranges::find(parents, parent, &decltype(parents)::value_type::first);
    if (it == parents.end()) it = parents.insert(parents.end(), {std::move(parent), {}});
    it->second.push_back(path.back());
  }
  std::vector<json::field_override> overrides;
  for (const auto& entry : parents) {
    simdjson::dom::element parent = root;
    bool found = true;
    for (std::string_view key : entry.first) found = found && parent[key].get(parent) == simdjson::SUCCESS;
    simdjson::dom::object parent_object;
    if (!found || parent.get_object().get(parent_object) != simdjson::SUCCESS) continue;
    overrides.push_back({entry.first, [parent_object, gone = &entry.second](json::writer& w) {
                           w.begin_object();
                           for (auto field : parent_object)
                             if (std::ranges::find(*gone, field.key) == gone->end())
                               json::write_element(w.key(field.key), field.value);
                           w.end_object();
                         }});
  }
  json::writer w;
  if (auto written = json::write_overlaid(w, object_json, overrides); !written) return std::move(written).error();
  return std::move(w).str();
}

// `object_json` with the fields `removed` left out, then `overrides` applied, as compact JSON. Empty text (an object
// built in C++) stays empty.
[[nodiscard]] inline result<std::string> rewritten_json(
    std::string_view object_json, const std::vector<json::field_override>& overrides,
    const std::vector<std::vector<std::string_view>>& removed = {}) {
  if (object_json.empty()) return std::string();
  std::string without;
  if (!removed.empty()) {
    auto trimmed = without_fields(object_json, removed);
    if (!trimmed) return trimmed;
    without = std::move(*trimmed);
    object_json = without;
  }
  json::writer w;
  if (auto written = json::write_overlaid(w, object_json, overrides); !written) return std::move(written).error();
  return std::move(w).str();
}

[[nodiscard]] inline json::field_override string_at(std::vector<std::string_view> path, std::string_view value) {
  return {std::move(path), [value](json::writer& w) { w.string(value); }};
}

// `name` with the node's name in it replaced by the copy's (a pool or slice named after its node), else with the
// copy's suffix appended.
[[nodiscard]] inline std::string renamed(std::string_view name, std::string_view node, std::string_view copy) {
  std::string out(name);
  if (const auto at = out.find(node); !node.empty() && at != std::string::npos)
    return out.replace(at, node.size(), copy);
  return out.append(copy.substr(node.size()));
}

inline bool node_known(const model::scenario& s, std::string_view node) {
  return std::ranges::any_of(s.nodes, [&](const auto& n) { return n.object.meta.name == node; }) ||
         std::ranges::any_of(s.slices, [&](const auto& sl) { return sl.object.node_name == model::text(node); });
}

inline constexpr std::string_view hostname_label = "kubernetes.io/hostname";

// Adds `copies.count` copies of the node and of the slices local to it, named `NODE-whatif-<i>`.
inline dra::status add_node_copies(changed_scenario& out, const node_copies& copies) {
  model::scenario& s = out.scenario;
  const auto original = std::ranges::find_if(s.nodes, [&](const auto& n) { return n.object.meta.name == copies.node; });
  const std::optional<model::located<model::node>> node =
      original == s.nodes.end() ? std::nullopt : std::optional(*original);
  std::vector<model::located<model::resource_slice>> local;
  for (const auto& slice : s.slices)
    if (slice.object.node_name == model::text(copies.node)) local.push_back(slice);
  for (std::size_t i = 0; i < copies.count; ++i) {
    const model::text name = out.strings.own(copies.node + "-whatif-" + std::to_string(i));
    out.added_nodes.emplace_back(name);
    if (node) {
      model::located<model::node> copy = *node;
      copy.object.meta.name = name;
      std::vector<json::field_override> changes{string_at({"metadata", "name"}, name)};
      for (auto& label : copy.object.meta.labels)
        if (label.name == hostname_label && label.value == model::text(copies.node)) {
          label.value = name;
          changes.push_back(string_at({"metadata", "labels", hostname_label}, name));
        }
      auto json = rewritten_json(copy.source.json, std::move(changes));
      if (!json) return std::move(json).error().within(model::object_label("Node", node->object.meta));
      copy.source.json = out.strings.own(std::move(*json));
      s.nodes.push_back(std::move(copy));
    }
    for (const auto& slice : local) {
      model::located<model::resource_slice> copy = slice;
      copy.object.meta.name = out.strings.own(renamed(slice.object.meta.name, copies.node, name));
      copy.object.pool.name = out.strings.own(renamed(slice.object.pool.name, copies.node, name));
      copy.object.node_name = name;
      auto json = rewritten_json(copy.source.json, {string_at({"metadata", "name"}, copy.object.meta.name),
                                                    string_at({"spec", "nodeName"}, name),
                                                    string_at({"spec", "pool", "name"}, copy.object.pool.name)});
      if (!json) return std::move(json).error().within(model::object_label("ResourceSlice", slice.object.meta));
      copy.source.json = out.strings.own(std::move(*json));
      s.slices.push_back(std::move(copy));
    }
  }
  return {};
}

// Removes the node and its local slices; its unfinished pods become pending and the claims allocated from its pools
// lose their allocation (and reservations).
inline dra::status drain_node(changed_scenario& out, std::string_view node) {
  model::scenario& s = out.scenario;
  std::set<std::pair<model::text, model::text>> pools;  // driver, pool of the node's slices
  for (const auto& slice : s.slices)
    if (slice.object.node_name == model::text(node)) pools.emplace(slice.object.driver, slice.object.pool.name);
  std::erase_if(s.slices, [&](const auto& slice) { return slice.object.node_name == model::text(node); });
  std::erase_if(s.nodes, [&](const auto& n) { return n.object.meta.name == node; });
  for (auto& pod : s.pods) {
    if (pod.object.node_name != model::text(node) || model::is_terminal(pod.object)) continue;
    pod.object.node_name.reset();
    auto json = rewritten_json(pod.source.json, {}, {{"spec", "nodeName"}});
    if (!json) return std::move(json).error().within(model::object_label("Pod", pod.object.meta));
    pod.source.json = out.strings.own(std::move(*json));
    out.drained_pods.push_back(model::namespaced_name(pod.object.meta.namespace_, pod.object.meta.name));
  }
  for (auto& claim : s.claims) {
    const auto& allocation = claim.object.allocation;
    if (!allocation || std::ranges::none_of(allocation->results, [&](const auto& r) {
          return pools.contains({r.driver, r.pool});
        }))
      continue;
    claim.object.allocation.reset();
    claim.object.reserved_for.clear();
    auto json = rewritten_json(claim.source.json, {}, {{"status", "allocation"}, {"status", "reservedFor"}});
    if (!json) return std::move(json).error().within(model::object_label("ResourceClaim", claim.object.meta));
    claim.source.json = out.strings.own(std::move(*json));
  }
  return {};
}

}  // namespace detail

// `s` with `changes` made: for each --add-node, `count` copies of the node (its Node object, if the scenario has
// one, and the ResourceSlices local to it), named `NODE-whatif-<i>` (i from 0), their pools' and slices' names with
// the node's name replaced by the copy's (or the suffix appended), devices free, generations kept; appended after the
// scenario's nodes and slices, so node order puts them last. Then each drained node is removed with its local
// slices: its bound, unfinished pods become pending (spec.nodeName cleared) and every claim allocated from its pools
// loses status.allocation and status.reservedFor (claims allocated elsewhere keep theirs). A node the scenario does
// not have (as a Node or a slice's nodeName) is an error.
[[nodiscard]] inline result<changed_scenario> what_if(const model::scenario& s, const what_if_changes& changes) {
  changed_scenario out;
  out.scenario = s;
  for (const auto& copies : changes.add_nodes) {
    if (!detail::node_known(s, copies.node))
      return dra::error{"--add-node: node \"" + copies.node + "\" not found", "", "", errc::not_found};
    if (auto added = detail::add_node_copies(out, copies); !added) return std::move(added).error();
  }
  for (const auto& node : changes.drain) {
    if (!detail::node_known(out.scenario, node))
      return dra::error{"--drain: node \"" + node + "\" not found", "", "", errc::not_found};
    if (auto drained = detail::drain_node(out, node); !drained) return std::move(drained).error();
  }
  return out;
}

}  // namespace dra::sim
