// Evaluates a checked CEL expression tree with cel-go's semantics: commutative logic over errors, strict calls, cost.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/checker.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/functions.hpp>
#include <dra/cel/value.hpp>

#include <array>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

// The values of an environment's variables for one evaluation.
// Names are views: the caller keeps them alive. The first few bindings are stored inline,
// so that binding `device` for one evaluation allocates nothing.
class activation {
 public:
  void bind(std::string_view name, value v) {
    if (inline_count_ < inline_vars_.size())
      inline_vars_[inline_count_++] = {name, std::move(v)};
    else
      more_.emplace_back(name, std::move(v));
  }
  [[nodiscard]] const value* find(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < inline_count_; ++i)
      if (inline_vars_[i].first == name) return &inline_vars_[i].second;
    for (const auto& [n, v] : more_)
      if (n == name) return &v;
    return nullptr;
  }

 private:
  std::array<std::pair<std::string_view, value>, 2> inline_vars_{};
  std::size_t inline_count_ = 0;
  std::vector<std::pair<std::string_view, value>> more_;
};

namespace detail {

class interpreter {
 public:
  // `borrow_literals`: literal text is returned as views into the tree (the tree must outlive the results).
  interpreter(const environment& env, const activation& vars, call_context& ctx, bool resolve_dotted_names = false,
              bool borrow_literals = true)
      : env_(env),
        vars_(vars),
        ctx_(ctx),
        resolve_dotted_names_(resolve_dotted_names),
        borrow_literals_(borrow_literals) {}

  value eval(const node& n) {
    if (++ctx_.cost > ctx_.cost_limit) return cost_limit_exceeded();
    switch (n.kind) {
      case node_kind::literal:
        // Literal text is borrowed from the program (which outlives the evaluation): no reference counting.
        if (const auto* str = n.literal.get_if<string_value>(); str != nullptr && borrow_literals_)
          return value::borrowed_string(str->view);
        return n.literal;
      case node_kind::ident: return lookup(n.name);
      case node_kind::select: {
        // Unchecked programs resolve dotted variable names at run time, the longest name first.
        if (resolve_dotted_names_ && !n.test_only)
          if (auto dotted = dotted_name(n))
            if (const value* v = vars_.find(*dotted)) return *v;
        value operand = eval(n.args[0]);
        return select(operand, n.name, n.test_only, false);
      }
      case node_kind::call: return call(n);
      case node_kind::list: return make_list(n);
      case node_kind::map: return make_map(n);
      case node_kind::comprehension: return comprehension(n);
    }
    return value::error("unknown expression");
  }

 private:
  value lookup(std::string_view name) {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->first == name) return it->second;
    std::string_view prefix = env_.container;
    while (!prefix.empty()) {
      const std::string candidate = dra::concat(prefix, ".", name);
      if (const value* v = vars_.find(candidate)) return *v;
      const auto dot = prefix.rfind('.');
      prefix = dot == std::string_view::npos ? std::string_view{} : prefix.substr(0, dot);
    }
    if (const value* v = vars_.find(name)) return *v;
    if (auto t = type_identifier(name)) return type_value{t->first};
    return value::error(dra::concat("no such attribute: ", name));
  }

  static value select(const value& operand, std::string_view field, bool test_only, bool optional) {
    if (operand.is_error()) return operand;
    if (const auto* o = operand.get_if<optional_value>()) {
      if (!o->inner) return test_only ? value(false) : value::none();
      return select(*o->inner, field, test_only, true);
    }
    if (!operand.is(value_kind::map) && !operand.is(value_kind::host_map))
      return value::error(dra::concat("no such overload: field selection on ", type_name(operand)));
    value out;
    const bool found = map_find(operand, value::borrowed_string(field), out);
    if (test_only) return found;
    if (optional) return found ? value::some(std::move(out)) : value::none();
    if (!found) return value::error(dra::concat("no such key: ", field));
    return out;
  }

  value call(const node& n) {
    switch (n.op) {
      case builtin::none: break;
      case builtin::logical_and: return logic(n, true);
      case builtin::logical_or: return logic(n, false);
      case builtin::conditional: {
        value c = eval(n.args[0]);
        if (c.is_error()) return c;
        if (!c.is(value_kind::boolean)) return value::error("no such overload: _?_:_");
        return eval(n.args[c.as_bool() ? 1 : 2]);
      }
      case builtin::not_strictly_false: {
        value v = eval(n.args[0]);
        return !(v.is(value_kind::boolean) && !v.as_bool());
      }
      case builtin::equals:
      case builtin::not_equals: {
        value a = eval(n.args[0]);
        if (a.is_error()) return a;
        value b = eval(n.args[1]);
        if (b.is_error()) return b;
        return equals(a, b) == (n.op == builtin::equals);
      }
      case builtin::in: {
        value a = eval(n.args[0]);
        if (a.is_error()) return a;
        value c = eval(n.args[1]);
        if (c.is_error()) return c;
        if (c.is(value_kind::list)) {
          ctx_.cost += c.as<list_value>().size();
          for (const auto& e : *c.as<list_value>().items)
            if (equals(e, a)) return true;
          return false;
        }
        if (const auto* h = c.get_if<host_map_value>()) return h->map->contains(h->scope, a);
        if (c.is(value_kind::map)) {
          value ignored;
          return map_find(c, a, ignored);
        }
        return value::error(dra::concat("no such overload: @in(", type_name(a), ", ", type_name(c), ")"));
      }
      case builtin::index:
      case builtin::optional_index: {
        value c = eval(n.args[0]);
        if (c.is_error()) return c;
        value k = eval(n.args[1]);
        if (k.is_error()) return k;
        return index(c, k, n.op == builtin::optional_index);
      }
      case builtin::optional_select: return select(eval(n.args[0]), n.args[1].literal.as_text(), false, true);
      case builtin::map_insert: return map_insert(n);
    }
    // A strict call: arguments left to right, the first error wins.
    value stack_args[4];
    std::vector<value> heap_args;
    std::span<value> args;
    if (n.args.size() <= 4) {
      args = std::span<value>(stack_args, n.args.size());
    } else {
      heap_args.resize(n.args.size());
      args = heap_args;
    }
    for (std::size_t i = 0; i < n.args.size(); ++i) {
      args[i] = eval(n.args[i]);
      if (args[i].is_error()) return args[i];
    }
    return dispatch(n, args);
  }

  value dispatch(const node& n, std::span<const value> args) {
    auto try_overload = [&](const overload& o, value& out) {
      if (o.member != n.member || o.params.size() != args.size()) return false;
      for (std::size_t i = 0; i < args.size(); ++i)
        if (o.type_guards ? !accepts(o.params[i], args[i]) : !accepts_kind(o.params[i], args[i])) return false;
      out = o.impl(args, ctx_);
      return true;
    };
    value out;
    if (!n.overloads.empty()) {
      for (const overload* o : n.overloads)
        if (try_overload(*o, out)) return out;
    } else if (const auto* all = env_.functions.find(n.name)) {
      for (const auto& o : *all)
        if (try_overload(*o, out)) return out;
    } else {
      return value::error(dra::concat("no such function: ", n.name));
    }
    std::string sig;
    for (std::size_t i = 0; i < args.size(); ++i) sig += dra::concat(i ? ", " : "", type_name(args[i]));
    return value::error(dra::concat("no such overload: ", n.name, "(", sig, ")"));
  }

  value logic(const node& n, bool is_and) {
    // Commutative: the deciding value (false for &&, true for ||) wins over errors on either side.
    value a = eval(n.args[0]);
    if (a.is(value_kind::boolean) && a.as_bool() != is_and) return a;
    value b = eval(n.args[1]);
    if (b.is(value_kind::boolean) && b.as_bool() != is_and) return b;
    if (a.is(value_kind::boolean) && b.is(value_kind::boolean)) return is_and;
    if (a.is_error()) return a;
    if (b.is_error()) return b;
    return value::error(dra::concat("no such overload: ", n.name));
  }

  static value index(const value& c, const value& k, bool optional) {
    if (const auto* o = c.get_if<optional_value>()) {
      if (!o->inner) return value::none();
      return index(*o->inner, k, true);
    }
    if (c.is(value_kind::list)) {
      const auto& items = *c.as<list_value>().items;
      std::int64_t i;
      if (k.is(value_kind::int64)) {
        i = k.as_int();
      } else if (k.is(value_kind::uint64)) {
        i = k.as_uint() > 9223372036854775807ULL ? -1 : static_cast<std::int64_t>(k.as_uint());
      } else if (k.is(value_kind::double_)) {
        const double d = k.as_double();
        if (d != std::trunc(d) || !(d > -9223372036854775808.0 && d < 9223372036854775808.0))
          return value::error(dra::concat("unsupported index value ", lib::display(k), " in list"));
        i = static_cast<std::int64_t>(d);
      } else {
        return value::error(dra::concat("no such overload: list index with ", type_name(k)));
      }
      if (i < 0 || static_cast<std::size_t>(i) >= items.size()) {
        if (optional) return value::none();
        return value::error(dra::concat("index out of bounds: ", std::to_string(i)));
      }
      return optional ? value::some(items[static_cast<std::size_t>(i)]) : items[static_cast<std::size_t>(i)];
    }
    if (c.is(value_kind::map) || c.is(value_kind::host_map)) {
      const auto kk = k.kind();
      if (kk != value_kind::string && kk != value_kind::int64 && kk != value_kind::uint64 &&
          kk != value_kind::boolean && kk != value_kind::double_)
        return value::error(dra::concat("unsupported key type: ", type_name(k)));
      value out;
      if (map_find(c, k, out)) return optional ? value::some(std::move(out)) : out;
      if (optional) return value::none();
      return value::error(dra::concat("no such key: ", lib::display(k)));
    }
    return value::error(dra::concat("no such overload: index on ", type_name(c)));
  }

  value make_list(const node& n) {
    std::vector<value> items;
    items.reserve(n.args.size());
    for (std::size_t i = 0; i < n.args.size(); ++i) {
      value v = eval(n.args[i]);
      if (v.is_error()) return v;
      if (n.optional_entries[i]) {
        const auto* o = v.get_if<optional_value>();
        if (o == nullptr) return value::error("no such overload: optional list element");
        if (!o->inner) continue;
        value unwrapped = *o->inner;  // copy first: assigning would free what `o` points into
        v = std::move(unwrapped);
      }
      items.push_back(std::move(v));
    }
    return value::list(std::move(items));
  }

  static bool valid_key(const value& k) {
    const auto kk = k.kind();
    return kk == value_kind::string || kk == value_kind::int64 || kk == value_kind::uint64 || kk == value_kind::boolean;
  }

  value make_map(const node& n) {
    std::vector<std::pair<value, value>> entries;
    entries.reserve(n.args.size() / 2);
    for (std::size_t i = 0; i + 1 < n.args.size(); i += 2) {
      value k = eval(n.args[i]);
      if (k.is_error()) return k;
      value v = eval(n.args[i + 1]);
      if (v.is_error()) return v;
      if (!valid_key(k)) return value::error(dra::concat("unsupported key type: ", type_name(k)));
      if (n.optional_entries[i / 2]) {
        const auto* o = v.get_if<optional_value>();
        if (o == nullptr) return value::error("no such overload: optional map entry");
        if (!o->inner) continue;
        value unwrapped = *o->inner;  // copy first: assigning would free what `o` points into
        v = std::move(unwrapped);
      }
      for (const auto& e : entries)
        if (e.first.kind() == k.kind() && equals(e.first, k))
          return value::error(dra::concat("Failed with repeated key: ", lib::display(k)));
      entries.emplace_back(std::move(k), std::move(v));
    }
    return value::map(std::move(entries));
  }

  value map_insert(const node& n) {
    value m = eval(n.args[0]);
    if (m.is_error()) return m;
    std::vector<std::pair<value, value>> entries = *m.as<map_value>().entries;
    auto insert = [&](value k, value v) -> value {
      for (const auto& e : entries)
        if (equals(e.first, k)) return value::error(dra::concat("insert failed: key ", lib::display(k), " already exists"));
      entries.emplace_back(std::move(k), std::move(v));
      return {};
    };
    if (n.args.size() == 3) {
      value k = eval(n.args[1]);
      if (k.is_error()) return k;
      value v = eval(n.args[2]);
      if (v.is_error()) return v;
      if (value e = insert(std::move(k), std::move(v)); e.is_error()) return e;
    } else {
      value other = eval(n.args[1]);
      if (other.is_error()) return other;
      if (!other.is(value_kind::map)) return value::error("no such overload: transformMapEntry must return a map");
      for (const auto& [k, v] : *other.as<map_value>().entries)
        if (value e = insert(k, v); e.is_error()) return e;
    }
    return value::map(std::move(entries));
  }

  value comprehension(const node& n) {
    value range = eval(n.args[0]);
    if (range.is_error()) return range;
    const bool two = !n.iter_var2.empty();
    // Host maps (the device's attributes) are iterated over their key list; lists and maps in place.
    std::vector<value> host_keys;
    std::size_t count = 0;
    switch (range.kind()) {
      case value_kind::list: count = range.as<list_value>().size(); break;
      case value_kind::map: count = range.as<map_value>().size(); break;
      case value_kind::host_map: {
        const auto& h = range.as<host_map_value>();
        host_keys = h.map->keys(h.scope);
        count = host_keys.size();
        break;
      }
      default: return value::error(dra::concat("cannot iterate over ", type_name(range)));
    }
    value accu = eval(n.args[1]);
    locals_.emplace_back(n.accu_var, std::move(accu));
    const std::size_t accu_slot = locals_.size() - 1;
    for (std::size_t i = 0; i < count; ++i) {
      if (++ctx_.cost > ctx_.cost_limit) {
        locals_.resize(accu_slot);
        return cost_limit_exceeded();
      }
      switch (range.kind()) {
        case value_kind::list: {
          const value& item = (*range.as<list_value>().items)[i];
          if (two) {
            locals_.emplace_back(n.iter_var, static_cast<std::int64_t>(i));
            locals_.emplace_back(n.iter_var2, item);
          } else {
            locals_.emplace_back(n.iter_var, item);
          }
          break;
        }
        case value_kind::map: {
          const auto& [k, v] = (*range.as<map_value>().entries)[i];
          locals_.emplace_back(n.iter_var, k);
          if (two) locals_.emplace_back(n.iter_var2, v);
          break;
        }
        default: {
          locals_.emplace_back(n.iter_var, host_keys[i]);
          if (two) {
            value v;
            (void)map_find(range, host_keys[i], v);
            locals_.emplace_back(n.iter_var2, std::move(v));
          }
          break;
        }
      }
      value cond = eval(n.args[2]);
      if (cond.is(value_kind::boolean) && !cond.as_bool()) {
        locals_.resize(accu_slot + 1);
        break;
      }
      value next = eval(n.args[3]);
      locals_.resize(accu_slot + 1);
      locals_[accu_slot].second = std::move(next);
    }
    value out = eval(n.args[4]);
    locals_.resize(accu_slot);
    return out;
  }

  const environment& env_;
  const activation& vars_;
  call_context& ctx_;
  bool resolve_dotted_names_;
  bool borrow_literals_;
  std::vector<std::pair<std::string_view, value>> locals_;
};

}  // namespace detail

}  // namespace dra::cel
