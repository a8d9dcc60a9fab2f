// Kubernetes' quantity library: quantity, isQuantity, sign, isInteger, asInteger, asApproximateFloat, add, sub, isLessThan, isGreaterThan, compareTo.
#pragma once

#include <dra/cel/detail/library_support.hpp>
#include <dra/core/quantity.hpp>

#include <cstdint>

namespace dra::cel {

// Kubernetes' quantity library.
inline void add_quantity_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.global("quantity", "string_to_quantity", {T_string()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto q = dra::quantity::parse(a[0].as_text());
    if (!q) return value::error(dra::concat("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    return quantity_value{q.value()};
  });
  r.global("isQuantity", "is_quantity_string", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    return dra::quantity::parse(a[0].as_text()).has_value();
  });
  // sign() is declared as a global function: `sign(q)` compiles, `q.sign()` does not (as upstream).
  r.global("sign", "quantity_sign", {T_quantity()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<quantity_value>().q.sign()}; });
  r.member("isInteger", "quantity_is_integer", {T_quantity()}, T_bool(), [](args_t a, call_context&) -> value { return a[0].as<quantity_value>().q.is_integer(); });
  r.member("asInteger", "quantity_get_int", {T_quantity()}, T_int(), [](args_t a, call_context&) -> value {
    auto i = a[0].as<quantity_value>().q.as_int64();
    if (!i) return value::error("cannot convert value to integer");
    return *i;
  });
  r.member("asApproximateFloat", "quantity_get_float", {T_quantity()}, T_double(), [](args_t a, call_context&) -> value {
    return a[0].as<quantity_value>().q.approximate_double();
  });
  r.member("add", "quantity_add", {T_quantity(), T_quantity()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.add(a[1].as<quantity_value>().q);
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  r.member("add", "quantity_add_int", {T_quantity(), T_int()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.add(dra::quantity::from_int(a[1].as_int()));
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  r.member("sub", "quantity_sub", {T_quantity(), T_quantity()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.sub(a[1].as<quantity_value>().q);
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  r.member("sub", "quantity_sub_int", {T_quantity(), T_int()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.sub(dra::quantity::from_int(a[1].as_int()));
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  r.member("isLessThan", "quantity_is_less_than", {T_quantity(), T_quantity()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<quantity_value>().q < a[1].as<quantity_value>().q;
  });
  r.member("isGreaterThan", "quantity_is_greater_than", {T_quantity(), T_quantity()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<quantity_value>().q > a[1].as<quantity_value>().q;
  });
  r.member("compareTo", "quantity_compare_to", {T_quantity(), T_quantity()}, T_int(), [](args_t a, call_context&) -> value {
    const auto o = a[0].as<quantity_value>().q <=> a[1].as<quantity_value>().q;
    return std::int64_t{o < 0 ? -1 : (o > 0 ? 1 : 0)};
  });
}

}  // namespace dra::cel
