// Validation of the parts that slices, classes and claims share: node selectors, tolerations, CEL selectors, opaque configuration.
#pragma once

#include <dra/model/common.hpp>
#include <dra/model/device_class.hpp>
#include <dra/validate/detail/report.hpp>
#include <dra/validate/limits.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace dra::validate::detail {

// ---- object metadata (ObjectMeta validation of the API server)

// Whether an object kind lives in a namespace.
enum class scope : bool { cluster, namespaced };

// TotalAnnotationSizeLimitB: keys and values of all annotations together.
inline constexpr std::size_t total_annotation_size = 256 * 1024;

// Label keys are qualified names, values label values; both are reported on
// the map's path with the key or value in the message, as upstream does.
inline void check_labels(reporter& r, const field_path& path, const model::sorted_map<model::text>& labels) {
  for (const auto& [key, value] : labels) {
    r.add_name_problems(path, key, names::label_key(key));
    r.add_name_problems(path, value, names::label_value(value));
  }
}

// Annotation keys are qualified names once lower-cased; the total size is bounded.
inline void check_annotations(reporter& r, const field_path& path, const model::sorted_map<model::text>& annotations) {
  std::size_t total = 0;
  for (const auto& [key, value] : annotations) {
    total += key.size() + value.size();
    if (std::any_of(key.begin(), key.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
      std::string lower(key);
      for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      r.add_name_problems(path, key, names::label_key(lower));
    } else {
      r.add_name_problems(path, key, names::label_key(key));
    }
  }
  if (total > total_annotation_size) r.add(path, too_long(total_annotation_size));
}

// ValidateObjectMeta: name, namespace (required for namespaced kinds,
// forbidden for the others), labels and annotations.
inline void check_object_meta(reporter& r, const model::object_meta& meta, scope kind_scope) {
  check_metadata(r, meta.name, kind_scope == scope::namespaced ? meta.namespace_ : std::string_view{});
  if (kind_scope == scope::namespaced && meta.namespace_.empty())
    r.add("metadata.namespace", required());
  else if (kind_scope == scope::cluster && !meta.namespace_.empty())
    r.add("metadata.namespace", forbidden("not allowed on this type"));
  check_labels(r, "metadata.labels", meta.labels);
  check_annotations(r, "metadata.annotations", meta.annotations);
}

// ---- maps built in C++

// Ingest sorts every map by key and rejects a key given twice; a map built in
// C++ may be neither. Lookups bisect it, so an unsorted map hides entries from
// the allocator and CEL (a claim silently unschedulable): report it.
template <class V>
void check_sorted_keys(reporter& r, const field_path& path, const model::sorted_map<V>& map) {
  for (std::size_t i = 1; i < map.size(); ++i) {
    if (map[i].name < map[i - 1].name) {
      r.add(path, invalid_text(map[i].name, concat("keys must be sorted, and this one comes after ", quoted(map[i - 1].name),
                                                   " (dra::model::sort_by_key sorts a map; dra/model/build.hpp builds sorted ones)")));
      return;
    }
    if (map[i].name == map[i - 1].name) r.add(path, duplicate(map[i].name));
  }
}

// ---- node selectors, tolerations, selectors, configuration

[[nodiscard]] inline bool is_integer_text(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

inline constexpr std::array<std::string_view, 6> node_selector_operators = {"In",     "NotIn", "Exists",
                                                                         "DoesNotExist", "Gt",    "Lt"};

// The operator as the input wrote it.
[[nodiscard]] inline std::string_view operator_text(const model::node_selector_requirement& req) noexcept {
  if (req.op == model::node_selector_operator::unsupported) return req.operator_name;
  return node_selector_operators[static_cast<std::size_t>(req.op)];
}

// core/v1 NodeSelectorRequirement over node labels.
inline void check_label_requirement(reporter& r, const field_path& path, const model::node_selector_requirement& req) {
  using op = model::node_selector_operator;
  const field_path values = child(path, "values");
  switch (req.op) {
    case op::in:
    case op::not_in:
      if (req.values.empty()) r.add(values, required("must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case op::exists:
    case op::does_not_exist:
      if (!req.values.empty()) r.add(values, forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case op::gt:
    case op::lt:
      if (req.values.size() != 1)
        r.add(values, required("must be specified single value when `operator` is 'Lt' or 'Gt'"));
      else if (!is_integer_text(req.values.front()))
        r.add(index(values, 0), invalid_text(req.values.front(), "must be an integer"));
      break;
    case op::unsupported:
      r.add(child(path, "operator"), invalid_text(req.operator_name, "not a valid selector operator"));
      break;
  }
  check_label_key(r, child(path, "key"), req.key);
  // Values are label values whatever the operator (DRA objects get no exemption, unlike pods' node affinity).
  for (std::size_t i = 0; i < req.values.size(); ++i)
    r.add_name_problems(index(values, i), req.values[i], names::label_value(req.values[i]));
}

// core/v1 NodeSelectorRequirement over node fields: only metadata.name, with In or NotIn and one value.
inline void check_field_requirement(reporter& r, const field_path& path, const model::node_selector_requirement& req) {
  using op = model::node_selector_operator;
  if (req.key != "metadata.name") r.add(child(path, "key"), not_supported(req.key, {"metadata.name"}));
  if (req.op != op::in && req.op != op::not_in)
    r.add(child(path, "operator"), invalid_text(operator_text(req), "not a valid selector operator"));
  else if (req.values.size() != 1)
    r.add(child(path, "values"), required("must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
}

// corevalidation.ValidateNodeSelectorTerm.
inline void check_node_selector_term(reporter& r, const field_path& path, const model::node_selector_term& term) {
  for (std::size_t i = 0; i < term.match_expressions.size(); ++i)
    check_label_requirement(r, index(child(path, "matchExpressions"), i), term.match_expressions[i]);
  for (std::size_t i = 0; i < term.match_fields.size(); ++i)
    check_field_requirement(r, index(child(path, "matchFields"), i), term.match_fields[i]);
}

// metav1.LabelSelector (ValidateLabelSelector): matchLabels as labels; matchExpressions as node selector
// requirements, but Gt and Lt are no label selector operators.
inline void check_label_selector(reporter& r, const field_path& path, const model::label_selector& selector) {
  check_labels(r, child(path, "matchLabels"), selector.match_labels);
  for (std::size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const field_path at = index(child(path, "matchExpressions"), i);
    const model::node_selector_requirement& req = selector.match_expressions[i];
    if (req.op == model::node_selector_operator::gt || req.op == model::node_selector_operator::lt) {
      r.add(child(at, "operator"), invalid_text(operator_text(req), "not a valid selector operator"));
      check_label_key(r, child(at, "key"), req.key);
    } else {
      check_label_requirement(r, at, req);
    }
  }
}

// corevalidation.ValidateNodeSelector; `single_term` adds the DRA rule that a
// slice or device selector has exactly one term.
inline void check_node_selector(reporter& r, const field_path& path, const model::node_selector& selector,
                                bool single_term) {
  const field_path terms = child(path, "nodeSelectorTerms");
  if (selector.terms.empty()) r.add(terms, required("must have at least one node selector term"));
  if (single_term && selector.terms.size() > 1)
    r.add(terms, invalid(std::to_string(selector.terms.size()) + " terms", "must have exactly one node selector term"));
  for (std::size_t t = 0; t < selector.terms.size(); ++t) check_node_selector_term(r, index(terms, t), selector.terms[t]);
}

// DeviceToleration (claims and allocation results). An unknown operator is
// reported with the toleration's other problems (an empty one was defaulted
// to Equal on input, as the API server does).
inline void check_toleration(reporter& r, const field_path& path, const model::device_toleration& t) {
  if (!t.key.empty()) check_label_key(r, child(path, "key"), t.key);
  switch (t.op) {
    case model::toleration_operator::exists:
      if (!t.value.empty()) r.add(child(path, "value"), invalid_text(t.value, "must be empty for operator `Exists`"));
      break;
    case model::toleration_operator::equal:
      r.add_name_problems(child(path, "value"), t.value, names::label_value(t.value));
      break;
    case model::toleration_operator::unsupported:
      if (t.operator_name.empty())
        r.add(child(path, "operator"), required());
      else
        r.add(child(path, "operator"), not_supported(t.operator_name, {"Equal", "Exists"}));
      break;
  }
  if (!t.effect.empty() && !model::is_taint_effect(t.effect))
    r.add(child(path, "effect"), not_supported(t.effect, model::taint_effects));
}

// DeviceSelector: CEL expressions are only checked for presence and length
// here; compiling them is the CEL room's business.
inline void check_selectors(reporter& r, const field_path& path, std::span<const model::device_selector> selectors) {
  if (selectors.size() > limits::selectors) {
    r.add(path, too_many(selectors.size(), limits::selectors));
    return;
  }
  for (std::size_t i = 0; i < selectors.size(); ++i) {
    if (!selectors[i].has_cel) {
      r.add(child(index(path, i), "cel"), required());
      continue;
    }
    const field_path expression = child(index(path, i), "cel.expression");
    const std::string_view text = selectors[i].cel_expression;
    if (text.empty())
      r.add(expression, required());
    else if (text.size() > limits::cel_expression_length)
      r.add(expression, too_long(limits::cel_expression_length));
  }
}

// Whether raw JSON text is an object (the parameters were parsed as JSON by ingest already).
[[nodiscard]] inline bool is_json_object(std::string_view json) {
  const auto start = json.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos && json[start] == '{';
}

// OpaqueDeviceConfiguration; `path` ends in "opaque", which a configuration requires.
inline void check_opaque(reporter& r, const field_path& path, const model::opaque_device_configuration& opaque) {
  if (!opaque.present) {
    r.add(path, required());
    return;
  }
  check_driver_name(r, child(path, "driver"), opaque.driver);
  const field_path parameters = child(path, "parameters");
  const std::string_view json = opaque.parameters_json;
  const auto start = json.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || json.substr(start) == "null")
    r.add(parameters, required());
  else if (json.size() > limits::opaque_parameters_length)
    r.add(parameters, too_long(limits::opaque_parameters_length));
  else if (!is_json_object(json))
    r.add(parameters, invalid("<value omitted>", "must be a valid JSON object"));
}

// Binding conditions (KEP-5007) of a device or of an allocated device: at
// most 4 of each kind, label-key format, no repeats, no overlap, each kind
// only with the other.
inline void check_binding_conditions(reporter& r, const field_path& path, const std::vector<model::text>& conditions,
                                     const std::vector<model::text>& failure_conditions) {
  const field_path conditions_path = child(path, "bindingConditions");
  const field_path failures_path = child(path, "bindingFailureConditions");
  if (conditions.size() > limits::binding_conditions_per_device)
    r.add(conditions_path, too_many(conditions.size(), limits::binding_conditions_per_device));
  else
    for (std::size_t i = 0; i < conditions.size(); ++i) check_label_key(r, index(conditions_path, i), conditions[i]);
  if (failure_conditions.size() > limits::binding_failure_conditions_per_device)
    r.add(failures_path, too_many(failure_conditions.size(), limits::binding_failure_conditions_per_device));
  else
    for (std::size_t i = 0; i < failure_conditions.size(); ++i)
      check_label_key(r, index(failures_path, i), failure_conditions[i]);
  for (std::size_t i = 0; i < conditions.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (conditions[j] == conditions[i]) {
        r.add(index(conditions_path, i), duplicate(conditions[i]));
        break;
      }
  for (std::size_t i = 0; i < failure_conditions.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (failure_conditions[j] == failure_conditions[i]) {
        r.add(index(failures_path, i), duplicate(failure_conditions[i]));
        break;
      }
    for (model::text c : conditions)
      if (c == failure_conditions[i]) {
        r.add(index(failures_path, i),
              invalid_text(c, "bindingFailureConditions must not overlap with bindingConditions"));
        break;
      }
  }
  if (conditions.empty() && !failure_conditions.empty())
    r.add(conditions_path, invalid("[]", "bindingConditions are required to use bindingFailureConditions"));
  if (failure_conditions.empty() && !conditions.empty())
    r.add(failures_path, invalid("[]", "bindingFailureConditions are required to use bindingConditions"));
}

}  // namespace dra::validate::detail
