// The CEL parser: source text to an expression tree with macros expanded, or an error pointing at the column.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/detail/lexer.hpp>
#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

// Limits of cel-go's parser as Kubernetes configures it.
struct parse_limits {
  std::size_t max_recursion_depth = 250;
  std::size_t max_code_points = 100'000;
  // dra's own bound (cel-go has none): nodes that macros expanding their target twice (optMap,
  // optFlatMap) may copy in all, so that a chain of them cannot grow the tree exponentially.
  std::size_t max_macro_copied_nodes = 100'000;
};

namespace detail {

// Functions whose names contain a dot: a call `a.b(x)` whose receiver is
// the plain name `a` is a call of the global `a.b` when it is one of these.
[[nodiscard]] inline bool is_namespaced_function(std::string_view qualified) noexcept {
  static constexpr std::string_view names[] = {"optional.of",   "optional.none",  "optional.ofNonZeroValue",
                                               "sets.contains", "sets.equivalent", "sets.intersects",
                                               "strings.quote", "lists.range",   "ip.isCanonical",
                                               "optional.unwrap"};
  for (std::string_view n : names)
    if (n == qualified) return true;
  // Kubernetes' format library: format.named(…) and one function per named format.
  return qualified.starts_with("format.") && qualified.find('.', 7) == std::string_view::npos;
}

class parser {
 public:
  parser(std::string_view source, parse_limits limits) : src_(source), lex_(source), limits_(limits) {}

  result<node> parse() {
    std::size_t code_points = 0;
    for (char c : src_)
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++code_points;
    if (code_points > limits_.max_code_points)
      return error{dra::concat("ERROR: <input>:-1:0: expression code point size exceeds limit: size: ",
                                       std::to_string(code_points), ", limit ", std::to_string(limits_.max_code_points))};
    if (!detail::valid_utf8(src_)) return error{"ERROR: <input>:1:1: Syntax error: invalid UTF-8"};
    advance();
    node n = expr();
    if (!failed_ && cur_.kind != token_kind::end) fail_at(cur_.offset, unexpected());
    if (failed_) return error{std::move(message_)};
    return n;
  }

 private:
  // --- tokens -------------------------------------------------------------
  void advance() {
    cur_ = lex_.next();
    if (cur_.kind == token_kind::error) fail_at(cur_.offset, cur_.decoded);
  }
  [[nodiscard]] bool at(std::string_view punct) const { return cur_.kind == token_kind::punct && cur_.text == punct; }
  bool accept(std::string_view punct) {
    if (!at(punct)) return false;
    advance();
    return true;
  }
  void expect(std::string_view punct) {
    if (!accept(punct)) fail_at(cur_.offset, unexpected());
  }
  std::string unexpected() const {
    if (cur_.kind == token_kind::end) return "Syntax error: mismatched input '<EOF>'";
    return dra::concat("Syntax error: mismatched input '", cur_.text, "'");
  }
  void fail_at(std::size_t offset, std::string_view message) {
    if (failed_) return;
    failed_ = true;
    message_ = detail::located_message(src_, offset, message);
    cur_ = token{};  // stop consuming input
  }

  // Guards recursion: every nested expression costs one level.
  struct depth_guard {
    parser& p;
    explicit depth_guard(parser& owner) : p(owner) {
      if (++p.depth_ > p.limits_.max_recursion_depth)
        p.fail_at(p.cur_.offset, "expression recursion limit exceeded: " + std::to_string(p.limits_.max_recursion_depth));
    }
    ~depth_guard() { --p.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
  };
  // Left-nested chains (`a + b + c`, `a.b.c`, `a[0][1]`) nest one level per link, as in
  // cel-go's parse tree; the levels are given back when the chain ends.
  struct chain_depth {
    parser& p;
    std::size_t added = 0;
    explicit chain_depth(parser& owner) : p(owner) {}
    void extend() {
      ++added;
      if (++p.depth_ > p.limits_.max_recursion_depth)
        p.fail_at(p.cur_.offset, "expression recursion limit exceeded: " + std::to_string(p.limits_.max_recursion_depth));
    }
    ~chain_depth() { p.depth_ -= added; }
    chain_depth(const chain_depth&) = delete;
    chain_depth& operator=(const chain_depth&) = delete;
  };

  // --- node builders ------------------------------------------------------
  static node make(node_kind k, std::size_t offset) {
    node n;
    n.kind = k;
    n.offset = static_cast<std::uint32_t>(offset);
    return n;
  }
  static node call(std::string fn, std::size_t offset, std::vector<node> args, bool member = false) {
    node n = make(node_kind::call, offset);
    n.op = builtin_of(fn);
    n.name = std::move(fn);
    n.args = std::move(args);
    n.member = member;
    return n;
  }
  static node ident(std::string name, std::size_t offset) {
    node n = make(node_kind::ident, offset);
    n.name = std::move(name);
    return n;
  }
  static node literal(value v, std::size_t offset) {
    node n = make(node_kind::literal, offset);
    n.literal = std::move(v);
    return n;
  }
  static std::vector<node> list_of(node a) {
    std::vector<node> v;
    v.push_back(std::move(a));
    return v;
  }
  static std::vector<node> list_of(node a, node b) {
    std::vector<node> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return v;
  }
  static std::vector<node> list_of(node a, node b, node c) {
    std::vector<node> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    v.push_back(std::move(c));
    return v;
  }

  // --- grammar --------------------------------------------------------------
  node expr() {
    depth_guard guard(*this);
    const std::size_t start = cur_.offset;
    node cond = logical_or();
    if (failed_ || !at("?")) return cond;
    const std::size_t q = cur_.offset;
    advance();
    node yes = logical_or();
    expect(":");
    node no = expr();
    (void)start;
    return call("_?_:_", q, list_of(std::move(cond), std::move(yes), std::move(no)));
  }

  // `a || b || c …` and `a && b && …` become balanced trees, as cel-go builds them, so that
  // long chains stay shallow for the checker and the interpreter.
  node logical_or() { return logical_chain("||", "_||_", [this] { return logical_and(); }); }
  node logical_and() { return logical_chain("&&", "_&&_", [this] { return relation(); }); }

  template <class Operand>
  node logical_chain(std::string_view token, const char* fn, Operand operand) {
    std::vector<node> terms;
    std::vector<std::size_t> offsets;
    terms.push_back(operand());
    while (!failed_ && at(token)) {
      offsets.push_back(cur_.offset);
      advance();
      terms.push_back(operand());
    }
    if (terms.size() == 1) return std::move(terms.front());
    return balance(terms, offsets, 0, terms.size() - 1, fn);
  }
  static node balance(std::vector<node>& terms, const std::vector<std::size_t>& offsets, std::size_t lo,
                      std::size_t hi, const char* fn) {
    if (lo == hi) return std::move(terms[lo]);
    const std::size_t mid = (lo + hi + 1) / 2;  // the operator between terms[mid-1] and terms[mid]
    node left = balance(terms, offsets, lo, mid - 1, fn);
    node right = balance(terms, offsets, mid, hi, fn);
    return call(fn, offsets[mid - 1], list_of(std::move(left), std::move(right)));
  }

  node relation() {
    chain_depth chain(*this);
    node left = addition();
    while (!failed_) {
      std::string fn;
      if (at("<")) fn = "_<_";
      else if (at("<=")) fn = "_<=_";
      else if (at(">")) fn = "_>_";
      else if (at(">=")) fn = "_>=_";
      else if (at("==")) fn = "_==_";
      else if (at("!=")) fn = "_!=_";
      else if (cur_.kind == token_kind::identifier && cur_.text == "in") fn = "@in";
      else break;
      const std::size_t op = cur_.offset;
      advance();
      chain.extend();
      node right = addition();
      left = call(std::move(fn), op, list_of(std::move(left), std::move(right)));
    }
    return left;
  }

  node addition() {
    chain_depth chain(*this);
    node left = multiplication();
    while (!failed_ && (at("+") || at("-"))) {
      std::string fn = at("+") ? "_+_" : "_-_";
      const std::size_t op = cur_.offset;
      advance();
      chain.extend();
      node right = multiplication();
      left = call(std::move(fn), op, list_of(std::move(left), std::move(right)));
    }
    return left;
  }

  node multiplication() {
    chain_depth chain(*this);
    node left = unary();
    while (!failed_ && (at("*") || at("/") || at("%"))) {
      std::string fn = at("*") ? "_*_" : (at("/") ? "_/_" : "_%_");
      const std::size_t op = cur_.offset;
      advance();
      chain.extend();
      node right = unary();
      left = call(std::move(fn), op, list_of(std::move(left), std::move(right)));
    }
    return left;
  }

  node unary() {
    depth_guard guard(*this);
    if (at("!")) {
      const std::size_t op = cur_.offset;
      advance();
      node operand = unary();
      return call("!_", op, list_of(std::move(operand)));
    }
    if (at("-")) {
      const std::size_t op = cur_.offset;
      advance();
      // A minus directly before a number literal is part of the literal,
      // so that -9223372036854775808 is representable.
      if (cur_.kind == token_kind::int_literal || cur_.kind == token_kind::double_literal) {
        node lit = number_literal(true, op);
        return member_suffixes(std::move(lit));
      }
      node operand = unary();
      return call("-_", op, list_of(std::move(operand)));
    }
    return member_suffixes(primary());
  }

  node number_literal(bool negative, std::size_t offset) {
    const token t = cur_;
    advance();
    std::string digits(t.text);
    if (t.kind == token_kind::double_literal) {
      if (negative) digits.insert(digits.begin(), '-');
      double d = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
      if (ec == std::errc::result_out_of_range) {
        d = std::strtod(digits.c_str(), nullptr);  // from_chars rejects overflow to inf; CEL gives inf
      } else if (ec != std::errc{} || ptr != digits.data() + digits.size()) {
        fail_at(offset, "Syntax error: invalid double literal");
      }
      return literal(value(d), offset);
    }
    const bool hex = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X');
    const char* begin = digits.data() + (hex ? 2 : 0);
    const char* end = digits.data() + digits.size();
    if (t.kind == token_kind::uint_literal) {
      std::uint64_t u = 0;
      const auto [ptr, ec] = std::from_chars(begin, end, u, hex ? 16 : 10);
      if (ec != std::errc{} || ptr != end) fail_at(offset, "invalid uint literal");
      return literal(value(u), offset);
    }
    std::uint64_t magnitude = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, magnitude, hex ? 16 : 10);
    const std::uint64_t limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
    if (ec != std::errc{} || ptr != end || magnitude > limit) {
      fail_at(offset, "invalid int literal");
      return literal(value(std::int64_t{0}), offset);
    }
    const std::int64_t i = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    return literal(value(i), offset);
  }

  node member_suffixes(node operand) {
    chain_depth chain(*this);
    while (!failed_) {
      if (at(".") || at(".?")) {
        const bool optional = at(".?");
        const std::size_t op = cur_.offset;
        advance();
        if (cur_.kind != token_kind::identifier) {
          fail_at(cur_.offset, unexpected());
          break;
        }
        std::string field(cur_.text);
        const std::size_t field_offset = cur_.offset;
        advance();
        chain.extend();
        if (!optional && at("(")) {
          const std::size_t open = cur_.offset;  // cel-go places a call at its parenthesis
          advance();
          std::vector<node> args = arguments(")");
          operand = member_call(std::move(operand), std::move(field), open, std::move(args));
          continue;
        }
        if (optional) {
          operand = call("_?._", op, list_of(std::move(operand), literal(value::string(field), field_offset)));
        } else {
          node s = make(node_kind::select, op);
          s.name = std::move(field);
          s.args.push_back(std::move(operand));
          operand = std::move(s);
        }
        continue;
      }
      if (at("[") || at("[?")) {
        const bool optional = at("[?");
        const std::size_t op = cur_.offset;
        advance();
        chain.extend();
        node index = expr();
        expect("]");
        operand = call(optional ? "_[?_]" : "_[_]", op, list_of(std::move(operand), std::move(index)));
        continue;
      }
      break;
    }
    return operand;
  }

  std::vector<node> arguments(std::string_view close) {
    std::vector<node> args;
    if (accept(close)) return args;
    while (!failed_) {
      args.push_back(expr());
      if (accept(",")) {
        if (accept(close)) break;  // trailing comma
        continue;
      }
      expect(close);
      break;
    }
    return args;
  }

  node primary() {
    depth_guard guard(*this);
    const std::size_t start = cur_.offset;
    switch (cur_.kind) {
      case token_kind::int_literal:
      case token_kind::double_literal: return number_literal(false, start);
      case token_kind::uint_literal: return number_literal(false, start);
      case token_kind::string_literal: {
        node n = literal(value::string(std::move(cur_.decoded)), start);
        advance();
        return n;
      }
      case token_kind::bytes_literal: {
        node n = literal(value::bytes(std::move(cur_.decoded)), start);
        advance();
        return n;
      }
      case token_kind::identifier: return identifier_or_call(start);
      case token_kind::punct: break;
      default: fail_at(start, unexpected()); return node{};
    }
    if (accept("(")) {
      node inner = expr();
      expect(")");
      return inner;
    }
    if (at("[") || at("[?")) return list_construction(start);
    if (accept("{")) return map_construction(start);
    if (at(".")) return root_scoped_name(start);
    fail_at(start, unexpected());
    return node{};
  }

  // An identifier: a literal (true, false, null), a global call, or a name.
  node identifier_or_call(std::size_t start) {
    std::string name(cur_.text);
    advance();
    if (name == "true" || name == "false") return literal(value(name == "true"), start);
    if (name == "null") return literal(value(null_value{}), start);
    if (is_reserved(name)) {
      fail_at(start, dra::concat("Syntax error: reserved identifier: ", name));
      return node{};
    }
    if (at("(")) {
      const std::size_t open = cur_.offset;  // cel-go places a call at its parenthesis
      advance();
      std::vector<node> args = arguments(")");
      return global_call(std::move(name), open, std::move(args));
    }
    if (at("{")) {
      fail_at(cur_.offset, "message construction is not supported: no message types are declared");
      return node{};
    }
    return ident(std::move(name), start);
  }

  // `[a, ?b, …]`, at its `[` or `[?`.
  node list_construction(std::size_t start) {
    bool first_optional = at("[?");
    advance();
    node list = make(node_kind::list, start);
    if (first_optional || !accept("]")) {
      while (!failed_) {
        const bool optional = first_optional || accept("?");
        first_optional = false;
        list.args.push_back(expr());
        list.optional_entries.push_back(optional);
        if (accept(",")) {
          if (accept("]")) break;
          continue;
        }
        expect("]");
        break;
      }
    }
    return list;
  }

  // `{k: v, ?k: v, …}`, after its `{`.
  node map_construction(std::size_t start) {
    node map = make(node_kind::map, start);
    if (!accept("}")) {
      while (!failed_) {
        const bool optional = accept("?");
        map.args.push_back(expr());
        expect(":");
        map.args.push_back(expr());
        map.optional_entries.push_back(optional);
        if (accept(",")) {
          if (accept("}")) break;
          continue;
        }
        expect("}");
        break;
      }
    }
    return map;
  }

  // A leading-dot identifier, `.name` or `.name(…)`: a root-scoped name, at its dot.
  node root_scoped_name(std::size_t start) {
    advance();
    if (cur_.kind != token_kind::identifier) {
      fail_at(cur_.offset, unexpected());
      return node{};
    }
    std::string name(cur_.text);
    advance();
    if (at("(")) {
      const std::size_t open = cur_.offset;
      advance();
      return global_call(std::move(name), open, arguments(")"));
    }
    return ident(std::move(name), start);
  }

  static bool is_reserved(std::string_view name) {
    static constexpr std::string_view words[] = {"as",     "break",   "const",     "continue", "else",
                                                 "for",    "function", "if",       "import",   "let",
                                                 "loop",   "package", "namespace", "return",   "var",
                                                 "void",   "while",   "in"};
    for (std::string_view w : words)
      if (w == name) return true;
    return false;
  }

  // --- macros ---------------------------------------------------------------
  node global_call(std::string name, std::size_t offset, std::vector<node> args) {
    if (name == "has" && args.size() == 1) {
      if (args[0].kind != node_kind::select) {
        fail_at(offset, "invalid argument to has() macro");
        return node{};
      }
      node n = std::move(args[0]);
      n.test_only = true;
      return n;
    }
    return call(std::move(name), offset, std::move(args));
  }

  // The dotted name an expression spells (`a.b.c`), if it is only identifiers and selects.
  static std::optional<std::string> qualified_name(const node& n) {
    if (n.kind == node_kind::ident) return n.name;
    if (n.kind == node_kind::select && !n.test_only) {
      auto inner = qualified_name(n.args[0]);
      if (inner) return *inner + "." + n.name;
    }
    return std::nullopt;
  }

  // A macro's variable; `message` is the macro's own wording of the error, as cel-go's.
  std::optional<std::string> simple_name(const node& n, std::size_t offset,
                                         std::string_view message = "argument must be a simple name") {
    if (n.kind == node_kind::ident) return n.name;
    fail_at(n.offset > 0 ? n.offset : offset, message);
    return std::nullopt;
  }

  static node comprehension(std::size_t offset, std::string iter_var, std::string iter_var2, node range, node init,
                            node condition, node step, node result_node) {
    node n = make(node_kind::comprehension, offset);
    n.iter_var = std::move(iter_var);
    n.iter_var2 = std::move(iter_var2);
    n.accu_var = std::string(accumulator_name);
    n.args.push_back(std::move(range));
    n.args.push_back(std::move(init));
    n.args.push_back(std::move(condition));
    n.args.push_back(std::move(step));
    n.args.push_back(std::move(result_node));
    return n;
  }
  static node accu(std::size_t offset) { return ident(std::string(accumulator_name), offset); }

  // A call with a receiver, `target.fn(args)`: a macro (cel.bind, all, exists, map, …) expands here into a
  // comprehension; a namespaced function (`math.greatest(…)`) is a plain call; anything else a member call.
  node member_call(node target, std::string fn, std::size_t offset, std::vector<node> args) {
    if (auto q = qualified_name(target)) {
      const std::string full = *q + "." + fn;
      if (full == "cel.bind" && args.size() == 3) return bind_macro(offset, args);
      if (is_namespaced_function(full)) return call(full, offset, std::move(args));
    }
    const std::size_t argc = args.size();
    const bool one_var = argc == 2, two_var = argc == 3;
    if ((fn == "all" || fn == "exists" || fn == "exists_one" || fn == "existsOne") && (one_var || two_var)) {
      if (fn == "existsOne" && !two_var) return call(std::move(fn), offset, prepend(std::move(target), std::move(args)), true);
      return quantifier_macro(fn, offset, target, args);
    }
    if ((fn == "map" && (argc == 2 || argc == 3)) || (fn == "filter" && argc == 2))
      return map_macro(fn, offset, target, args);
    if ((fn == "transformList" || fn == "transformMap" || fn == "transformMapEntry") && (argc == 3 || argc == 4))
      return transform_macro(fn, offset, target, args);
    if (fn == "sortBy" && argc == 2) return sort_by_macro(offset, target, args);
    if ((fn == "optMap" || fn == "optFlatMap") && argc == 2) return opt_map_macro(fn, offset, target, args);
    return call(std::move(fn), offset, prepend(std::move(target), std::move(args)), true);
  }

  // cel.bind(var, init, body).
  node bind_macro(std::size_t offset, std::vector<node>& args) {
    auto var = simple_name(args[0], offset, "cel.bind() variable names must be simple identifiers");
    if (!var) return node{};
    node n = make(node_kind::comprehension, offset);
    n.iter_var = "#unused";
    n.accu_var = *var;
    n.args.push_back(make(node_kind::list, offset));
    n.args.push_back(std::move(args[1]));
    n.args.push_back(literal(value(false), offset));
    n.args.push_back(accu_named(*var, offset));
    n.args.push_back(std::move(args[2]));
    return n;
  }

  // target.all / exists / exists_one / existsOne(v1[, v2], predicate).
  node quantifier_macro(const std::string& fn, std::size_t offset, node& target, std::vector<node>& args) {
    const std::size_t argc = args.size();
    const bool two_var = argc == 3;
    auto v1 = simple_name(args[0], offset);
    std::optional<std::string> v2;
    if (two_var) v2 = simple_name(args[1], offset);
    if (!v1 || (two_var && !v2)) return node{};
    if (two_var && (*v1 == *v2)) {
      fail_at(offset, "duplicate variable name: " + *v1);
      return node{};
    }
    if (*v1 == accumulator_name || (v2 && *v2 == accumulator_name)) {
      fail_at(offset, "iteration variable overwrites accumulator variable");
      return node{};
    }
    node predicate = std::move(args[argc - 1]);
    if (fn == "all") {
      return comprehension(offset, *v1, v2.value_or(""), std::move(target), literal(value(true), offset),
                           call("@not_strictly_false", offset, list_of(accu(offset))),
                           call("_&&_", offset, list_of(accu(offset), std::move(predicate))), accu(offset));
    }
    if (fn == "exists") {
      return comprehension(offset, *v1, v2.value_or(""), std::move(target), literal(value(false), offset),
                           call("@not_strictly_false", offset, list_of(call("!_", offset, list_of(accu(offset))))),
                           call("_||_", offset, list_of(accu(offset), std::move(predicate))), accu(offset));
    }
    node step = call("_?_:_", offset,
                     list_of(std::move(predicate),
                             call("_+_", offset, list_of(accu(offset), literal(value(std::int64_t{1}), offset))),
                             accu(offset)));
    return comprehension(offset, *v1, v2.value_or(""), std::move(target), literal(value(std::int64_t{0}), offset),
                         literal(value(true), offset), std::move(step),
                         call("_==_", offset, list_of(accu(offset), literal(value(std::int64_t{1}), offset))));
  }

  // target.map(v, [predicate,] transform) and target.filter(v, predicate).
  node map_macro(const std::string& fn, std::size_t offset, node& target, std::vector<node>& args) {
    const std::size_t argc = args.size();
    auto v1 = simple_name(args[0], offset, "argument is not an identifier");
    if (!v1) return node{};
    node element = fn == "filter" ? ident(*v1, offset) : std::move(args[argc - 1]);
    node appended = call("_+_", offset, list_of(accu(offset), list_literal(std::move(element), offset)));
    node step;
    if (fn == "filter" || argc == 3) {
      node predicate = std::move(args[1]);
      step = call("_?_:_", offset, list_of(std::move(predicate), std::move(appended), accu(offset)));
    } else {
      step = std::move(appended);
    }
    return comprehension(offset, *v1, "", std::move(target), make(node_kind::list, offset),
                         literal(value(true), offset), std::move(step), accu(offset));
  }

  // target.transformList / transformMap / transformMapEntry(v1, v2, [predicate,] transform).
  node transform_macro(const std::string& fn, std::size_t offset, node& target, std::vector<node>& args) {
    const std::size_t argc = args.size();
    auto v1 = simple_name(args[0], offset);
    auto v2 = simple_name(args[1], offset);
    if (!v1 || !v2) return node{};
    if (*v1 == *v2) {
      fail_at(offset, "duplicate variable name: " + *v1);
      return node{};
    }
    node transform = std::move(args[argc - 1]);
    node appended;
    node init;
    if (fn == "transformList") {
      appended = call("_+_", offset, list_of(accu(offset), list_literal(std::move(transform), offset)));
      init = make(node_kind::list, offset);
    } else if (fn == "transformMap") {
      appended = call("@map_insert", offset, list_of(accu(offset), ident(*v1, offset), std::move(transform)));
      init = make(node_kind::map, offset);
    } else {
      appended = call("@map_insert", offset, list_of(accu(offset), std::move(transform)));
      init = make(node_kind::map, offset);
    }
    node step = argc == 4 ? call("_?_:_", offset, list_of(std::move(args[2]), std::move(appended), accu(offset)))
                          : std::move(appended);
    return comprehension(offset, *v1, *v2, std::move(target), std::move(init), literal(value(true), offset),
                         std::move(step), accu(offset));
  }

  // target.sortBy(v, key).
  node sort_by_macro(std::size_t offset, node& target, std::vector<node>& args) {
    // As cel-go: cel.bind(@__sortBy_input__, list, @__sortBy_input__.@sortByAssociatedKeys(
    // @__sortBy_input__.map(e, key))). The list is bound once, not copied: a copy per sortBy
    // doubled the tree at each link of a chain `l.sortBy(x, x).sortBy(x, x)…` (2^n nodes: a
    // fuzzed chain of about 30 took more than 4 GB while parsing).
    const node_kind k = target.kind;
    if (k != node_kind::list && k != node_kind::select && k != node_kind::ident && k != node_kind::comprehension &&
        k != node_kind::call) {
      fail_at(target.offset, "sortBy can only be applied to a list, identifier, comprehension, call or select expression");
      return node{};
    }
    auto var = simple_name(args[0], offset, "argument is not an identifier");
    if (!var) return node{};
    constexpr std::string_view input = "@__sortBy_input__";
    node keys = comprehension(offset, *var, "", ident(std::string(input), offset), make(node_kind::list, offset),
                              literal(value(true), offset),
                              call("_+_", offset, list_of(accu(offset), list_literal(std::move(args[1]), offset))),
                              accu(offset));
    node bound = make(node_kind::comprehension, offset);
    bound.iter_var = "#unused";
    bound.accu_var = std::string(input);
    bound.args.push_back(make(node_kind::list, offset));
    bound.args.push_back(std::move(target));
    bound.args.push_back(literal(value(false), offset));
    bound.args.push_back(ident(std::string(input), offset));
    bound.args.push_back(call("@sortByAssociatedKeys", offset,
                              list_of(ident(std::string(input), offset), std::move(keys)), true));
    return bound;
  }

  // target.optMap / optFlatMap(v, expression).
  node opt_map_macro(const std::string& fn, std::size_t offset, node& target, std::vector<node>& args) {
    auto var = simple_name(args[0], offset, fn == "optMap" ? "optMap() variable name must be a simple identifier"
                                                            : "optFlatMap() variable name must be a simple identifier");
    if (!var) return node{};
    // The target is evaluated twice, as cel-go's expansion does; each link of a chain
    // `o.optMap(x, x).optMap(x, x)…` doubles the tree, so copies are bounded.
    if (!charge_macro_copy(target, offset)) return node{};
    node target_copy = target;
    node bound = make(node_kind::comprehension, offset);
    bound.iter_var = "#unused";
    bound.accu_var = *var;
    bound.args.push_back(make(node_kind::list, offset));
    bound.args.push_back(call("value", offset, list_of(std::move(target_copy)), true));
    bound.args.push_back(literal(value(false), offset));
    bound.args.push_back(accu_named(*var, offset));
    bound.args.push_back(std::move(args[1]));
    node some = fn == "optMap" ? call("optional.of", offset, list_of(std::move(bound))) : std::move(bound);
    return call("_?_:_", offset,
                list_of(call("hasValue", offset, list_of(std::move(target)), true), std::move(some),
                        call("optional.none", offset, {})));
  }

  // Counts the nodes a macro is about to copy against parse_limits::max_macro_copied_nodes;
  // false (and the parse failed) past it.
  bool charge_macro_copy(const node& copied, std::size_t offset) {
    std::vector<const node*> pending{&copied};
    while (!pending.empty()) {
      const node* n = pending.back();
      pending.pop_back();
      if (++macro_copied_nodes_ > limits_.max_macro_copied_nodes) {
        fail_at(offset, dra::concat("expression too large: macro expansion copies more than ",
                                            std::to_string(limits_.max_macro_copied_nodes), " nodes"));
        return false;
      }
      for (const node& child : n->args) pending.push_back(&child);
    }
    return true;
  }

  static node accu_named(const std::string& name, std::size_t offset) { return ident(name, offset); }
  static node list_literal(node element, std::size_t offset) {
    node l = make(node_kind::list, offset);
    l.args.push_back(std::move(element));
    l.optional_entries.push_back(false);
    return l;
  }
  static std::vector<node> prepend(node first, std::vector<node> rest) {
    std::vector<node> all;
    all.reserve(rest.size() + 1);
    all.push_back(std::move(first));
    for (auto& r : rest) all.push_back(std::move(r));
    return all;
  }

  std::string_view src_;
  lexer lex_;
  parse_limits limits_;
  token cur_{};
  std::size_t depth_ = 0;
  std::size_t macro_copied_nodes_ = 0;
  bool failed_ = false;
  std::string message_{};
};

}  // namespace detail

// Parses a CEL expression. Errors read like cel-go's: "ERROR: <input>:1:5: …".
[[nodiscard]] inline result<node> parse(std::string_view source, parse_limits limits = {}) {
  return detail::parser(source, limits).parse();
}

}  // namespace dra::cel
