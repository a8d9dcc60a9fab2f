// A CEL environment: declared variables and object types, functions, limits; and the DRA selector environment.
#pragma once

#include <dra/cel/functions.hpp>
#include <dra/cel/library.hpp>
#include <dra/cel/parser.hpp>
#include <dra/cel/types.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

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
  return env;
}

}  // namespace dra::cel
