// Reading one object under JSON ingest: its kind, apiVersion and metadata first, then the fields of its kind (ResourceSlice, DeviceClass, ResourceClaim, templates, taint rules, Node, Pod, PodGroup, Workload, PriorityClass, PodDisruptionBudget, any other).
#pragma once

#include <dra/json/detail/budget_fields.hpp>
#include <dra/json/detail/claim_fields.hpp>
#include <dra/json/detail/fields.hpp>
#include <dra/json/detail/reader.hpp>
#include <dra/json/detail/slice_fields.hpp>
#include <dra/json/detail/workload_fields.hpp>
#include <dra/model/scenario.hpp>

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::json {

namespace detail {

// The kind, apiVersion and metadata of one object, looked up before the rest
// so that errors in its spec can name it.
struct object_header {
  std::string_view kind;
  std::string_view api_version;
  model::object_meta meta;
};

enum class object_kind : std::uint8_t { slice, device_class, claim, claim_template, taint_rule, node, pod, pod_group, workload,
                                        priority_class, disruption_budget, other };

[[nodiscard]] constexpr object_kind kind_of(std::string_view kind) noexcept {
  if (is(kind, "ResourceSlice")) return object_kind::slice;
  if (is(kind, "DeviceClass")) return object_kind::device_class;
  if (is(kind, "ResourceClaim")) return object_kind::claim;
  if (is(kind, "ResourceClaimTemplate")) return object_kind::claim_template;
  if (is(kind, "DeviceTaintRule")) return object_kind::taint_rule;
  if (is(kind, "Node")) return object_kind::node;
  if (is(kind, "Pod")) return object_kind::pod;
  if (is(kind, "PodGroup")) return object_kind::pod_group;
  if (is(kind, "Workload")) return object_kind::workload;
  if (is(kind, "PriorityClass")) return object_kind::priority_class;
  if (is(kind, "PodDisruptionBudget")) return object_kind::disruption_budget;
  return object_kind::other;
}

// The apiVersions a kind of resource.k8s.io is read in; empty when none is checked.
[[nodiscard]] inline dra::status check_api_version(reader& r, object_kind kind, const object_header& header,
                                                   api_version version) {
  if (kind == object_kind::node || kind == object_kind::pod || kind == object_kind::other) return {};
  if (kind == object_kind::priority_class) {
    if (is(header.api_version, "scheduling.k8s.io/v1")) return {};
    return r.fail(concat("apiVersion ", quoted(header.api_version), " is not supported: use scheduling.k8s.io/v1"));
  }
  if (kind == object_kind::disruption_budget) {
    if (is(header.api_version, "policy/v1")) return {};
    return r.fail(concat("apiVersion ", quoted(header.api_version), " is not supported: use policy/v1"));
  }
  if (kind == object_kind::pod_group || kind == object_kind::workload) {
    if (is(header.api_version, "scheduling.k8s.io/v1beta1") || is(header.api_version, "scheduling.k8s.io/v1alpha3"))
      return {};
    return r.fail(concat("apiVersion ", quoted(header.api_version),
                         " is not supported: use scheduling.k8s.io/v1beta1 or v1alpha3"));
  }
  if (kind == object_kind::taint_rule) {
    if (version == api_version::v1 || version == api_version::v1beta2 || version == api_version::v1alpha3) return {};
    return r.fail(concat("apiVersion ", quoted(header.api_version),
                         " is not supported: use resource.k8s.io/v1, v1beta2 or v1alpha3"));
  }
  if (version == api_version::v1 || version == api_version::v1beta2 || version == api_version::v1beta1) return {};
  return r.fail(
      concat("apiVersion ", quoted(header.api_version), " is not supported: use resource.k8s.io/v1, v1beta2 or v1beta1"));
}

// Reads the kind, apiVersion and metadata of an object into `header` (errors after it name the object).
inline dra::status read_header(reader& r, od::object& object, object_header& header) {
  {
    od::value kind;
    auto code = object.find_field_unordered("kind").get(kind);
    if (code == simdjson::NO_SUCH_FIELD) return r.fail("missing required field \"kind\"");
    if (code) return r.fail(code);
    auto at = r.field("kind");
    auto text = r.string(kind);
    if (!text) return std::move(text).error();
    header.kind = *text;
  }
  const object_kind kind = kind_of(header.kind);
  // Kinds dra reads only part of skip the fields it does not read.
  r.strict = kind != object_kind::node && kind != object_kind::pod && kind != object_kind::pod_group &&
             kind != object_kind::workload && kind != object_kind::priority_class && kind != object_kind::disruption_budget &&
             kind != object_kind::other;
  for (std::string_view name : {std::string_view("apiVersion"), std::string_view("metadata")}) {
    if (auto code = object.reset().error()) return r.fail(code);
    od::value value;
    auto code = object.find_field_unordered(name).get(value);
    if (code == simdjson::NO_SUCH_FIELD) continue;
    if (code) return r.fail(code);
    auto at = r.field(name);
    if (is(name, "apiVersion")) {
      auto text = r.string(value);
      if (!text) return std::move(text).error();
      header.api_version = *text;
    } else if (auto st = field_reader(r).metadata(value, header.meta); !st) {
      return st;
    }
  }
  if (auto code = object.reset().error()) return r.fail(code);
  return {};
}

// What reading an object's body takes, whatever its kind: the object, where it is, and how its raw text is kept.
struct body_reading {
  reader& r;
  od::object& object;
  model::source_position& position;
  function_ref<dra::status()> finish_raw;

  // Reads every field after the header with `on_field(name, value)`, then keeps the object's raw text.
  // Every object is read to its end, whatever its kind: an object abandoned halfway would leave
  // simdjson to skip the rest from inside it, and malformed text there would be found or not
  // depending on where reading stopped (and on whether items are read on one thread or several).
  template <class OnField>
  dra::status read_fields(OnField&& on_field) {
    dra::status status = r.each_field_of(object, [&](std::string_view name, od::value& value) -> dra::status {
      if (is(name, "kind") || is(name, "apiVersion") || is(name, "metadata")) return {};
      auto at = r.field(name);
      return on_field(name, value);
    });
    if (status) status = finish_raw();
    return status;
  }
  template <class Objects, class Object>
  void add(Objects& objects_of_kind, Object&& object_value) {
    objects_of_kind.push_back({std::move(object_value), std::move(position)});
  }
  // An object of a kind dra models: its metadata, then its fields (`on_field(name, value, object)`), added once read.
  template <class Object, class Objects, class OnField>
  dra::status read_model(object_header& header, Objects& objects_of_kind, OnField&& on_field) {
    Object read;
    read.meta = std::move(header.meta);
    dra::status status = read_fields(
        [&](std::string_view name, od::value& value) -> dra::status { return on_field(name, value, read); });
    if (status) add(objects_of_kind, std::move(read));
    return status;
  }
};

// Reads the fields of an object after its header, by kind, into `out`.
inline dra::status read_body(reader& r, od::object& object, object_kind kind, object_header& header,
                             api_version version, model::scenario& out, model::source_position& position,
                             function_ref<dra::status()> finish_raw) {
  body_reading body{r, object, position, finish_raw};
  switch (kind) {
    case object_kind::slice:
      return body.read_model<model::resource_slice>(
          header, out.slices, [&](std::string_view name, od::value& value, auto& slice) -> dra::status {
            return is(name, "spec") ? slice_reader(r).slice_spec(value, slice, version) : r.unknown();
          });
    case object_kind::device_class:
      return body.read_model<model::device_class>(
          header, out.classes, [&](std::string_view name, od::value& value, auto& device_class) -> dra::status {
            return is(name, "spec") ? claim_reader(r).class_spec(value, device_class) : r.unknown();
          });
    case object_kind::claim:
      return body.read_model<model::resource_claim>(
          header, out.claims, [&](std::string_view name, od::value& value, auto& claim) -> dra::status {
            if (is(name, "spec")) return claim_reader(r).claim_spec(value, claim.spec, version);
            if (is(name, "status")) return claim_reader(r).claim_status(value, claim);
            return r.unknown();
          });
    case object_kind::claim_template:
      return body.read_model<model::resource_claim_template>(
          header, out.claim_templates, [&](std::string_view name, od::value& value, auto& claim_template) -> dra::status {
            return is(name, "spec") ? claim_reader(r).template_spec(value, claim_template, version) : r.unknown();
          });
    case object_kind::taint_rule:
      return body.read_model<model::device_taint_rule>(
          header, out.taint_rules, [&](std::string_view name, od::value& value, auto& rule) -> dra::status {
            if (is(name, "spec")) return slice_reader(r).taint_rule_spec(value, rule);
            return is(name, "status") ? dra::status{} : r.unknown();  // status: conditions the controller sets
          });
    case object_kind::node:
      return body.read_model<model::node>(
          header, out.nodes, [&](std::string_view name, od::value& value, auto& node) -> dra::status {
            if (is(name, "spec")) return workload_reader(r).node_spec(value, node);
            if (is(name, "status")) return workload_reader(r).node_status(value, node);
            return {};
          });
    case object_kind::pod:
      return body.read_model<model::pod>(header, out.pods,
                                         [&](std::string_view name, od::value& value, auto& pod) -> dra::status {
                                           if (is(name, "spec")) return workload_reader(r).pod_spec(value, pod);
                                           if (is(name, "status")) return workload_reader(r).pod_status(value, pod);
                                           return {};
                                         });
    case object_kind::pod_group:
      return body.read_model<model::pod_group>(
          header, out.pod_groups, [&](std::string_view name, od::value& value, auto& group) -> dra::status {
            if (is(name, "spec")) return workload_reader(r).pod_group_spec(value, group.spec);
            if (is(name, "status")) return workload_reader(r).pod_group_status(value, group);
            return {};
          });
    case object_kind::workload:
      return body.read_model<model::workload>(
          header, out.workloads, [&](std::string_view name, od::value& value, auto& workload) -> dra::status {
            return is(name, "spec") ? workload_reader(r).workload_spec(value, workload) : dra::status{};
          });
    case object_kind::priority_class:
      return body.read_model<model::priority_class>(
          header, out.priority_classes, [&](std::string_view name, od::value& value, auto& pc) -> dra::status {
            return workload_reader(r).priority_class_field(name, value, pc);
          });
    case object_kind::disruption_budget:
      return body.read_model<model::pod_disruption_budget>(
          header, out.disruption_budgets, [&](std::string_view name, od::value& value, auto& budget) -> dra::status {
            if (is(name, "spec")) return budget_reader(r).budget_spec(value, budget);
            if (is(name, "status")) return budget_reader(r).budget_status(value, budget);
            return {};
          });
    case object_kind::other: {
      dra::status status = body.read_fields([](std::string_view, od::value&) -> dra::status { return {}; });
      if (status) {
        out.warnings.push_back(concat(position.path.empty() ? "input" : position.path, ": kind ", quoted(header.kind),
                                      " is not used by device allocation; ignored"));
        body.add(out.others, model::other_object{header.api_version, header.kind, std::move(header.meta)});
      }
      return status;
    }
  }
  return {};
}

// `raw_end` gives where the object's text ends once it has been read (the object's JSON text is
// kept for `dra flatten` without a second pass over it); `position.json` starts as a view from
// the object's first byte to the end of its enclosing text.
inline dra::status read_object(reader& r, od::object& object, model::scenario& out, model::source_position position,
                               function_ref<const char*()> raw_end) {
  auto finish_raw = [&]() -> dra::status {
    const char* end = raw_end();
    if (end == nullptr) return r.fail("invalid JSON: cannot find the end of the object");
    position.json =
        without_trailing_whitespace({position.json.data(), static_cast<std::size_t>(end - position.json.data())});
    return {};
  };
  object_header header;
  r.object_depth = r.depth();
  r.v1beta1_shape = false;
  const std::size_t first_unknown = r.unknown_fields.size();
  const std::size_t index = position.index;
  if (auto status = read_header(r, object, header); !status) return status;
  const object_kind kind = kind_of(header.kind);
  if (kind != object_kind::other) r.object_name = model::object_label(header.kind, header.meta);
  const api_version version = resource_api_version(header.api_version);
  if (auto status = check_api_version(r, kind, header, version); !status) return status;
  // A nameless object is named by where it stands (the path is copied only for such objects).
  const std::string_view kind_text = header.kind;
  const std::string_view api_version_text = header.api_version;
  const bool nameless = header.meta.name.empty();
  const std::string nameless_path = nameless ? position.path : std::string();
  auto status = read_body(r, object, kind, header, version, out, position, finish_raw);
  if (!status || (first_unknown == r.unknown_fields.size() && !r.v1beta1_shape)) return status;
  const std::string label =
      nameless ? model::located_label(kind_text, {}, {}, std::string_view(nameless_path)) : r.object_name;
  for (std::size_t k = first_unknown; k < r.unknown_fields.size(); ++k) {
    r.unknown_fields[k].object_index = index;
    r.unknown_fields[k].object = label;
  }
  if (r.v1beta1_shape)
    out.warnings.push_back(concat(label, ": ", api_version_text,
                                  " object written in the v1beta1 shape (`basic` under a device, a request without "
                                  "`exactly`): those fields are ignored; `dra validate` names them"));
  return status;
}

}  // namespace detail

}  // namespace dra::json
