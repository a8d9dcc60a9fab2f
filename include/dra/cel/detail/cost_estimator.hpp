// The walk of cel-go's cost estimator over a checked tree: the cost of each node, the sizes and paths it tracks for
// operands, loops costed as their range's size times their body.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/detail/cost_library.hpp>
#include <dra/cel/detail/cost_support.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/functions.hpp>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::cel::detail {

// One estimate: the state cel-go's coster keeps (paths and sizes by node, a stack of local variables per name).
class cost_estimator {
 public:
  explicit cost_estimator(const environment& env) : env_(env) {}

  cost_estimate run(const node& root) { return cost(root); }

 private:
  struct local_variable {
    value_path path;
    std::optional<size_estimate> size;
    std::optional<entry_sizes> entries;
  };

  // --- paths and sizes --------------------------------------------------------------------------------------

  const local_variable* find_local(std::string_view name) const {
    auto it = locals_.find(name);
    return it == locals_.end() || it->second.empty() ? nullptr : &it->second.back();
  }
  value_path path_of(const node& n) const {
    if (n.kind == node_kind::ident)
      if (const auto* local = find_local(n.name)) return local->path;
    auto it = paths_.find(&n);
    return it == paths_.end() ? value_path{} : it->second;
  }
  void set_path(const node& n, value_path path) { paths_[&n] = std::move(path); }
  static value_path extended(value_path path, std::string_view step) {
    path.emplace_back(step);
    return path;
  }

  // cel-go's computeSize: a size already found, the written size of a literal, the declared size of the node's
  // path, 1 for a scalar type, a local variable's size.
  std::optional<size_estimate> size_of_node(const node& n) {
    if (auto it = sizes_.find(&n); it != sizes_.end()) return it->second;
    if (auto written = written_size(n)) return written;
    const value_path path = path_of(n);
    if (env_.declared_sizes != nullptr && !path.empty())
      if (auto declared = env_.declared_sizes(path)) {
        sizes_[&n] = *declared;
        return declared;
      }
    if (is_scalar(n.checked)) return fixed_size(1);
    if (n.kind == node_kind::ident)
      if (const auto* local = find_local(n.name); local != nullptr && local->size) return local->size;
    return std::nullopt;
  }
  size_estimate size_or_unknown(const node& n) { return size_of_node(n).value_or(unknown_size); }
  void set_size(const node& n, const std::optional<size_estimate>& size) {
    if (size) sizes_[&n] = *size;
  }

  std::optional<entry_sizes> entries_of(const node& n) const {
    if (auto it = entries_.find(&n); it != entries_.end()) return it->second;
    if (n.kind == node_kind::ident)
      if (const auto* local = find_local(n.name); local != nullptr && local->entries) return local->entries;
    return std::nullopt;
  }
  void set_entries(const node& n, const std::optional<entry_sizes>& entries) {
    if (entries) entries_[&n] = *entries;
  }
  void copy_sizes(const node& to, const node& from) {
    set_size(to, size_of_node(from));
    set_entries(to, entries_of(from));
  }

  operand operand_of(const node& n) { return operand{&n, path_of(n), &n.checked, size_of_node(n)}; }

  // --- local variables --------------------------------------------------------------------------------------

  void push_local(const std::string& name, const node& bound) {
    locals_[name].push_back({path_of(bound), size_of_node(bound), entries_of(bound)});
  }
  void pop_local(const std::string& name) { locals_[name].pop_back(); }

  // An iteration variable: a list's indices or elements, a map's keys or values, sized by the range's entries.
  enum class iterated { key, value, single };
  void push_iteration_variable(const std::string& name, const node& range, iterated what) {
    const auto entries = entries_of(range);
    const type_kind container = entries ? entries->container : range.checked.kind;
    const bool list = container == type_kind::list;
    std::optional<size_estimate> size;
    std::string_view step;
    if (what == iterated::key || (what == iterated::single && !list)) {
      if (entries) size = entries->key;
      step = what == iterated::key && list ? "@indices" : "@keys";
    } else {
      if (entries) size = entries->value;
      step = list ? "@items" : "@values";
    }
    locals_[name].push_back({extended(path_of(range), step), size, std::nullopt});
  }

  // --- nodes ------------------------------------------------------------------------------------------------

  cost_estimate cost(const node& n) {
    switch (n.kind) {
      case node_kind::literal:
        return {};
      case node_kind::ident:
        if (const auto* local = find_local(n.name))
          set_path(n, local->path);
        else
          set_path(n, {n.name});
        return fixed_cost(1);
      case node_kind::select:
        return select_cost(n);
      case node_kind::call:
        return call_cost(n);
      case node_kind::list:
        return list_cost(n);
      case node_kind::map:
        return map_cost(n);
      case node_kind::comprehension:
        return is_bind(n) ? bind_cost(n) : comprehension_cost(n);
    }
    return {};
  }

  cost_estimate select_cost(const node& n) {
    const node& operand_node = n.args[0];
    if (n.test_only) return fixed_cost(env_.presence_test_has_cost ? 1 : 0) + cost(operand_node);
    cost_estimate sum = cost(operand_node);
    const type_kind k = operand_node.checked.kind;
    if (k == type_kind::map || k == type_kind::object || k == type_kind::type_param) sum = sum + fixed_cost(1);
    set_path(n, extended(path_of(operand_node), n.name));
    return sum;
  }

  cost_estimate list_cost(const node& n) {
    cost_estimate sum;
    size_estimate element{n.args.empty() ? 0 : unbounded, 0};
    for (const node& e : n.args) {
      sum = sum + cost(e);
      element = union_of(element, size_or_unknown(e));
    }
    entries_[&n] = entry_sizes{type_kind::list, fixed_size(1), element};
    return sum + fixed_cost(list_create_cost);
  }

  cost_estimate map_cost(const node& n) {
    cost_estimate sum;
    const std::uint64_t start = n.args.empty() ? 0 : unbounded;
    size_estimate key{start, 0}, value{start, 0};
    for (std::size_t i = 0; i + 1 < n.args.size(); i += 2) {
      sum = sum + cost(n.args[i]) + cost(n.args[i + 1]);
      key = union_of(key, size_or_unknown(n.args[i]));
      value = union_of(value, size_or_unknown(n.args[i + 1]));
    }
    entries_[&n] = entry_sizes{type_kind::map, key, value};
    return sum + fixed_cost(map_create_cost);
  }

  // cel.bind() (and the binding of optMap, sortBy): an empty range, a false condition, a named accumulator.
  static bool is_bind(const node& n) {
    const node& range = n.args[0];
    const node& condition = n.args[2];
    return range.kind == node_kind::list && range.args.empty() && condition.kind == node_kind::literal &&
           condition.literal.is(value_kind::boolean) && !condition.literal.as_bool() && n.accu_var != accumulator_name;
  }

  cost_estimate bind_cost(const node& n) {
    // The empty range is built (and charged) though it never runs.
    cost_estimate sum = cost(n.args[0]) + cost(n.args[1]);
    push_local(n.accu_var, n.args[1]);
    sum = sum + cost(n.args[4]);
    pop_local(n.accu_var);
    copy_sizes(n, n.args[4]);
    return sum;
  }

  cost_estimate comprehension_cost(const node& n) {
    const node& range = n.args[0];
    const node& init = n.args[1];
    cost_estimate sum = cost(range) + cost(init);
    push_local(n.accu_var, init);
    const bool two_variables = !n.iter_var2.empty();
    if (two_variables) {
      push_iteration_variable(n.iter_var, range, iterated::key);
      push_iteration_variable(n.iter_var2, range, iterated::value);
    } else {
      push_iteration_variable(n.iter_var, range, iterated::single);
    }
    const cost_estimate per_iteration = cost(n.args[2]) + cost(n.args[3]);
    pop_local(n.iter_var);
    if (two_variables) pop_local(n.iter_var2);
    sum = sum + cost(n.args[4]);
    pop_local(n.accu_var);
    // Every iteration may run: the range's size times the condition and the step.
    const size_estimate iterations = size_or_unknown(range);
    sum = sum + as_cost(iterations) * per_iteration;
    if (init.kind == node_kind::literal) {
      set_size(n, size_of_node(init));
    } else if (init.kind == node_kind::list || init.kind == node_kind::map) {
      set_size(n, iterations);
      set_entries(n, entries_of(n.args[3]));
    }
    return sum;
  }

  // --- calls ------------------------------------------------------------------------------------------------

  // The overloads a call may take, as cel-go's checker records them: the library's for a library function, the
  // standard operators' ids for the calls the checker decides itself (by the operand's type where it matters).
  static std::vector<std::pair<std::string_view, const overload*>> overloads_of(const node& n) {
    using list = std::vector<std::pair<std::string_view, const overload*>>;
    const auto by_container = [](const type& t, std::string_view on_list, std::string_view on_map) -> list {
      if (t.kind == type_kind::list) return {{on_list, nullptr}};
      if (t.kind == type_kind::map) return {{on_map, nullptr}};
      if (t.kind == type_kind::optional) return {{"optional_index", nullptr}};
      return {{on_list, nullptr}, {on_map, nullptr}};
    };
    switch (n.op) {
      case builtin::logical_and:
        return {{"logical_and", nullptr}};
      case builtin::logical_or:
        return {{"logical_or", nullptr}};
      case builtin::conditional:
        return {{"conditional", nullptr}};
      case builtin::not_strictly_false:
        return {{"not_strictly_false", nullptr}};
      case builtin::equals:
        return {{"equals", nullptr}};
      case builtin::not_equals:
        return {{"not_equals", nullptr}};
      case builtin::in:
        return by_container(n.args[1].checked, "in_list", "in_map");
      case builtin::index:
        return by_container(n.args[0].checked, "index_list", "index_map");
      case builtin::optional_index:
        return {{"optional_index", nullptr}};
      case builtin::optional_select:
        return {{"select_optional_field", nullptr}};
      case builtin::map_insert:
        return {{"map_insert", nullptr}};
      case builtin::none:
        break;
    }
    list out;
    for (const overload* o : n.overloads) out.emplace_back(o->id, o);
    return out;
  }

  cost_estimate call_cost(const node& n) {
    // dyn() only turns type checking off: 1 and its argument, sized as its argument.
    if (n.name == "dyn" && !n.member && n.args.size() == 1) {
      const cost_estimate argument = cost(n.args[0]);
      copy_sizes(n, n.args[0]);
      return fixed_cost(1) + argument;
    }
    const std::size_t first = n.member ? 1 : 0;
    std::vector<cost_estimate> argument_costs;
    std::vector<operand> arguments;
    for (std::size_t i = first; i < n.args.size(); ++i) {
      argument_costs.push_back(cost(n.args[i]));
      arguments.push_back(operand_of(n.args[i]));
    }
    const auto overloads = overloads_of(n);
    if (overloads.empty()) return {};
    cost_estimate sum;
    std::optional<operand> target;
    if (n.member) {
      sum = cost(n.args[0]);
      target = operand_of(n.args[0]);
    }
    // A range covering every overload's.
    cost_estimate function{unbounded, 0};
    std::optional<size_estimate> result;
    for (const auto& [id, o] : overloads) {
      const call_estimate estimate = function_cost(n, id, o, target ? &*target : nullptr, arguments, argument_costs);
      function = union_of(function, estimate.cost);
      if (estimate.result_size) result = result ? union_of(*result, *estimate.result_size) : *estimate.result_size;
      if ((id == "index_list" || id == "index_map") && first < n.args.size()) {
        const node& container = n.args[first];
        const auto entries = entries_of(container);
        result = entries ? std::optional(entries->value) : std::nullopt;
        set_path(n, extended(path_of(container), id == "index_list" ? "@items" : "@values"));
      }
      if (!result) result = size_of_node(n);
    }
    set_size(n, result);
    return sum + function;
  }

  static cost_estimate sum_of(std::span<const cost_estimate> costs) {
    cost_estimate sum;
    for (const cost_estimate& c : costs) sum = sum + c;
    return sum;
  }

  // cel-go's functionCost: an extension's estimate, then the environment's (Kubernetes', asked for operators too:
  // it has its own `_==_`), then cel-go's own for its standard functions, else 1; arguments' costs are added to
  // each (a receiver's by the caller).
  call_estimate function_cost(const node& call, std::string_view id, const overload* o, const operand* target,
                              std::span<const operand> args, std::span<const cost_estimate> arg_costs) {
    const cost_estimate arguments = sum_of(arg_costs);
    std::optional<call_estimate> estimate;
    if (o != nullptr) estimate = extension_estimate(env_, call.name, *o, target, args);
    if (!estimate) estimate = kubernetes_estimate(env_, call.name, id, target, args);
    if (estimate) return {estimate->cost + arguments, estimate->result_size};
    if (auto standard = standard_cost(call, id, target, args, arg_costs)) return *standard;
    return {fixed_cost(1) + arguments};
  }

  // The standard functions cel-go estimates by their operands' sizes (their costs include the arguments').
  std::optional<call_estimate> standard_cost(const node& call, std::string_view id, const operand* target,
                                             std::span<const operand> args, std::span<const cost_estimate> arg_costs) {
    const cost_estimate arguments = sum_of(arg_costs);
    const auto size = [this](const operand& o) { return size_of(env_, o); };
    const auto traversal = [](size_estimate s) { return scaled(s, string_traversal_factor); };
    if (id == "string_format" && target != nullptr && !args.empty())
      return call_estimate{traversal(size(*target)) + arguments, size(*target) + size(args[0])};
    if ((id == "string_to_bytes" || id == "bytes_to_string" || id == "strings_quote") && args.size() == 1) {
      const size_estimate s = size(args[0]);
      size_estimate result{s.min / 4, s.max};  // 4 bytes may be one character
      if (id == "string_to_bytes") result = {s.min, multiply_saturated(s.max, 4)};
      if (id == "strings_quote") result = {add_saturated(s.min, 2), add_saturated(multiply_saturated(s.max, 2), 2)};
      return call_estimate{traversal(s) + arguments, result};
    }
    if ((id == "starts_with_string" || id == "ends_with_string") && args.size() == 1)
      return call_estimate{traversal(size(args[0])) + arguments};
    if (id == "in_list" && args.size() == 2) return call_estimate{as_cost(size(args[1])) + arguments};
    if (id == "matches_string" && target != nullptr && args.size() == 1) {
      // One more than the text's length, so that an expensive pattern on "" still costs.
      const cost_estimate text = traversal(size(*target) + fixed_size(1));
      return call_estimate{text * scaled(size(args[0]), regex_length_factor) + arguments};
    }
    if (id == "contains_string" && target != nullptr && args.size() == 1)
      return call_estimate{traversal(size(*target)) * traversal(size(args[0])) + arguments};
    if (id == "logical_and" || id == "logical_or")  // the right side may be skipped
      return call_estimate{{arg_costs[0].min, (arg_costs[0] + arg_costs[1]).max}};
    if (id == "conditional") {
      set_entries(call, union_of(entries_of(call.args[1]), entries_of(call.args[2])));
      return call_estimate{arg_costs[0] + union_of(arg_costs[1], arg_costs[2]), union_of(size(args[1]), size(args[2]))};
    }
    if ((id == "add_string" || id == "add_bytes" || id == "add_list") && args.size() == 2) {
      const size_estimate result = size(args[0]) + size(args[1]);
      set_entries(call, union_of(entries_of(call.args[0]), entries_of(call.args[1])));
      if (id == "add_list") return call_estimate{fixed_cost(1) + arguments, result};  // O(1), but sized
      return call_estimate{traversal(result) + arguments, result};
    }
    if (compares_by_size(id) && args.size() == 2) {
      // Text is compared up to the shorter operand; scalars cost 1.
      const std::uint64_t shorter = std::min(size(args[0]).max, size(args[1]).max);
      return call_estimate{scaled(size_estimate{shorter > 0 ? 1U : 0U, shorter}, string_traversal_factor) + arguments};
    }
    return std::nullopt;
  }

  static bool compares_by_size(std::string_view id) {
    for (std::string_view c :
         {"equals", "not_equals", "less_string", "greater_string", "less_equals_string", "greater_equals_string",
          "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes"})
      if (c == id) return true;
    return false;
  }

  const environment& env_;
  std::unordered_map<const node*, value_path> paths_;
  std::unordered_map<const node*, size_estimate> sizes_;
  std::unordered_map<const node*, entry_sizes> entries_;
  std::map<std::string, std::vector<local_variable>, std::less<>> locals_;
};

}  // namespace dra::cel::detail
