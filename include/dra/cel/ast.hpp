// The CEL expression tree the parser builds (macros already expanded) and the checker annotates.
#pragma once

#include <dra/cel/types.hpp>
#include <dra/cel/value.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dra::cel {

struct overload;

enum class node_kind : std::uint8_t { literal, ident, select, call, list, map, comprehension };

// One expression node. Children by role:
//   select:        args[0] operand
//   call:          args = receiver (when `member`) followed by arguments
//   list:          args = elements (optional_entries marks `?elem`)
//   map:           args = key, value, key, value, … (optional_entries per entry)
//   comprehension: args = range, init, condition, step, result
struct node {
  node_kind kind = node_kind::literal;
  bool member = false;     // call: receiver style (`x.f(y)`)
  bool test_only = false;  // select: has()
  std::uint32_t offset = 0;  // byte offset of the node in the source, for error positions
  std::string name{};        // ident name, select field, call function
  value literal{};
  std::vector<node> args{};
  std::vector<bool> optional_entries{};
  std::string iter_var{}, iter_var2{}, accu_var{};  // comprehension

  // Filled by the checker.
  type checked{};
  std::vector<const overload*> overloads{};  // call: candidate overloads, in declaration order

  [[nodiscard]] bool is_call(std::string_view fn) const noexcept { return kind == node_kind::call && name == fn; }
};

// The reserved accumulator name of expanded macros.
inline constexpr std::string_view accumulator_name = "@result";

}  // namespace dra::cel
