// cel-go's lists extension (version 3) and Kubernetes' lists library (version 1).
#pragma once

#include <dra/cel/detail/library_support.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace dra::cel {

namespace lib {

// The least or greatest element; an empty list is an error worded as upstream's.
inline value extreme(args_t a, call_context& c, bool want_max) {
  const auto& l = items(a[0]);
  c.cost += l.size();
  if (l.empty()) return value::error(want_max ? "max called on empty list" : "min called on empty list");
  const value* best = &l[0];
  for (std::size_t i = 1; i < l.size(); ++i) {
    auto o = order(l[i], *best);
    if (!o) return no_overload(want_max ? "max" : "min");
    if (want_max ? *o > 0 : *o < 0) best = &l[i];
  }
  return *best;
}

// The sum of a list, starting from the declared element type's zero.
inline value sum(args_t a, call_context& c, value acc) {
  const auto& l = items(a[0]);
  c.cost += l.size();
  for (const auto& e : l) {
    if (e.kind() != acc.kind()) return no_overload("sum");
    const value pair[] = {acc, e};
    switch (acc.kind()) {
      case value_kind::int64: acc = add_int(pair, c); break;
      case value_kind::uint64: acc = add_uint(pair, c); break;
      case value_kind::double_: acc = acc.as_double() + e.as_double(); break;
      case value_kind::duration: {
        std::int64_t r;
        if (__builtin_add_overflow(acc.as<duration_value>().nanos, e.as<duration_value>().nanos, &r)) return overflow();
        acc = duration_value{r};
        break;
      }
      default: return no_overload("sum");
    }
    if (acc.is_error()) return acc;
  }
  return acc;
}

}  // namespace lib

// ext.Lists: lists.range, distinct, flatten, reverse, slice.
inline void add_lists_extension_slicing(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.global("lists.range", "lists_range", {T_int()}, type::list(T_int()), [](args_t a, call_context& c) -> value {
    const auto n = a[0].as_int();
    if (n < 0) return value::error("lists.range() requires a non-negative argument");
    if (static_cast<std::uint64_t>(n) > c.cost_limit) return cost_limit_exceeded();
    std::vector<value> out;
    for (std::int64_t i = 0; i < n; ++i) out.emplace_back(i);
    c.cost += static_cast<std::uint64_t>(n);
    return value::list(std::move(out));
  });
  // distinct compares each element with those kept before it (CEL equality has no order or hash
  // across int, uint and double): those comparisons are charged, 1 each, before they are made, so
  // `lists.range(20000).distinct()` stops at the cost limit instead of running for hours.
  r.member("distinct", "list_distinct", {type::list(T_A())}, type::list(T_A()), [](args_t a, call_context& c) -> value {
    c.cost += items(a[0]).size();
    std::vector<value> out;
    for (const auto& x : items(a[0])) {
      if (!charge_ahead(c, out.size())) return cost_limit_exceeded();
      if (!list_contains(out, x)) out.push_back(x);
    }
    return value::list(std::move(out));
  });
  // flatten() is declared on lists of lists, flatten(depth) on any list; neither has run-time type guards.
  r.unguarded_member("flatten", "list_flatten", {type::list(type::list(T_A()))}, type::list(T_A()), [](args_t a, call_context&) -> value {
    std::vector<value> out;
    for (const auto& x : items(a[0])) {
      if (x.is(value_kind::list))
        out.insert(out.end(), items(x).begin(), items(x).end());
      else
        out.push_back(x);
    }
    return value::list(std::move(out));
  });
  r.unguarded_member("flatten", "list_flatten_int", {type::list(T_dyn()), T_int()}, type::list(T_dyn()), [](args_t a, call_context&) -> value {
    if (a[1].as_int() < 0) return value::error("level must be non-negative");
    std::vector<value> current = items(a[0]);
    for (std::int64_t level = 0; level < a[1].as_int(); ++level) {
      std::vector<value> next;
      for (const auto& x : current) {
        if (x.is(value_kind::list))
          next.insert(next.end(), items(x).begin(), items(x).end());
        else
          next.push_back(x);
      }
      current = std::move(next);
    }
    return value::list(std::move(current));
  });
  r.member("reverse", "list_reverse", {type::list(T_A())}, type::list(T_A()), [](args_t a, call_context&) -> value {
    std::vector<value> out(items(a[0]).rbegin(), items(a[0]).rend());
    return value::list(std::move(out));
  });
  r.member("slice", "list_slice", {type::list(T_A()), T_int(), T_int()}, type::list(T_A()), [](args_t a, call_context&) -> value {
    const auto& l = items(a[0]);
    const auto b = a[1].as_int(), e = a[2].as_int();
    if (b < 0 || e < 0) return value::error(dra::concat("cannot slice(", std::to_string(b), ", ", std::to_string(e), "), negative indexes not supported"));
    if (b > e) return value::error(dra::concat("cannot slice(", std::to_string(b), ", ", std::to_string(e), "), start index must be less than or equal to end index"));
    if (static_cast<std::size_t>(e) > l.size()) return value::error(dra::concat("cannot slice(", std::to_string(b), ", ", std::to_string(e), "), list is length ", std::to_string(l.size())));
    return value::list(std::vector<value>(l.begin() + b, l.begin() + e));
  });
}

// ext.Lists: sort and sortBy's @sortByAssociatedKeys, declared for CEL's comparable element types.
inline void add_lists_extension_sorting(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  auto sort_impl = [](args_t a, call_context& c) -> value {
    std::vector<value> out = items(a[0]);
    for (std::size_t i = 1; i < out.size(); ++i)
      if (!order(out[0], out[i])) return value::error("list elements must have the same type");
    if (!out.empty() && !order(out[0], out[0])) return value::error("list elements must be comparable");
    std::stable_sort(out.begin(), out.end(), [](const value& x, const value& y) { return *order(x, y) < 0; });
    c.cost += out.size();
    return value::list(std::move(out));
  };
  // sort and sortBy exist for CEL's comparable element types only, as in cel-go.
  for (const type& t : comparable_element_types()) {
    r.unguarded_member("sort", dra::concat("list_", t.to_string(), "_sort"), {type::list(t)}, type::list(t), sort_impl);
    r.unguarded_member("@sortByAssociatedKeys", dra::concat("list_", t.to_string(), "_sortByAssociatedKeys"),
           {type::list(T_A()), type::list(t)}, type::list(T_A()), [](args_t a, call_context& c) -> value {
             const auto& list = items(a[0]);
             const auto& keys = items(a[1]);
             if (list.size() != keys.size())
               return value::error("@sortByAssociatedKeys() expected a list of the same size as the associated keys list");
             for (std::size_t i = 1; i < keys.size(); ++i)
               if (!order(keys[0], keys[i])) return value::error("list elements must have the same type");
             std::vector<std::size_t> index(list.size());
             for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
             std::stable_sort(index.begin(), index.end(), [&](std::size_t x, std::size_t y) { return *order(keys[x], keys[y]) < 0; });
             std::vector<value> out;
             out.reserve(list.size());
             for (std::size_t i : index) out.push_back(list[i]);
             c.cost += list.size();
             return value::list(std::move(out));
           });
  }
}

// cel-go's lists extension at version 3, as Kubernetes configures it (ext.ListsVersion(3)).
inline void add_lists_extension(function_table& table) {
  add_lists_extension_slicing(table);
  add_lists_extension_sorting(table);
}

// Kubernetes' lists library, version 1 (Kubernetes 1.37): isSorted, sum, min, max, indexOf,
// lastIndexOf, includes.
inline void add_kubernetes_lists_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Kubernetes' lists library declares isSorted, min and max for CEL's comparable element types
  // and sum for the summable ones; each overload of sum starts from its own type's zero.
  for (const type& t : comparable_element_types()) {
    // Kubernetes' ids spell the types short: list_duration_min_duration.
    const std::string n = t.kind == type_kind::duration ? "duration" : t.kind == type_kind::timestamp ? "timestamp" : t.to_string();
    r.member("isSorted", dra::concat("list_", n, "_is_sorted_bool"), {type::list(t)}, T_bool(), [](args_t a, call_context& c) -> value {
      const auto& l = items(a[0]);
      c.cost += l.size();
      for (std::size_t i = 1; i < l.size(); ++i) {
        auto o = order(l[i - 1], l[i]);
        if (!o) return no_overload("isSorted");
        if (*o > 0) return false;
      }
      return true;
    });
    r.member("min", dra::concat("list_", n, "_min_", n), {type::list(t)}, t, [](args_t a, call_context& c) -> value { return extreme(a, c, false); });
    r.member("max", dra::concat("list_", n, "_max_", n), {type::list(t)}, t, [](args_t a, call_context& c) -> value { return extreme(a, c, true); });
  }
  r.member("sum", "list_int_sum_int", {type::list(T_int())}, T_int(), [](args_t a, call_context& c) -> value { return sum(a, c, std::int64_t{0}); });
  r.member("sum", "list_uint_sum_uint", {type::list(T_uint())}, T_uint(), [](args_t a, call_context& c) -> value { return sum(a, c, std::uint64_t{0}); });
  r.member("sum", "list_double_sum_double", {type::list(T_double())}, T_double(), [](args_t a, call_context& c) -> value { return sum(a, c, 0.0); });
  r.member("sum", "list_duration_sum_duration", {type::list(type::duration())}, type::duration(), [](args_t a, call_context& c) -> value {
    return sum(a, c, duration_value{0});
  });
  auto list_index_of = [](args_t a, call_context& c) -> value {
    const auto& l = items(a[0]);
    c.cost += l.size();
    for (std::size_t i = 0; i < l.size(); ++i)
      if (equals(l[i], a[1])) return static_cast<std::int64_t>(i);
    return std::int64_t{-1};
  };
  auto list_last_index_of = [](args_t a, call_context& c) -> value {
    const auto& l = items(a[0]);
    c.cost += l.size();
    for (std::size_t i = l.size(); i-- > 0;)
      if (equals(l[i], a[1])) return static_cast<std::int64_t>(i);
    return std::int64_t{-1};
  };
  r.member("indexOf", "list_a_index_of_int", {type::list(T_A()), T_A()}, T_int(), list_index_of);
  r.member("lastIndexOf", "list_a_last_index_of_int", {type::list(T_A()), T_A()}, T_int(), list_last_index_of);

  // includes (version 1; before Kubernetes 1.37, DRA's own `includes` with a limit of 64 values):
  // whether a list holds the value, or a scalar equals it.
  r.member("includes", "list_includes_dyn_dyn", {T_dyn(), T_dyn()}, T_bool(), [](args_t a, call_context& c) -> value {
    if (a[0].is(value_kind::list)) {
      c.cost += items(a[0]).size();
      return list_contains(items(a[0]), a[1]);
    }
    return equals(a[0], a[1]);
  });
}

}  // namespace dra::cel
