// The CEL expression tree the parser builds (macros already expanded) and the checker annotates.
#pragma once

#include <dra/cel/types.hpp>
#include <dra/cel/value.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

struct overload;

enum class node_kind : std::uint8_t { literal, ident, select, call, list, map, comprehension };

// Calls the interpreter evaluates itself (not strict, or special forms), found once at parse time.
enum class builtin : std::uint8_t {
  none,
  logical_and,
  logical_or,
  conditional,
  not_strictly_false,
  equals,
  not_equals,
  in,
  index,
  optional_index,
  optional_select,
  map_insert,
};

[[nodiscard]] constexpr builtin builtin_of(std::string_view fn) noexcept {
  if (fn == "_&&_") return builtin::logical_and;
  if (fn == "_||_") return builtin::logical_or;
  if (fn == "_?_:_") return builtin::conditional;
  // cel-go's old spelling is an identifier a selector may call; it is non-strict like the macro's.
  if (fn == "@not_strictly_false" || fn == "__not_strictly_false__") return builtin::not_strictly_false;
  if (fn == "_==_") return builtin::equals;
  if (fn == "_!=_") return builtin::not_equals;
  if (fn == "@in") return builtin::in;
  if (fn == "_[_]") return builtin::index;
  if (fn == "_[?_]") return builtin::optional_index;
  if (fn == "_?._") return builtin::optional_select;
  if (fn == "@map_insert") return builtin::map_insert;
  return builtin::none;
}

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
  builtin op = builtin::none;  // call: a special form, or none for a library function
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
