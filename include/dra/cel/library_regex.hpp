// Kubernetes' regex library: find, findAll.
#pragma once

#include <dra/cel/detail/library_support.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace dra::cel {

// Kubernetes' regex library.
inline void add_regex_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.member("find", "string_find_string", {T_string(), T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    std::string err;
    const re2::RE2* re = compiled_regex(c, a[1].as_text(), err);
    if (re == nullptr) return value::error(err);
    re2::StringPiece match;
    const auto s = a[0].as_text();
    if (!re->Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), re2::RE2::UNANCHORED, &match, 1)) return value::string("");
    return value::string(std::string(match.data(), match.size()));
  });
  auto find_all = [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    std::string err;
    const re2::RE2* re = compiled_regex(c, a[1].as_text(), err);
    if (re == nullptr) return value::error(err);
    const std::int64_t limit = a.size() > 2 ? a[2].as_int() : -1;
    std::vector<value> out;
    const auto s = a[0].as_text();
    std::size_t pos = 0;
    while (pos <= s.size() && (limit < 0 || static_cast<std::int64_t>(out.size()) < limit)) {
      re2::StringPiece match;
      if (!re->Match(re2::StringPiece(s.data(), s.size()), pos, s.size(), re2::RE2::UNANCHORED, &match, 1)) break;
      out.push_back(value::string(std::string(match.data(), match.size())));
      const auto start = static_cast<std::size_t>(match.data() - s.data());
      pos = start + match.size() + (match.empty() ? 1 : 0);
    }
    return value::list(std::move(out));
  };
  r.member("findAll", "string_find_all_string", {T_string(), T_string()}, type::list(T_string()), find_all);
  r.member("findAll", "string_find_all_string_int", {T_string(), T_string(), T_int()}, type::list(T_string()), find_all);
}

}  // namespace dra::cel
