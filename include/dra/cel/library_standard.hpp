// cel-go's standard library: arithmetic, size, conversions, string tests, ordering, timestamps and durations.
#pragma once

#include <dra/cel/detail/library_support.hpp>
#include <dra/cel/detail/time_zone.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace dra::cel {

namespace lib {

// --- conversions -------------------------------------------------------------
inline value int_from_double(double d) {
  if (std::isnan(d) || d <= -9223372036854775808.0 || d >= 9223372036854775808.0) return overflow();
  return static_cast<std::int64_t>(d);
}
inline value uint_from_double(double d) {
  if (std::isnan(d) || d < 0 || d >= 18446744073709551616.0) return uoverflow();
  return static_cast<std::uint64_t>(d);
}
inline value int_from_string(std::string_view s) {
  std::int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec == std::errc::result_out_of_range) return overflow();
  if (ec != std::errc{} || p != e || s.empty()) return value::error(dra::concat("type conversion error from 'string' to 'int'"));
  return v;
}
inline value uint_from_string(std::string_view s) {
  std::uint64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  if (b != e && *b == '-') return value::error("type conversion error from 'string' to 'uint'");
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec == std::errc::result_out_of_range) return uoverflow();
  if (ec != std::errc{} || p != e || s.empty()) return value::error("type conversion error from 'string' to 'uint'");
  return v;
}
inline value double_from_string(std::string_view s) {
  std::string lower;
  for (char c : s) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  std::string_view body = lower;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "inf" || body == "infinity") return negative ? -HUGE_VAL : HUGE_VAL;
  if (body == "nan") return std::numeric_limits<double>::quiet_NaN();
  double d = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, d);
  if (ec == std::errc::result_out_of_range) {
    d = std::strtod(std::string(s).c_str(), nullptr);
  } else if (ec != std::errc{} || p != e || s.empty()) {
    return value::error("type conversion error from 'string' to 'double'");
  }
  return d;
}

// A timestamp broken down in a time zone (UTC, a fixed offset or an IANA name).
struct civil_time {
  std::int64_t year, month, day, hour, minute, second, millisecond, weekday, yearday;
};

inline std::optional<civil_time> to_civil(const timestamp_value& t, std::string_view zone) {
  std::int64_t offset = 0;
  if (zone != "UTC" && zone != "Z" && !zone.empty()) {
    // "+05:30", "-08:00" and "05:30" (cel-go accepts an offset without a sign as positive).
    std::string_view z = zone;
    int sign = 1;
    if (z[0] == '+' || z[0] == '-') {
      sign = z[0] == '-' ? -1 : 1;
      z.remove_prefix(1);
    }
    auto digit = [&z](std::size_t i) { return z[i] >= '0' && z[i] <= '9'; };
    const bool fixed = z.size() == 5 && z[2] == ':' && digit(0) && digit(1) && digit(3) && digit(4);
    if (fixed) {
      offset = sign * (((z[0] - '0') * 10 + (z[1] - '0')) * 3600 + ((z[3] - '0') * 10 + (z[4] - '0')) * 60);
    } else if (auto named = detail::zone_offset(zone, t.seconds)) {  // an IANA name: "Australia/Sydney"
      offset = *named;
    } else {
      return std::nullopt;
    }
  }
  const std::int64_t local = t.seconds + offset;
  std::int64_t days = local / 86400, rem = local % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  const auto c = detail::civil_from_days(days);
  const std::int64_t jan1 = detail::days_from_civil(c.year, 1, 1);
  return civil_time{c.year, static_cast<std::int64_t>(c.month), static_cast<std::int64_t>(c.day), rem / 3600, rem / 60 % 60, rem % 60,
                    t.nanos / 1000000, ((days % 7) + 11) % 7, days - jan1};
}

inline value timestamp_accessors_get(int which, const civil_time& t) {
  switch (which) {
    case 0: return t.year;
    case 1: return t.month - 1;
    case 2: return t.day;
    case 3: return t.day - 1;
    case 4: return t.weekday;
    case 5: return t.yearday;
    case 6: return t.hour;
    case 7: return t.minute;
    case 8: return t.second;
    default: return t.millisecond;
  }
}

// Implementations are plain function pointers: one instantiation per accessor (K indexes the list above).
template <int K>
value timestamp_accessor(args_t a, call_context&) {
  auto t = to_civil(a[0].as<timestamp_value>(), a.size() > 1 ? a[1].as_text() : std::string_view("UTC"));
  if (!t) return value::error(dra::concat("unknown time zone ", dra::quoted(a[1].as_text())));
  return timestamp_accessors_get(K, *t);
}
template <std::size_t... K>
constexpr std::array<implementation, sizeof...(K)> timestamp_accessor_impls(std::index_sequence<K...>) {
  return {&timestamp_accessor<static_cast<int>(K)>...};
}

inline value shift_timestamp(const timestamp_value& t, std::int64_t d) {
  std::int64_t s = t.seconds + d / 1000000000;
  std::int64_t n = t.nanos + d % 1000000000;
  if (n < 0) {
    n += 1000000000;
    --s;
  }
  if (n >= 1000000000) {
    n -= 1000000000;
    ++s;
  }
  if (s < detail::min_timestamp_seconds || s > detail::max_timestamp_seconds) return value::error("timestamp overflow");
  return timestamp_value{s, static_cast<std::int32_t>(n)};
}

}  // namespace lib

// cel-go's standard library: arithmetic, negation, `!`.
inline void add_standard_arithmetic(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Arithmetic.
  r.global("_+_", "add_int64", {T_int(), T_int()}, T_int(), add_int);
  r.global("_+_", "add_uint64", {T_uint(), T_uint()}, T_uint(), add_uint);
  r.global("_+_", "add_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() + a[1].as_double(); });
  r.global("_+_", "add_string", {T_string(), T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size() + a[1].as_text().size());
    return value::string(dra::concat(a[0].as_text(), a[1].as_text()));
  });
  r.global("_+_", "add_bytes", {T_bytes(), T_bytes()}, T_bytes(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size() + a[1].as_text().size());
    return value::bytes(dra::concat(a[0].as_text(), a[1].as_text()));
  });
  r.global("_+_", "add_list", {type::list(T_A()), type::list(T_A())}, type::list(T_A()), [](args_t a, call_context& c) -> value {
    const auto& x = items(a[0]);
    const auto& y = items(a[1]);
    if (x.empty()) return a[1];
    if (y.empty()) return a[0];
    c.cost += (x.size() + y.size()) / 10;
    std::vector<value> out(x);
    out.insert(out.end(), y.begin(), y.end());
    return value::list(std::move(out));
  });
  r.global("_+_", "add_duration_duration", {type::duration(), type::duration()}, type::duration(), [](args_t a, call_context&) -> value {
    std::int64_t r;
    if (__builtin_add_overflow(a[0].as<duration_value>().nanos, a[1].as<duration_value>().nanos, &r)) return overflow();
    return duration_value{r};
  });
  r.global("_+_", "add_timestamp_duration", {type::timestamp(), type::duration()}, type::timestamp(), [](args_t a, call_context&) -> value {
    const auto& t = a[0].as<timestamp_value>();
    const std::int64_t d = a[1].as<duration_value>().nanos;
    std::int64_t s = t.seconds + d / 1000000000;
    std::int64_t n = t.nanos + d % 1000000000;
    if (n < 0) { n += 1000000000; --s; }
    if (n >= 1000000000) { n -= 1000000000; ++s; }
    if (s < detail::min_timestamp_seconds || s > detail::max_timestamp_seconds) return value::error("timestamp overflow");
    return timestamp_value{s, static_cast<std::int32_t>(n)};
  });
  r.global("_-_", "subtract_int64", {T_int(), T_int()}, T_int(), sub_int);
  r.global("_-_", "subtract_uint64", {T_uint(), T_uint()}, T_uint(), sub_uint);
  r.global("_-_", "subtract_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() - a[1].as_double(); });
  r.global("_-_", "subtract_duration_duration", {type::duration(), type::duration()}, type::duration(), [](args_t a, call_context&) -> value {
    std::int64_t r;
    if (__builtin_sub_overflow(a[0].as<duration_value>().nanos, a[1].as<duration_value>().nanos, &r)) return overflow();
    return duration_value{r};
  });
  r.global("_-_", "subtract_timestamp_timestamp", {type::timestamp(), type::timestamp()}, type::duration(), [](args_t a, call_context&) -> value {
    const auto& x = a[0].as<timestamp_value>();
    const auto& y = a[1].as<timestamp_value>();
    std::int64_t nanos;
    if (__builtin_mul_overflow(x.seconds - y.seconds, std::int64_t{1000000000}, &nanos) ||
        __builtin_add_overflow(nanos, std::int64_t{x.nanos - y.nanos}, &nanos))
      return overflow();
    return duration_value{nanos};
  });
  r.global("_*_", "multiply_int64", {T_int(), T_int()}, T_int(), mul_int);
  r.global("_*_", "multiply_uint64", {T_uint(), T_uint()}, T_uint(), mul_uint);
  r.global("_*_", "multiply_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() * a[1].as_double(); });
  r.global("_/_", "divide_int64", {T_int(), T_int()}, T_int(), div_int);
  r.global("_/_", "divide_uint64", {T_uint(), T_uint()}, T_uint(), div_uint);
  r.global("_/_", "divide_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() / a[1].as_double(); });
  r.global("_%_", "modulo_int64", {T_int(), T_int()}, T_int(), mod_int);
  r.global("_%_", "modulo_uint64", {T_uint(), T_uint()}, T_uint(), mod_uint);
  r.global("-_", "negate_int64", {T_int()}, T_int(), [](args_t a, call_context&) -> value {
    if (a[0].as_int() == std::numeric_limits<std::int64_t>::min()) return overflow();
    return -a[0].as_int();
  });
  r.global("-_", "negate_double", {T_double()}, T_double(), [](args_t a, call_context&) -> value { return -a[0].as_double(); });
  r.global("!_", "logical_not", {T_bool()}, T_bool(), [](args_t a, call_context&) -> value { return !a[0].as_bool(); });
}

// cel-go's standard library: the old spellings of `in` and of the comprehensions' error-tolerant
// test, which are identifiers and so can be called.
inline void add_standard_old_operator_spellings(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Operators the checker and interpreter handle themselves (&&, ||, ?:, ==, !=, [], in) have no
  // entries; cel-go's older spellings of two of them are plain identifiers and so can be called.
  r.global("_in_", "in_list", {T_A(), type::list(T_A())}, T_bool(), [](args_t a, call_context& c) -> value {
    c.cost += items(a[1]).size();
    return list_contains(items(a[1]), a[0]);
  });
  r.global("_in_", "in_map", {T_A(), type::map(T_A(), T_B())}, T_bool(), [](args_t a, call_context&) -> value {
    if (const auto* h = a[1].get_if<host_map_value>()) return h->map->contains(h->scope, a[0]);
    value ignored;
    return map_find(a[1], a[0], ignored);
  });
  // Evaluated by the interpreter (non-strict: an error counts as true); declared for the checker.
  r.global("__not_strictly_false__", "not_strictly_false", {T_bool()}, T_bool(), [](args_t a, call_context&) -> value { return a[0].as_bool(); });
}

// cel-go's standard library: size() and the type conversions.
inline void add_standard_size_and_conversions(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Size.
  auto size_string = [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(code_points(a[0].as_text())); };
  auto size_bytes = [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as_text().size()); };
  auto size_list = [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(items(a[0]).size()); };
  auto size_map = [](args_t a, call_context&) -> value {
    if (const auto* h = a[0].get_if<host_map_value>()) return static_cast<std::int64_t>(h->map->size(h->scope));
    return static_cast<std::int64_t>(a[0].as<map_value>().size());
  };
  r.global("size", "size_string", {T_string()}, T_int(), size_string);
  r.global("size", "size_bytes", {T_bytes()}, T_int(), size_bytes);
  r.global("size", "size_list", {type::list(T_A())}, T_int(), size_list);
  r.global("size", "size_map", {type::map(T_A(), T_B())}, T_int(), size_map);
  r.member("size", "string_size", {T_string()}, T_int(), size_string);
  r.member("size", "bytes_size", {T_bytes()}, T_int(), size_bytes);
  r.member("size", "list_size", {type::list(T_A())}, T_int(), size_list);
  r.member("size", "map_size", {type::map(T_A(), T_B())}, T_int(), size_map);

  // Conversions.
  r.global("int", "int64_to_int64", {T_int()}, T_int(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("int", "uint64_to_int64", {T_uint()}, T_int(), [](args_t a, call_context&) -> value {
    if (a[0].as_uint() > 9223372036854775807ULL) return overflow();
    return static_cast<std::int64_t>(a[0].as_uint());
  });
  r.global("int", "double_to_int64", {T_double()}, T_int(), [](args_t a, call_context&) -> value { return int_from_double(a[0].as_double()); });
  r.global("int", "string_to_int64", {T_string()}, T_int(), [](args_t a, call_context&) -> value { return int_from_string(a[0].as_text()); });
  r.global("int", "timestamp_to_int64", {type::timestamp()}, T_int(), [](args_t a, call_context&) -> value { return a[0].as<timestamp_value>().seconds; });
  r.global("int", "duration_to_int64", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return a[0].as<duration_value>().nanos; });
  r.global("uint", "uint64_to_uint64", {T_uint()}, T_uint(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("uint", "int64_to_uint64", {T_int()}, T_uint(), [](args_t a, call_context&) -> value {
    if (a[0].as_int() < 0) return uoverflow();
    return static_cast<std::uint64_t>(a[0].as_int());
  });
  r.global("uint", "double_to_uint64", {T_double()}, T_uint(), [](args_t a, call_context&) -> value { return uint_from_double(a[0].as_double()); });
  r.global("uint", "string_to_uint64", {T_string()}, T_uint(), [](args_t a, call_context&) -> value { return uint_from_string(a[0].as_text()); });
  r.global("double", "double_to_double", {T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("double", "int64_to_double", {T_int()}, T_double(), [](args_t a, call_context&) -> value { return static_cast<double>(a[0].as_int()); });
  r.global("double", "uint64_to_double", {T_uint()}, T_double(), [](args_t a, call_context&) -> value { return static_cast<double>(a[0].as_uint()); });
  r.global("double", "string_to_double", {T_string()}, T_double(), [](args_t a, call_context&) -> value { return double_from_string(a[0].as_text()); });
  auto to_string_impl = [](args_t a, call_context&) -> value { return to_string_value(a[0]); };
  for (auto [t, id] : {std::pair{T_string(), "string_to_string"}, {T_int(), "int64_to_string"}, {T_uint(), "uint64_to_string"},
                       {T_double(), "double_to_string"}, {T_bytes(), "bytes_to_string"}, {T_bool(), "bool_to_string"},
                       {type::timestamp(), "timestamp_to_string"}, {type::duration(), "duration_to_string"}})
    r.global("string", id, {t}, T_string(), to_string_impl);
  r.global("bytes", "bytes_to_bytes", {T_bytes()}, T_bytes(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("bytes", "string_to_bytes", {T_string()}, T_bytes(), [](args_t a, call_context&) -> value { return value::bytes(std::string(a[0].as_text())); });
  r.global("bool", "bool_to_bool", {T_bool()}, T_bool(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("bool", "string_to_bool", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    const auto s = a[0].as_text();
    if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") return true;
    if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") return false;
    return value::error("type conversion error from 'string' to 'bool'");
  });
  r.global("dyn", "to_dyn", {T_A()}, T_dyn(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("type", "type", {T_A()}, type::type_of(T_A()), [](args_t a, call_context&) -> value { return type_value{type_name(a[0])}; });
  r.global("duration", "duration_to_duration", {type::duration()}, type::duration(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("duration", "string_to_duration", {T_string()}, type::duration(), [](args_t a, call_context&) -> value {
    auto d = detail::parse_duration(a[0].as_text());
    if (!d) return value::error(dra::concat("invalid duration: ", a[0].as_text()));
    return duration_value{*d};
  });
  r.global("timestamp", "timestamp_to_timestamp", {type::timestamp()}, type::timestamp(), [](args_t a, call_context&) -> value { return a[0]; });
  r.global("timestamp", "string_to_timestamp", {T_string()}, type::timestamp(), [](args_t a, call_context&) -> value {
    auto t = detail::parse_timestamp(a[0].as_text());
    if (!t) return value::error(dra::concat("invalid timestamp: ", a[0].as_text()));
    return timestamp_value{t->first, t->second};
  });
  r.global("timestamp", "int64_to_timestamp", {T_int()}, type::timestamp(), [](args_t a, call_context&) -> value {
    const auto s = a[0].as_int();
    if (s < detail::min_timestamp_seconds || s > detail::max_timestamp_seconds) return value::error("timestamp overflow");
    return timestamp_value{s, 0};
  });
}

// cel-go's standard library: contains, startsWith, endsWith, matches, and the ordering relations
// (with cross-type numeric comparisons).
inline void add_standard_strings_and_relations(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Strings of the standard library.
  r.member("contains", "contains_string", {T_string(), T_string()}, T_bool(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    return a[0].as_text().find(a[1].as_text()) != std::string_view::npos;
  });
  r.member("startsWith", "starts_with_string", {T_string(), T_string()}, T_bool(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[1].as_text().size());
    return a[0].as_text().substr(0, a[1].as_text().size()) == a[1].as_text();
  });
  r.member("endsWith", "ends_with_string", {T_string(), T_string()}, T_bool(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[1].as_text().size());
    const auto s = a[0].as_text(), t = a[1].as_text();
    return s.size() >= t.size() && s.substr(s.size() - t.size()) == t;
  });
  auto matches = [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    std::string err;
    const re2::RE2* re = compiled_regex(c, a[1].as_text(), err);
    if (re == nullptr) return value::error(err.empty() ? "regex cache unavailable" : err);
    return re2::RE2::PartialMatch(re2::StringPiece(a[0].as_text().data(), a[0].as_text().size()), *re);
  };
  r.member("matches", "matches_string", {T_string(), T_string()}, T_bool(), matches);
  r.global("matches", "matches", {T_string(), T_string()}, T_bool(), matches);

  // Ordering, with CEL's cross-type numeric comparisons.
  // cel-go's overload ids: less_int64, less_equals_int64_double, greater_timestamp …
  const std::tuple<std::string_view, std::string_view, implementation> relations[] = {
      {"_<_", "less", [](args_t a, call_context&) -> value { auto o = order(a[0], a[1]); return o ? value(*o < 0) : (detail::is_numeric(a[0]) ? value(false) : no_overload("_<_")); }},
      {"_<=_", "less_equals", [](args_t a, call_context&) -> value { auto o = order(a[0], a[1]); return o ? value(*o <= 0) : (detail::is_numeric(a[0]) ? value(false) : no_overload("_<=_")); }},
      {"_>_", "greater", [](args_t a, call_context&) -> value { auto o = order(a[0], a[1]); return o ? value(*o > 0) : (detail::is_numeric(a[0]) ? value(false) : no_overload("_>_")); }},
      {"_>=_", "greater_equals", [](args_t a, call_context&) -> value { auto o = order(a[0], a[1]); return o ? value(*o >= 0) : (detail::is_numeric(a[0]) ? value(false) : no_overload("_>=_")); }},
  };
  const std::pair<type, type> comparable[] = {
      {T_int(), T_int()},       {T_uint(), T_uint()},     {T_double(), T_double()},
      {T_string(), T_string()}, {T_bytes(), T_bytes()},   {T_bool(), T_bool()},
      {type::timestamp(), type::timestamp()}, {type::duration(), type::duration()},
      {T_int(), T_uint()},      {T_int(), T_double()},    {T_uint(), T_int()},
      {T_uint(), T_double()},   {T_double(), T_int()},    {T_double(), T_uint()},
  };
  auto id_part = [](const type& t) -> std::string_view {
    switch (t.kind) {
      case type_kind::int64: return "int64";
      case type_kind::uint64: return "uint64";
      case type_kind::timestamp: return "timestamp";
      case type_kind::duration: return "duration";
      default: return {};
    }
  };
  for (const auto& [name, prefix, impl] : relations)
    for (const auto& [x, y] : comparable) {
      const std::string xs = id_part(x).empty() ? x.to_string() : std::string(id_part(x));
      const std::string ys = id_part(y).empty() ? y.to_string() : std::string(id_part(y));
      r.global(name, x == y ? dra::concat(prefix, "_", xs) : dra::concat(prefix, "_", xs, "_", ys), {x, y}, T_bool(), impl);
    }
}

// cel-go's standard library: timestamp and duration arithmetic and accessors.
inline void add_standard_time_functions(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  // Timestamp and duration accessors (UTC, a fixed "+hh:mm"/"-hh:mm" offset, or an IANA zone name).
  r.global("_+_", "add_duration_timestamp", {type::duration(), type::timestamp()}, type::timestamp(), [](args_t a, call_context&) -> value {
    return shift_timestamp(a[1].as<timestamp_value>(), a[0].as<duration_value>().nanos);
  });
  r.global("_-_", "subtract_timestamp_duration", {type::timestamp(), type::duration()}, type::timestamp(), [](args_t a, call_context&) -> value {
    if (a[1].as<duration_value>().nanos == std::numeric_limits<std::int64_t>::min()) return overflow();
    return shift_timestamp(a[0].as<timestamp_value>(), -a[1].as<duration_value>().nanos);
  });
  // Name, cel-go's overload id and its id with a time zone (one of them irregular upstream).
  static constexpr std::array<std::array<const char*, 3>, 10> timestamp_accessors = {{
      {"getFullYear", "timestamp_to_year", "timestamp_to_year_with_tz"},
      {"getMonth", "timestamp_to_month", "timestamp_to_month_with_tz"},
      {"getDate", "timestamp_to_day_of_month_1_based", "timestamp_to_day_of_month_1_based_with_tz"},
      {"getDayOfMonth", "timestamp_to_day_of_month", "timestamp_to_day_of_month_with_tz"},
      {"getDayOfWeek", "timestamp_to_day_of_week", "timestamp_to_day_of_week_with_tz"},
      {"getDayOfYear", "timestamp_to_day_of_year", "timestamp_to_day_of_year_with_tz"},
      {"getHours", "timestamp_to_hours", "timestamp_to_hours_with_tz"},
      {"getMinutes", "timestamp_to_minutes", "timestamp_to_minutes_with_tz"},
      {"getSeconds", "timestamp_to_seconds", "timestamp_to_seconds_tz"},
      {"getMilliseconds", "timestamp_to_milliseconds", "timestamp_to_milliseconds_with_tz"},
  }};
  constexpr auto accessor_impls = timestamp_accessor_impls(std::make_index_sequence<timestamp_accessors.size()>{});
  for (std::size_t k = 0; k < timestamp_accessors.size(); ++k) {
    const auto& [name, id, id_with_tz] = timestamp_accessors[k];
    r.member(name, id, {type::timestamp()}, T_int(), accessor_impls[k]);
    r.member(name, id_with_tz, {type::timestamp(), T_string()}, T_int(), accessor_impls[k]);
  }
  r.member("getHours", "duration_to_hours", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 3600000000000}; });
  r.member("getMinutes", "duration_to_minutes", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 60000000000}; });
  r.member("getSeconds", "duration_to_seconds", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 1000000000}; });
  r.member("getMilliseconds", "duration_to_milliseconds", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 1000000}; });
}

// cel-go's standard library (every overload but the operators the checker and interpreter
// handle themselves: &&, ||, ?:, ==, !=, [], in).
inline void add_standard_library(function_table& table) {
  add_standard_arithmetic(table);
  add_standard_old_operator_spellings(table);
  add_standard_size_and_conversions(table);
  add_standard_strings_and_relations(table);
  add_standard_time_functions(table);
}

}  // namespace dra::cel
