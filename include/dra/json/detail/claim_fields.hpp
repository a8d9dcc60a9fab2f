// The readers of a DeviceClass's spec, a ResourceClaim's spec and status, a ResourceClaimTemplate's spec under JSON ingest.
#pragma once

#include <dra/json/detail/fields.hpp>
#include <dra/json/detail/reader.hpp>
#include <dra/model/device_class.hpp>
#include <dra/model/resource_claim.hpp>

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::json::detail {

class claim_reader : public field_reader {
 public:
  using field_reader::field_reader;

  // ---- DeviceClass

  dra::status class_spec(od::value& v, model::device_class& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "selectors")) return selectors(value, out.selectors);
      if (is(name, "config"))
        return r_.each_element(value, [&](od::value& c) -> dra::status {
          model::device_class_configuration& config = out.config.emplace_back();
          config.opaque.present = false;
          return r_.each_field(c, [&](std::string_view field, od::value& fv) -> dra::status {
            auto in = r_.field(field);
            if (is(field, "opaque")) return opaque(fv, config.opaque);
            return r_.unknown();
          });
        });
      if (is(name, "extendedResourceName")) return assign(out.extended_resource_name, r_.string(value));
      return r_.unknown();
    });
  }

  // ---- ResourceClaim

  // The fields ExactDeviceRequest and DeviceSubRequest share (and v1beta1's
  // DeviceRequest has inline).
  dra::status request_spec_field(std::string_view name, od::value& value, model::device_request_spec& out,
                                 std::optional<bool>* admin_access, bool& mode_set, bool& count_set) {
    if (is(name, "deviceClassName")) return assign(out.device_class_name, r_.string(value));
    if (is(name, "selectors")) return selectors(value, out.selectors);
    if (is(name, "allocationMode")) {
      auto mode = r_.string(value);
      if (!mode) return std::move(mode).error();
      mode_set = !mode->empty();
      out.mode_name = *mode;
      if (is(*mode, "All"))
        out.mode = model::allocation_mode::all;
      else if (is(*mode, "ExactCount") || mode->empty())
        out.mode = model::allocation_mode::exact_count;
      else
        out.mode = model::allocation_mode::unsupported;  // validation and allocation report it
      return {};
    }
    if (is(name, "count")) {
      count_set = true;
      return assign(out.count, r_.integer(value));
    }
    if (is(name, "adminAccess") && admin_access != nullptr) {
      if (reader::is_null(value)) return {};
      return assign(*admin_access, r_.boolean(value));
    }
    if (is(name, "tolerations")) return tolerations(value, out.tolerations);
    if (is(name, "derivedAttributes"))
      return r_.each_element(value, [&](od::value& d) -> dra::status {
        model::device_derived_attribute& derived = out.derived_attributes.emplace_back();
        return r_.each_field(d, [&](std::string_view field, od::value& fv) -> dra::status {
          auto in = r_.field(field);
          if (is(field, "name")) return assign(derived.name, r_.string(fv));
          if (is(field, "expression")) return assign(derived.expression, r_.string(fv));
          return r_.unknown();
        });
      });
    if (is(name, "capacity"))
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (!is(field, "requests")) return r_.unknown();
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
      if (is(name, "name") && sub_request_name != nullptr) return assign(*sub_request_name, r_.string(value));
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
        if (is(name, "name")) return assign(out.name, r_.string(value));
        if (is(name, "firstAvailable")) return sub_requests(value, out.first_available);
        if (is(name, "deviceClassName") || is(name, "selectors") || is(name, "allocationMode") || is(name, "count") ||
            is(name, "adminAccess") || is(name, "tolerations") || is(name, "capacity") || is(name, "derivedAttributes"))
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
      if (is(name, "name")) return assign(out.name, r_.string(value));
      if (is(name, "exactly")) {
        if (reader::is_null(value)) return {};
        model::exact_device_request& exactly = out.exactly.emplace();
        return request_spec(value, exactly, &exactly.admin_access, nullptr);
      }
      if (is(name, "firstAvailable")) return sub_requests(value, out.first_available);
      if (is(name, "deviceClassName") || is(name, "selectors") || is(name, "allocationMode") || is(name, "count") ||
          is(name, "adminAccess") || is(name, "tolerations") || is(name, "capacity") || is(name, "derivedAttributes"))
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
      if (!is(name, "devices")) return r_.unknown();
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (is(field, "requests"))
          return r_.each_element(fv, [&](od::value& rq) { return request(rq, out.requests.emplace_back(), version); });
        if (is(field, "constraints"))
          return r_.each_element(fv, [&](od::value& c) -> dra::status {
            model::device_constraint& constraint = out.constraints.emplace_back();
            return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
              auto cin = r_.field(cf);
              if (is(cf, "requests")) return assign(constraint.requests, r_.strings(cv));
              if (is(cf, "matchAttribute")) return assign(constraint.match_attribute, r_.string(cv));
              if (is(cf, "distinctAttribute")) return assign(constraint.distinct_attribute, r_.string(cv));
              return r_.unknown();
            });
          });
        if (is(field, "config"))
          return r_.each_element(fv, [&](od::value& c) -> dra::status {
            model::device_claim_configuration& config = out.config.emplace_back();
            config.opaque.present = false;
            return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
              auto cin = r_.field(cf);
              if (is(cf, "requests")) return assign(config.requests, r_.strings(cv));
              if (is(cf, "opaque")) return opaque(cv, config.opaque);
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
      if (is(name, "nodeSelector")) {
        if (reader::is_null(value)) return {};
        return node_selector(value, out.node_selector.emplace());
      }
      if (is(name, "allocationTimestamp")) return assign(out.allocation_timestamp, r_.string(value));
      if (!is(name, "devices")) return r_.unknown();
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (is(field, "results"))
          return r_.each_element(fv, [&](od::value& rv) { return allocation_device(rv, out.results.emplace_back()); });
        if (is(field, "config"))
          return r_.each_element(fv, [&](od::value& cv) -> dra::status {
            model::device_allocation_configuration& config = out.config.emplace_back();
            config.source = model::allocation_config_source::unsupported;  // until a known source is read
            config.opaque.present = false;
            return r_.each_field(cv, [&](std::string_view cf, od::value& v2) -> dra::status {
              auto cin = r_.field(cf);
              if (is(cf, "source")) {
                auto source = r_.string(v2);
                if (!source) return std::move(source).error();
                if (is(*source, "FromClass"))
                  config.source = model::allocation_config_source::from_class;
                else if (is(*source, "FromClaim"))
                  config.source = model::allocation_config_source::from_claim;
                else
                  config.source_name = *source;  // validation reports it
                return {};
              }
              if (is(cf, "requests")) {
                auto requests = r_.strings(v2);
                if (!requests) return std::move(requests).error();
                for (std::string_view rq : *requests) config.requests.emplace_back(rq);
                return {};
              }
              if (is(cf, "opaque")) return opaque(v2, config.opaque);
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
      if (is(name, "request")) {
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.request = std::string(*s);
        return {};
      }
      if (is(name, "driver")) return assign(out.driver, r_.string(value));
      if (is(name, "pool")) return assign(out.pool, r_.string(value));
      if (is(name, "device")) return assign(out.device, r_.string(value));
      if (is(name, "adminAccess")) {
        if (reader::is_null(value)) return {};
        return assign(out.admin_access, r_.boolean(value));
      }
      if (is(name, "tolerations")) return tolerations(value, out.tolerations);
      if (is(name, "bindingConditions")) return assign(out.binding_conditions, r_.strings(value));
      if (is(name, "bindingFailureConditions")) return assign(out.binding_failure_conditions, r_.strings(value));
      if (is(name, "shareID")) {
        if (reader::is_null(value)) return {};
        auto s = r_.string(value);
        if (!s) return std::move(s).error();
        out.share_id = std::string(*s);
        return {};
      }
      if (is(name, "consumedCapacity"))
        return r_.map(value, out.consumed_capacity, [&](od::value& q, quantity& amount) { return assign(amount, r_.quantity_value(q)); });
      if (is(name, "skipNodeOperations")) return assign(out.skip_node_operations, r_.strings(value));
      return r_.unknown();
    });
  }

  // ---- ResourceClaim status, ResourceClaimTemplate, DeviceTaintRule

  dra::status claim_status(od::value& v, model::resource_claim& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "allocation")) {
        if (reader::is_null(value)) return {};
        return allocation(value, out.allocation.emplace());
      }
      if (is(name, "reservedFor"))
        return r_.each_element(value, [&](od::value& c) -> dra::status {
          model::resource_claim_consumer_reference& consumer = out.reserved_for.emplace_back();
          return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
            auto in = r_.field(cf);
            if (is(cf, "apiGroup")) return assign(consumer.api_group, r_.string(cv));
            if (is(cf, "resource")) return assign(consumer.resource, r_.string(cv));
            if (is(cf, "name")) return assign(consumer.name, r_.string(cv));
            if (is(cf, "uid")) return assign(consumer.uid, r_.string(cv));
            return r_.unknown();
          });
        });
      if (is(name, "devices"))
        return r_.each_element(value, [&](od::value& d) { return device_status(d, out.devices.emplace_back()); });
      return r_.unknown();
    });
  }

  // AllocatedDeviceStatus: read to be validated; conditions are only counted.
  dra::status device_status(od::value& v, model::allocated_device_status& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "driver")) return assign(out.driver, r_.string(value));
      if (is(name, "pool")) return assign(out.pool, r_.string(value));
      if (is(name, "device")) return assign(out.device, r_.string(value));
      if (reader::is_null(value)) return {};
      if (is(name, "shareID")) return assign(out.share_id, r_.string(value));
      if (is(name, "conditions"))
        return r_.each_element(value, [&](od::value&) -> dra::status {
          ++out.conditions;
          return {};
        });
      if (is(name, "data")) return assign(out.data_json, r_.raw_json(value));
      if (!is(name, "networkData")) return {};
      model::network_device_data& network = out.network_data.emplace();
      return r_.each_field(value, [&](std::string_view nf, od::value& nv) -> dra::status {
        auto in = r_.field(nf);
        if (is(nf, "interfaceName")) return assign(network.interface_name, r_.string(nv));
        if (is(nf, "hardwareAddress")) return assign(network.hardware_address, r_.string(nv));
        if (is(nf, "ips")) return assign(network.ips, r_.strings(nv));
        return {};
      });
    });
  }

  // ResourceClaimTemplateSpec: the metadata and the spec of the claims made from it.
  dra::status template_spec(od::value& v, model::resource_claim_template& out, api_version version) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "metadata")) return metadata(value, out.claim_meta);
      if (is(name, "spec")) return claim_spec(value, out.spec, version);
      return r_.unknown();
    });
  }
};

}  // namespace dra::json::detail
