// Function declarations of a CEL environment: overloads with their signatures (for the checker) and implementations.
#pragma once

#include <dra/cel/types.hpp>
#include <dra/cel/value.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace re2 {
class RE2;
}

namespace dra::cel {

// The error an evaluation gives once it runs past its cost limit (cel-go's wording); errc::cel_cost_limit.
inline constexpr std::string_view cost_limit_message = "operation cancelled: actual cost limit exceeded";
inline value cost_limit_exceeded() { return value::error(std::string(cost_limit_message)); }

// What a function implementation may use while it runs: the cost meter and
// the program's compiled regular expressions.
struct call_context {
  std::uint64_t cost = 0;
  std::uint64_t cost_limit = UINT64_MAX;
  // Patterns compiled with the program (constants) and during this evaluation.
  const std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>>* constant_regexes = nullptr;
  std::map<std::string, std::shared_ptr<const re2::RE2>, std::less<>>* regex_cache = nullptr;
};

using implementation = value (*)(std::span<const value> args, call_context& context);

// One overload of a function: for member overloads the receiver is params[0].
struct overload {
  std::string id;
  bool member = false;
  std::vector<type> params;
  type result;
  implementation impl = nullptr;
  bool non_strict = false;  // receives error arguments instead of propagating them
  // Whether run-time arguments are checked against the declared parameter types before the call
  // (cel-go's type guards, which look at a list's or map's first entry); off where cel-go
  // disables them (flatten) or binds one implementation for every overload (sort).
  bool type_guards = true;
};

// The functions of an environment by name.
class function_table {
 public:
  void add(std::string_view name, overload o) { table_[std::string(name)].push_back(std::make_shared<overload>(std::move(o))); }
  void erase(std::string_view name) { table_.erase(std::string(name)); }
  [[nodiscard]] const std::vector<std::shared_ptr<const overload>>* find(std::string_view name) const {
    auto it = table_.find(std::string(name));
    return it == table_.end() ? nullptr : &it->second;
  }
  // Every function name with its overloads, in no particular order (for listings and tests).
  [[nodiscard]] const auto& entries() const noexcept { return table_; }

 private:
  std::unordered_map<std::string, std::vector<std::shared_ptr<const overload>>> table_;
};

// Whether a runtime value may be passed where `param` is declared. Like cel-go's runtime type
// guards, a list or map is checked by its first entry only (an empty one always fits).
[[nodiscard]] inline bool accepts(const type& param, const value& v) noexcept;

namespace detail {
[[nodiscard]] inline bool is_open(const type& t) noexcept {
  return t.kind == type_kind::dyn || t.kind == type_kind::type_param;
}
}  // namespace detail

inline bool accepts(const type& param, const value& v) noexcept {
  switch (param.kind) {
    case type_kind::dyn:
    case type_kind::type_param: return true;
    case type_kind::null_type: return v.is(value_kind::null);
    case type_kind::boolean: return v.is(value_kind::boolean);
    case type_kind::int64: return v.is(value_kind::int64);
    case type_kind::uint64: return v.is(value_kind::uint64);
    case type_kind::double_: return v.is(value_kind::double_);
    case type_kind::string: return v.is(value_kind::string);
    case type_kind::bytes: return v.is(value_kind::bytes);
    case type_kind::list: {
      if (!v.is(value_kind::list)) return false;
      if (detail::is_open(param.params[0])) return true;
      const auto& items = *v.as<list_value>().items;
      return items.empty() || accepts(param.params[0], items.front());
    }
    case type_kind::map: {
      if (v.is(value_kind::host_map)) return true;  // the device's maps: string keys, declared by the environment
      if (!v.is(value_kind::map)) return false;
      if (detail::is_open(param.params[0]) && detail::is_open(param.params[1])) return true;
      const auto& entries = *v.as<map_value>().entries;
      return entries.empty() || (accepts(param.params[0], entries.front().first) && accepts(param.params[1], entries.front().second));
    }
    case type_kind::type: return v.is(value_kind::type);
    case type_kind::optional: return v.is(value_kind::optional);
    case type_kind::timestamp: return v.is(value_kind::timestamp);
    case type_kind::duration: return v.is(value_kind::duration);
    case type_kind::opaque:
      if (param.name == "kubernetes.Quantity") return v.is(value_kind::quantity);
      if (param.name == "kubernetes.Semver") return v.is(value_kind::semver);
      if (param.name == "net.IP") return v.is(value_kind::ip);
      if (param.name == "net.CIDR") return v.is(value_kind::cidr);
      if (param.name == "kubernetes.URL") return v.is(value_kind::url);
      return false;
    case type_kind::object:
      // No function takes the device object; the authorizer types have no values in a selector.
      return param.name == "kubernetes.NamedFormat" && v.is(value_kind::named_format);
    case type_kind::error: return false;
  }
  return false;
}

// The same check without looking into lists and maps (for overloads without type guards).
[[nodiscard]] inline bool accepts_kind(const type& param, const value& v) noexcept {
  if (param.kind == type_kind::list) return v.is(value_kind::list);
  if (param.kind == type_kind::map) return v.is(value_kind::map) || v.is(value_kind::host_map);
  return accepts(param, v);
}

}  // namespace dra::cel
