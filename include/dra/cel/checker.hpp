// The CEL type checker: resolves names and overloads against an environment and rejects what cel-go rejects.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/environment.hpp>
#include <dra/core/result.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

namespace detail {

using bindings = std::map<std::string, type, std::less<>>;

[[nodiscard]] inline type substitute(const type& t, const bindings& b) {
  if (t.kind == type_kind::type_param) {
    auto it = b.find(t.name);
    return it == b.end() ? type::dyn() : it->second;
  }
  type out = t;
  for (auto& p : out.params) p = substitute(p, b);
  return out;
}

// Whether `arg` may be passed for `param`, binding type parameters. dyn
// matches anything in either direction (gradual typing).
[[nodiscard]] inline bool unify(const type& param, const type& arg, bindings& b) {
  if (param.kind == type_kind::type_param) {
    auto it = b.find(param.name);
    if (it == b.end()) {
      b.emplace(param.name, arg);
      return true;
    }
    if (it->second.is_dyn()) {
      it->second = arg;
      return true;
    }
    bindings scratch;
    if (!unify(it->second, arg, scratch)) return false;
    return true;
  }
  if (param.is_dyn() || arg.is_dyn() || arg.kind == type_kind::error) return true;
  // Timestamps and durations are protobuf messages in cel-go: null is assignable to them.
  if (arg.kind == type_kind::null_type && (param.kind == type_kind::timestamp || param.kind == type_kind::duration))
    return true;
  if (param.kind != arg.kind) return false;
  if (param.kind == type_kind::type) return true;  // type values compare whatever they denote
  if (param.kind == type_kind::opaque || param.kind == type_kind::object) return param.name == arg.name;
  if (param.params.size() != arg.params.size()) return param.kind == type_kind::type;
  for (std::size_t i = 0; i < param.params.size(); ++i)
    if (!unify(param.params[i], arg.params[i], b)) return false;
  return true;
}

// Two types are the same, dyn standing for anything.
[[nodiscard]] inline bool compatible(const type& a, const type& b) {
  bindings scratch;
  return unify(a, b, scratch);
}

// The more specific of two compatible types.
[[nodiscard]] inline type join(const type& a, const type& b) {
  if (a.is_dyn()) return b;
  if (b.is_dyn()) return a;
  if (a.kind != b.kind || a.params.size() != b.params.size()) return a;
  type out = a;
  for (std::size_t i = 0; i < a.params.size(); ++i) out.params[i] = join(a.params[i], b.params[i]);
  return out;
}

[[nodiscard]] inline type literal_type(const value& v) {
  switch (v.kind()) {
    case value_kind::null: return type::null();
    case value_kind::boolean: return type::boolean();
    case value_kind::int64: return type::int64();
    case value_kind::uint64: return type::uint64();
    case value_kind::double_: return type::double_();
    case value_kind::string: return type::string();
    case value_kind::bytes: return type::bytes();
    case value_kind::duration: return type::duration();
    case value_kind::timestamp: return type::timestamp();
    case value_kind::type: return type::type_of(type::dyn());
    case value_kind::list: return type::list(type::dyn());
    case value_kind::map: return type::map(type::dyn(), type::dyn());
    case value_kind::optional: return type::optional(type::dyn());
    case value_kind::quantity: return type::opaque("kubernetes.Quantity");
    case value_kind::semver: return type::opaque("kubernetes.Semver");
    case value_kind::ip: return type::opaque("net.IP");
    case value_kind::cidr: return type::opaque("net.CIDR");
    default: return type::dyn();
  }
}

// The type names an identifier may denote.
[[nodiscard]] inline std::optional<std::pair<std::string_view, type>> type_identifier(std::string_view name) {
  static constexpr std::string_view names[] = {"int",  "uint", "double",    "bool", "string",       "bytes",
                                               "list", "map",  "null_type", "type", "optional_type"};
  for (std::string_view n : names) {
    if (n != name) continue;
    type denoted;
    if (n == "int") denoted = type::int64();
    else if (n == "uint") denoted = type::uint64();
    else if (n == "double") denoted = type::double_();
    else if (n == "bool") denoted = type::boolean();
    else if (n == "string") denoted = type::string();
    else if (n == "bytes") denoted = type::bytes();
    else if (n == "list") denoted = type::list(type::dyn());
    else if (n == "map") denoted = type::map(type::dyn(), type::dyn());
    else if (n == "null_type") denoted = type::null();
    else if (n == "optional_type") denoted = type::optional(type::dyn());
    else denoted = type::type_of(type::dyn());
    return std::pair{n, type::type_of(denoted)};
  }
  return std::nullopt;
}

[[nodiscard]] inline std::optional<std::string> dotted_name(const node& n) {
  if (n.kind == node_kind::ident) return n.name;
  if (n.kind == node_kind::select && !n.test_only) {
    auto inner = dotted_name(n.args[0]);
    if (inner) return *inner + "." + n.name;
  }
  return std::nullopt;
}

class checker {
 public:
  checker(const environment& env, std::string_view source) : env_(env), source_(source) {}

  result<type> run(node& root) {
    type t = check(root);
    if (error_) return std::move(*error_);
    return t;
  }

 private:
  void fail(const node& at, std::string_view message) {
    if (!error_) error_ = error{located_message(source_, at.offset, message)};
  }

  // Resolves a (possibly dotted) name against locals, the container and declared variables.
  std::optional<std::pair<std::string, type>> resolve(std::string_view name) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->first == name) return std::pair{it->first, it->second};
    std::string_view prefix = env_.container;
    while (!prefix.empty()) {
      const std::string candidate = dra::concat(prefix, ".", name);
      if (const auto* v = env_.find_variable(candidate)) return std::pair{v->name, v->declared};
      const auto dot = prefix.rfind('.');
      prefix = dot == std::string_view::npos ? std::string_view{} : prefix.substr(0, dot);
    }
    if (const auto* v = env_.find_variable(name)) return std::pair{v->name, v->declared};
    return std::nullopt;
  }

  type check(node& n) {
    if (error_) return type::error();
    n.checked = check_node(n);
    return n.checked;
  }

  type check_node(node& n) {
    switch (n.kind) {
      case node_kind::literal: return literal_type(n.literal);
      case node_kind::ident: {
        if (auto r = resolve(n.name)) {
          n.name = r->first;
          return r->second;
        }
        if (auto t = type_identifier(n.name)) return t->second;
        fail(n, dra::concat("undeclared reference to '", n.name, "' (in container '", env_.container, "')"));
        return type::error();
      }
      case node_kind::select: return check_select(n);
      case node_kind::call: return check_call(n);
      case node_kind::list: {
        type elem = type::dyn();
        const node* first = nullptr;
        for (std::size_t i = 0; i < n.args.size(); ++i) {
          type t = check(n.args[i]);
          if (n.optional_entries[i]) {
            if (t.kind == type_kind::optional) t = t.params[0];
            else if (!t.is_dyn()) {
              fail(n.args[i], dra::concat("expected type 'optional_type(", t.to_string(), ")' but found '", t.to_string(), "'"));
              return type::error();
            }
          }
          if (!homogeneous(first, elem, n.args[i], t)) return type::error();
        }
        return type::list(elem);
      }
      case node_kind::map: {
        type key = type::dyn(), val = type::dyn();
        const node* first_key = nullptr;
        const node* first_value = nullptr;
        for (std::size_t i = 0; i + 1 < n.args.size(); i += 2) {
          type k = check(n.args[i]);
          type v = check(n.args[i + 1]);
          if (n.optional_entries[i / 2]) {
            if (v.kind == type_kind::optional) v = v.params[0];
            else if (!v.is_dyn()) {
              fail(n.args[i + 1], dra::concat("expected type 'optional_type(", v.to_string(), ")' but found '", v.to_string(), "'"));
              return type::error();
            }
          }
          if (!homogeneous(first_key, key, n.args[i], k)) return type::error();
          if (!homogeneous(first_value, val, n.args[i + 1], v)) return type::error();
        }
        return type::map(key, val);
      }
      case node_kind::comprehension: return check_comprehension(n);
    }
    return type::dyn();
  }

  // Tracks the element type of a literal; with homogeneous literals every element must have the same type.
  bool homogeneous(const node*& first, type& elem, const node& element, const type& t) {
    if (t.is_dyn() || t.kind == type_kind::error) return true;
    if (first == nullptr) {
      first = &element;
      elem = t;
      return true;
    }
    if (env_.homogeneous_literals && exempt_depth_ == 0) {
      if (!(t == elem) && !compatible_exact(elem, t)) {
        fail(element, dra::concat("expected type '", elem.to_string(), "' but found '", t.to_string(), "'"));
        return false;
      }
      elem = join(elem, t);
      return true;
    }
    if (!(t == elem)) elem = compatible(elem, t) ? join(elem, t) : type::dyn();
    return true;
  }
  // Same type, where dyn inside either side stands for anything.
  static bool compatible_exact(const type& a, const type& b) {
    if (a.is_dyn() || b.is_dyn()) return true;
    if (a.kind != b.kind || a.name != b.name || a.params.size() != b.params.size()) return false;
    for (std::size_t i = 0; i < a.params.size(); ++i)
      if (!compatible_exact(a.params[i], b.params[i])) return false;
    return true;
  }

  type field_type(const node& n, const type& operand, std::string_view field) {
    switch (operand.kind) {
      case type_kind::dyn:
      case type_kind::error: return type::dyn();
      case type_kind::map:
        if (!compatible(operand.params[0], type::string())) break;
        return operand.params[1];
      case type_kind::object:
        if (const auto* f = env_.find_field(operand.name, field)) return f->declared;
        fail(n, dra::concat("undefined field '", field, "'"));
        return type::error();
      default: break;
    }
    fail(n, dra::concat("type '", operand.to_string(), "' does not support field selection"));
    return type::error();
  }

  type check_select(node& n) {
    // A dotted name may be a declared variable (`x.y`) rather than a field selection.
    if (!n.test_only) {
      if (auto dotted = dotted_name(n)) {
        if (auto r = resolve(*dotted); r && !resolve_root(n)) {
          n.kind = node_kind::ident;
          n.name = r->first;
          n.args.clear();
          return r->second;
        }
      }
    }
    type operand = check(n.args[0]);
    if (error_) return type::error();
    if (operand.kind == type_kind::optional) {
      type inner = field_type(n, operand.params[0], n.name);
      return n.test_only ? type::boolean() : type::optional(inner);
    }
    type t = field_type(n, operand, n.name);
    return n.test_only ? type::boolean() : t;
  }
  // Whether the leftmost identifier of a select chain resolves on its own (then it is a field selection).
  bool resolve_root(const node& n) const {
    const node* p = &n;
    while (p->kind == node_kind::select) p = &p->args[0];
    return p->kind == node_kind::ident && resolve(p->name).has_value();
  }

  std::string signature(const node& n, std::size_t first_arg) const {
    std::string out;
    if (n.member) out = n.args[0].checked.to_string() + ".";
    out += "(";
    for (std::size_t i = first_arg; i < n.args.size(); ++i) {
      if (i > first_arg) out += ", ";
      out += n.args[i].checked.to_string();
    }
    return out + ")";
  }

  type expect_bool(node& arg) {
    type t = check(arg);
    if (!t.is_dyn() && t.kind != type_kind::boolean && t.kind != type_kind::error) {
      fail(arg, dra::concat("expected type 'bool' but found '", t.to_string(), "'"));
      return type::error();
    }
    return type::boolean();
  }

  type check_call(node& n) {
    const std::string& fn = n.name;
    if (fn == "_&&_" || fn == "_||_") {
      for (auto& a : n.args) expect_bool(a);
      return type::boolean();
    }
    if (fn == "@not_strictly_false") {
      check(n.args[0]);
      return type::boolean();
    }
    const bool exempt = fn == "format" && n.member;
    exempt_depth_ += exempt ? 1 : 0;
    for (auto& a : n.args) check(a);
    exempt_depth_ -= exempt ? 1 : 0;
    if (error_) return type::error();
    auto no_match = [&] {
      fail(n, dra::concat("found no matching overload for '", fn, "' applied to '", signature(n, n.member ? 1 : 0), "'"));
      return type::error();
    };
    if (fn == "_?_:_") {
      const type& c = n.args[0].checked;
      if (!c.is_dyn() && c.kind != type_kind::boolean) return no_match();
      if (!compatible(n.args[1].checked, n.args[2].checked)) return no_match();
      return join(n.args[1].checked, n.args[2].checked);
    }
    if (fn == "_==_" || fn == "_!=_") {
      if (!compatible(n.args[0].checked, n.args[1].checked)) return no_match();
      return type::boolean();
    }
    if (fn == "@in") {
      const type& c = n.args[1].checked;
      if (c.is_dyn()) return type::boolean();
      if ((c.kind == type_kind::list || c.kind == type_kind::map) && compatible(n.args[0].checked, c.params[0]))
        return type::boolean();
      return no_match();
    }
    if (fn == "_[_]" || fn == "_[?_]") {
      type c = n.args[0].checked;
      const bool optional_result = fn == "_[?_]" || c.kind == type_kind::optional;
      if (c.kind == type_kind::optional) c = c.params[0];
      type elem;
      if (c.is_dyn()) {
        elem = type::dyn();
      } else if (c.kind == type_kind::list && compatible(n.args[1].checked, type::int64())) {
        elem = c.params[0];
      } else if (c.kind == type_kind::map && compatible(n.args[1].checked, c.params[0])) {
        elem = c.params[1];
      } else {
        return no_match();
      }
      return optional_result ? type::optional(elem) : elem;
    }
    if (fn == "_?._") {
      type c = n.args[0].checked;
      if (c.kind == type_kind::optional) c = c.params[0];
      return type::optional(field_type(n, c, n.args[1].literal.as_text()));
    }
    if (fn == "@map_insert") {
      if (n.args.size() == 3) return type::map(n.args[1].checked, n.args[2].checked);
      return n.args[1].checked.kind == type_kind::map ? n.args[1].checked : type::map(type::dyn(), type::dyn());
    }
    const auto* overloads = env_.functions.find(fn);
    if (overloads == nullptr) {
      fail(n, dra::concat("undeclared reference to '", fn, "' (in container '", env_.container, "')"));
      return type::error();
    }
    n.overloads.clear();
    std::optional<type> result_type;
    bool mixed = false;
    for (const auto& o : *overloads) {
      if (o->member != n.member || o->params.size() != n.args.size()) continue;
      bindings b;
      bool ok = true;
      for (std::size_t i = 0; i < n.args.size() && ok; ++i) ok = unify(o->params[i], n.args[i].checked, b);
      if (!ok) continue;
      n.overloads.push_back(o.get());
      type r = substitute(o->result, b);
      if (!result_type) result_type = r;
      else if (!(*result_type == r)) mixed = true;
    }
    if (n.overloads.empty()) return no_match();
    return mixed ? type::dyn() : *result_type;
  }

  type check_comprehension(node& n) {
    type range = check(n.args[0]);
    if (error_) return type::error();
    type v1 = type::dyn(), v2 = type::dyn();
    const bool two = !n.iter_var2.empty();
    switch (range.kind) {
      case type_kind::list:
        if (two) {
          v1 = type::int64();
          v2 = range.params[0];
        } else {
          v1 = range.params[0];
        }
        break;
      case type_kind::map:
        v1 = range.params[0];
        v2 = range.params[1];
        break;
      case type_kind::dyn:
      case type_kind::error: break;
      default:
        fail(n.args[0], dra::concat("expression of type '", range.to_string(), "' cannot be the range of a comprehension (must be list, map, or dynamic)"));
        return type::error();
    }
    type accu = check(n.args[1]);
    locals_.emplace_back(n.accu_var, accu);
    locals_.emplace_back(n.iter_var, v1);
    if (two) locals_.emplace_back(n.iter_var2, v2);
    expect_bool(n.args[2]);
    type step = check(n.args[3]);
    if (!error_ && !compatible(accu, step)) {
      fail(n.args[3], dra::concat("expected type '", accu.to_string(), "' but found '", step.to_string(), "'"));
    }
    locals_.resize(locals_.size() - (two ? 3 : 2));
    locals_.emplace_back(n.accu_var, join(accu, step));
    type out = check(n.args[4]);
    locals_.pop_back();
    return out;
  }

  const environment& env_;
  std::string_view source_;
  std::vector<std::pair<std::string, type>> locals_;
  std::optional<error> error_;
  int exempt_depth_ = 0;  // inside the arguments of string.format(), whose literals may mix types
};

}  // namespace detail

// Type-checks a parsed expression in place (resolving names and overloads) and returns its type.
[[nodiscard]] inline result<type> check(const environment& env, node& root, std::string_view source) {
  return detail::checker(env, source).run(root);
}

}  // namespace dra::cel
