// The readers of a Node's and a Pod's fields under JSON ingest: what scheduling looks at (taints, allocatable
// resources, node selection, tolerations, requests, priority, gates) and a pod's claim references.
// PodGroups, Workloads and PriorityClasses are read here too: their fields are scheduling fields of the same kind.
#pragma once

#include <dra/json/detail/fields.hpp>
#include <dra/json/detail/reader.hpp>
#include <dra/model/pod_group.hpp>
#include <dra/model/priority_class.hpp>
#include <dra/model/workload.hpp>

#include <simdjson.h>

#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

namespace dra::json::detail {

// Node and Pod are not strict kinds: fields they do not read (most of a kubectl snapshot) are skipped.
class workload_reader : public field_reader {
 public:
  using field_reader::field_reader;

  // ---- Node

  dra::status node_spec(od::value& v, model::node& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "unschedulable")) {
        if (reader::is_null(value)) return {};
        return assign(out.unschedulable, r_.boolean(value));
      }
      if (is(name, "taints")) return r_.each_element(value, [&](od::value& t) { return taint(t, out.taints.emplace_back()); });
      return {};
    });
  }

  dra::status node_status(od::value& v, model::node& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "allocatable")) {
        if (reader::is_null(value)) return {};
        return resources(value, out.allocatable.emplace());
      }
      if (is(name, "declaredFeatures")) return assign(out.declared_features, r_.strings(value));
      return {};
    });
  }

  // ---- Pod

  dra::status pod_spec(od::value& v, model::pod& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "nodeName")) {
        if (reader::is_null(value)) return {};  // YAML's `nodeName:` (Go's decoder skips null)
        return assign(out.node_name, r_.string(value));
      }
      if (is(name, "resourceClaims")) return resource_claims(value, out.resource_claims);
      if (is(name, "schedulingGroup")) {
        if (reader::is_null(value)) return {};
        return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
          auto in = r_.field(field);
          if (!is(field, "podGroupName") || reader::is_null(fv)) return {};
          return assign(out.pod_group_name, r_.string(fv));
        });
      }
      if (is(name, "nodeSelector"))
        return r_.map(value, out.node_selector, [&](od::value& l, model::text& label) { return assign(label, r_.string(l)); });
      if (is(name, "affinity")) return affinity(value, out);
      if (is(name, "tolerations")) return tolerations(value, out.tolerations);
      if (is(name, "containers")) return containers(value, out.containers);
      if (is(name, "initContainers")) return containers(value, out.init_containers);
      if (is(name, "overhead")) return resources(value, out.overhead);
      if (is(name, "resources")) return pod_resources(value, out);
      if (is(name, "priority")) {
        if (reader::is_null(value)) return {};
        out.priority_given = true;
        return assign(out.priority, r_.integer32(value));
      }
      if (is(name, "priorityClassName")) {
        if (reader::is_null(value)) return {};
        return assign(out.priority_class_name, r_.string(value));
      }
      if (is(name, "preemptionPolicy")) {
        if (reader::is_null(value)) return {};
        return assign(out.preemption_policy, r_.string(value));
      }
      if (is(name, "schedulingGates")) return names_of(value, out.scheduling_gates);
      return {};
    });
  }

  // A PriorityClass keeps its fields at the top level, beside its metadata.
  dra::status priority_class_field(std::string_view name, od::value& value, model::priority_class& out) {
    if (reader::is_null(value)) return {};
    if (is(name, "value")) return assign(out.value, r_.integer32(value));
    if (is(name, "globalDefault")) return assign(out.global_default, r_.boolean(value));
    if (is(name, "preemptionPolicy")) return assign(out.preemption_policy, r_.string(value));
    return {};
  }

  dra::status pod_status(od::value& v, model::pod& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "phase")) {
        if (reader::is_null(value)) return {};
        return assign(out.phase, r_.string(value));
      }
      if (is(name, "startTime")) {
        if (reader::is_null(value)) return {};
        return assign(out.start_time, r_.string(value));
      }
      if (is(name, "extendedResourceClaimStatus")) {
        if (reader::is_null(value)) return {};
        return extended_resource_claim_status(value, out.extended_resource_claim_status.emplace());
      }
      if (is(name, "nodeAllocatableResourceClaimStatuses") && !reader::is_null(value))
        return node_allocatable_claim_statuses(value, out.node_allocatable_claim_statuses);
      if (!is(name, "resourceClaimStatuses")) return {};
      return claim_statuses(value, out.resource_claim_statuses);
    });
  }

  dra::status node_allocatable_claim_statuses(od::value& v, std::vector<model::node_allocatable_claim_status>& out) {
    auto optional_quantity = [&](od::value& q, std::optional<quantity>& into) -> dra::status {
      return reader::is_null(q) ? dra::status{} : assign(into, r_.quantity_value(q));
    };
    return r_.each_element(v, [&](od::value& s) -> dra::status {
      model::node_allocatable_claim_status& status = out.emplace_back();
      return r_.each_field(s, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (reader::is_null(value)) return {};
        if (is(name, "resourceClaimName")) return assign(status.resource_claim_name, r_.string(value));
        if (is(name, "containers")) return assign(status.containers, r_.strings(value));
        if (is(name, "mapping"))
          return r_.each_element(value, [&](od::value& m) -> dra::status {
            model::keyed<quantity>& mapped = status.mapping.emplace_back();
            return r_.each_field(m, [&](std::string_view field, od::value& fv) -> dra::status {
              auto in = r_.field(field);
              if (is(field, "name")) return assign(mapped.name, r_.string(fv));
              if (is(field, "quantity") && !reader::is_null(fv)) return assign(mapped.value, r_.quantity_value(fv));
              return {};
            });
          });
        if (is(name, "overhead"))
          return r_.each_element(value, [&](od::value& o) -> dra::status {
            model::node_allocatable_overhead_status& overhead = status.overhead.emplace_back();
            return r_.each_field(o, [&](std::string_view field, od::value& fv) -> dra::status {
              auto in = r_.field(field);
              if (is(field, "name")) return assign(overhead.name, r_.string(fv));
              if (is(field, "perPod")) return optional_quantity(fv, overhead.per_pod);
              if (is(field, "perContainer")) return optional_quantity(fv, overhead.per_container);
              return {};
            });
          });
        return {};
      });
    });
  }

  // ---- PodGroup and Workload (scheduling.k8s.io)

  dra::status pod_group_status(od::value& v, model::pod_group& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      return is(name, "resourceClaimStatuses") ? claim_statuses(value, out.resource_claim_statuses) : dra::status{};
    });
  }

  dra::status workload_spec(od::value& v, model::workload& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (!is(name, "podGroupTemplates")) return {};
      return r_.each_element(value, [&](od::value& t) -> dra::status {
        model::pod_group_template& group = out.pod_group_templates.emplace_back();
        return pod_group_spec(t, group.spec, &group.name);
      });
    });
  }

  // A PodGroup's spec, or a Workload's pod group template (which also has a name: `name` is given for those).
  dra::status pod_group_spec(od::value& v, model::pod_group_spec& out, model::text* name = nullptr) {
    return r_.each_field(v, [&](std::string_view field, od::value& value) -> dra::status {
      auto at = r_.field(field);
      if (name != nullptr && is(field, "name")) return assign(*name, r_.string(value));
      if (reader::is_null(value)) return {};
      if (is(field, "resourceClaims")) return resource_claims(value, out.resource_claims);
      if (is(field, "schedulingPolicy")) return scheduling_policy(value, out);
      if (is(field, "schedulingConstraints"))
        return r_.each_field(value, [&](std::string_view cf, od::value& cv) -> dra::status {
          auto in = r_.field(cf);
          if (!is(cf, "topology") || reader::is_null(cv)) return {};
          return r_.each_element(cv, [&](od::value& term) -> dra::status {
            model::text& key = out.topology_keys.emplace_back();
            return r_.each_field(term, [&](std::string_view tf, od::value& tv) -> dra::status {
              auto key_at = r_.field(tf);
              return is(tf, "key") ? assign(key, r_.string(tv)) : dra::status{};
            });
          });
        });
      return {};
    });
  }

 private:
  dra::status scheduling_policy(od::value& v, model::pod_group_spec& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (reader::is_null(value)) return {};
      if (is(name, "basic")) {
        out.basic = true;
        return r_.each_field(value, [](std::string_view, od::value&) -> dra::status { return {}; });
      }
      if (!is(name, "gang")) return {};
      out.gang = true;
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (!is(field, "minCount") || reader::is_null(fv)) return {};
        return assign(out.gang_min_count, r_.integer(fv));
      });
    });
  }

  dra::status claim_statuses(od::value& v, std::vector<model::pod_resource_claim_status>& out) {
    return r_.each_element(v, [&](od::value& s) -> dra::status {
      model::pod_resource_claim_status& status = out.emplace_back();
      return r_.each_field(s, [&](std::string_view sf, od::value& sv) -> dra::status {
        auto in = r_.field(sf);
        if (is(sf, "name")) return assign(status.name, r_.string(sv));
        if (is(sf, "resourceClaimName")) {
          if (reader::is_null(sv)) return {};
          return assign(status.resource_claim_name, r_.string(sv));
        }
        return {};
      });
    });
  }

  dra::status extended_resource_claim_status(od::value& v, model::pod_extended_resource_claim_status& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "resourceClaimName")) return assign(out.resource_claim_name, r_.string(value));
      if (!is(name, "requestMappings")) return {};
      return r_.each_element(value, [&](od::value& m) -> dra::status {
        model::container_extended_resource_request& mapping = out.request_mappings.emplace_back();
        return r_.each_field(m, [&](std::string_view mf, od::value& mv) -> dra::status {
          auto in = r_.field(mf);
          if (is(mf, "containerName")) return assign(mapping.container_name, r_.string(mv));
          if (is(mf, "resourceName")) return assign(mapping.resource_name, r_.string(mv));
          if (is(mf, "requestName")) return assign(mapping.request_name, r_.string(mv));
          return {};
        });
      });
    });
  }

  // A ResourceList: quantities by resource name.
  dra::status resources(od::value& v, model::resource_list& out) {
    return r_.map(v, out, [&](od::value& q, quantity& amount) { return assign(amount, r_.quantity_value(q)); });
  }

  dra::status resource_claims(od::value& v, std::vector<model::pod_resource_claim>& out) {
    return r_.each_element(v, [&](od::value& c) -> dra::status {
      model::pod_resource_claim& claim = out.emplace_back();
      return r_.each_field(c, [&](std::string_view cf, od::value& cv) -> dra::status {
        auto in = r_.field(cf);
        if (is(cf, "name")) return assign(claim.name, r_.string(cv));
        if (reader::is_null(cv)) return {};
        if (is(cf, "resourceClaimName")) return assign(claim.resource_claim_name, r_.string(cv));
        if (is(cf, "resourceClaimTemplateName")) return assign(claim.resource_claim_template_name, r_.string(cv));
        return {};
      });
    });
  }

  // affinity.nodeAffinity: its required selector and its preferred terms; pod (anti-)affinity is not read
  // (docs/scheduling.md).
  dra::status affinity(od::value& v, model::pod& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (!is(name, "nodeAffinity")) return {};
      return r_.each_field(value, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        if (reader::is_null(fv)) return {};
        if (is(field, "requiredDuringSchedulingIgnoredDuringExecution"))
          return node_selector(fv, out.required_node_affinity.emplace());
        if (is(field, "preferredDuringSchedulingIgnoredDuringExecution"))
          return r_.each_element(fv, [&](od::value& t) { return preferred_term(t, out.preferred_node_affinity.emplace_back()); });
        return {};
      });
    });
  }

  dra::status preferred_term(od::value& v, model::preferred_scheduling_term& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "weight")) return assign(out.weight, r_.integer32(value));
      if (is(name, "preference")) return node_selector_term(value, out.preference);
      return {};
    });
  }

  dra::status containers(od::value& v, std::vector<model::container>& out) {
    return r_.each_element(v, [&](od::value& c) -> dra::status {
      model::container& container = out.emplace_back();
      return r_.each_field(c, [&](std::string_view name, od::value& value) -> dra::status {
        auto at = r_.field(name);
        if (is(name, "name")) return assign(container.name, r_.string(value));
        if (is(name, "resources")) return container_resources(value, container);
        if (is(name, "restartPolicy")) {
          if (reader::is_null(value)) return {};
          auto policy = r_.string(value);
          if (!policy) return std::move(policy).error();
          container.sidecar = *policy == "Always";
          return {};
        }
        return {};
      });
    });
  }

  // A list of objects reduced to their `name`s (scheduling gates, a container's claims).
  dra::status names_of(od::value& v, std::vector<model::text>& out) {
    return r_.each_element(v, [&](od::value& element) -> dra::status {
      model::text& element_name = out.emplace_back();
      return r_.each_field(element, [&](std::string_view field, od::value& fv) -> dra::status {
        auto in = r_.field(field);
        return is(field, "name") ? assign(element_name, r_.string(fv)) : dra::status{};
      });
    });
  }

  dra::status container_resources(od::value& v, model::container& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "requests")) return resources(value, out.requests);
      if (is(name, "limits")) return resources(value, out.limits);
      if (is(name, "claims") && !reader::is_null(value)) return names_of(value, out.claims);
      return {};
    });
  }

  dra::status pod_resources(od::value& v, model::pod& out) {
    if (reader::is_null(v)) return {};
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "requests")) return resources(value, out.pod_requests.emplace());
      if (is(name, "limits")) return resources(value, out.pod_limits.emplace());
      return {};
    });
  }
};

}  // namespace dra::json::detail
