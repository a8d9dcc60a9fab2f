// Emit of allocation results and the dra command's output document in the JSON form Kubernetes marshals.
#pragma once

#include <dra/json/writer.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace dra::json {

// Field order, names and omitted empty fields follow the Go structs of
// k8s.io/api/resource/v1 and core/v1 as encoding/json writes them.

inline void write(writer& w, const model::node_selector& selector) {
  static constexpr std::string_view operator_names[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  auto requirements = [&](std::string_view name, const std::vector<model::node_selector_requirement>& list) {
    if (list.empty()) return;
    w.key(name).begin_array();
    for (const auto& r : list) {
      w.begin_object().field("key", r.key).field(
          "operator", r.op == model::node_selector_operator::unsupported ? r.operator_name : operator_names[static_cast<int>(r.op)]);
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
  w.field("operator", t.op == model::toleration_operator::exists      ? std::string_view("Exists")
                      : t.op == model::toleration_operator::unsupported ? t.operator_name
                                                                        : std::string_view("Equal"));
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
  detail::write_strings(w, "skipNodeOperations", r.skip_node_operations);
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
      w.begin_object().field("source", c.source == model::allocation_config_source::from_class   ? std::string_view("FromClass")
                                       : c.source == model::allocation_config_source::unsupported ? c.source_name
                                                                                                  : std::string_view("FromClaim"));
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

// ---- Whole objects (ResourceSlice), as the API server would write them.

inline void write(writer& w, const model::object_meta& meta) {
  w.begin_object().field("name", meta.name);
  if (!meta.namespace_.empty()) w.field("namespace", meta.namespace_);
  if (!meta.uid.empty()) w.field("uid", meta.uid);
  if (!meta.labels.empty()) {
    w.key("labels").begin_object();
    for (const auto& [key, value] : meta.labels) w.field(key, value);
    w.end_object();
  }
  w.end_object();
}

inline void write(writer& w, const model::device_attribute& attribute) {
  w.begin_object();
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::int64_t>) {
          w.field("int", v);
        } else if constexpr (std::is_same_v<V, bool>) {
          w.field("bool", v);
        } else if constexpr (std::is_same_v<V, model::text>) {
          w.field("string", v);
        } else if constexpr (std::is_same_v<V, model::version_value>) {
          w.field("version", v.source);
        } else if constexpr (std::is_same_v<V, std::vector<std::int64_t>>) {
          w.key("ints").begin_array();
          for (std::int64_t i : v) w.integer(i);
          w.end_array();
        } else if constexpr (std::is_same_v<V, std::vector<bool>>) {
          w.key("bools").begin_array();
          for (bool b : v) w.boolean(b);
          w.end_array();
        } else if constexpr (std::is_same_v<V, std::vector<model::text>>) {
          detail::write_strings(w, "strings", v);
        } else {
          w.key("versions").begin_array();
          for (const model::version_value& version : v) w.string(version.source);
          w.end_array();
        }
      },
      attribute.value);
  w.end_object();
}

inline void write(writer& w, const model::device_capacity& capacity) {
  w.begin_object().field("value", capacity.value.to_string());
  if (const auto& policy = capacity.request_policy) {
    w.key("requestPolicy").begin_object();
    if (policy->default_value) w.field("default", policy->default_value->to_string());
    if (!policy->valid_values.empty()) {
      w.key("validValues").begin_array();
      for (const quantity& v : policy->valid_values) w.string(v.to_string());
      w.end_array();
    }
    if (const auto& range = policy->valid_range) {
      w.key("validRange").begin_object().field("min", range->min.to_string());
      if (range->max) w.field("max", range->max->to_string());
      if (range->step) w.field("step", range->step->to_string());
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
}

namespace detail {
inline void write_counters(writer& w, const model::counter_map& counters) {
  w.key("counters").begin_object();
  for (const auto& [name, value] : counters) w.key(name).begin_object().field("value", value.to_string()).end_object();
  w.end_object();
}
}  // namespace detail

inline void write(writer& w, const model::device& d) {
  w.begin_object().field("name", d.name);
  if (!d.attributes.empty()) {
    w.key("attributes").begin_object();
    for (const auto& [name, attribute] : d.attributes) {
      w.key(name);
      write(w, attribute);
    }
    w.end_object();
  }
  if (!d.capacity.empty()) {
    w.key("capacity").begin_object();
    for (const auto& [name, capacity] : d.capacity) {
      w.key(name);
      write(w, capacity);
    }
    w.end_object();
  }
  if (!d.consumes_counters.empty()) {
    w.key("consumesCounters").begin_array();
    for (const auto& c : d.consumes_counters) {
      w.begin_object().field("counterSet", c.counter_set);
      detail::write_counters(w, c.counters);
      detail::write_strings(w, "includes", c.includes);
      detail::write_strings(w, "compatibilityGroups", c.compatibility_groups);
      w.end_object();
    }
    w.end_array();
  }
  if (d.node_name) w.field("nodeName", *d.node_name);
  if (d.node_selector) {
    w.key("nodeSelector");
    write(w, *d.node_selector);
  }
  if (d.all_nodes) w.field("allNodes", *d.all_nodes);
  if (!d.taints.empty()) {
    w.key("taints").begin_array();
    for (const auto& t : d.taints) {
      w.begin_object().field("key", t.key);
      if (!t.value.empty()) w.field("value", t.value);
      w.field("effect", t.effect);
      if (t.time_added) w.field("timeAdded", *t.time_added);
      w.end_object();
    }
    w.end_array();
  }
  if (d.binds_to_node) w.field("bindsToNode", *d.binds_to_node);
  detail::write_strings(w, "bindingConditions", d.binding_conditions);
  detail::write_strings(w, "bindingFailureConditions", d.binding_failure_conditions);
  if (d.allow_multiple_allocations) w.field("allowMultipleAllocations", *d.allow_multiple_allocations);
  detail::write_strings(w, "includes", d.includes);
  if (d.node_allocatable_resources) {
    auto quantity_field = [&w](std::string_view name, const std::optional<quantity>& q) {
      if (q) w.field(name, q->to_string());
    };
    w.key("nodeAllocatableResources").begin_object();
    for (const auto& [name, resource] : *d.node_allocatable_resources) {
      w.key(name).begin_object();
      if (resource.mapping) {
        w.key("mapping").begin_object();
        if (resource.mapping->capacity_key) w.field("capacityKey", *resource.mapping->capacity_key);
        quantity_field("capacityMultiplier", resource.mapping->capacity_multiplier);
        quantity_field("deviceMultiplier", resource.mapping->device_multiplier);
        w.end_object();
      }
      if (resource.overhead) {
        w.key("overhead").begin_object();
        quantity_field("perPod", resource.overhead->per_pod);
        quantity_field("perContainer", resource.overhead->per_container);
        w.end_object();
      }
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
}

inline void write(writer& w, const model::resource_slice& slice) {
  w.begin_object().field("apiVersion", "resource.k8s.io/v1").field("kind", "ResourceSlice").key("metadata");
  write(w, slice.meta);
  w.key("spec").begin_object().field("driver", slice.driver);
  w.key("pool").begin_object().field("name", slice.pool.name).field("generation", slice.pool.generation);
  w.field("resourceSliceCount", slice.pool.resource_slice_count).end_object();
  if (slice.node_name) w.field("nodeName", *slice.node_name);
  if (slice.node_selector) {
    w.key("nodeSelector");
    write(w, *slice.node_selector);
  }
  if (slice.all_nodes) w.field("allNodes", *slice.all_nodes);
  if (!slice.devices.empty()) {
    w.key("devices").begin_array();
    for (const auto& d : slice.devices) write(w, d);
    w.end_array();
  }
  if (slice.per_device_node_selection) w.field("perDeviceNodeSelection", *slice.per_device_node_selection);
  detail::write_strings(w, "skipNodeOperations", slice.skip_node_operations);
  if (!slice.shared_counters.empty()) {
    w.key("sharedCounters").begin_array();
    for (const auto& s : slice.shared_counters) {
      w.begin_object().field("name", s.name);
      detail::write_counters(w, s.counters);
      detail::write_strings(w, "includes", s.includes);
      w.end_object();
    }
    w.end_array();
  }
  if (const auto& m = slice.mixins) {
    w.key("mixins").begin_object();
    if (!m->device.empty()) {
      w.key("device").begin_array();
      for (const auto& mixin : m->device) {
        model::device as_device;
        as_device.name = mixin.name;
        as_device.attributes = mixin.attributes;
        as_device.capacity = mixin.capacity;
        write(w, as_device);
      }
      w.end_array();
    }
    auto counter_mixins = [&](std::string_view name, const auto& list) {
      if (list.empty()) return;
      w.key(name).begin_array();
      for (const auto& mixin : list) {
        w.begin_object().field("name", mixin.name);
        detail::write_counters(w, mixin.counters);
        w.end_object();
      }
      w.end_array();
    };
    counter_mixins("deviceCounterConsumption", m->device_counter_consumption);
    counter_mixins("counterSet", m->counter_set);
    w.end_object();
  }
  w.end_object().end_object();
}

template <class T>
[[nodiscard]] std::string to_json(const T& value, int indent = 0) {
  writer w(indent);
  write(w, value);
  return std::move(w).str();
}

// The `results` array of the dra command's output document: one entry per claim outcome.
inline void write_results(writer& w, std::span<const model::claim_outcome> outcomes) {
  w.key("results").begin_array();
  for (const auto& o : outcomes) {
    w.begin_object().field("claim", o.claim).key("node");
    const auto* allocated = o.allocated();
    const auto* unschedulable = o.unschedulable();
    if (allocated != nullptr) {
      w.string(allocated->node).key("allocation");
      write(w, allocated->allocation);
    } else {
      w.null();
    }
    if (unschedulable != nullptr) w.field("unschedulable", unschedulable->reason);
    if (unschedulable != nullptr && unschedulable->why) {
      const model::explanation& why = *unschedulable->why;
      w.key("explanation").begin_object().field("nodes", static_cast<std::int64_t>(why.nodes));
      w.key("reasons").begin_array();
      for (const auto& r : why.reasons)
        w.begin_object()
            .field("code", model::name_of(r.code))
            .field("nodes", static_cast<std::int64_t>(r.nodes))
            .field("claim", r.claim)
            .field("request", r.request)
            .field("message", r.message)
            .end_object();
      w.end_array().end_object();
    }
    if (const auto* failure = o.error()) w.field("error", failure->to_string());
    w.end_object();
  }
  w.end_array();
}

// The dra command's output document: {"results": [...]}.
[[nodiscard]] inline std::string output_document(std::span<const model::claim_outcome> outcomes, int indent = 2) {
  writer w(indent);
  w.begin_object();
  write_results(w, outcomes);
  w.end_object();
  std::string out = std::move(w).str();
  if (indent > 0) out += '\n';
  return out;
}

}  // namespace dra::json
