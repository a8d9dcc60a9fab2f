// The reader of a ResourceSlice's spec (devices, attributes, capacities, counters, taints, KEP-5234 mixins) and of a DeviceTaintRule's under JSON ingest.
#pragma once

#include <dra/json/detail/fields.hpp>
#include <dra/json/detail/reader.hpp>
#include <dra/model/resource_slice.hpp>

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::json::detail {

class slice_reader : public field_reader {
 public:
  using field_reader::field_reader;

  // ---- ResourceSlice

  dra::status attribute(od::value& v, model::device_attribute& out) {
    std::uint8_t fields = 0;
    auto status = r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "int")) {
        ++fields;
        auto i = r_.integer(value);
        if (!i) return std::move(i).error();
        out.value = *i;
      } else if (is(name, "bool")) {
        ++fields;
        auto b = r_.boolean(value);
        if (!b) return std::move(b).error();
        out.value = *b;
      } else if (is(name, "string")) {
        ++fields;
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.value = *s;
      } else if (is(name, "version")) {
        ++fields;
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.value = r_.version(*s);
      } else if (is(name, "ints")) {
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
      } else if (is(name, "bools")) {
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
      } else if (is(name, "strings")) {
        ++fields;
        auto list = r_.strings(value);
        if (!list) return std::move(list).error();
        out.value = std::move(*list);
      } else if (is(name, "versions")) {
        ++fields;
        auto list = r_.strings(value);
        if (!list) return std::move(list).error();
        std::vector<model::version_value> versions;
        versions.reserve(list->size());
        for (std::string_view s : *list) versions.push_back(r_.version(s));
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
      if (is(name, "value")) {
        has_value = true;
        return assign(out.value, r_.quantity_value(value));
      }
      if (is(name, "requestPolicy")) {
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
      if (is(name, "default")) return assign(out.default_value, r_.quantity_value(value));
      if (is(name, "validValues"))
        return r_.each_element(value, [&](od::value& q) -> dra::status {
          auto parsed = r_.quantity_value(q);
          if (!parsed) return std::move(parsed).error();
          out.valid_values.push_back(*parsed);
          return {};
        });
      if (is(name, "validRange")) {
        model::capacity_range& range = out.valid_range.emplace();
        bool has_min = false;
        auto st = r_.each_field(value, [&](std::string_view bound, od::value& q) -> dra::status {
          auto in = r_.field(bound);
          if (is(bound, "min")) {
            has_min = true;
            return assign(range.min, r_.quantity_value(q));
          }
          if (is(bound, "max")) return assign(range.max, r_.quantity_value(q));
          if (is(bound, "step")) return assign(range.step, r_.quantity_value(q));
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
        if (!is(name, "value")) return r_.unknown();
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
      if (is(name, "name")) return assign(out.name, r_.string(value));
      if (is(name, "counters")) return counters(value, out.counters);
      if (is(name, "includes")) return assign(out.includes, r_.strings(value));
      return r_.unknown();
    });
  }

  dra::status counter_consumption(od::value& v, model::device_counter_consumption& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "counterSet")) return assign(out.counter_set, r_.string(value));
      if (is(name, "counters")) return counters(value, out.counters);
      if (is(name, "includes")) return assign(out.includes, r_.strings(value));
      if (is(name, "compatibilityGroups")) return assign(out.compatibility_groups, r_.strings(value));
      return r_.unknown();
    });
  }

  // nodeAllocatableResources (KEP-5517): node resource name -> {mapping, overhead}.
  dra::status node_allocatable_resources(od::value& v, model::device& out) {
    if (reader::is_null(v)) return {};
    return r_.map(v, out.node_allocatable_resources.emplace(),
                  [&](od::value& entry, model::node_allocatable_resource& resource) {
                    return r_.each_field(entry, [&](std::string_view name, od::value& value) -> dra::status {
                      auto at = r_.field(name);
                      if (reader::is_null(value)) return {};
                      if (is(name, "mapping")) return node_allocatable_mapping(value, resource.mapping.emplace());
                      if (is(name, "overhead")) return node_allocatable_overhead(value, resource.overhead.emplace());
                      return r_.unknown();
                    });
                  });
  }

  dra::status node_allocatable_mapping(od::value& v, model::node_allocatable_mapping& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (reader::is_null(value)) return {};
      if (is(name, "capacityKey")) return assign(out.capacity_key, r_.string(value));
      if (is(name, "capacityMultiplier")) return assign(out.capacity_multiplier, r_.quantity_value(value));
      if (is(name, "deviceMultiplier")) return assign(out.device_multiplier, r_.quantity_value(value));
      return r_.unknown();
    });
  }

  dra::status node_allocatable_overhead(od::value& v, model::node_allocatable_overhead& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (reader::is_null(value)) return {};
      if (is(name, "perPod")) return assign(out.per_pod, r_.quantity_value(value));
      if (is(name, "perContainer")) return assign(out.per_container, r_.quantity_value(value));
      return r_.unknown();
    });
  }

  // The fields of a device that v1 has inline and v1beta1 has under `basic`.
  dra::status device_field(std::string_view name, od::value& value, model::device& out) {
    if (is(name, "attributes"))
      return r_.map(value, out.attributes, [&](od::value& a, model::device_attribute& attr) { return attribute(a, attr); });
    if (is(name, "capacity"))
      return r_.map(value, out.capacity, [&](od::value& c, model::device_capacity& cap) { return capacity(c, cap); });
    if (is(name, "consumesCounters"))
      return r_.each_element(
          value, [&](od::value& c) { return counter_consumption(c, out.consumes_counters.emplace_back()); });
    if (is(name, "nodeName")) return assign(out.node_name, r_.string(value));
    if (is(name, "nodeSelector")) {
      if (reader::is_null(value)) return {};
      return node_selector(value, out.node_selector.emplace());
    }
    if (is(name, "allNodes")) return assign(out.all_nodes, r_.boolean(value));
    if (is(name, "taints"))
      return r_.each_element(value, [&](od::value& t) { return taint(t, out.taints.emplace_back()); });
    if (is(name, "bindsToNode")) return assign(out.binds_to_node, r_.boolean(value));
    if (is(name, "bindingConditions")) return assign(out.binding_conditions, r_.strings(value));
    if (is(name, "bindingFailureConditions")) return assign(out.binding_failure_conditions, r_.strings(value));
    if (is(name, "allowMultipleAllocations")) return assign(out.allow_multiple_allocations, r_.boolean(value));
    if (is(name, "includes")) return assign(out.includes, r_.strings(value));
    if (is(name, "nodeAllocatableResources")) return node_allocatable_resources(value, out);
    return r_.unknown();
  }

  dra::status device(od::value& v, model::device& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "name")) return assign(out.name, r_.string(value));
      if (version == api_version::v1beta1) {
        if (!is(name, "basic")) return r_.unknown();
        return r_.each_field(value, [&](std::string_view basic_field, od::value& basic_value) -> dra::status {
          auto in = r_.field(basic_field);
          return device_field(basic_field, basic_value, out);
        });
      }
      if (is(name, "basic")) return r_.v1beta1_field();  // v1beta1's device shape
      return device_field(name, value, out);
    });
  }

  dra::status mixins(od::value& v, model::resource_slice_mixins& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "device"))
        return r_.each_element(value, [&](od::value& m) -> dra::status {
          model::device_mixin& mixin = out.device.emplace_back();
          return r_.each_field(m, [&](std::string_view field, od::value& fv) -> dra::status {
            auto in = r_.field(field);
            if (is(field, "name")) return assign(mixin.name, r_.string(fv));
            if (is(field, "attributes") || is(field, "capacity")) {
              model::device scratch;  // the same readers as a device's own maps
              auto st = device_field(field, fv, scratch);
              if (is(field, "attributes"))
                mixin.attributes = std::move(scratch.attributes);
              else
                mixin.capacity = std::move(scratch.capacity);
              return st;
            }
            return r_.unknown();
          });
        });
      if (is(name, "deviceCounterConsumption")) return counter_mixins(value, out.device_counter_consumption);
      if (is(name, "counterSet")) return counter_mixins(value, out.counter_set);
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
        if (is(field, "name")) return assign(mixin.name, r_.string(fv));
        if (is(field, "counters")) return counters(fv, mixin.counters);
        return r_.unknown();
      });
    });
  }

  dra::status slice_spec(od::value& v, model::resource_slice& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "driver")) return assign(out.driver, r_.string(value));
      if (is(name, "pool"))
        return r_.each_field(value, [&](std::string_view pool_field, od::value& pv) -> dra::status {
          auto in = r_.field(pool_field);
          if (is(pool_field, "name")) return assign(out.pool.name, r_.string(pv));
          if (is(pool_field, "generation")) return assign(out.pool.generation, r_.integer(pv));
          if (is(pool_field, "resourceSliceCount")) return assign(out.pool.resource_slice_count, r_.integer(pv));
          return r_.unknown();
        });
      if (is(name, "nodeName")) return assign(out.node_name, r_.string(value));
      if (is(name, "nodeSelector")) {
        if (reader::is_null(value)) return {};
        return node_selector(value, out.node_selector.emplace());
      }
      if (is(name, "allNodes")) return assign(out.all_nodes, r_.boolean(value));
      if (is(name, "perDeviceNodeSelection")) return assign(out.per_device_node_selection, r_.boolean(value));
      if (is(name, "skipNodeOperations")) return assign(out.skip_node_operations, r_.strings(value));
      if (is(name, "devices"))
        return r_.list(value, out.devices, [&](od::value& d, model::device& device_out) { return device(d, device_out, version); });
      if (is(name, "sharedCounters"))
        return r_.list(value, out.shared_counters, [&](od::value& c, model::counter_set& set) { return counter_set(c, set); });
      if (is(name, "mixins")) {
        if (reader::is_null(value)) return {};
        return mixins(value, out.mixins.emplace());
      }
      return r_.unknown();
    });
  }

  // ---- DeviceTaintRule (its taint is a device's)

  dra::status taint_rule_spec(od::value& v, model::device_taint_rule& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "taint")) return taint(value, out.taint);
      if (!is(name, "deviceSelector")) return r_.unknown();
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (reader::is_null(fv)) return {};
        if (is(field, "driver")) return assign(out.device_selector.driver, r_.string(fv));
        if (is(field, "pool")) return assign(out.device_selector.pool, r_.string(fv));
        if (is(field, "device")) return assign(out.device_selector.device, r_.string(fv));
        // v1alpha3 (Kubernetes 1.34) also had deviceClassName and selectors
        return is(field, "deviceClassName") || is(field, "selectors") ? dra::status{} : r_.unknown();
      });
    });
  }
};

}  // namespace dra::json::detail
