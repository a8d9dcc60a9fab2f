// A CEL environment: declared variables and object types, functions, limits; and the DRA selector environment.
#pragma once

#include <dra/cel/functions.hpp>
#include <dra/cel/library.hpp>
#include <dra/cel/parser.hpp>
#include <dra/cel/types.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

// The range of sizes a string, bytes, list or map may have (cel-go's SizeEstimate), for the cost estimate.
struct size_estimate {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  friend bool operator==(const size_estimate&, const size_estimate&) = default;
};

// The range of costs an evaluation may have, in cel-go's cost units. A bound that cannot be known (a loop over a
// list of unknown length) is UINT64_MAX, as cel-go's.
struct cost_estimate {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  friend bool operator==(const cost_estimate&, const cost_estimate&) = default;
};

// The declared size of a value reached from a variable, if the environment knows it. `path` is the
// variable's name, then field names and "@keys", "@values", "@items" (cel-go's AstNode.Path()).
using size_lookup = std::optional<size_estimate> (*)(std::span<const std::string> path);

struct variable_declaration {
  std::string name;
  type declared;
};

struct field_declaration {
  std::string name;
  type declared;
};

class environment {
 public:
  function_table functions;
  std::vector<variable_declaration> variables;
  std::map<std::string, std::vector<field_declaration>, std::less<>> object_types;
  std::string container;  // namespace in which unqualified names are resolved first
  parse_limits limits{};
  std::uint64_t cost_limit = UINT64_MAX;
  // cel-go's HomogeneousAggregateLiterals: list and map literals of one element type.
  bool homogeneous_literals = false;
  // cel-go's OptOptimize: constant conversions, literals and format strings are evaluated when
  // the program is built, so that their errors are compile errors.
  bool fold_constants = false;
  // For the cost estimate (cost.hpp): the sizes the variables' declarations bound, and whether has()
  // costs 1 (cel-go's default) or nothing (Kubernetes sets PresenceTestHasCost(false)).
  size_lookup declared_sizes = nullptr;
  bool presence_test_has_cost = true;

  [[nodiscard]] const variable_declaration* find_variable(std::string_view name) const noexcept {
    for (const auto& v : variables)
      if (v.name == name) return &v;
    return nullptr;
  }
  [[nodiscard]] const field_declaration* find_field(std::string_view object, std::string_view field) const noexcept {
    auto it = object_types.find(object);
    if (it == object_types.end()) return nullptr;
    for (const auto& f : it->second)
      if (f.name == field) return &f;
    return nullptr;
  }
};

// Kubernetes' per-expression cost limit for device selectors (resourceapi.CELSelectorExpressionMaxCost).
inline constexpr std::uint64_t selector_max_cost = 1'000'000;

// The object type of the DRA `device` variable.
inline constexpr std::string_view device_type_name = "kubernetes.DRADevice";

// Which optional parts of the `device` declaration are present. Upstream's allocator always
// uses the full environment ("stored expressions": every declaration of the newest version, feature
// gates ignored); the API server narrows it by feature gate only when it validates new objects.
struct dra_environment_options {
  bool consumable_capacity = true;   // device.allowMultipleAllocations
  bool list_type_attributes = true;  // `includes`
};

namespace detail {

// The bounds Kubernetes declares on the `device` variable for its cost estimator (dynamic-resource-allocation
// cel/compile.go): names of the resource.k8s.io API's limits.
inline constexpr std::uint64_t device_max_domain_length = 63;       // DeviceMaxDomainLength
inline constexpr std::uint64_t device_max_id_length = 32;           // DeviceMaxIDLength
inline constexpr std::uint64_t driver_name_max_length = 63;         // DriverNameMaxLength
inline constexpr std::uint64_t attributes_and_capacities_max = 32;  // ResourceSliceMaxAttributesAndCapacitiesPerDevice
inline constexpr std::uint64_t attribute_max_value_length = 64;     // DeviceAttributeMaxValueLength
inline constexpr std::uint64_t attribute_values_per_device_max = 48;  // ResourceSliceMaxAttributeValuesPerDevice

// An attribute is a scalar (a string of at most 64 bytes) or a list (of at most 48 values): the larger bound.
inline constexpr std::uint64_t attribute_value_max_size =
    std::max(attribute_max_value_length, attribute_values_per_device_max);

// Upstream's size estimator walks its declaration of the device type along the path: the driver, the flag, two
// levels of maps keyed by domain and name, attribute values of a known size. A quantity declares no size (0), and
// a field selected on anything but a map of attributes has none.
[[nodiscard]] inline std::optional<size_estimate> dra_declared_size(std::span<const std::string> path) {
  if (path.empty() || path[0] != "device") return std::nullopt;
  enum class at { device, driver, flag, outer_map, inner_map, domain, id, attribute, quantity };
  at where = at::device;
  bool capacity = false;
  for (const std::string& step : path.subspan(1)) {
    const bool element = step == "@items" || step == "@values";
    if (where == at::device && !element && step != "@keys") {
      if (step == "driver")
        where = at::driver;
      else if (step == "allowMultipleAllocations")
        where = at::flag;
      else if (step == "attributes" || step == "capacity")
        where = at::outer_map, capacity = step == "capacity";
      else
        return std::nullopt;
    } else if (where == at::outer_map && (element || step == "@keys")) {
      where = element ? at::inner_map : at::domain;
    } else if (where == at::inner_map && (element || step == "@keys")) {
      where = step == "@keys" ? at::id : capacity ? at::quantity : at::attribute;
    } else if (where == at::inner_map && !capacity) {
      where = at::attribute;  // `device.attributes["d"].name`: any name of an attribute map
    } else {
      return std::nullopt;
    }
  }
  switch (where) {
    case at::device:
      return size_estimate{0, 0};
    case at::driver:
      return size_estimate{0, driver_name_max_length};
    case at::flag:
      return size_estimate{0, 1};
    case at::outer_map:
    case at::inner_map:
      return size_estimate{0, attributes_and_capacities_max};
    case at::domain:
      return size_estimate{0, device_max_domain_length};
    case at::id:
      return size_estimate{0, device_max_id_length};
    case at::attribute:
      return size_estimate{0, attribute_value_max_size};
    case at::quantity:
      return size_estimate{0, 0};
  }
  return std::nullopt;
}

}  // namespace detail

// The environment Kubernetes compiles DRA selectors in: the base library, the
// `device` variable, homogeneous literals, constant folding, the cost limit.
[[nodiscard]] inline std::shared_ptr<environment> make_dra_environment(dra_environment_options options = {}) {
  auto env = std::make_shared<environment>();
  add_dra_library(env->functions);
  if (!options.list_type_attributes) env->functions.erase("includes");
  std::vector<field_declaration> fields;
  if (options.consumable_capacity) fields.push_back({"allowMultipleAllocations", type::boolean()});
  fields.push_back({"driver", type::string()});
  fields.push_back({"attributes", type::map(type::string(), type::map(type::string(), type::dyn()))});
  fields.push_back(
      {"capacity", type::map(type::string(), type::map(type::string(), type::opaque("kubernetes.Quantity")))});
  env->object_types.emplace(std::string(device_type_name), std::move(fields));
  env->variables.push_back({"device", type::object(std::string(device_type_name))});
  env->cost_limit = selector_max_cost;
  env->homogeneous_literals = true;
  env->fold_constants = true;
  env->declared_sizes = detail::dra_declared_size;
  env->presence_test_has_cost = false;
  return env;
}

}  // namespace dra::cel
