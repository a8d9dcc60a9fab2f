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

 private:
  std::unordered_map<std::string, std::vector<std::shared_ptr<const overload>>> table_;
};

// Whether a runtime value may be passed where `param` is declared.
[[nodiscard]] inline bool accepts(const type& param, const value& v) noexcept {
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
    case type_kind::list: return v.is(value_kind::list);
    case type_kind::map: return v.is(value_kind::map) || v.is(value_kind::host_map);
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
      if (param.name == "kubernetes.NamedFormat") return v.is(value_kind::named_format);
      return v.is(value_kind::host_map);
    case type_kind::error: return false;
  }
  return false;
}

}  // namespace dra::cel
