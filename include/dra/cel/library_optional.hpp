// cel-go's optional types library (version 2): optional.of, optional.ofNonZeroValue, optional.none, value, hasValue, or, orValue, first, last, optional.unwrap, unwrapOpt.
#pragma once

#include <dra/cel/detail/library_support.hpp>

namespace dra::cel {

// cel-go's optional types (cel.OptionalTypes(), version 2); `?.`, `[?]`, optMap and optFlatMap
// are the parser's and interpreter's.
inline void add_optional_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.member("first", "list_first", {type::list(T_A())}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    return items(a[0]).empty() ? value::none() : value::some(items(a[0]).front());
  });
  r.member("last", "list_last", {type::list(T_A())}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    return items(a[0]).empty() ? value::none() : value::some(items(a[0]).back());
  });
  r.global("optional.of", "optional_of", {T_A()}, type::optional(T_A()), [](args_t a, call_context&) -> value { return value::some(a[0]); });
  r.global("optional.ofNonZeroValue", "optional_ofNonZeroValue", {T_A()}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    const value& v = a[0];
    bool zero = false;
    switch (v.kind()) {
      case value_kind::null: zero = true; break;
      case value_kind::boolean: zero = !v.as_bool(); break;
      case value_kind::int64: zero = v.as_int() == 0; break;
      case value_kind::uint64: zero = v.as_uint() == 0; break;
      case value_kind::double_: zero = v.as_double() == 0; break;
      case value_kind::string:
      case value_kind::bytes: zero = v.as_text().empty(); break;
      case value_kind::list: zero = items(v).empty(); break;
      case value_kind::map: zero = v.as<map_value>().size() == 0; break;
      case value_kind::host_map: zero = v.as<host_map_value>().map->size(v.as<host_map_value>().scope) == 0; break;
      case value_kind::duration: zero = v.as<duration_value>().nanos == 0; break;
      case value_kind::timestamp: zero = v.as<timestamp_value>().seconds == 0 && v.as<timestamp_value>().nanos == 0; break;
      default: break;
    }
    return zero ? value::none() : value::some(v);
  });
  r.global("optional.none", "optional_none", {}, type::optional(T_dyn()), [](args_t, call_context&) -> value { return value::none(); });
  auto unwrap = [](args_t a, call_context&) -> value {
    std::vector<value> out;
    for (const auto& e : items(a[0])) {
      const auto* o = e.get_if<optional_value>();
      if (o == nullptr) return no_overload("optional.unwrap");
      if (o->inner) out.push_back(*o->inner);
    }
    return value::list(std::move(out));
  };
  r.global("optional.unwrap", "optional_unwrap", {type::list(type::optional(T_A()))}, type::list(T_A()), unwrap);
  r.member("unwrapOpt", "optional_unwrapOpt", {type::list(type::optional(T_A()))}, type::list(T_A()), unwrap);
  r.member("value", "optional_value", {type::optional(T_A())}, T_A(), [](args_t a, call_context&) -> value {
    const auto& o = a[0].as<optional_value>();
    if (!o.inner) return value::error("optional.none() dereference");
    return *o.inner;
  });
  r.member("hasValue", "optional_hasValue", {type::optional(T_A())}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<optional_value>().inner != nullptr;
  });
  r.member("or", "optional_or_optional", {type::optional(T_A()), type::optional(T_A())}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    return a[0].as<optional_value>().inner ? a[0] : a[1];
  });
  r.member("orValue", "optional_orValue_value", {type::optional(T_A()), T_A()}, T_A(), [](args_t a, call_context&) -> value {
    const auto& o = a[0].as<optional_value>();
    return o.inner ? *o.inner : a[1];
  });
}

}  // namespace dra::cel
