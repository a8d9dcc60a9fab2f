// Emit of allocation results and the dra command's output document in the JSON form Kubernetes marshals.
#pragma once

#include <dra/json/writer.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/resource_claim.hpp>

#include <span>
#include <string>

namespace dra::json {

// Field order, names and omitted empty fields follow the Go structs of
// k8s.io/api/resource/v1 and core/v1 as encoding/json writes them.

inline void write(writer& w, const model::node_selector& selector) {
  static constexpr std::string_view operator_names[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  auto requirements = [&](std::string_view name, const std::vector<model::node_selector_requirement>& list) {
    if (list.empty()) return;
    w.key(name).begin_array();
    for (const auto& r : list) {
      w.begin_object().field("key", r.key).field("operator", operator_names[static_cast<int>(r.op)]);
      if (!r.values.empty()) {
        w.key("values").begin_array();
        for (auto v : r.values) w.string(v);
        w.end_array();
      }
      w.end_object();
    }
    w.end_array();
  };
  w.begin_object().key("nodeSelectorTerms");
  if (selector.terms.empty()) {
    w.null();  // a nil slice without omitempty
  } else {
    w.begin_array();
    for (const auto& term : selector.terms) {
      w.begin_object();
      requirements("matchExpressions", term.match_expressions);
      requirements("matchFields", term.match_fields);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
}

inline void write(writer& w, const model::device_toleration& t) {
  w.begin_object();
  if (!t.key.empty()) w.field("key", t.key);
  w.field("operator", t.op == model::toleration_operator::exists ? "Exists" : "Equal");
  if (!t.value.empty()) w.field("value", t.value);
  if (!t.effect.empty()) w.field("effect", t.effect);
  if (t.toleration_seconds) w.field("tolerationSeconds", *t.toleration_seconds);
  w.end_object();
}

inline void write(writer& w, const model::opaque_device_configuration& opaque) {
  w.begin_object().field("driver", opaque.driver).key("parameters");
  if (opaque.parameters_json.empty())
    w.null();
  else
    w.raw(opaque.parameters_json);
  w.end_object();
}

namespace detail {
inline void write_strings(writer& w, std::string_view name, const auto& list) {
  if (list.empty()) return;
  w.key(name).begin_array();
  for (const auto& s : list) w.string(s);
  w.end_array();
}
}  // namespace detail

inline void write(writer& w, const model::device_request_allocation_result& r) {
  w.begin_object()
      .field("request", r.request)
      .field("driver", r.driver)
      .field("pool", r.pool)
      .field("device", r.device);
  if (r.admin_access) w.field("adminAccess", *r.admin_access);
  if (!r.tolerations.empty()) {
    w.key("tolerations").begin_array();
    for (const auto& t : r.tolerations) write(w, t);
    w.end_array();
  }
  detail::write_strings(w, "bindingConditions", r.binding_conditions);
  detail::write_strings(w, "bindingFailureConditions", r.binding_failure_conditions);
  if (r.share_id) w.field("shareID", *r.share_id);
  if (!r.consumed_capacity.empty()) {
    w.key("consumedCapacity").begin_object();
    for (const auto& [name, q] : r.consumed_capacity) w.field(name, q.to_string());
    w.end_object();
  }
  w.end_object();
}

inline void write(writer& w, const model::allocation_result& a) {
  w.begin_object().key("devices").begin_object();
  if (!a.results.empty()) {
    w.key("results").begin_array();
    for (const auto& r : a.results) write(w, r);
    w.end_array();
  }
  if (!a.config.empty()) {
    w.key("config").begin_array();
    for (const auto& c : a.config) {
      w.begin_object().field("source",
                             c.source == model::allocation_config_source::from_class ? "FromClass" : "FromClaim");
      detail::write_strings(w, "requests", c.requests);
      w.key("opaque");
      write(w, c.opaque);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  if (a.node_selector) {
    w.key("nodeSelector");
    write(w, *a.node_selector);
  }
  if (a.allocation_timestamp) w.field("allocationTimestamp", *a.allocation_timestamp);
  w.end_object();
}

template <class T>
[[nodiscard]] std::string to_json(const T& value, int indent = 0) {
  writer w(indent);
  write(w, value);
  return std::move(w).str();
}

// The dra command's output document: {"results": [...]}.
[[nodiscard]] inline std::string output_document(std::span<const model::claim_outcome> outcomes, int indent = 2) {
  writer w(indent);
  w.begin_object().key("results").begin_array();
  for (const auto& o : outcomes) {
    w.begin_object().field("claim", o.claim).key("node");
    if (o.node)
      w.string(*o.node);
    else
      w.null();
    if (o.allocation) {
      w.key("allocation");
      write(w, *o.allocation);
    }
    if (o.unschedulable) w.field("unschedulable", *o.unschedulable);
    if (o.error) w.field("error", *o.error);
    w.end_object();
  }
  w.end_array().end_object();
  std::string out = std::move(w).str();
  if (indent > 0) out += '\n';
  return out;
}

}  // namespace dra::json
