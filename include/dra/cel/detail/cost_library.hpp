// Cost estimates of library functions that are not cel-go's core: the sets and lists extensions' own, Kubernetes'
// library's (apiserver cel/library/cost.go) and DRA's `includes`.
#pragma once

#include <dra/cel/detail/cost_support.hpp>
#include <dra/cel/functions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace dra::cel::detail {

// An operand's size: what the expression shows, else what the environment declares for its path, else unknown
// (cel-go's estimateSize / Kubernetes' sizeEstimate).
[[nodiscard]] inline size_estimate size_of(const environment& env, const operand& o) {
  if (o.computed) return *o.computed;
  if (env.declared_sizes != nullptr && !o.path.empty())
    if (auto declared = env.declared_sizes(o.path)) return *declared;
  return unknown_size;
}

// The element of a list operand as an operand of its own: a path to look its size up, no computed size.
[[nodiscard]] inline std::optional<operand> list_element(const operand& list) {
  if (list.declared == nullptr || list.declared->params.empty()) return std::nullopt;
  operand element;
  element.declared = &list.declared->params[0];
  if (!list.path.empty()) {
    element.path = list.path;
    element.path.emplace_back("@items");
  }
  return element;
}

// cel-go's estimateAllocatingListCall: per element by a factor, plus the call and the new list.
[[nodiscard]] inline call_estimate allocating_list_call(double factor, size_estimate list_size) {
  return {scaled(list_size, factor) + fixed_cost(1) + fixed_cost(list_create_cost), list_size};
}

// The sets and lists extensions register estimates for some overloads; they come before any other.
[[nodiscard]] inline std::optional<call_estimate> extension_estimate(const environment& env, std::string_view function,
                                                                     const overload& o, const operand* target,
                                                                     std::span<const operand> args) {
  const std::string_view id = o.id;
  if (id == "list_sets_contains_list" || id == "list_sets_intersects_list" || id == "list_sets_equivalent_list") {
    if (args.size() != 2) return std::nullopt;
    const double factor = id == "list_sets_equivalent_list" ? 2 : 1;  // equivalence is containment both ways
    return call_estimate{scaled(size_of(env, args[0]) * size_of(env, args[1]), factor) + fixed_cost(1)};
  }
  if (id == "list_slice" && target != nullptr && args.size() == 2) {
    const size_estimate size = size_of(env, *target);
    const std::uint64_t start = literal_count(args[0], 0), end = literal_count(args[1], size.max);
    return allocating_list_call(1, fixed_size(end - start));
  }
  if (id == "lists_range" && target == nullptr && args.size() == 1)
    return allocating_list_call(1, fixed_size(literal_count(args[0], unbounded)));
  if (id == "list_reverse" && target != nullptr && args.empty()) return allocating_list_call(1, size_of(env, *target));
  if ((id == "list_flatten" || id == "list_flatten_int") && target != nullptr && args.size() <= 1) {
    const std::uint64_t depth = args.empty() ? 1 : literal_count(args[0], unbounded);
    return allocating_list_call(static_cast<double>(depth), size_of(env, *target));
  }
  if (id == "list_distinct" && target != nullptr && args.empty()) {
    const size_estimate size = size_of(env, *target);
    return allocating_list_call(2, size * size);
  }
  // sort() compares the list's elements, sortBy's @sortByAssociatedKeys() its keys: O(n²), dearer for text.
  const bool sort = function == "sort" && target != nullptr && args.empty();
  const bool sort_by = function == "@sortByAssociatedKeys" && target != nullptr && args.size() == 1;
  if ((sort || sort_by) && o.params.size() == (sort ? 1U : 2U) && !o.params.back().params.empty()) {
    const type_kind key = o.params.back().params[0].kind;
    const double factor = key == type_kind::string || key == type_kind::bytes ? 2 + string_traversal_factor : 2;
    const size_estimate size = size_of(env, sort ? *target : args[0]);
    return allocating_list_call(factor, size * size);
  }
  return std::nullopt;
}

// Kubernetes' replace(): the result is longest when the shortest match is replaced by the longest text as often as
// it fits, shortest the other way round; the cost is two traversals of the input.
[[nodiscard]] inline call_estimate replace_estimate(size_estimate input, size_estimate from, size_estimate to) {
  size_estimate count{}, kept{};
  if (from.min == 0) {
    count.max = input.max < unbounded ? input.max + 1 : input.max;
    kept.max = input.max;
  } else if (to.max <= from.min) {
    kept.max = input.max;
  } else {
    count.max = static_cast<std::uint64_t>(std::ceil(static_cast<double>(input.max) / static_cast<double>(from.min)));
  }
  if (from.max == 0) {
    count.min = input.min < unbounded ? input.min + 1 : input.min;
    kept.min = input.min;
  } else if (from.max <= to.min) {
    kept.min = input.min;
  } else {
    count.min = static_cast<std::uint64_t>(std::ceil(static_cast<double>(input.min) / static_cast<double>(from.max)));
  }
  return {scaled(input, 2 * string_traversal_factor), count * to + kept};
}

// Kubernetes' join(): elements times their size, plus a separator between each two.
[[nodiscard]] inline call_estimate join_estimate(const environment& env, const operand& list,
                                                 std::span<const operand> args) {
  const size_estimate count = size_of(env, list);
  size_estimate size{};
  if (auto element = list_element(list)) size = count * size_of(env, *element);
  if (!args.empty()) {
    const size_estimate separators{count.min > 0 ? count.min - 1 : 0, count.max > 0 ? count.max - 1 : 0};
    size = size + size_of(env, args[0]) * separators;
  }
  return {scaled(size, string_traversal_factor), size};
}

// The list functions of Kubernetes' library: one comparison per element, plus a traversal of text elements; on a
// string (indexOf, lastIndexOf) one traversal.
[[nodiscard]] inline call_estimate list_traversal_estimate(const environment& env, const operand& target) {
  if (auto element = list_element(target)) {
    cost_estimate per_element = fixed_cost(1);
    const type_kind k = element->declared->kind;
    if (k == type_kind::string || k == type_kind::bytes)
      per_element = per_element + scaled(size_of(env, *element), string_traversal_factor);
    return {as_cost(size_of(env, target)) * per_element};
  }
  return {scaled(size_of(env, target), string_traversal_factor)};
}

// The IP and CIDR containment tests compare 4 or 16 bytes; a string argument is parsed first.
[[nodiscard]] inline call_estimate containment_estimate(const environment& env, std::string_view function,
                                                        std::string_view id, std::span<const operand> args) {
  constexpr size_estimate address{4, 16};
  cost_estimate cost = scaled(address + address, string_traversal_factor);
  if (function == "containsCIDR") cost = cost + scaled(address, string_traversal_factor) + fixed_cost(1);
  if (id == "cidr_contains_ip_string" || id == "cidr_contains_cidr_string")
    cost = cost + scaled(size_of(env, args[0]), string_traversal_factor);
  return {cost};
}

// Kubernetes' types whose `_==_` its estimator charges 1 (one comparison, whatever the values): the cost does not
// depend on a size, which these values do not have.
inline constexpr std::string_view unit_equality_types[] = {
    "kubernetes.Quantity", "kubernetes.Semver", "net.IP", "net.CIDR", "kubernetes.authorization.Authorizer",
    "kubernetes.authorization.PathCheck", "kubernetes.authorization.GroupCheck",
    "kubernetes.authorization.ResourceCheck", "kubernetes.authorization.Decision"};
inline constexpr std::uint64_t max_format_size = 64;       // apiserver cel.MaxFormatSize
inline constexpr double max_name_format_regex_size = 128;  // apiserver cel.MaxNameFormatRegexSize

[[nodiscard]] inline bool is_one_of(std::string_view name, std::span<const std::string_view> names) {
  return std::ranges::find(names, name) != names.end();
}

// Kubernetes' estimate of `_==_` between two operands of one of its own types. cel-go's estimate of equality is the
// shorter operand's size, and a value of these types has none (unbounded); Kubernetes answers before cel-go for
// `_==_` only, so `_!=_` of the same operands keeps cel-go's unbounded estimate.
[[nodiscard]] inline std::optional<call_estimate> equality_estimate(std::span<const operand> args) {
  if (args.size() != 2 || args[0].declared == nullptr || args[1].declared == nullptr ||
      *args[0].declared != *args[1].declared)
    return std::nullopt;
  const type& t = *args[0].declared;
  if (t.kind != type_kind::opaque && t.kind != type_kind::object) return std::nullopt;
  if (is_one_of(t.name, unit_equality_types)) return call_estimate{fixed_cost(1)};
  if (t.name == "kubernetes.NamedFormat")
    return call_estimate{scaled(size_estimate{1, max_format_size}, string_traversal_factor)};
  if (t.name == "kubernetes.URL") {
    // Upstream sizes the comparison by the right operand's size alone (it reads it for both sides), 1 if unknown.
    const std::uint64_t longest = args[1].computed ? args[1].computed->max : 1;
    return call_estimate{scaled(size_estimate{1, longest}, string_traversal_factor)};
  }
  return std::nullopt;
}

// Functions Kubernetes' estimator charges 1: the authorizer's builders and accessors, IP and CIDR accessors,
// quantity methods.
inline constexpr std::string_view authorizer_functions[] = {"serviceAccount", "path",      "group",  "resource",
                                                            "subresource",    "namespace", "name",   "allowed",
                                                            "reason",         "error",     "errored"};
inline constexpr std::string_view address_accessors[] = {
    "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast"};
inline constexpr std::string_view quantity_methods[] = {
    "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub"};
// Linear in a list receiver (or, for indexOf and lastIndexOf, a string one).
inline constexpr std::string_view list_traversal_functions[] = {"isSorted", "sum",     "max",
                                                                "min",      "indexOf", "lastIndexOf"};
// One traversal of a string receiver, whose size the result keeps.
inline constexpr std::string_view receiver_traversal_functions[] = {"lowerAscii", "upperAscii", "substring", "trim"};
// One traversal of the first argument, where there is a receiver (these are global functions: never, upstream).
inline constexpr std::string_view argument_traversal_functions[] = {"cidr", "isIP", "isCIDR", "quantity", "isQuantity"};

// Kubernetes' estimates by function name, operators included (`_==_`); DRA's `includes` first, as DRA's estimator
// wraps Kubernetes'. Where upstream asks for a receiver that a global function never has (quantity(), cidr(),
// isIP()…), nothing applies and cel-go's default cost of 1 is used, as upstream.
[[nodiscard]] inline std::optional<call_estimate> kubernetes_estimate(const environment& env, std::string_view f,
                                                                      std::string_view id, const operand* target,
                                                                      std::span<const operand> args) {
  const auto one_of = [f](std::span<const std::string_view> names) { return is_one_of(f, names); };
  // `x.includes(y)` is `y in x`, linear in a list attribute's length.
  if (f == "includes" && target != nullptr) return call_estimate{{0, attribute_values_per_device_max}};
  if (f == "check") return call_estimate{fixed_cost(350000)};  // allows two authorization checks per expression
  if (one_of(authorizer_functions) || one_of(address_accessors) || one_of(quantity_methods))
    return call_estimate{fixed_cost(1)};
  if (one_of(list_traversal_functions) && target != nullptr) return list_traversal_estimate(env, *target);
  if (f == "_==_") return equality_estimate(args);
  if (f == "url" && args.size() == 1) {  // a URL is as long as its text
    const size_estimate size = size_of(env, args[0]);
    return call_estimate{scaled(size, string_traversal_factor), size};
  }
  if (one_of(receiver_traversal_functions) && target != nullptr) {
    const size_estimate size = size_of(env, *target);
    return call_estimate{scaled(size, string_traversal_factor), size};
  }
  if (f == "replace" && target != nullptr && args.size() >= 2)
    return replace_estimate(size_of(env, *target), size_of(env, args[0]), size_of(env, args[1]));
  if (f == "split" && target != nullptr) {
    const size_estimate size = size_of(env, *target);
    std::uint64_t parts = size.max;  // a separator "" splits every character
    if (args.size() > 1 && args[1].expr != nullptr && args[1].expr->kind == node_kind::literal &&
        args[1].expr->literal.is(value_kind::int64) && args[1].expr->literal.as_int() >= 0)
      parts = static_cast<std::uint64_t>(args[1].expr->literal.as_int());
    return call_estimate{scaled(size, 2 * string_traversal_factor), size_estimate{0, parts}};
  }
  if (f == "join" && target != nullptr) return join_estimate(env, *target, args);
  if ((f == "find" || f == "findAll") && target != nullptr && !args.empty()) {
    const size_estimate size = size_of(env, *target);
    const cost_estimate text = scaled(size + fixed_size(1), string_traversal_factor);
    return call_estimate{text * scaled(size_of(env, args[0]), regex_length_factor), size_estimate{0, size.max}};
  }
  if (one_of(argument_traversal_functions) && target != nullptr && !args.empty())
    return call_estimate{scaled(size_of(env, args[0]), string_traversal_factor)};
  // <format>.validate(text) matches the text against a pattern upstream takes to be 128 characters long.
  if (f == "validate" && target != nullptr && !args.empty())
    return call_estimate{scaled(scaled(size_of(env, args[0]), string_traversal_factor),
                                max_name_format_regex_size * regex_length_factor)};
  if (f == "ip" && target != nullptr) {
    if (args.empty() || id == "cidr_ip") return call_estimate{fixed_cost(1)};  // the address of a CIDR: a field
    return call_estimate{scaled(size_of(env, args[0]), string_traversal_factor)};
  }
  if (f == "ip.isCanonical" && target != nullptr && !args.empty())
    return call_estimate{scaled(size_of(env, args[0]), 2 * string_traversal_factor)};
  if ((f == "containsIP" || f == "containsCIDR") && target != nullptr && !args.empty())
    return containment_estimate(env, f, id, args);
  return std::nullopt;
}

}  // namespace dra::cel::detail
