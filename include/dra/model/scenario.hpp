// A scenario: every object of a cluster state that device allocation looks at, in input order.
#pragma once

#include <dra/model/device_class.hpp>
#include <dra/model/pod_disruption_budget.hpp>
#include <dra/model/pod_group.hpp>
#include <dra/model/priority_class.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/workload.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace dra::model {

// Where an object stood in the input, for error messages and for keeping
// the input order across kinds.
struct source_position {
  std::size_t index = 0;  // position among all input objects
  std::string path;       // "items[3]", "[3]" or "" for a single object
  std::string_view json;  // the object's JSON text as written (empty when built in C++)
  friend bool operator==(const source_position&, const source_position&) = default;
};

// How errors name an object read from input: "Kind/namespace/name" (object_label), or for an
// object without a name, where it stands: "Kind items[3]", "Kind (the input)".
[[nodiscard]] inline std::string located_label(text kind, text namespace_, text name, std::string_view path) {
  if (!name.empty()) return object_label(kind, namespace_, name);
  std::string out(kind);
  return out.append(" ").append(path.empty() ? std::string_view("(the input)") : path);
}
[[nodiscard]] inline std::string located_label(text kind, text namespace_, text name, const source_position& source) {
  return located_label(kind, namespace_, name, std::string_view(source.path));
}

template <class T>
struct located {
  T object;
  source_position source;
  friend bool operator==(const located&, const located&) = default;
};

// An object of a kind device allocation does not use (a ConfigMap, a
// Deployment…): kept so that commands which echo their input keep it.
struct other_object {
  text api_version;
  text kind;
  object_meta meta;
  friend bool operator==(const other_object&, const other_object&) = default;
};

struct scenario {
  std::vector<located<resource_slice>> slices;
  std::vector<located<device_class>> classes;
  std::vector<located<resource_claim>> claims;
  std::vector<located<resource_claim_template>> claim_templates;
  std::vector<located<device_taint_rule>> taint_rules;
  std::vector<located<node>> nodes;
  std::vector<located<pod>> pods;
  std::vector<located<pod_group>> pod_groups;
  std::vector<located<workload>> workloads;
  std::vector<located<priority_class>> priority_classes;
  std::vector<located<pod_disruption_budget>> disruption_budgets;
  std::vector<located<other_object>> others;  // every other kind, for echoing
  std::vector<std::string> warnings;  // e.g. unknown kinds, ignored with a note
  friend bool operator==(const scenario&, const scenario&) = default;
};

}  // namespace dra::model
