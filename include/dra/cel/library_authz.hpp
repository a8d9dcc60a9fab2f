// Kubernetes' authorizer libraries (authz, authz selectors): declarations only, as no selector can hold an authorizer value.
#pragma once

#include <dra/cel/detail/library_support.hpp>

#include <vector>

namespace dra::cel {

// Kubernetes' authorizer libraries (authz and authz selectors): member functions on the authorizer
// types. No selector can hold such a value (the environment declares no `authorizer`), but a call
// on a dyn receiver compiles as upstream's does and fails when evaluated.
inline void add_authorizer_libraries(function_table& table) {
  using namespace lib;
  const type authorizer = type::object("kubernetes.authorization.Authorizer");
  const type path_check = type::object("kubernetes.authorization.PathCheck");
  const type group_check = type::object("kubernetes.authorization.GroupCheck");
  const type resource_check = type::object("kubernetes.authorization.ResourceCheck");
  const type decision = type::object("kubernetes.authorization.Decision");
  // Never called: no value passes the type guard of an authorizer type.
  const implementation unreachable = [](args_t, call_context&) -> value { return value::error("no such overload"); };
  const struct {
    const char* name;
    const char* id;
    std::vector<type> params;
    type result;
  } declarations[] = {
      {"path", "authorizer_path", {authorizer, T_string()}, path_check},
      {"group", "authorizer_group", {authorizer, T_string()}, group_check},
      {"serviceAccount", "authorizer_serviceaccount", {authorizer, T_string(), T_string()}, authorizer},
      {"resource", "groupcheck_resource", {group_check, T_string()}, resource_check},
      {"subresource", "resourcecheck_subresource", {resource_check, T_string()}, resource_check},
      {"namespace", "resourcecheck_namespace", {resource_check, T_string()}, resource_check},
      {"name", "resourcecheck_name", {resource_check, T_string()}, resource_check},
      {"check", "pathcheck_check", {path_check, T_string()}, decision},
      {"check", "resourcecheck_check", {resource_check, T_string()}, decision},
      {"errored", "decision_errored", {decision}, T_bool()},
      {"error", "decision_error", {decision}, T_string()},
      {"allowed", "decision_allowed", {decision}, T_bool()},
      {"reason", "decision_reason", {decision}, T_string()},
      {"fieldSelector", "authorizer_fieldselector", {resource_check, T_string()}, resource_check},
      {"labelSelector", "authorizer_labelselector", {resource_check, T_string()}, resource_check},
  };
  for (const auto& d : declarations) table.add(d.name, overload{d.id, true, d.params, d.result, unreachable});
}

}  // namespace dra::cel
