// Node matching: does a node satisfy a slice's or device's node selection (nodeName, allNodes, core/v1 NodeSelector)?
// And label matching: do an object's labels satisfy a metav1.LabelSelector?
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>
#include <dra/model/common.hpp>
#include <dra/model/workload.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

namespace dra::alloc {

namespace detail {

[[nodiscard]] inline std::optional<std::int64_t> parse_int64(std::string_view text) noexcept {
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc{} || end != last || first == last) return std::nullopt;
  return value;
}

[[nodiscard]] inline bool contains(const std::vector<model::text>& values, model::text v) noexcept {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// One matchExpressions requirement against an object's labels, as Kubernetes' label selectors evaluate it.
[[nodiscard]] inline result<bool> label_requirement_matches(const model::node_selector_requirement& r,
                                                            const model::sorted_map<model::text>& labels) {
  using op = model::node_selector_operator;
  const model::text* label = model::find(labels, r.key);
  switch (r.op) {
    case op::in:
    case op::not_in:
      if (r.values.empty())
        return error{"key " + std::string(r.key) + ": values must be non-empty for operators In and NotIn", "", "",
                     errc::invalid_object};
      if (r.op == op::in) return label != nullptr && contains(r.values, *label);
      return label == nullptr || !contains(r.values, *label);
    case op::exists:
    case op::does_not_exist:
      if (!r.values.empty())
        return error{"key " + std::string(r.key) + ": values must be empty for operators Exists and DoesNotExist", "",
                     "", errc::invalid_object};
      return (label != nullptr) == (r.op == op::exists);
    case op::gt:
    case op::lt: {
      if (r.values.size() != 1)
        return error{"key " + std::string(r.key) + ": exactly one value is required for operators Gt and Lt", "", "",
                     errc::invalid_object};
      auto bound = parse_int64(r.values.front());
      if (!bound)
        return error{"key " + std::string(r.key) + ": value must be an integer for operators Gt and Lt", "", "",
                     errc::invalid_object};
      if (label == nullptr) return false;
      auto actual = parse_int64(*label);
      if (!actual) return false;
      return r.op == op::gt ? *actual > *bound : *actual < *bound;
    }
    case op::unsupported:
      return error{dra::concat(dra::quoted(r.operator_name), " is not a valid label selector operator"),
                   "", "", errc::invalid_object};
  }
  return false;
}

// One matchFields requirement: nodes only have the field metadata.name.
[[nodiscard]] inline result<bool> field_requirement_matches(const model::node_selector_requirement& r,
                                                            const model::node& node) {
  using op = model::node_selector_operator;
  if (r.op != op::in && r.op != op::not_in)
    return error{dra::concat(dra::quoted(r.key),
                                     ": only operators In and NotIn are valid for node field selectors"),
                 "", "", errc::invalid_object};
  if (r.values.size() != 1)
    return error{dra::concat("unexpected number of values (", std::to_string(r.values.size()),
                                     ") for node field selector"),
                 "", "", errc::invalid_object};
  model::text field = r.key == "metadata.name" ? node.meta.name : model::text{};
  bool equal = field == r.values.front();
  return r.op == op::in ? equal : !equal;
}

}  // namespace detail

// One NodeSelectorTerm: its requirements ANDed; a term without requirements matches nothing. A malformed
// requirement is an error.
[[nodiscard]] inline result<bool> node_selector_term_matches(const model::node_selector_term& term,
                                                             const model::node& node) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  bool matches = true;
  for (const auto& r : term.match_expressions) {
    auto m = detail::label_requirement_matches(r, node.meta.labels);
    if (!m) return m.error();
    matches = matches && *m;
  }
  for (const auto& r : term.match_fields) {
    auto m = detail::field_requirement_matches(r, node);
    if (!m) return m.error();
    matches = matches && *m;
  }
  return matches;
}

// NodeSelector semantics: terms ORed, requirements of a term ANDed, a term
// without requirements matches nothing. Malformed requirements are errors.
[[nodiscard]] inline result<bool> node_selector_matches(const model::node_selector& selector, const model::node& node) {
  bool matched = false;
  for (const auto& term : selector.terms) {
    auto m = node_selector_term_matches(term, node);
    if (!m) return m.error();
    matched = matched || *m;
  }
  return matched;
}

// metav1.LabelSelector semantics: every matchLabels entry and every matchExpressions requirement holds (Gt and Lt are
// no label selector operators). A selector without either matches everything; a malformed one is an error.
[[nodiscard]] inline result<bool> label_selector_matches(const model::label_selector& selector,
                                                         const model::sorted_map<model::text>& labels) {
  bool matches = true;
  for (const auto& [key, value] : selector.match_labels) {
    const model::text* label = model::find(labels, key);
    matches = matches && label != nullptr && *label == value;
  }
  for (const auto& r : selector.match_expressions) {
    using op = model::node_selector_operator;
    if (r.op == op::gt || r.op == op::lt)
      return error{dra::concat(dra::quoted(r.op == op::gt ? "Gt" : "Lt"), " is not a valid label selector operator"),
                   "", "", errc::invalid_object};
    auto m = detail::label_requirement_matches(r, labels);
    if (!m) return m.error();
    matches = matches && *m;
  }
  return matches;
}

// Upstream's NodeMatches: a node name wins over allNodes, which wins over a selector; none of them matches nothing.
[[nodiscard]] inline result<bool> node_matches(const model::node& node, model::text node_name, bool all_nodes,
                                               const model::node_selector* selector) {
  if (!node_name.empty()) return node.meta.name == node_name;
  if (all_nodes) return true;
  if (selector != nullptr) return node_selector_matches(*selector, node);
  return false;
}

}  // namespace dra::alloc
