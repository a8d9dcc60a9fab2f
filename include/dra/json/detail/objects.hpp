// The readers of each kind of object (ResourceSlice, DeviceClass, ResourceClaim, templates, taint rules, Node, Pod, any other) under JSON ingest.
#pragma once

#include <dra/json/detail/reader.hpp>
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

enum class api_version : std::uint8_t { v1, v1beta2, v1beta1, v1alpha3, other };

[[nodiscard]] constexpr api_version resource_api_version(std::string_view text) noexcept {
  if (text == "resource.k8s.io/v1") return api_version::v1;
  if (text == "resource.k8s.io/v1beta2") return api_version::v1beta2;
  if (text == "resource.k8s.io/v1beta1") return api_version::v1beta1;
  if (text == "resource.k8s.io/v1alpha3") return api_version::v1alpha3;
  return api_version::other;
}

// Reads one object of each kind. Unknown fields are skipped, as Kubernetes
// clients skip them.
class object_reader {
 public:
  explicit object_reader(reader& r) : r_(r) {}

  // ObjectMeta's fields that ingest does not keep.
  [[nodiscard]] static bool known_metadata_field(std::string_view name) noexcept {
    for (std::string_view known : {"generateName", "selfLink", "resourceVersion", "generation", "creationTimestamp",
                                   "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences", "finalizers",
                                   "managedFields"})
      if (name == known) return true;
    return false;
  }

  dra::status metadata(od::value& v, model::object_meta& meta) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "name") return assign(meta.name, r_.string(value));
      if (name == "namespace") return assign(meta.namespace_, r_.string(value));
      if (name == "uid") return assign(meta.uid, r_.string(value));
      if (name == "labels") return r_.map(value, meta.labels, [&](od::value& l, model::text& label) { return assign(label, r_.string(l)); });
      if (name == "annotations")
        return r_.map(value, meta.annotations, [&](od::value& a, model::text& annotation) { return assign(annotation, r_.string(a)); });
      return known_metadata_field(name) ? dra::status{} : r_.unknown();
    });
  }

  dra::status node_selector(od::value& v, model::node_selector& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name != "nodeSelectorTerms") return r_.unknown();
      return r_.each_element(value, [&](od::value& term_value) -> dra::status {
        model::node_selector_term& term = out.terms.emplace_back();
        return r_.each_field(term_value, [&](std::string_view term_field, od::value& requirements) -> dra::status {
          auto in = r_.field(term_field);
          if (term_field == "matchExpressions") return requirement_list(requirements, term.match_expressions);
          if (term_field == "matchFields") return requirement_list(requirements, term.match_fields);
          return r_.unknown();
        });
      });
    });
  }

  dra::status toleration(od::value& v, model::device_toleration& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "key") return assign(out.key, r_.string(value));
      if (name == "value") return assign(out.value, r_.string(value));
      if (name == "effect") return assign(out.effect, r_.string(value));
      if (name == "operator") {
        auto op = r_.string(value);
        if (!op) return std::move(op).error();
        if (*op == "Exists")
          out.op = model::toleration_operator::exists;
        else if (*op == "Equal" || op->empty())
          out.op = model::toleration_operator::equal;
        else {
          out.op = model::toleration_operator::unsupported;  // validation reports it
          out.operator_name = *op;
        }
        return {};
      }
      if (name == "tolerationSeconds") {
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

  // A configuration's `opaque`; `present` stays false when it is null (validation reports it).
  dra::status opaque(od::value& v, model::opaque_device_configuration& out) {
    if (reader::is_null(v)) return {};
    out.present = true;
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "driver") return assign(out.driver, r_.string(value));
      if (name == "parameters") return assign(out.parameters_json, r_.raw_json(value));
      return r_.unknown();
    });
  }

  dra::status selectors(od::value& v, std::vector<model::device_selector>& out) {
    return r_.each_element(v, [&](od::value& selector) -> dra::status {
      model::device_selector& s = out.emplace_back();
      s.has_cel = false;  // until a `cel` is read; validation reports a selector without one
      return r_.each_field(selector, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (name != "cel") return r_.unknown();
        if (reader::is_null(value)) return {};
        s.has_cel = true;
        return r_.each_field(value, [&](std::string_view cel_field, od::value& expression) -> dra::status {
          auto in = r_.field(cel_field);
          if (cel_field == "expression") return assign(s.cel_expression, r_.string(expression));
          return r_.unknown();
        });
      });
    });
  }

  // ---- ResourceSlice

  dra::status attribute(od::value& v, model::device_attribute& out) {
    std::uint8_t fields = 0;
    auto status = r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "int") {
        ++fields;
        auto i = r_.integer(value);
        if (!i) return std::move(i).error();
        out.value = *i;
      } else if (name == "bool") {
        ++fields;
        auto b = r_.boolean(value);
        if (!b) return std::move(b).error();
        out.value = *b;
      } else if (name == "string") {
        ++fields;
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.value = *s;
      } else if (name == "version") {
        ++fields;
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.value = model::version_value(*s);
      } else if (name == "ints") {
        ++fields;
        std::vector<std::int64_t> list;
        auto st = r_.each_element(value, [&](od::value& e) -> dra::status {
          auto i = r_.integer(e);
          if (!i) return std::move(i).error();
          list.push_back(*i);
          return {};
        });
        if (!st) return st;
        out.value = std::move(list);
      } else if (name == "bools") {
        ++fields;
        std::vector<bool> list;
        auto st = r_.each_element(value, [&](od::value& e) -> dra::status {
          auto b = r_.boolean(e);
          if (!b) return std::move(b).error();
          list.push_back(*b);
          return {};
        });
        if (!st) return st;
        out.value = std::move(list);
      } else if (name == "strings") {
        ++fields;
        auto list = r_.strings(value);
        if (!list) return std::move(list).error();
        out.value = std::move(*list);
      } else if (name == "versions") {
        ++fields;
        auto list = r_.strings(value);
        if (!list) return std::move(list).error();
        std::vector<model::version_value> versions;
        versions.reserve(list->size());
        for (std::string_view s : *list) versions.emplace_back(s);
        out.value = std::move(versions);
      } else {
        return r_.unknown();
      }
      return {};
    });
    out.fields_set = fields;
    return status;
  }

  dra::status capacity(od::value& v, model::device_capacity& out) {
    bool has_value = false;
    auto status = r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "value") {
        has_value = true;
        return assign(out.value, r_.quantity_value(value));
      }
      if (name == "requestPolicy") {
        if (reader::is_null(value)) return {};
        return request_policy(value, out.request_policy.emplace());
      }
      return r_.unknown();
    });
    if (status && !has_value) return r_.fail("missing required field \"value\"");
    return status;
  }

  dra::status request_policy(od::value& v, model::capacity_request_policy& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "default") return assign(out.default_value, r_.quantity_value(value));
      if (name == "validValues")
        return r_.each_element(value, [&](od::value& q) -> dra::status {
          auto parsed = r_.quantity_value(q);
          if (!parsed) return std::move(parsed).error();
          out.valid_values.push_back(*parsed);
          return {};
        });
      if (name == "validRange") {
        model::capacity_range& range = out.valid_range.emplace();
        bool has_min = false;
        auto st = r_.each_field(value, [&](std::string_view bound, od::value& q) -> dra::status {
          auto in = r_.field(bound);
          if (bound == "min") {
            has_min = true;
            return assign(range.min, r_.quantity_value(q));
          }
          if (bound == "max") return assign(range.max, r_.quantity_value(q));
          if (bound == "step") return assign(range.step, r_.quantity_value(q));
          return r_.unknown();
        });
        range.has_min = has_min;  // validation reports a range without min at validRange.min
        return st;
      }
      return r_.unknown();
    });
  }

  dra::status counters(od::value& v, model::counter_map& out) {
    return r_.map(v, out, [&](od::value& counter, quantity& value) -> dra::status {
      bool has_value = false;
      auto st = r_.each_field(counter, [&](std::string_view name, od::value& q) -> dra::status {
        auto at = r_.field(name);
        if (name != "value") return r_.unknown();
        has_value = true;
        return assign(value, r_.quantity_value(q));
      });
      if (st && !has_value) return r_.fail("missing required field \"value\"");
      return st;
    });
  }

  dra::status counter_set(od::value& v, model::counter_set& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "name") return assign(out.name, r_.string(value));
      if (name == "counters") return counters(value, out.counters);
      if (name == "includes") return assign(out.includes, r_.strings(value));
      return r_.unknown();
    });
  }

  dra::status counter_consumption(od::value& v, model::device_counter_consumption& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "counterSet") return assign(out.counter_set, r_.string(value));
      if (name == "counters") return counters(value, out.counters);
      if (name == "includes") return assign(out.includes, r_.strings(value));
      if (name == "compatibilityGroups") return assign(out.compatibility_groups, r_.strings(value));
      return r_.unknown();
    });
  }

  dra::status taint(od::value& v, model::device_taint& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "key") return assign(out.key, r_.string(value));
      if (name == "value") return assign(out.value, r_.string(value));
      if (name == "effect") return assign(out.effect, r_.string(value));
      if (name == "timeAdded") {
        if (reader::is_null(value)) return {};
        return assign(out.time_added, r_.string(value));
      }
      return r_.unknown();
    });
  }

  // The fields of a device that v1 has inline and v1beta1 has under `basic`.
  dra::status device_field(std::string_view name, od::value& value, model::device& out) {
    if (name == "attributes")
      return r_.map(value, out.attributes, [&](od::value& a, model::device_attribute& attr) { return attribute(a, attr); });
    if (name == "capacity")
      return r_.map(value, out.capacity, [&](od::value& c, model::device_capacity& cap) { return capacity(c, cap); });
    if (name == "consumesCounters")
      return r_.each_element(
          value, [&](od::value& c) { return counter_consumption(c, out.consumes_counters.emplace_back()); });
    if (name == "nodeName") return assign(out.node_name, r_.string(value));
    if (name == "nodeSelector") {
      if (reader::is_null(value)) return {};
      return node_selector(value, out.node_selector.emplace());
    }
    if (name == "allNodes") return assign(out.all_nodes, r_.boolean(value));
    if (name == "taints")
      return r_.each_element(value, [&](od::value& t) { return taint(t, out.taints.emplace_back()); });
    if (name == "bindsToNode") return assign(out.binds_to_node, r_.boolean(value));
    if (name == "bindingConditions") return assign(out.binding_conditions, r_.strings(value));
    if (name == "bindingFailureConditions") return assign(out.binding_failure_conditions, r_.strings(value));
    if (name == "allowMultipleAllocations") return assign(out.allow_multiple_allocations, r_.boolean(value));
    if (name == "includes") return assign(out.includes, r_.strings(value));
    return r_.unknown();
  }

  dra::status device(od::value& v, model::device& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "name") return assign(out.name, r_.string(value));
      if (version == api_version::v1beta1) {
        if (name != "basic") return r_.unknown();
        return r_.each_field(value, [&](std::string_view basic_field, od::value& basic_value) -> dra::status {
          auto in = r_.field(basic_field);
          return device_field(basic_field, basic_value, out);
        });
      }
      if (name == "basic") return r_.v1beta1_field();  // v1beta1's device shape
      return device_field(name, value, out);
    });
  }

  dra::status mixins(od::value& v, model::resource_slice_mixins& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "device")
        return r_.each_element(value, [&](od::value& m) -> dra::status {
          model::device_mixin& mixin = out.device.emplace_back();
          return r_.each_field(m, [&](std::string_view field, od::value& fv) -> dra::status {
            auto in = r_.field(field);
            if (field == "name") return assign(mixin.name, r_.string(fv));
            if (field == "attributes" || field == "capacity") {
              model::device scratch;  // the same readers as a device's own maps
              auto st = device_field(field, fv, scratch);
              if (field == "attributes")
                mixin.attributes = std::move(scratch.attributes);
              else
                mixin.capacity = std::move(scratch.capacity);
              return st;
            }
            return r_.unknown();
          });
        });
      if (name == "deviceCounterConsumption") return counter_mixins(value, out.device_counter_consumption);
      if (name == "counterSet") return counter_mixins(value, out.counter_set);
      return r_.unknown();
    });
  }

  // DeviceCounterConsumptionMixin and CounterSetMixin share their shape: a name and counters.
  template <class Mixin>
  dra::status counter_mixins(od::value& v, std::vector<Mixin>& out) {
    return r_.each_element(v, [&](od::value& m) -> dra::status {
      Mixin& mixin = out.emplace_back();
      return r_.each_field(m, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (field == "name") return assign(mixin.name, r_.string(fv));
        if (field == "counters") return counters(fv, mixin.counters);
        return r_.unknown();
      });
    });
  }

  dra::status slice_spec(od::value& v, model::resource_slice& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "driver") return assign(out.driver, r_.string(value));
      if (name == "pool")
        return r_.each_field(value, [&](std::string_view pool_field, od::value& pv) -> dra::status {
          auto in = r_.field(pool_field);
          if (pool_field == "name") return assign(out.pool.name, r_.string(pv));
          if (pool_field == "generation") return assign(out.pool.generation, r_.integer(pv));
          if (pool_field == "resourceSliceCount") return assign(out.pool.resource_slice_count, r_.integer(pv));
          return r_.unknown();
        });
      if (name == "nodeName") return assign(out.node_name, r_.string(value));
      if (name == "nodeSelector") {
        if (reader::is_null(value)) return {};
        return node_selector(value, out.node_selector.emplace());
      }
      if (name == "allNodes") return assign(out.all_nodes, r_.boolean(value));
      if (name == "perDeviceNodeSelection") return assign(out.per_device_node_selection, r_.boolean(value));
      if (name == "devices")
        return r_.list(value, out.devices, [&](od::value& d, model::device& device_out) { return device(d, device_out, version); });
      if (name == "sharedCounters")
        return r_.list(value, out.shared_counters, [&](od::value& c, model::counter_set& set) { return counter_set(c, set); });
      if (name == "mixins") {
        if (reader::is_null(value)) return {};
        return mixins(value, out.mixins.emplace());
      }
      return r_.unknown();
    });
  }

  // ---- DeviceClass

  dra::status class_spec(od::value& v, model::device_class& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "selectors") return selectors(value, out.selectors);
      if (name == "config")
        return r_.each_element(value, [&](od::value& c) -> dra::status {
          model::device_class_configuration& config = out.config.emplace_back();
          config.opaque.present = false;
          return r_.each_field(c, [&](std::string_view field, od::value& fv) -> dra::status {
            auto in = r_.field(field);
            if (field == "opaque") return opaque(fv, config.opaque);
            return r_.unknown();
          });
        });
      if (name == "extendedResourceName") return assign(out.extended_resource_name, r_.string(value));
      return r_.unknown();
    });
  }

  // ---- ResourceClaim

  // The fields ExactDeviceRequest and DeviceSubRequest share (and v1beta1's
  // DeviceRequest has inline).
  dra::status request_spec_field(std::string_view name, od::value& value, model::device_request_spec& out,
                                 std::optional<bool>* admin_access, bool& mode_set, bool& count_set) {
    if (name == "deviceClassName") return assign(out.device_class_name, r_.string(value));
    if (name == "selectors") return selectors(value, out.selectors);
    if (name == "allocationMode") {
      auto mode = r_.string(value);
      if (!mode) return std::move(mode).error();
      mode_set = !mode->empty();
      out.mode_name = *mode;
      if (*mode == "All")
        out.mode = model::allocation_mode::all;
      else if (*mode == "ExactCount" || mode->empty())
        out.mode = model::allocation_mode::exact_count;
      else
        out.mode = model::allocation_mode::unsupported;  // validation and allocation report it
      return {};
    }
    if (name == "count") {
      count_set = true;
      return assign(out.count, r_.integer(value));
    }
    if (name == "adminAccess" && admin_access != nullptr) {
      if (reader::is_null(value)) return {};
      return assign(*admin_access, r_.boolean(value));
    }
    if (name == "tolerations") return tolerations(value, out.tolerations);
    if (name == "capacity")
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (field != "requests") return r_.unknown();
        model::capacity_requirements& requirements = out.capacity.emplace();
        return r_.map(fv, requirements.requests, [&](od::value& q, quantity& amount) { return assign(amount, r_.quantity_value(q)); });
      });
    return r_.unknown();
  }

  // API server defaults: ExactCount when no mode is set; count 1 with ExactCount.
  static void apply_request_defaults(model::device_request_spec& spec, bool count_set) {
    if (spec.mode == model::allocation_mode::exact_count && !count_set) spec.count = 1;
    if (spec.mode == model::allocation_mode::all && !count_set) spec.count = 0;
  }

  dra::status request_spec(od::value& v, model::device_request_spec& out, std::optional<bool>* admin_access,
                           model::text* sub_request_name) {
    bool mode_set = false;
    bool count_set = false;
    auto st = r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "name" && sub_request_name != nullptr) return assign(*sub_request_name, r_.string(value));
      return request_spec_field(name, value, out, admin_access, mode_set, count_set);
    });
    apply_request_defaults(out, count_set);
    return st;
  }

  dra::status request(od::value& v, model::device_request& out, api_version version) {
    if (version == api_version::v1beta1) {
      // v1beta1: the ExactDeviceRequest fields sit on the request itself.
      bool mode_set = false;
      bool count_set = false;
      bool exact = false;
      model::exact_device_request exactly;
      auto st = r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (name == "name") return assign(out.name, r_.string(value));
        if (name == "firstAvailable") return sub_requests(value, out.first_available);
        if (name == "deviceClassName" || name == "selectors" || name == "allocationMode" || name == "count" ||
            name == "adminAccess" || name == "tolerations" || name == "capacity")
          exact = true;
        return request_spec_field(name, value, exactly, &exactly.admin_access, mode_set, count_set);
      });
      if (!st) return st;
      apply_request_defaults(exactly, count_set);
      if (exact || out.first_available.empty()) out.exactly = std::move(exactly);
      return {};
    }
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "name") return assign(out.name, r_.string(value));
      if (name == "exactly") {
        if (reader::is_null(value)) return {};
        model::exact_device_request& exactly = out.exactly.emplace();
        return request_spec(value, exactly, &exactly.admin_access, nullptr);
      }
      if (name == "firstAvailable") return sub_requests(value, out.first_available);
      if (name == "deviceClassName" || name == "selectors" || name == "allocationMode" || name == "count" ||
          name == "adminAccess" || name == "tolerations" || name == "capacity")
        return r_.v1beta1_field();  // v1beta1's request shape, without `exactly`
      return r_.unknown();
    });
  }

  dra::status sub_requests(od::value& v, std::vector<model::device_sub_request>& out) {
    return r_.each_element(v, [&](od::value& s) -> dra::status {
      model::device_sub_request& sub = out.emplace_back();
      return request_spec(s, sub, nullptr, &sub.name);
    });
  }

  dra::status claim_spec(od::value& v, model::device_claim& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name != "devices") return r_.unknown();
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (field == "requests")
          return r_.each_element(fv, [&](od::value& rq) { return request(rq, out.requests.emplace_back(), version); });
        if (field == "constraints")
          return r_.each_element(fv, [&](od::value& c) -> dra::status {
            model::device_constraint& constraint = out.constraints.emplace_back();
            return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
              auto cin = r_.field(cf);
              if (cf == "requests") return assign(constraint.requests, r_.strings(cv));
              if (cf == "matchAttribute") return assign(constraint.match_attribute, r_.string(cv));
              if (cf == "distinctAttribute") return assign(constraint.distinct_attribute, r_.string(cv));
              return r_.unknown();
            });
          });
        if (field == "config")
          return r_.each_element(fv, [&](od::value& c) -> dra::status {
            model::device_claim_configuration& config = out.config.emplace_back();
            config.opaque.present = false;
            return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
              auto cin = r_.field(cf);
              if (cf == "requests") return assign(config.requests, r_.strings(cv));
              if (cf == "opaque") return opaque(cv, config.opaque);
              return r_.unknown();
            });
          });
        return r_.unknown();
      });
    });
  }

  dra::status allocation(od::value& v, model::allocation_result& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "nodeSelector") {
        if (reader::is_null(value)) return {};
        return node_selector(value, out.node_selector.emplace());
      }
      if (name == "allocationTimestamp") return assign(out.allocation_timestamp, r_.string(value));
      if (name != "devices") return r_.unknown();
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (field == "results")
          return r_.each_element(fv, [&](od::value& rv) { return allocation_device(rv, out.results.emplace_back()); });
        if (field == "config")
          return r_.each_element(fv, [&](od::value& cv) -> dra::status {
            model::device_allocation_configuration& config = out.config.emplace_back();
            config.source = model::allocation_config_source::unsupported;  // until a known source is read
            config.opaque.present = false;
            return r_.each_field(cv, [&](std::string_view cf, od::value& v2) -> dra::status {
              auto cin = r_.field(cf);
              if (cf == "source") {
                auto source = r_.string(v2);
                if (!source) return std::move(source).error();
                if (*source == "FromClass")
                  config.source = model::allocation_config_source::from_class;
                else if (*source == "FromClaim")
                  config.source = model::allocation_config_source::from_claim;
                else
                  config.source_name = *source;  // validation reports it
                return {};
              }
              if (cf == "requests") {
                auto requests = r_.strings(v2);
                if (!requests) return std::move(requests).error();
                for (std::string_view rq : *requests) config.requests.emplace_back(rq);
                return {};
              }
              if (cf == "opaque") return opaque(v2, config.opaque);
              return r_.unknown();
            });
          });
        return r_.unknown();
      });
    });
  }

  dra::status allocation_device(od::value& v, model::device_request_allocation_result& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "request") {
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.request = std::string(*s);
        return {};
      }
      if (name == "driver") return assign(out.driver, r_.string(value));
      if (name == "pool") return assign(out.pool, r_.string(value));
      if (name == "device") return assign(out.device, r_.string(value));
      if (name == "adminAccess") {
        if (reader::is_null(value)) return {};
        return assign(out.admin_access, r_.boolean(value));
      }
      if (name == "tolerations") return tolerations(value, out.tolerations);
      if (name == "bindingConditions") return assign(out.binding_conditions, r_.strings(value));
      if (name == "bindingFailureConditions") return assign(out.binding_failure_conditions, r_.strings(value));
      if (name == "shareID") {
        if (reader::is_null(value)) return {};
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.share_id = std::string(*s);
        return {};
      }
      if (name == "consumedCapacity")
        return r_.map(value, out.consumed_capacity, [&](od::value& q, quantity& amount) { return assign(amount, r_.quantity_value(q)); });
      return r_.unknown();
    });
  }

  // ---- Pod

  dra::status pod_spec(od::value& v, model::pod& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "nodeName") {
        if (reader::is_null(value)) return {};  // YAML's `nodeName:` (Go's decoder skips null)
        return assign(out.node_name, r_.string(value));
      }
      if (name != "resourceClaims") return {};
      return r_.each_element(value, [&](od::value& c) -> dra::status {
        model::pod_resource_claim& claim = out.resource_claims.emplace_back();
        return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
          auto in = r_.field(cf);
          if (cf == "name") return assign(claim.name, r_.string(cv));
          if (reader::is_null(cv)) return {};
          if (cf == "resourceClaimName") return assign(claim.resource_claim_name, r_.string(cv));
          if (cf == "resourceClaimTemplateName") return assign(claim.resource_claim_template_name, r_.string(cv));
          return {};
        });
      });
    });
  }

  dra::status pod_status(od::value& v, model::pod& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name != "resourceClaimStatuses") return {};
      return r_.each_element(value, [&](od::value& s) -> dra::status {
        model::pod_resource_claim_status& status = out.resource_claim_statuses.emplace_back();
        return r_.each_field(s, [&](std::string_view sf, od::value& sv) -> dra::status {
          auto in = r_.field(sf);
          if (sf == "name") return assign(status.name, r_.string(sv));
          if (sf == "resourceClaimName") {
            if (reader::is_null(sv)) return {};
            return assign(status.resource_claim_name, r_.string(sv));
          }
          return {};
        });
      });
    });
  }

  // ---- ResourceClaim status, ResourceClaimTemplate, DeviceTaintRule

  dra::status claim_status(od::value& v, model::resource_claim& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "allocation") {
        if (reader::is_null(value)) return {};
        return allocation(value, out.allocation.emplace());
      }
      if (name == "reservedFor")
        return r_.each_element(value, [&](od::value& c) -> dra::status {
          model::resource_claim_consumer_reference& consumer = out.reserved_for.emplace_back();
          return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
            auto in = r_.field(cf);
            if (cf == "apiGroup") return assign(consumer.api_group, r_.string(cv));
            if (cf == "resource") return assign(consumer.resource, r_.string(cv));
            if (cf == "name") return assign(consumer.name, r_.string(cv));
            if (cf == "uid") return assign(consumer.uid, r_.string(cv));
            return r_.unknown();
          });
        });
      if (name == "devices")
        return r_.each_element(value, [&](od::value& d) { return device_status(d, out.devices.emplace_back()); });
      return r_.unknown();
    });
  }

  // AllocatedDeviceStatus: read to be validated; conditions are only counted.
  dra::status device_status(od::value& v, model::allocated_device_status& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "driver") return assign(out.driver, r_.string(value));
      if (name == "pool") return assign(out.pool, r_.string(value));
      if (name == "device") return assign(out.device, r_.string(value));
      if (reader::is_null(value)) return {};
      if (name == "shareID") return assign(out.share_id, r_.string(value));
      if (name == "conditions")
        return r_.each_element(value, [&](od::value&) -> dra::status {
          ++out.conditions;
          return {};
        });
      if (name == "data") return assign(out.data_json, r_.raw_json(value));
      if (name != "networkData") return {};
      model::network_device_data& network = out.network_data.emplace();
      return r_.each_field(value, [&](std::string_view nf, od::value& nv) -> dra::status {
        auto in = r_.field(nf);
        if (nf == "interfaceName") return assign(network.interface_name, r_.string(nv));
        if (nf == "hardwareAddress") return assign(network.hardware_address, r_.string(nv));
        if (nf == "ips") return assign(network.ips, r_.strings(nv));
        return {};
      });
    });
  }

  // ResourceClaimTemplateSpec: the metadata and the spec of the claims made from it.
  dra::status template_spec(od::value& v, model::resource_claim_template& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "metadata") return metadata(value, out.claim_meta);
      if (name == "spec") return claim_spec(value, out.spec, version);
      return r_.unknown();
    });
  }

  dra::status taint_rule_spec(od::value& v, model::device_taint_rule& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (name == "taint") return taint(value, out.taint);
      if (name != "deviceSelector") return r_.unknown();
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (reader::is_null(fv)) return {};
        if (field == "driver") return assign(out.device_selector.driver, r_.string(fv));
        if (field == "pool") return assign(out.device_selector.pool, r_.string(fv));
        if (field == "device") return assign(out.device_selector.device, r_.string(fv));
        // v1alpha3 (Kubernetes 1.34) also had deviceClassName and selectors
        return field == "deviceClassName" || field == "selectors" ? dra::status{} : r_.unknown();
      });
    });
  }

 private:
  template <class T, class U>
  static dra::status assign(T& target, result<U>&& value) {
    if (!value) return std::move(value).error();
    target = std::move(*value);
    return {};
  }

  dra::status requirement_list(od::value& v, std::vector<model::node_selector_requirement>& out) {
    return r_.each_element(v, [&](od::value& element) -> dra::status {
      model::node_selector_requirement& requirement = out.emplace_back();
      requirement.op = model::node_selector_operator::unsupported;  // until a known operator is read
      return r_.each_field(element, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (name == "key") return assign(requirement.key, r_.string(value));
        if (name == "values") return assign(requirement.values, r_.strings(value));
        if (name == "operator") {
          auto op = r_.string(value);
          if (!op) return std::move(op).error();
          using o = model::node_selector_operator;
          static constexpr std::pair<std::string_view, o> operators[] = {
              {"In", o::in}, {"NotIn", o::not_in}, {"Exists", o::exists}, {"DoesNotExist", o::does_not_exist},
              {"Gt", o::gt}, {"Lt", o::lt}};
          for (auto [text, op_value] : operators)
            if (*op == text) {
              requirement.op = op_value;
              return {};
            }
          requirement.operator_name = *op;  // validation reports it
          return {};
        }
        return {};
      });
    });
  }

  reader& r_;
};

// The kind, apiVersion and metadata of one object, looked up before the rest
// so that errors in its spec can name it.
struct object_header {
  std::string_view kind;
  std::string_view api_version;
  model::object_meta meta;
};

enum class object_kind : std::uint8_t { slice, device_class, claim, claim_template, taint_rule, node, pod, other };

[[nodiscard]] constexpr object_kind kind_of(std::string_view kind) noexcept {
  if (kind == "ResourceSlice") return object_kind::slice;
  if (kind == "DeviceClass") return object_kind::device_class;
  if (kind == "ResourceClaim") return object_kind::claim;
  if (kind == "ResourceClaimTemplate") return object_kind::claim_template;
  if (kind == "DeviceTaintRule") return object_kind::taint_rule;
  if (kind == "Node") return object_kind::node;
  if (kind == "Pod") return object_kind::pod;
  return object_kind::other;
}

// The apiVersions a kind of resource.k8s.io is read in; empty when none is checked.
[[nodiscard]] inline dra::status check_api_version(reader& r, object_kind kind, const object_header& header,
                                                   api_version version) {
  if (kind == object_kind::node || kind == object_kind::pod || kind == object_kind::other) return {};
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
inline dra::status read_header(reader& r, object_reader& objects, od::object& object, object_header& header) {
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
  r.strict = kind != object_kind::node && kind != object_kind::pod && kind != object_kind::other;
  for (std::string_view name : {std::string_view("apiVersion"), std::string_view("metadata")}) {
    if (auto code = object.reset().error()) return r.fail(code);
    od::value value;
    auto code = object.find_field_unordered(name).get(value);
    if (code == simdjson::NO_SUCH_FIELD) continue;
    if (code) return r.fail(code);
    auto at = r.field(name);
    if (name == "apiVersion") {
      auto text = r.string(value);
      if (!text) return std::move(text).error();
      header.api_version = *text;
    } else if (auto st = objects.metadata(value, header.meta); !st) {
      return st;
    }
  }
  if (auto code = object.reset().error()) return r.fail(code);
  return {};
}

// Reads the fields of an object after its header, by kind, into `out`.
template <class FinishRaw>
dra::status read_body(reader& r, object_reader& objects, od::object& object, object_kind kind, object_header& header,
                      api_version version, model::scenario& out, model::source_position& position, FinishRaw&& finish_raw) {
  // Every object is read to its end, whatever its kind: an object abandoned halfway would leave
  // simdjson to skip the rest from inside it, and malformed text there would be found or not
  // depending on where reading stopped (and on whether items are read on one thread or several).
  auto read_fields = [&](auto&& on_field) {
    dra::status status = r.each_field_of(object, [&](std::string_view name, od::value& value) -> dra::status {
      if (name == "kind" || name == "apiVersion" || name == "metadata") return {};
      auto at = r.field(name);
      return on_field(name, value);
    });
    if (status) status = finish_raw();
    return status;
  };
  auto add = [&](auto& objects_of_kind, auto&& object_value) {
    objects_of_kind.push_back({std::move(object_value), std::move(position)});
  };
  dra::status status;
  switch (kind) {
    case object_kind::slice: {
      model::resource_slice slice;
      slice.meta = std::move(header.meta);
      status = read_fields([&](std::string_view name, od::value& value) -> dra::status {
        return name == "spec" ? objects.slice_spec(value, slice, version) : r.unknown();
      });
      if (status) add(out.slices, std::move(slice));
      break;
    }
    case object_kind::device_class: {
      model::device_class device_class;
      device_class.meta = std::move(header.meta);
      status = read_fields([&](std::string_view name, od::value& value) -> dra::status {
        return name == "spec" ? objects.class_spec(value, device_class) : r.unknown();
      });
      if (status) add(out.classes, std::move(device_class));
      break;
    }
    case object_kind::claim: {
      model::resource_claim claim;
      claim.meta = std::move(header.meta);
      status = read_fields([&](std::string_view name, od::value& value) -> dra::status {
        if (name == "spec") return objects.claim_spec(value, claim.spec, version);
        if (name == "status") return objects.claim_status(value, claim);
        return r.unknown();
      });
      if (status) add(out.claims, std::move(claim));
      break;
    }
    case object_kind::claim_template: {
      model::resource_claim_template claim_template;
      claim_template.meta = std::move(header.meta);
      status = read_fields([&](std::string_view name, od::value& value) -> dra::status {
        return name == "spec" ? objects.template_spec(value, claim_template, version) : r.unknown();
      });
      if (status) add(out.claim_templates, std::move(claim_template));
      break;
    }
    case object_kind::taint_rule: {
      model::device_taint_rule rule;
      rule.meta = std::move(header.meta);
      status = read_fields([&](std::string_view name, od::value& value) -> dra::status {
        if (name == "spec") return objects.taint_rule_spec(value, rule);
        return name == "status" ? dra::status{} : r.unknown();  // status: conditions the controller sets
      });
      if (status) add(out.taint_rules, std::move(rule));
      break;
    }
    case object_kind::node: {
      status = read_fields([](std::string_view, od::value&) -> dra::status { return {}; });
      if (status) add(out.nodes, model::node{std::move(header.meta)});
      break;
    }
    case object_kind::pod: {
      model::pod pod;
      pod.meta = std::move(header.meta);
      status = read_fields([&](std::string_view name, od::value& value) -> dra::status {
        if (name == "spec") return objects.pod_spec(value, pod);
        if (name == "status") return objects.pod_status(value, pod);
        return {};
      });
      if (status) add(out.pods, std::move(pod));
      break;
    }
    case object_kind::other: {
      status = read_fields([](std::string_view, od::value&) -> dra::status { return {}; });
      if (status) {
        out.warnings.push_back(concat(position.path.empty() ? "input" : position.path, ": kind ", quoted(header.kind),
                                      " is not used by device allocation; ignored"));
        add(out.others, model::other_object{header.api_version, header.kind, std::move(header.meta)});
      }
      break;
    }
  }
  return status;
}

// `raw_end` gives where the object's text ends once it has been read (the object's JSON text is
// kept for `dra flatten` without a second pass over it); `position.json` starts as a view from
// the object's first byte to the end of its enclosing text.
template <class RawEnd>
dra::status read_object(reader& r, od::object& object, model::scenario& out, model::source_position position,
                        RawEnd&& raw_end) {
  auto finish_raw = [&]() -> dra::status {
    const char* end = raw_end();
    if (end == nullptr) return r.fail("invalid JSON: cannot find the end of the object");
    position.json =
        without_trailing_whitespace({position.json.data(), static_cast<std::size_t>(end - position.json.data())});
    return {};
  };
  object_reader objects(r);
  object_header header;
  r.object_depth = r.depth();
  r.v1beta1_shape = false;
  const std::size_t first_unknown = r.unknown_fields.size();
  const std::size_t index = position.index;
  if (auto status = read_header(r, objects, object, header); !status) return status;
  const object_kind kind = kind_of(header.kind);
  if (kind != object_kind::other) r.object_name = model::object_label(header.kind, header.meta);
  const api_version version = resource_api_version(header.api_version);
  if (auto status = check_api_version(r, kind, header, version); !status) return status;
  // A nameless object is named by where it stands (the path is copied only for such objects).
  const std::string_view kind_text = header.kind;
  const std::string_view api_version_text = header.api_version;
  const bool nameless = header.meta.name.empty();
  const std::string nameless_path = nameless ? position.path : std::string();
  auto status = read_body(r, objects, object, kind, header, version, out, position, finish_raw);
  if (!status || (first_unknown == r.unknown_fields.size() && !r.v1beta1_shape)) return status;
  const std::string label =
      nameless ? concat(kind_text, " ", nameless_path.empty() ? "(the input)" : nameless_path) : r.object_name;
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
