// The functions of Kubernetes' DRA selector environment: one header per upstream library, and the
// registry that puts them together (docs/cel-functions.md lists every overload).
#pragma once

#include <dra/cel/functions.hpp>
#include <dra/cel/library_authz.hpp>
#include <dra/cel/library_format.hpp>
#include <dra/cel/library_ip.hpp>
#include <dra/cel/library_lists.hpp>
#include <dra/cel/library_optional.hpp>
#include <dra/cel/library_quantity.hpp>
#include <dra/cel/library_regex.hpp>
#include <dra/cel/library_semver.hpp>
#include <dra/cel/library_sets.hpp>
#include <dra/cel/library_standard.hpp>
#include <dra/cel/library_strings.hpp>
#include <dra/cel/library_url.hpp>

#include <string_view>

namespace dra::cel {

// One library of the environment: upstream's name for it and what adds its overloads.
struct library_entry {
  std::string_view name;
  void (*add)(function_table&);
};

// The libraries of Kubernetes' DRA selector environment (Kubernetes 1.37, stored expressions), in
// registration order. The DRA environment's own `device` variable and cel.bind macro are not
// functions (environment.hpp, parser.hpp).
inline constexpr library_entry dra_libraries[] = {
    {"cel-go standard library", add_standard_library},
    {"kubernetes.regex", add_regex_library},
    {"cel.lib.ext.strings (version 2)", add_strings_extension},
    {"cel.lib.ext.sets", add_sets_extension},
    {"cel.lib.ext.lists (version 3)", add_lists_extension},
    {"kubernetes.lists (version 1)", add_kubernetes_lists_library},
    {"cel.lib.optional (version 2)", add_optional_library},
    {"kubernetes.quantity", add_quantity_library},
    {"kubernetes.semver (version 1)", add_semver_library},
    {"kubernetes.net.ip, kubernetes.net.cidr", add_ip_and_cidr_libraries},
    {"kubernetes.format", add_format_library},
    {"kubernetes.urls", add_url_library},
    {"kubernetes.authz, kubernetes.authzSelectors", add_authorizer_libraries},
};

// Registers every function of the DRA selector environment into `table`.
inline void add_dra_library(function_table& table) {
  for (const auto& library : dra_libraries) library.add(table);
}

}  // namespace dra::cel
