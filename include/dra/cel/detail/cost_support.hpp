// Arithmetic of cel-go's cost and size estimates (saturating at UINT64_MAX, cost factors rounded up) and what the
// estimator knows of an operand.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/types.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace dra::cel::detail {

inline constexpr std::uint64_t unbounded = std::numeric_limits<std::uint64_t>::max();
inline constexpr double string_traversal_factor = 0.1;  // cel-go's common.StringTraversalCostFactor
inline constexpr double regex_length_factor = 0.25;     // common.RegexStringLengthCostFactor
inline constexpr std::uint64_t list_create_cost = 10;   // common.ListCreateBaseCost
inline constexpr std::uint64_t map_create_cost = 30;    // common.MapCreateBaseCost

[[nodiscard]] constexpr std::uint64_t add_saturated(std::uint64_t a, std::uint64_t b) noexcept {
  return a > unbounded - b ? unbounded : a + b;
}
[[nodiscard]] constexpr std::uint64_t multiply_saturated(std::uint64_t a, std::uint64_t b) noexcept {
  return b != 0 && a > unbounded / b ? unbounded : a * b;
}
// x × factor rounded up, as cel-go's multiplyByCostFactor (in doubles, saturating at 2^64).
[[nodiscard]] inline std::uint64_t multiply_by_factor(std::uint64_t x, double factor) noexcept {
  const double product = std::ceil(static_cast<double>(x) * factor);
  if (product >= 18446744073709551616.0) return unbounded;
  return static_cast<std::uint64_t>(product);
}

[[nodiscard]] constexpr cost_estimate operator+(cost_estimate a, cost_estimate b) noexcept {
  return {add_saturated(a.min, b.min), add_saturated(a.max, b.max)};
}
[[nodiscard]] constexpr cost_estimate operator*(cost_estimate a, cost_estimate b) noexcept {
  return {multiply_saturated(a.min, b.min), multiply_saturated(a.max, b.max)};
}
[[nodiscard]] constexpr cost_estimate fixed_cost(std::uint64_t c) noexcept { return {c, c}; }
[[nodiscard]] constexpr cost_estimate union_of(cost_estimate a, cost_estimate b) noexcept {
  return {std::min(a.min, b.min), std::max(a.max, b.max)};
}
[[nodiscard]] constexpr size_estimate operator+(size_estimate a, size_estimate b) noexcept {
  return {add_saturated(a.min, b.min), add_saturated(a.max, b.max)};
}
[[nodiscard]] constexpr size_estimate operator*(size_estimate a, size_estimate b) noexcept {
  return {multiply_saturated(a.min, b.min), multiply_saturated(a.max, b.max)};
}
[[nodiscard]] constexpr size_estimate union_of(size_estimate a, size_estimate b) noexcept {
  return {std::min(a.min, b.min), std::max(a.max, b.max)};
}
[[nodiscard]] constexpr size_estimate fixed_size(std::uint64_t s) noexcept { return {s, s}; }
inline constexpr size_estimate unknown_size{0, unbounded};
[[nodiscard]] inline cost_estimate scaled(size_estimate s, double factor) noexcept {
  return {multiply_by_factor(s.min, factor), multiply_by_factor(s.max, factor)};
}
[[nodiscard]] inline cost_estimate scaled(cost_estimate c, double factor) noexcept {
  return {multiply_by_factor(c.min, factor), multiply_by_factor(c.max, factor)};
}
[[nodiscard]] constexpr cost_estimate as_cost(size_estimate s) noexcept { return {s.min, s.max}; }

// The sizes of a list's or map's keys (indices) and values, when every one is known.
struct entry_sizes {
  type_kind container = type_kind::list;
  size_estimate key{};
  size_estimate value{};
};
[[nodiscard]] inline std::optional<entry_sizes> union_of(const std::optional<entry_sizes>& a,
                                                         const std::optional<entry_sizes>& b) {
  if (!a || !b) return std::nullopt;
  return entry_sizes{a->container, union_of(a->key, b->key), union_of(a->value, b->value)};
}

using value_path = std::vector<std::string>;

// What an estimate of a call may know of one of its operands (cel-go's AstNode).
struct operand {
  const node* expr = nullptr;  // null for a list's element, which has no node
  value_path path;
  const type* declared = nullptr;
  std::optional<size_estimate> computed;
};

// The estimate of one overload of a call, and the size of its result if it gives one.
struct call_estimate {
  cost_estimate cost;
  std::optional<size_estimate> result_size{};
};

[[nodiscard]] inline bool is_scalar(const type& t) {
  switch (t.kind) {
    case type_kind::boolean:
    case type_kind::double_:
    case type_kind::duration:
    case type_kind::int64:
    case type_kind::timestamp:
    case type_kind::uint64:
      return true;
    case type_kind::optional:
      return is_scalar(t.params[0]);
    default:
      return false;
  }
}

// The size CEL's size() gives a literal (characters of a string), where the expression shows it.
[[nodiscard]] inline std::optional<size_estimate> written_size(const node& n) {
  if (n.kind == node_kind::list) return fixed_size(n.args.size());
  if (n.kind == node_kind::map) return fixed_size(n.args.size() / 2);
  if (n.kind != node_kind::literal) return std::nullopt;
  switch (n.literal.kind()) {
    case value_kind::string: {
      std::uint64_t characters = 0;
      for (unsigned char c : n.literal.as_text()) characters += (c & 0xC0) != 0x80 ? 1 : 0;
      return fixed_size(characters);
    }
    case value_kind::bytes:
      return fixed_size(n.literal.as_text().size());
    case value_kind::boolean:
    case value_kind::double_:
    case value_kind::duration:
    case value_kind::int64:
    case value_kind::timestamp:
    case value_kind::uint64:
    case value_kind::null:
      return fixed_size(1);
    default:
      return std::nullopt;
  }
}

// An int literal's value (0 when negative), else `otherwise`; cel-go's nodeAsIntValue.
[[nodiscard]] inline std::uint64_t literal_count(const operand& o, std::uint64_t otherwise) {
  if (o.expr == nullptr || o.expr->kind != node_kind::literal || !o.expr->literal.is(value_kind::int64))
    return otherwise;
  const std::int64_t v = o.expr->literal.as_int();
  return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

}  // namespace dra::cel::detail
