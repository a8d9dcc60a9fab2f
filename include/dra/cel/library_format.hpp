// Kubernetes' format library: format.<name>() constants, format.named(name), <format>.validate(text).
#pragma once

#include <dra/cel/detail/library_support.hpp>
#include <dra/cel/detail/formats_and_urls.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dra::cel {

namespace lib {

template <std::size_t K>
value named_format_constant(args_t, call_context&) {
  return named_format_value{static_cast<std::uint8_t>(K)};
}
template <std::size_t... K>
constexpr std::array<implementation, sizeof...(K)> named_format_constants(std::index_sequence<K...>) {
  return {&named_format_constant<K>...};
}

}  // namespace lib

// Kubernetes' format library.
inline void add_format_library(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Kubernetes' named formats: format.dns1123Label() …, format.named(name), <format>.validate(text).
  const type T_format = type::object("kubernetes.NamedFormat");
  constexpr auto constants = named_format_constants(std::make_index_sequence<detail::named_formats.size()>{});
  for (std::size_t k = 0; k < detail::named_formats.size(); ++k) {
    const std::string name = dra::concat("format.", detail::named_formats[k].key);
    r.global(name, name, {}, T_format, constants[k]);
  }
  r.global("format.named", "format-named", {T_string()}, type::optional(T_format), [](args_t a, call_context&) -> value {
    for (std::size_t k = 0; k < detail::named_formats.size(); ++k)
      if (detail::named_formats[k].key == a[0].as_text()) return value::some(named_format_value{static_cast<std::uint8_t>(k)});
    return value::none();
  });
  r.member("validate", "format-validate", {T_format, T_string()}, type::optional(type::list(T_string())),
         [](args_t a, call_context& c) -> value {
           charge_text(c, a[1].as_text().size());
           const auto problems = detail::named_formats[a[0].as<named_format_value>().index].validate(a[1].as_text());
           if (problems.empty()) return value::none();
           std::vector<value> out;
           for (const auto& p : problems) out.push_back(value::string(p));
           return value::some(value::list(std::move(out)));
         });
}

}  // namespace dra::cel
