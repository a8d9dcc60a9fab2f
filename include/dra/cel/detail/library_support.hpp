// Shared pieces of the CEL function libraries: type shorthands, errors, cost charging, arithmetic, display, list ordering, and the registrar that adds overloads to a table.
#pragma once

#include <dra/core/ip.hpp>
#include <dra/cel/detail/text_format.hpp>
#include <dra/cel/functions.hpp>
#include <dra/cel/parser.hpp>
#include <dra/core/text.hpp>

#include <re2/re2.h>

#include <compare>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

namespace lib {

using args_t = std::span<const value>;

inline type T_dyn() { return type::dyn(); }
inline type T_int() { return type::int64(); }
inline type T_uint() { return type::uint64(); }
inline type T_double() { return type::double_(); }
inline type T_bool() { return type::boolean(); }
inline type T_string() { return type::string(); }
inline type T_bytes() { return type::bytes(); }
inline type T_null() { return type::null(); }
inline type T_A() { return type::param("A"); }
inline type T_B() { return type::param("B"); }
inline type T_quantity() { return type::opaque("kubernetes.Quantity"); }
inline type T_semver() { return type::opaque("kubernetes.Semver"); }

inline value overflow() { return value::error("integer overflow"); }
inline value uoverflow() { return value::error("unsigned integer overflow"); }
inline value no_overload(std::string_view fn) { return value::error(dra::concat("no such overload: ", fn)); }

// String operations are charged by length, as Kubernetes' cost model does (0.1 per byte).
inline void charge_text(call_context& c, std::size_t bytes) { c.cost += 1 + bytes / 10; }

// Charges work before it is done: false when the charge passes the limit, so that a function
// whose work grows faster than its input (quadratic comparisons, a string that quadruples) stops
// before doing it rather than being charged after. Saturates instead of wrapping.
[[nodiscard]] inline bool charge_ahead(call_context& c, std::uint64_t units) {
  c.cost = units > UINT64_MAX - c.cost ? UINT64_MAX : c.cost + units;
  return c.cost <= c.cost_limit;
}

// Pairwise comparisons of two lists, charged 0.1 each (sets.contains' rate) before they are made.
[[nodiscard]] inline bool charge_comparisons(call_context& c, std::size_t left, std::size_t right) {
  const auto l = static_cast<std::uint64_t>(left), r = static_cast<std::uint64_t>(right);
  if (l != 0 && r > UINT64_MAX / l) return charge_ahead(c, UINT64_MAX);
  return charge_ahead(c, l * r / 10);
}

inline std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}
// Byte offsets of each code point (plus the end).
inline std::vector<std::size_t> code_point_offsets(std::string_view s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
  return out;
}

inline const re2::RE2* compiled_regex(call_context& c, std::string_view pattern, std::string& error) {
  std::shared_ptr<const re2::RE2> re;
  if (c.constant_regexes != nullptr) {
    auto it = c.constant_regexes->find(pattern);
    if (it != c.constant_regexes->end()) return it->second.get();
  }
  if (c.regex_cache != nullptr) {
    auto it = c.regex_cache->find(pattern);
    if (it != c.regex_cache->end()) return it->second.get();
  }
  re2::RE2::Options options;
  options.set_log_errors(false);
  re = std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) {
    error = dra::concat("given regex is invalid: ", re->error());
    return nullptr;
  }
  if (c.regex_cache == nullptr) return nullptr;  // callers always provide a cache
  return c.regex_cache->emplace(std::string(pattern), re).first->second.get();
}

inline value to_string_value(const value& v);

// --- arithmetic ------------------------------------------------------------
inline value add_int(args_t a, call_context&) {
  std::int64_t r;
  if (__builtin_add_overflow(a[0].as_int(), a[1].as_int(), &r)) return overflow();
  return r;
}
inline value sub_int(args_t a, call_context&) {
  std::int64_t r;
  if (__builtin_sub_overflow(a[0].as_int(), a[1].as_int(), &r)) return overflow();
  return r;
}
inline value mul_int(args_t a, call_context&) {
  std::int64_t r;
  if (__builtin_mul_overflow(a[0].as_int(), a[1].as_int(), &r)) return overflow();
  return r;
}
inline value div_int(args_t a, call_context&) {
  const auto x = a[0].as_int(), y = a[1].as_int();
  if (y == 0) return value::error("division by zero");
  if (x == std::numeric_limits<std::int64_t>::min() && y == -1) return overflow();
  return x / y;
}
inline value mod_int(args_t a, call_context&) {
  const auto x = a[0].as_int(), y = a[1].as_int();
  if (y == 0) return value::error("modulus by zero");
  if (x == std::numeric_limits<std::int64_t>::min() && y == -1) return overflow();
  return x % y;
}
inline value add_uint(args_t a, call_context&) {
  std::uint64_t r;
  if (__builtin_add_overflow(a[0].as_uint(), a[1].as_uint(), &r)) return uoverflow();
  return r;
}
inline value sub_uint(args_t a, call_context&) {
  std::uint64_t r;
  if (__builtin_sub_overflow(a[0].as_uint(), a[1].as_uint(), &r)) return uoverflow();
  return r;
}
inline value mul_uint(args_t a, call_context&) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a[0].as_uint(), a[1].as_uint(), &r)) return uoverflow();
  return r;
}
inline value div_uint(args_t a, call_context&) {
  if (a[1].as_uint() == 0) return value::error("division by zero");
  return a[0].as_uint() / a[1].as_uint();
}
inline value mod_uint(args_t a, call_context&) {
  if (a[1].as_uint() == 0) return value::error("modulus by zero");
  return a[0].as_uint() % a[1].as_uint();
}

// How `string(x)` and `%s` show a value.
inline std::string display(const value& v) {
  switch (v.kind()) {
    case value_kind::null: return "null";
    case value_kind::boolean: return v.as_bool() ? "true" : "false";
    case value_kind::int64: return std::to_string(v.as_int());
    case value_kind::uint64: return std::to_string(v.as_uint());
    case value_kind::double_: {
      const double d = v.as_double();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return detail::format_double(d);
    }
    case value_kind::string: return std::string(v.as_text());
    case value_kind::bytes: return std::string(v.as_text());
    case value_kind::type: return std::string(v.as<type_value>().name);
    case value_kind::duration: return detail::format_duration(v.as<duration_value>().nanos);
    case value_kind::timestamp: {
      const auto& t = v.as<timestamp_value>();
      return detail::format_timestamp(t.seconds, t.nanos);
    }
    case value_kind::list: {
      std::string out = "[";
      bool first = true;
      for (const auto& e : *v.as<list_value>().items) {
        if (!first) out += ", ";
        first = false;
        out += display(e);
      }
      return out + "]";
    }
    case value_kind::map: {
      // Keys sorted by their display form, as cel-go's formatter does.
      std::vector<std::pair<std::string, std::string>> parts;
      for (const auto& [k, val] : *v.as<map_value>().entries) parts.emplace_back(display(k), display(val));
      std::sort(parts.begin(), parts.end());
      std::string out = "{";
      bool first = true;
      for (const auto& [k, val] : parts) {
        if (!first) out += ", ";
        first = false;
        out += k + ": " + val;
      }
      return out + "}";
    }
    case value_kind::quantity: return v.as<quantity_value>().q.to_string();
    case value_kind::semver: return v.as<semver_value>().get().to_string();
    case value_kind::ip: return dra::format_ip(v.as<ip_value>().address);
    case value_kind::cidr: return dra::format_prefix(v.as<cidr_value>().prefix);
    default: return std::string(type_name(v));
  }
}

inline value to_string_value(const value& v) {
  switch (v.kind()) {
    case value_kind::string: return v;
    case value_kind::bytes:
      if (!detail::valid_utf8(v.as_text())) return value::error("invalid UTF-8 in bytes, cannot convert to string");
      return value::string(std::string(v.as_text()));
    case value_kind::double_: return value::string(detail::format_double(v.as_double()));
    default: return value::string(display(v));
  }
}

// --- list helpers -------------------------------------------------------------
inline const std::vector<value>& items(const value& v) { return *v.as<list_value>().items; }

inline bool list_contains(const std::vector<value>& list, const value& x) {
  for (const auto& e : list)
    if (equals(e, x)) return true;
  return false;
}

// Orders values of one of CEL's comparable kinds (for sort, min, max, isSorted, <).
inline std::optional<std::strong_ordering> order(const value& a, const value& b) {
  if (detail::is_numeric(a) && detail::is_numeric(b)) return detail::compare_numbers(a, b);
  if (a.kind() != b.kind()) return std::nullopt;
  switch (a.kind()) {
    case value_kind::boolean: return a.as_bool() <=> b.as_bool();
    case value_kind::string:
    case value_kind::bytes: return a.as_text().compare(b.as_text()) <=> 0;
    case value_kind::duration: return a.as<duration_value>().nanos <=> b.as<duration_value>().nanos;
    case value_kind::timestamp: {
      const auto& x = a.as<timestamp_value>();
      const auto& y = b.as<timestamp_value>();
      if (x.seconds != y.seconds) return x.seconds <=> y.seconds;
      return x.nanos <=> y.nanos;
    }
    // Quantities and versions are not CEL-comparable (upstream's types have no Compare): they
    // order only through their own library's compareTo/isLessThan.
    default: return std::nullopt;
  }
}

// CEL's comparable element types, for which sort, isSorted, min and max are declared.
inline std::vector<type> comparable_element_types() {
  return {T_int(), T_uint(), T_double(), T_bool(), type::duration(), type::timestamp(), T_string(), T_bytes()};
}

}  // namespace lib

namespace detail {

// Adds overloads to a function table: global functions, member functions, and members without
// cel-go's run-time type guards.
class registrar {
 public:
  explicit registrar(function_table& table) : table_(table) {}
  void global(std::string_view name, std::string id, std::vector<type> params, type result, implementation impl) {
    table_.add(name, overload{std::move(id), false, std::move(params), std::move(result), impl});
  }
  void member(std::string_view name, std::string id, std::vector<type> params, type result, implementation impl) {
    table_.add(name, overload{std::move(id), true, std::move(params), std::move(result), impl});
  }
  void unguarded_member(std::string_view name, std::string id, std::vector<type> params, type result, implementation impl) {
    table_.add(name, overload{std::move(id), true, std::move(params), std::move(result), impl, false, false});
  }

 private:
  function_table& table_;
};

}  // namespace detail

}  // namespace dra::cel
