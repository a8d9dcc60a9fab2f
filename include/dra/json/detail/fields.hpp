// The readers of the fields that several kinds of object share under JSON ingest: metadata, node selectors, taints and tolerations, CEL selectors, opaque configuration.
#pragma once

#include <dra/json/detail/reader.hpp>
#include <dra/model/common.hpp>
#include <dra/model/device_class.hpp>
#include <dra/model/resource_slice.hpp>

#include <simdjson.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::json::detail {

enum class api_version : std::uint8_t { v1, v1beta2, v1beta1, v1alpha3, other };

[[nodiscard]] constexpr api_version resource_api_version(std::string_view text) noexcept {
  if (is(text, "resource.k8s.io/v1")) return api_version::v1;
  if (is(text, "resource.k8s.io/v1beta2")) return api_version::v1beta2;
  if (is(text, "resource.k8s.io/v1beta1")) return api_version::v1beta1;
  if (is(text, "resource.k8s.io/v1alpha3")) return api_version::v1alpha3;
  return api_version::other;
}

// Reads the fields every kind of object may have; the readers of each kind
// (slice_fields.hpp, claim_fields.hpp) build on it. Unknown fields are
// skipped, as Kubernetes clients skip them.
class field_reader {
 public:
  explicit field_reader(reader& r) : r_(r) {}

  // ObjectMeta's fields that ingest does not keep.
  [[nodiscard]] static bool known_metadata_field(std::string_view name) noexcept {
    for (std::string_view known : {"generateName", "selfLink", "resourceVersion", "generation",
                                   "deletionGracePeriodSeconds", "finalizers", "managedFields"})
      if (name == known) return true;
    return false;
  }

  dra::status metadata(od::value& v, model::object_meta& meta) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "name")) return assign(meta.name, r_.string(value));
      if (is(name, "namespace")) return assign(meta.namespace_, r_.string(value));
      if (is(name, "uid")) return assign(meta.uid, r_.string(value));
      if (is(name, "creationTimestamp")) {
        if (reader::is_null(value)) return {};  // Kubernetes writes null for an object not yet created
        return assign(meta.creation_timestamp, r_.string(value));
      }
      if (is(name, "deletionTimestamp")) {
        meta.deleting = !reader::is_null(value);
        return {};
      }
      if (is(name, "ownerReferences"))
        return r_.each_element(value, [&](od::value& owner) { return owner_reference(owner, meta); });
      if (is(name, "labels")) return r_.map(value, meta.labels, [&](od::value& l, model::text& label) { return assign(label, r_.string(l)); });
      if (is(name, "annotations"))
        return r_.map(value, meta.annotations, [&](od::value& a, model::text& annotation) { return assign(annotation, r_.string(a)); });
      return known_metadata_field(name) ? dra::status{} : r_.unknown();
    });
  }

  // An ownerReference: only the controller's uid is kept (what "is this claim the pod's own" compares).
  dra::status owner_reference(od::value& v, model::object_meta& meta) {
    model::text uid;
    bool controller = false;
    auto status = r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "uid")) return assign(uid, r_.string(value));
      if (is(name, "controller")) return reader::is_null(value) ? dra::status{} : assign(controller, r_.boolean(value));
      if (is(name, "apiVersion") || is(name, "kind") || is(name, "name") || is(name, "blockOwnerDeletion")) return {};
      return r_.unknown();
    });
    if (status && controller) meta.controller_uid = uid;
    return status;
  }

  dra::status node_selector(od::value& v, model::node_selector& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (!is(name, "nodeSelectorTerms")) return r_.unknown();
      return r_.each_element(value, [&](od::value& term) { return node_selector_term(term, out.terms.emplace_back()); });
    });
  }

  dra::status node_selector_term(od::value& v, model::node_selector_term& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& requirements) -> dra::status {
      auto in = r_.field(name);
      if (is(name, "matchExpressions")) return requirement_list(requirements, out.match_expressions);
      if (is(name, "matchFields")) return requirement_list(requirements, out.match_fields);
      return r_.unknown();
    });
  }

  dra::status toleration(od::value& v, model::device_toleration& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "key")) return assign(out.key, r_.string(value));
      if (is(name, "value")) return assign(out.value, r_.string(value));
      if (is(name, "effect")) return assign(out.effect, r_.string(value));
      if (is(name, "operator")) {
        auto op = r_.string(value);
        if (!op) return std::move(op).error();
        out.op = model::parse_toleration_operator(*op);
        if (out.op == model::toleration_operator::unsupported) out.operator_name = *op;  // validation reports it
        return {};
      }
      if (is(name, "tolerationSeconds")) {
        if (reader::is_null(value)) return {};
        auto seconds = r_.integer(value);
        if (!seconds) return std::move(seconds).error();
        out.toleration_seconds = *seconds;
        return {};
      }
      return r_.unknown();
    });
  }

  dra::status tolerations(od::value& v, std::vector<model::device_toleration>& out) {
    return r_.each_element(v, [&](od::value& t) { return toleration(t, out.emplace_back()); });
  }

  // A DeviceTaint, or a Node's core/v1 Taint (the same fields).
  dra::status taint(od::value& v, model::device_taint& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "key")) return assign(out.key, r_.string(value));
      if (is(name, "value")) return assign(out.value, r_.string(value));
      if (is(name, "effect")) return assign(out.effect, r_.string(value));
      if (is(name, "timeAdded")) {
        if (reader::is_null(value)) return {};
        return assign(out.time_added, r_.string(value));
      }
      return r_.unknown();
    });
  }


  // A configuration's `opaque`; `present` stays false when it is null (validation reports it).
  dra::status opaque(od::value& v, model::opaque_device_configuration& out) {
    if (reader::is_null(v)) return {};
    out.present = true;
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "driver")) return assign(out.driver, r_.string(value));
      if (is(name, "parameters")) return assign(out.parameters_json, r_.raw_json(value));
      return r_.unknown();
    });
  }

  dra::status selectors(od::value& v, std::vector<model::device_selector>& out) {
    return r_.each_element(v, [&](od::value& selector) -> dra::status {
      model::device_selector& s = out.emplace_back();
      s.has_cel = false;  // until a `cel` is read; validation reports a selector without one
      return r_.each_field(selector, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (!is(name, "cel")) return r_.unknown();
        if (reader::is_null(value)) return {};
        s.has_cel = true;
        return r_.each_field(value, [&](std::string_view cel_field, od::value& expression) -> dra::status {
          auto in = r_.field(cel_field);
          if (is(cel_field, "expression")) return assign(s.cel_expression, r_.string(expression));
          return r_.unknown();
        });
      });
    });
  }

 protected:
  template <class T, class U>
  static dra::status assign(T& target, result<U>&& value) {
    if (!value) return std::move(value).error();
    target = std::move(*value);
    return {};
  }

  reader& r_;

  // matchExpressions of a node selector term or a label selector.
  dra::status requirement_list(od::value& v, std::vector<model::node_selector_requirement>& out) {
    return r_.each_element(v, [&](od::value& element) -> dra::status {
      model::node_selector_requirement& requirement = out.emplace_back();
      requirement.op = model::node_selector_operator::unsupported;  // until a known operator is read
      return r_.each_field(element, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (is(name, "key")) return assign(requirement.key, r_.string(value));
        if (is(name, "values")) return assign(requirement.values, r_.strings(value));
        if (is(name, "operator")) {
          auto op = r_.string(value);
          if (!op) return std::move(op).error();
          requirement.op = model::parse_node_selector_operator(*op);
          if (requirement.op == model::node_selector_operator::unsupported)
            requirement.operator_name = *op;  // validation reports it
          return {};
        }
        return {};
      });
    });
  }
};

}  // namespace dra::json::detail
