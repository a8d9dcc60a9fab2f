// cel-go's sets extension: sets.contains, sets.equivalent, sets.intersects.
#pragma once

#include <dra/cel/detail/library_support.hpp>

namespace dra::cel {

// cel-go's sets extension (ext.Sets). Each compares every element of one list with the other's:
// the comparisons are charged before they are made (0.1 each), so that two lists of 10^5 elements
// (cheap to build) stop at the cost limit instead of making 10^10 comparisons.
inline void add_sets_extension(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.global("sets.contains", "list_sets_contains_list", {type::list(T_A()), type::list(T_A())}, T_bool(), [](args_t a, call_context& c) -> value {
    if (!charge_comparisons(c, items(a[0]).size(), items(a[1]).size())) return cost_limit_exceeded();
    for (const auto& x : items(a[1]))
      if (!list_contains(items(a[0]), x)) return false;
    return true;
  });
  r.global("sets.equivalent", "list_sets_equivalent_list", {type::list(T_A()), type::list(T_A())}, T_bool(), [](args_t a, call_context& c) -> value {
    if (!charge_comparisons(c, items(a[0]).size(), 2 * items(a[1]).size())) return cost_limit_exceeded();
    for (const auto& x : items(a[1]))
      if (!list_contains(items(a[0]), x)) return false;
    for (const auto& x : items(a[0]))
      if (!list_contains(items(a[1]), x)) return false;
    return true;
  });
  r.global("sets.intersects", "list_sets_intersects_list", {type::list(T_A()), type::list(T_A())}, T_bool(), [](args_t a, call_context& c) -> value {
    if (!charge_comparisons(c, items(a[0]).size(), items(a[1]).size())) return cost_limit_exceeded();
    for (const auto& x : items(a[1]))
      if (list_contains(items(a[0]), x)) return true;
    return false;
  });
}

}  // namespace dra::cel
