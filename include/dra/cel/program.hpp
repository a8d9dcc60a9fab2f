// Compiling a CEL expression once (parse, check, fold constants) and evaluating it many times.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/checker.hpp>
#include <dra/cel/cost.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/interpreter.hpp>
#include <dra/cel/parser.hpp>
#include <dra/core/result.hpp>

#include <re2/re2.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

// A compiled expression. Immutable, so one program may be evaluated from several threads at once.
class program {
 public:
  [[nodiscard]] const type& result_type() const noexcept { return root_.checked; }
  [[nodiscard]] const std::string& source() const noexcept { return source_; }
  [[nodiscard]] const node& root() const noexcept { return root_; }
  // The static estimate of what an evaluation costs (cel-go's EstimateCost, Kubernetes' sizes for `device`): the
  // API server refuses a selector whose max exceeds selector_max_cost. Unbounded for an unchecked program.
  [[nodiscard]] cost_estimate estimated_cost() const noexcept { return estimated_cost_; }

  // Evaluates with the given variables. The value may borrow text from the program and from the
  // variables: keep both alive while using it. A CEL error value (no such key, overflow, cost limit) is returned
  // as an error value, not as a failed result: callers decide what an error means.
  [[nodiscard]] value evaluate(const activation& vars, std::uint64_t* cost = nullptr) const {
    std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>> dynamic_regexes;
    call_context ctx;
    ctx.cost_limit = env_->cost_limit;
    ctx.constant_regexes = &regexes_;
    ctx.regex_cache = &dynamic_regexes;
    detail::interpreter run(*env_, vars, ctx, !checked_);
    value out = run.eval(root_);
    if (cost != nullptr) *cost = ctx.cost;
    return out;
  }

 private:
  friend result<program> compile(std::shared_ptr<const environment>, std::string_view, bool);
  std::shared_ptr<const environment> env_;
  std::string source_;
  node root_;
  bool checked_ = false;
  cost_estimate estimated_cost_{0, detail::unbounded};
  std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>> regexes_;
};

namespace detail {

[[nodiscard]] inline bool is_conversion(std::string_view fn) {
  static constexpr std::string_view names[] = {"int",  "uint", "double", "string",    "bytes",
                                               "bool", "dyn",  "type",   "duration", "timestamp"};
  for (std::string_view n : names)
    if (n == fn) return true;
  return false;
}

// What cel-go does while planning a program with OptOptimize, plus its
// literal validators: constant conversions and literals become constants,
// constant format strings and regular expressions are checked, and a
// constant index that can never be a map key is rejected.
class folder {
 public:
  folder(const environment& env, std::string_view source,
         std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>>& regexes)
      : env_(env), source_(source), regexes_(regexes) {}

  std::optional<error> run(node& n) {
    visit(n);
    return std::move(error_);
  }

 private:
  void fail(const node& at, std::string_view message, bool located) {
    if (error_) return;
    error_ = error{located ? located_message(source_, at.offset, message)
                           : dra::concat("program instantiation failed: ", message)};
  }

  value evaluate_constant(const node& n) {
    activation none;
    call_context ctx;
    ctx.cost_limit = env_.cost_limit;  // `lists.range(1e12)` must not be built while compiling
    ctx.constant_regexes = &regexes_;
    std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>> scratch;
    ctx.regex_cache = &scratch;
    interpreter run(env_, none, ctx, false, /*borrow_literals=*/false);  // folded values outlive the nodes they came from
    return run.eval(n);
  }

  void visit(node& n) {
    // A format string's argument list is folded to one literal below: keep where its elements were.
    std::vector<std::uint32_t> format_arg_offsets;
    if (n.kind == node_kind::call && n.name == "format" && n.member && n.args.size() == 2 && n.args[1].kind == node_kind::list)
      for (const auto& e : n.args[1].args) format_arg_offsets.push_back(e.offset);
    for (auto& a : n.args) visit(a);
    if (error_) return;
    auto all_literal = [&] {
      for (const auto& a : n.args)
        if (a.kind != node_kind::literal) return false;
      return true;
    };
    if (n.kind == node_kind::list || n.kind == node_kind::map) {
      if (!all_literal()) return;
      bool any_optional = false;
      for (bool o : n.optional_entries) any_optional = any_optional || o;
      if (any_optional) return;
      value v = evaluate_constant(n);
      if (!v.is_error()) to_literal(n, std::move(v));  // an erroneous literal fails when evaluated
      return;
    }
    if (n.kind != node_kind::call) return;
    if (is_conversion(n.name) && !n.member && n.args.size() == 1 && all_literal()) {
      value v = evaluate_constant(n);
      // cel-go's duration and timestamp literal validators report a bad string at the argument.
      if (v.is_error() && (n.name == "duration" || n.name == "timestamp") && n.args[0].literal.is(value_kind::string))
        return fail(n.args[0], dra::concat("invalid ", n.name, " argument"), true);
      if (v.is_error()) return fail(n, v.error_message(), false);
      to_literal(n, std::move(v));
      return;
    }
    if ((n.name == "_[_]" || n.name == "_[?_]") && n.args[1].kind == node_kind::literal) {
      const auto k = n.args[1].literal.kind();
      if (k == value_kind::bytes) return fail(n, "invalid qualifier type: types.Bytes", false);
      if (k == value_kind::null) return fail(n, "invalid qualifier type: types.Null", false);
    }
    if ((n.name == "matches" || n.name == "find" || n.name == "findAll") && n.args.size() >= 2 &&
        n.args[n.member ? 1 : 1].kind == node_kind::literal && n.args[1].literal.is(value_kind::string)) {
      const std::string pattern(n.args[1].literal.as_text());
      if (!regexes_.contains(pattern)) {
        re2::RE2::Options options;
        options.set_log_errors(false);
        auto re = std::make_shared<const re2::RE2>(pattern, options);
        if (!re->ok()) return fail(n.args[1], dra::concat("invalid matches argument: ", re->error()), true);
        regexes_.emplace(pattern, std::move(re));
      }
    }
    if (n.name == "format" && n.member && all_literal()) {
      value v = evaluate_constant(n);
      if (v.is_error()) {
        // cel-go places an argument's formatting error at that argument.
        std::size_t failed_arg = format_arg_offsets.size();
        if (n.args[0].literal.is(value_kind::string) && n.args[1].literal.is(value_kind::list))
          (void)lib::format_string(n.args[0].literal.as_text(), lib::items(n.args[1].literal), &failed_arg);
        if (failed_arg < format_arg_offsets.size() && v.error_message().starts_with("error during formatting")) {
          node at;
          at.offset = format_arg_offsets[failed_arg];
          return fail(at, v.error_message(), true);
        }
        return fail(n, v.error_message(), true);
      }
    }
    // Every library function is pure: a call on constants (`quantity("10Gi")`, `semver("1.2.3")`)
    // is evaluated once here instead of on every device. One that fails is left to fail at run
    // time, as it does upstream.
    if (n.op == builtin::none && !n.args.empty() && all_literal()) {
      value v = evaluate_constant(n);
      if (!v.is_error()) to_literal(n, std::move(v));
    }
  }

  static void to_literal(node& n, value v) {
    const std::uint32_t offset = n.offset;
    type checked = std::move(n.checked);
    n = node{};
    n.kind = node_kind::literal;
    n.offset = offset;
    n.literal = std::move(v);
    n.checked = std::move(checked);
  }

  const environment& env_;
  std::string_view source_;
  std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>>& regexes_;
  std::optional<error> error_;
};

}  // namespace detail

// Parses, checks (unless `type_check` is false) and prepares an expression.
// Errors read like Kubernetes' ("compilation failed: ERROR: <input>:1:5: …").
[[nodiscard]] inline result<program> compile(std::shared_ptr<const environment> env, std::string_view source,
                                             bool type_check = true) {
  auto parsed = parse(source, env->limits);
  if (!parsed)
    return error{dra::concat("compilation failed: ", parsed.error().message), "", "", errc::cel_compile};
  program p;
  p.env_ = env;
  p.source_ = std::string(source);
  p.root_ = std::move(parsed).value();
  if (type_check) {
    auto checked = check(*env, p.root_, source);
    if (!checked)
      return error{dra::concat("compilation failed: ", checked.error().message), "", "", errc::cel_compile};
    p.checked_ = true;
    p.estimated_cost_ = estimate_cost(*env, p.root_);  // of the expression as written, before folding
  }
  if (env->fold_constants) {
    if (auto folded = detail::folder(*env, source, p.regexes_).run(p.root_))
      return error{folded->message.starts_with("ERROR") ? dra::concat("compilation failed: ", folded->message)
                                                        : std::move(folded->message),
                   "", "", errc::cel_compile};
  }
  return p;
}

}  // namespace dra::cel
