// The functions of Kubernetes' DRA selector environment: CEL's standard library, the strings, sets, lists and
// optional extensions, regex, and Kubernetes' quantity and semver libraries.
#pragma once

#include <dra/cel/detail/formats_and_urls.hpp>
#include <dra/cel/detail/text_format.hpp>
#include <dra/cel/functions.hpp>
#include <dra/cel/parser.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/semver.hpp>

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
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
inline value no_overload(std::string_view fn) { return value::error(dra::detail::concat("no such overload: ", fn)); }

// String operations are charged by length, as Kubernetes' cost model does (0.1 per byte).
inline void charge_text(call_context& c, std::size_t bytes) { c.cost += 1 + bytes / 10; }

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
    error = dra::detail::concat("given regex is invalid: ", re->error());
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
  if (ec != std::errc{} || p != e || s.empty()) return value::error(dra::detail::concat("type conversion error from 'string' to 'int'"));
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

inline std::string quote_for_format(std::string_view s) {
  // strings.quote: Go-like escaping of a string with double quotes.
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = detail::utf8_length(s, i, &cp);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    switch (cp) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default: out.append(s.substr(i, n));
    }
    i += n;
  }
  out += '"';
  return out;
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
    case value_kind::ip: return detail::format_ip(v.as<ip_value>().address);
    case value_kind::cidr: {
      const auto& p = v.as<cidr_value>().prefix;
      return detail::format_ip(p.address) + "/" + std::to_string(p.bits);
    }
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

// --- the string.format() clause interpreter (strings extension) ------------
inline value format_string(std::string_view fmt, const std::vector<value>& args) {
  std::string out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c != '%') {
      out.push_back(c);
      continue;
    }
    if (++i >= fmt.size()) return value::error("unexpected end of format string");
    if (fmt[i] == '%') {
      out.push_back('%');
      continue;
    }
    int precision = -1;
    if (fmt[i] == '.') {
      ++i;
      precision = 0;
      while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
        precision = precision * 10 + (fmt[i++] - '0');
        if (precision > 10'000) return value::error("formatting precision too large");
      }
      if (i >= fmt.size()) return value::error("unexpected end of format string");
    }
    const char verb = fmt[i];
    if (std::string_view("sdfeboxX").find(verb) == std::string_view::npos)
      return value::error(dra::detail::concat("could not parse formatting clause: unrecognized formatting clause \"",
                                              std::string(1, verb), "\""));
    if (next >= args.size()) return value::error(dra::detail::concat("index ", std::to_string(next), " out of range"));
    const value& a = args[next++];
    auto fail = [&](std::string_view msg) {
      return value::error(dra::detail::concat("error during formatting: ", msg, ", was given ", type_name(a)));
    };
    switch (verb) {
      case 's': {
        if (a.is(value_kind::error)) return a;
        out += display(a);
        break;
      }
      case 'd': {
        if (a.is(value_kind::int64)) out += std::to_string(a.as_int());
        else if (a.is(value_kind::uint64)) out += std::to_string(a.as_uint());
        else return fail("decimal clause can only be used on integers");
        break;
      }
      case 'f':
      case 'e': {
        double d;
        if (a.is(value_kind::double_)) d = a.as_double();
        else if (a.is(value_kind::int64)) d = static_cast<double>(a.as_int());
        else if (a.is(value_kind::uint64)) d = static_cast<double>(a.as_uint());
        else return fail(verb == 'f' ? "fixed-point clause can only be used on doubles" : "scientific clause can only be used on doubles");
        if (std::isnan(d)) { out += "NaN"; break; }
        if (std::isinf(d)) { out += d > 0 ? "Infinity" : "-Infinity"; break; }
        const char* spec = verb == 'f' ? "%.*f" : "%.*e";
        const int digits = precision < 0 ? 6 : precision;
        const int length = std::snprintf(nullptr, 0, spec, digits, d);  // %f of 1e308 needs over 300 digits
        std::string text(static_cast<std::size_t>(length) + 1, '\0');
        std::snprintf(text.data(), text.size(), spec, digits, d);
        text.pop_back();
        out += text;
        break;
      }
      case 'b': {
        if (a.is(value_kind::int64) || a.is(value_kind::uint64)) {
          std::uint64_t u;
          bool negative = false;
          if (a.is(value_kind::int64)) {
            negative = a.as_int() < 0;
            u = negative ? 0 - static_cast<std::uint64_t>(a.as_int()) : static_cast<std::uint64_t>(a.as_int());
          } else {
            u = a.as_uint();
          }
          std::string bits;
          do {
            bits.insert(bits.begin(), static_cast<char>('0' + (u & 1)));
            u >>= 1;
          } while (u != 0);
          if (negative) out += '-';
          out += bits;
        } else if (a.is(value_kind::boolean)) {
          out += a.as_bool() ? "1" : "0";
        } else {
          return fail("only integers and bools can be formatted as binary");
        }
        break;
      }
      case 'o': {
        char buf[64];
        if (a.is(value_kind::int64)) {
          const auto i = a.as_int();
          std::snprintf(buf, sizeof buf, "%s%llo", i < 0 ? "-" : "",
                        static_cast<unsigned long long>(i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i)));
        } else if (a.is(value_kind::uint64)) {
          std::snprintf(buf, sizeof buf, "%llo", static_cast<unsigned long long>(a.as_uint()));
        } else {
          return fail("octal clause can only be used on integers");
        }
        out += buf;
        break;
      }
      case 'x':
      case 'X': {
        const bool upper = verb == 'X';
        char buf[64];
        if (a.is(value_kind::int64)) {
          const auto i = a.as_int();
          std::snprintf(buf, sizeof buf, upper ? "%s%llX" : "%s%llx", i < 0 ? "-" : "",
                        static_cast<unsigned long long>(i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i)));
          out += buf;
        } else if (a.is(value_kind::uint64)) {
          std::snprintf(buf, sizeof buf, upper ? "%llX" : "%llx", static_cast<unsigned long long>(a.as_uint()));
          out += buf;
        } else if (a.is(value_kind::string) || a.is(value_kind::bytes)) {
          for (unsigned char ch : a.as_text()) {
            std::snprintf(buf, sizeof buf, upper ? "%02X" : "%02x", ch);
            out += buf;
          }
        } else {
          return fail("only integers, byte buffers, and strings can be formatted as hex");
        }
        break;
      }
      default: break;
    }
  }
  return value::string(std::move(out));
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

inline value extreme(args_t a, call_context& c, bool want_max) {
  const auto& l = items(a[0]);
  c.cost += l.size();
  if (l.empty()) return value::error(want_max ? "max called on empty list" : "min called on empty list");
  const value* best = &l[0];
  for (std::size_t i = 1; i < l.size(); ++i) {
    auto o = order(l[i], *best);
    if (!o) return no_overload(want_max ? "max" : "min");
    if (want_max ? *o > 0 : *o < 0) best = &l[i];
  }
  return *best;
}

// The sum of a list, starting from the declared element type's zero.
inline value sum(args_t a, call_context& c, value acc) {
  const auto& l = items(a[0]);
  c.cost += l.size();
  for (const auto& e : l) {
    if (e.kind() != acc.kind()) return no_overload("sum");
    const value pair[] = {acc, e};
    switch (acc.kind()) {
      case value_kind::int64: acc = add_int(pair, c); break;
      case value_kind::uint64: acc = add_uint(pair, c); break;
      case value_kind::double_: acc = acc.as_double() + e.as_double(); break;
      case value_kind::duration: {
        std::int64_t r;
        if (__builtin_add_overflow(acc.as<duration_value>().nanos, e.as<duration_value>().nanos, &r)) return overflow();
        acc = duration_value{r};
        break;
      }
      default: return no_overload("sum");
    }
    if (acc.is_error()) return acc;
  }
  return acc;
}

// A timestamp broken down in a time zone (UTC or a fixed offset).
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
    if (z.size() != 5 || z[2] != ':') return std::nullopt;
    for (std::size_t i : {0, 1, 3, 4})
      if (z[i] < '0' || z[i] > '9') return std::nullopt;
    offset = sign * (((z[0] - '0') * 10 + (z[1] - '0')) * 3600 + ((z[3] - '0') * 10 + (z[4] - '0')) * 60);
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
  if (!t) return value::error(dra::detail::concat("unknown time zone ", dra::detail::quoted(a[1].as_text())));
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

template <std::size_t K>
value named_format_constant(args_t, call_context&) {
  return named_format_value{static_cast<std::uint8_t>(K)};
}
template <std::size_t... K>
constexpr std::array<implementation, sizeof...(K)> named_format_constants(std::index_sequence<K...>) {
  return {&named_format_constant<K>...};
}

inline value ip_of(std::string_view text) {
  detail::ip_address a;
  if (std::string why = detail::parse_ip(text, a); !why.empty()) {
    if (why == "parse error")
      return value::error(dra::detail::concat("IP Address ", dra::detail::quoted(text), " parse error during conversion from string"));
    return value::error(dra::detail::concat("IP address ", dra::detail::quoted(text), " ", why));
  }
  return ip_value{a};
}

inline value cidr_of(std::string_view text) {
  detail::ip_prefix p;
  if (std::string why = detail::parse_prefix(text, p); !why.empty())
    return value::error(dra::detail::concat("network address parse error during conversion from string: ", dra::detail::quoted(text), ": ", why));
  return cidr_value{p};
}

// The semver library's normalization (version 1): one leading "v" dropped, leading zeros removed
// from the major and minor numbers and from the rest, a missing minor or patch filled with 0
// (a short version with a pre-release or build part is an error).
inline std::optional<std::string> normalized_semver(std::string_view s, std::string& error) {
  if (!s.empty() && s.front() == 'v') s.remove_prefix(1);
  std::vector<std::string> parts;
  for (int i = 0; i < 2; ++i) {
    const auto dot = s.find('.');
    if (dot == std::string_view::npos) break;
    parts.emplace_back(s.substr(0, dot));
    s.remove_prefix(dot + 1);
  }
  parts.emplace_back(s);
  for (auto& p : parts) {
    if (p.size() <= 1) continue;
    p.erase(0, p.find_first_not_of('0') == std::string::npos ? p.size() : p.find_first_not_of('0'));
    if (p.empty() || p.front() < '0' || p.front() > '9') p.insert(0, "0");
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      error = "short version cannot contain PreRelease/Build meta data";
      return std::nullopt;
    }
    parts.resize(3, "0");
  }
  return dra::detail::concat(parts[0], ".", parts[1], ".", parts[2]);
}

// Errors carry blang/semver's message as upstream returns it.
inline value semver_of(std::string_view text, bool normalize) {
  std::string normalized(text);
  if (normalize) {
    std::string error;
    auto n = normalized_semver(text, error);
    if (!n) return value::error(error);
    normalized = std::move(*n);
  }
  auto parsed = dra::semver::parse(normalized);
  if (!parsed) {
    // dra::semver names the input first; blang's message is the part after it.
    std::string_view message = parsed.error().message;
    constexpr std::string_view marker = " is not a semantic version: ";
    if (const auto at = message.find(marker); at != std::string_view::npos) message.remove_prefix(at + marker.size());
    return value::error(std::string(message));
  }
  auto owned = std::make_shared<const dra::semver>(std::move(parsed).value());
  return semver_value{owned.get(), owned};
}

}  // namespace lib

// Kubernetes' authorizer libraries (authz and authz selectors): member functions on the authorizer
// types. No selector can hold such a value (the environment declares no `authorizer`), but a call
// on a dyn receiver compiles as upstream's does and fails when evaluated.
inline void add_authorizer_declarations(function_table& table) {
  using namespace lib;
  const type authorizer = type::object("kubernetes.authorization.Authorizer");
  const type path_check = type::object("kubernetes.authorization.PathCheck");
  const type group_check = type::object("kubernetes.authorization.GroupCheck");
  const type resource_check = type::object("kubernetes.authorization.ResourceCheck");
  const type decision = type::object("kubernetes.authorization.Decision");
  // Never called: no value passes the type guard of an authorizer type.
  const implementation unreachable = [](args_t, call_context&) -> value { return value::error("no such overload"); };
  const struct {
    const char* name;
    const char* id;
    std::vector<type> params;
    type result;
  } declarations[] = {
      {"path", "authorizer_path", {authorizer, T_string()}, path_check},
      {"group", "authorizer_group", {authorizer, T_string()}, group_check},
      {"serviceAccount", "authorizer_serviceaccount", {authorizer, T_string(), T_string()}, authorizer},
      {"resource", "groupcheck_resource", {group_check, T_string()}, resource_check},
      {"subresource", "resourcecheck_subresource", {resource_check, T_string()}, resource_check},
      {"namespace", "resourcecheck_namespace", {resource_check, T_string()}, resource_check},
      {"name", "resourcecheck_name", {resource_check, T_string()}, resource_check},
      {"check", "pathcheck_check", {path_check, T_string()}, decision},
      {"check", "resourcecheck_check", {resource_check, T_string()}, decision},
      {"errored", "decision_errored", {decision}, T_bool()},
      {"error", "decision_error", {decision}, T_string()},
      {"allowed", "decision_allowed", {decision}, T_bool()},
      {"reason", "decision_reason", {decision}, T_string()},
      {"fieldSelector", "authorizer_fieldselector", {resource_check, T_string()}, resource_check},
      {"labelSelector", "authorizer_labelselector", {resource_check, T_string()}, resource_check},
  };
  for (const auto& d : declarations) table.add(d.name, overload{d.id, true, d.params, d.result, unreachable});
}

// Registers every function of the DRA selector environment into `table`.
inline void add_dra_library(function_table& table) {
  using namespace lib;
  auto fn = [&](std::string_view name, std::string id, std::vector<type> params, type result, implementation impl,
                bool member = false, bool type_guards = true) {
    table.add(name, overload{std::move(id), member, std::move(params), std::move(result), impl, false, type_guards});
  };
  auto member = [&](std::string_view name, std::string id, std::vector<type> params, type result, implementation impl) {
    fn(name, std::move(id), std::move(params), std::move(result), impl, true);
  };
  // A member overload called without cel-go's run-time type guards.
  auto unguarded_member = [&](std::string_view name, std::string id, std::vector<type> params, type result, implementation impl) {
    fn(name, std::move(id), std::move(params), std::move(result), impl, true, false);
  };

  // Arithmetic.
  fn("_+_", "add_int64", {T_int(), T_int()}, T_int(), add_int);
  fn("_+_", "add_uint64", {T_uint(), T_uint()}, T_uint(), add_uint);
  fn("_+_", "add_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() + a[1].as_double(); });
  fn("_+_", "add_string", {T_string(), T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size() + a[1].as_text().size());
    return value::string(dra::detail::concat(a[0].as_text(), a[1].as_text()));
  });
  fn("_+_", "add_bytes", {T_bytes(), T_bytes()}, T_bytes(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size() + a[1].as_text().size());
    return value::bytes(dra::detail::concat(a[0].as_text(), a[1].as_text()));
  });
  fn("_+_", "add_list", {type::list(T_A()), type::list(T_A())}, type::list(T_A()), [](args_t a, call_context& c) -> value {
    const auto& x = items(a[0]);
    const auto& y = items(a[1]);
    if (x.empty()) return a[1];
    if (y.empty()) return a[0];
    c.cost += (x.size() + y.size()) / 10;
    std::vector<value> out(x);
    out.insert(out.end(), y.begin(), y.end());
    return value::list(std::move(out));
  });
  fn("_+_", "add_duration_duration", {type::duration(), type::duration()}, type::duration(), [](args_t a, call_context&) -> value {
    std::int64_t r;
    if (__builtin_add_overflow(a[0].as<duration_value>().nanos, a[1].as<duration_value>().nanos, &r)) return overflow();
    return duration_value{r};
  });
  fn("_+_", "add_timestamp_duration", {type::timestamp(), type::duration()}, type::timestamp(), [](args_t a, call_context&) -> value {
    const auto& t = a[0].as<timestamp_value>();
    const std::int64_t d = a[1].as<duration_value>().nanos;
    std::int64_t s = t.seconds + d / 1000000000;
    std::int64_t n = t.nanos + d % 1000000000;
    if (n < 0) { n += 1000000000; --s; }
    if (n >= 1000000000) { n -= 1000000000; ++s; }
    if (s < detail::min_timestamp_seconds || s > detail::max_timestamp_seconds) return value::error("timestamp overflow");
    return timestamp_value{s, static_cast<std::int32_t>(n)};
  });
  fn("_-_", "subtract_int64", {T_int(), T_int()}, T_int(), sub_int);
  fn("_-_", "subtract_uint64", {T_uint(), T_uint()}, T_uint(), sub_uint);
  fn("_-_", "subtract_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() - a[1].as_double(); });
  fn("_-_", "subtract_duration_duration", {type::duration(), type::duration()}, type::duration(), [](args_t a, call_context&) -> value {
    std::int64_t r;
    if (__builtin_sub_overflow(a[0].as<duration_value>().nanos, a[1].as<duration_value>().nanos, &r)) return overflow();
    return duration_value{r};
  });
  fn("_-_", "subtract_timestamp_timestamp", {type::timestamp(), type::timestamp()}, type::duration(), [](args_t a, call_context&) -> value {
    const auto& x = a[0].as<timestamp_value>();
    const auto& y = a[1].as<timestamp_value>();
    std::int64_t nanos;
    if (__builtin_mul_overflow(x.seconds - y.seconds, std::int64_t{1000000000}, &nanos) ||
        __builtin_add_overflow(nanos, std::int64_t{x.nanos - y.nanos}, &nanos))
      return overflow();
    return duration_value{nanos};
  });
  fn("_*_", "multiply_int64", {T_int(), T_int()}, T_int(), mul_int);
  fn("_*_", "multiply_uint64", {T_uint(), T_uint()}, T_uint(), mul_uint);
  fn("_*_", "multiply_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() * a[1].as_double(); });
  fn("_/_", "divide_int64", {T_int(), T_int()}, T_int(), div_int);
  fn("_/_", "divide_uint64", {T_uint(), T_uint()}, T_uint(), div_uint);
  fn("_/_", "divide_double", {T_double(), T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0].as_double() / a[1].as_double(); });
  fn("_%_", "modulo_int64", {T_int(), T_int()}, T_int(), mod_int);
  fn("_%_", "modulo_uint64", {T_uint(), T_uint()}, T_uint(), mod_uint);
  fn("-_", "negate_int64", {T_int()}, T_int(), [](args_t a, call_context&) -> value {
    if (a[0].as_int() == std::numeric_limits<std::int64_t>::min()) return overflow();
    return -a[0].as_int();
  });
  fn("-_", "negate_double", {T_double()}, T_double(), [](args_t a, call_context&) -> value { return -a[0].as_double(); });
  fn("!_", "logical_not", {T_bool()}, T_bool(), [](args_t a, call_context&) -> value { return !a[0].as_bool(); });
  // Operators the checker and interpreter handle themselves (&&, ||, ?:, ==, !=, [], in) have no
  // entries; cel-go's older spellings of two of them are plain identifiers and so can be called.
  fn("_in_", "in_list", {T_A(), type::list(T_A())}, T_bool(), [](args_t a, call_context& c) -> value {
    c.cost += items(a[1]).size();
    return list_contains(items(a[1]), a[0]);
  });
  fn("_in_", "in_map", {T_A(), type::map(T_A(), T_B())}, T_bool(), [](args_t a, call_context&) -> value {
    if (const auto* h = a[1].get_if<host_map_value>()) return h->map->contains(h->scope, a[0]);
    value ignored;
    return map_find(a[1], a[0], ignored);
  });
  // Evaluated by the interpreter (non-strict: an error counts as true); declared for the checker.
  fn("__not_strictly_false__", "not_strictly_false", {T_bool()}, T_bool(), [](args_t a, call_context&) -> value { return a[0].as_bool(); });

  // Size.
  auto size_string = [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(code_points(a[0].as_text())); };
  auto size_bytes = [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as_text().size()); };
  auto size_list = [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(items(a[0]).size()); };
  auto size_map = [](args_t a, call_context&) -> value {
    if (const auto* h = a[0].get_if<host_map_value>()) return static_cast<std::int64_t>(h->map->size(h->scope));
    return static_cast<std::int64_t>(a[0].as<map_value>().size());
  };
  fn("size", "size_string", {T_string()}, T_int(), size_string);
  fn("size", "size_bytes", {T_bytes()}, T_int(), size_bytes);
  fn("size", "size_list", {type::list(T_A())}, T_int(), size_list);
  fn("size", "size_map", {type::map(T_A(), T_B())}, T_int(), size_map);
  member("size", "string_size", {T_string()}, T_int(), size_string);
  member("size", "bytes_size", {T_bytes()}, T_int(), size_bytes);
  member("size", "list_size", {type::list(T_A())}, T_int(), size_list);
  member("size", "map_size", {type::map(T_A(), T_B())}, T_int(), size_map);

  // Conversions.
  fn("int", "int64_to_int64", {T_int()}, T_int(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("int", "uint64_to_int64", {T_uint()}, T_int(), [](args_t a, call_context&) -> value {
    if (a[0].as_uint() > 9223372036854775807ULL) return overflow();
    return static_cast<std::int64_t>(a[0].as_uint());
  });
  fn("int", "double_to_int64", {T_double()}, T_int(), [](args_t a, call_context&) -> value { return int_from_double(a[0].as_double()); });
  fn("int", "string_to_int64", {T_string()}, T_int(), [](args_t a, call_context&) -> value { return int_from_string(a[0].as_text()); });
  fn("int", "timestamp_to_int64", {type::timestamp()}, T_int(), [](args_t a, call_context&) -> value { return a[0].as<timestamp_value>().seconds; });
  fn("int", "duration_to_int64", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return a[0].as<duration_value>().nanos; });
  fn("uint", "uint64_to_uint64", {T_uint()}, T_uint(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("uint", "int64_to_uint64", {T_int()}, T_uint(), [](args_t a, call_context&) -> value {
    if (a[0].as_int() < 0) return uoverflow();
    return static_cast<std::uint64_t>(a[0].as_int());
  });
  fn("uint", "double_to_uint64", {T_double()}, T_uint(), [](args_t a, call_context&) -> value { return uint_from_double(a[0].as_double()); });
  fn("uint", "string_to_uint64", {T_string()}, T_uint(), [](args_t a, call_context&) -> value { return uint_from_string(a[0].as_text()); });
  fn("double", "double_to_double", {T_double()}, T_double(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("double", "int64_to_double", {T_int()}, T_double(), [](args_t a, call_context&) -> value { return static_cast<double>(a[0].as_int()); });
  fn("double", "uint64_to_double", {T_uint()}, T_double(), [](args_t a, call_context&) -> value { return static_cast<double>(a[0].as_uint()); });
  fn("double", "string_to_double", {T_string()}, T_double(), [](args_t a, call_context&) -> value { return double_from_string(a[0].as_text()); });
  auto to_string_impl = [](args_t a, call_context&) -> value { return to_string_value(a[0]); };
  for (auto [t, id] : {std::pair{T_string(), "string_to_string"}, {T_int(), "int64_to_string"}, {T_uint(), "uint64_to_string"},
                       {T_double(), "double_to_string"}, {T_bytes(), "bytes_to_string"}, {T_bool(), "bool_to_string"},
                       {type::timestamp(), "timestamp_to_string"}, {type::duration(), "duration_to_string"}})
    fn("string", id, {t}, T_string(), to_string_impl);
  fn("bytes", "bytes_to_bytes", {T_bytes()}, T_bytes(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("bytes", "string_to_bytes", {T_string()}, T_bytes(), [](args_t a, call_context&) -> value { return value::bytes(std::string(a[0].as_text())); });
  fn("bool", "bool_to_bool", {T_bool()}, T_bool(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("bool", "string_to_bool", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    const auto s = a[0].as_text();
    if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") return true;
    if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") return false;
    return value::error("type conversion error from 'string' to 'bool'");
  });
  fn("dyn", "to_dyn", {T_A()}, T_dyn(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("type", "type", {T_A()}, type::type_of(T_A()), [](args_t a, call_context&) -> value { return type_value{type_name(a[0])}; });
  fn("duration", "duration_to_duration", {type::duration()}, type::duration(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("duration", "string_to_duration", {T_string()}, type::duration(), [](args_t a, call_context&) -> value {
    auto d = detail::parse_duration(a[0].as_text());
    if (!d) return value::error(dra::detail::concat("invalid duration: ", a[0].as_text()));
    return duration_value{*d};
  });
  fn("timestamp", "timestamp_to_timestamp", {type::timestamp()}, type::timestamp(), [](args_t a, call_context&) -> value { return a[0]; });
  fn("timestamp", "string_to_timestamp", {T_string()}, type::timestamp(), [](args_t a, call_context&) -> value {
    auto t = detail::parse_timestamp(a[0].as_text());
    if (!t) return value::error(dra::detail::concat("invalid timestamp: ", a[0].as_text()));
    return timestamp_value{t->first, t->second};
  });
  fn("timestamp", "int64_to_timestamp", {T_int()}, type::timestamp(), [](args_t a, call_context&) -> value {
    const auto s = a[0].as_int();
    if (s < detail::min_timestamp_seconds || s > detail::max_timestamp_seconds) return value::error("timestamp overflow");
    return timestamp_value{s, 0};
  });

  // Strings of the standard library.
  member("contains", "contains_string", {T_string(), T_string()}, T_bool(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    return a[0].as_text().find(a[1].as_text()) != std::string_view::npos;
  });
  member("startsWith", "starts_with_string", {T_string(), T_string()}, T_bool(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[1].as_text().size());
    return a[0].as_text().substr(0, a[1].as_text().size()) == a[1].as_text();
  });
  member("endsWith", "ends_with_string", {T_string(), T_string()}, T_bool(), [](args_t a, call_context& c) -> value {
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
  member("matches", "matches_string", {T_string(), T_string()}, T_bool(), matches);
  fn("matches", "matches", {T_string(), T_string()}, T_bool(), matches);

  // Kubernetes regex library.
  member("find", "string_find_string", {T_string(), T_string()}, T_string(), [](args_t a, call_context& c) -> value {
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
  member("findAll", "string_find_all_string", {T_string(), T_string()}, type::list(T_string()), find_all);
  member("findAll", "string_find_all_string_int", {T_string(), T_string(), T_int()}, type::list(T_string()), find_all);

  // Strings extension, version 2.
  member("charAt", "string_char_at_int", {T_string(), T_int()}, T_string(), [](args_t a, call_context&) -> value {
    const auto offs = code_point_offsets(a[0].as_text());
    const auto i = a[1].as_int();
    if (i < 0 || static_cast<std::size_t>(i) >= offs.size()) return value::error(dra::detail::concat("index out of range: ", std::to_string(i)));
    if (static_cast<std::size_t>(i) == offs.size() - 1) return value::string("");
    return value::string(std::string(a[0].as_text().substr(offs[static_cast<std::size_t>(i)], offs[static_cast<std::size_t>(i) + 1] - offs[static_cast<std::size_t>(i)])));
  });
  auto index_of = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text(), sub = a[1].as_text();
    charge_text(c, s.size());
    const auto offs = code_point_offsets(s);
    const std::int64_t n = static_cast<std::int64_t>(offs.size()) - 1;
    const std::int64_t start = a.size() > 2 ? a[2].as_int() : 0;
    if (start < 0 || start > n) return value::error(dra::detail::concat("index out of range: ", std::to_string(start)));
    const auto found = s.find(sub, offs[static_cast<std::size_t>(start)]);
    if (found == std::string_view::npos) return std::int64_t{-1};
    return static_cast<std::int64_t>(std::lower_bound(offs.begin(), offs.end(), found) - offs.begin());
  };
  member("indexOf", "string_index_of_string", {T_string(), T_string()}, T_int(), index_of);
  member("indexOf", "string_index_of_string_int", {T_string(), T_string(), T_int()}, T_int(), index_of);
  auto last_index_of = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text(), sub = a[1].as_text();
    charge_text(c, s.size());
    const auto offs = code_point_offsets(s);
    const std::int64_t n = static_cast<std::int64_t>(offs.size()) - 1;
    std::int64_t start = a.size() > 2 ? a[2].as_int() : n;
    if (start < 0 || start > n) return value::error(dra::detail::concat("index out of range: ", std::to_string(start)));
    const auto found = s.rfind(sub, offs[static_cast<std::size_t>(start)]);
    if (found == std::string_view::npos) return std::int64_t{-1};
    return static_cast<std::int64_t>(std::lower_bound(offs.begin(), offs.end(), found) - offs.begin());
  };
  member("lastIndexOf", "string_last_index_of_string", {T_string(), T_string()}, T_int(), last_index_of);
  member("lastIndexOf", "string_last_index_of_string_int", {T_string(), T_string(), T_int()}, T_int(), last_index_of);
  member("lowerAscii", "string_lower_ascii", {T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    std::string s(a[0].as_text());
    for (char& ch : s)
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch + 32);
    return value::string(std::move(s));
  });
  member("upperAscii", "string_upper_ascii", {T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    std::string s(a[0].as_text());
    for (char& ch : s)
      if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 32);
    return value::string(std::move(s));
  });
  auto replace = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text(), from = a[1].as_text(), to = a[2].as_text();
    charge_text(c, s.size());
    std::int64_t limit = a.size() > 3 ? a[3].as_int() : -1;
    std::string out;
    if (from.empty()) {  // Go's strings.Replace inserts around every code point
      const auto offs = code_point_offsets(s);
      std::int64_t done = 0;
      for (std::size_t i = 0; i + 1 <= offs.size(); ++i) {
        if (limit < 0 || done < limit) {
          out.append(to);
          ++done;
        }
        if (i + 1 < offs.size()) out.append(s.substr(offs[i], offs[i + 1] - offs[i]));
      }
      return value::string(std::move(out));
    }
    std::size_t pos = 0;
    std::int64_t done = 0;
    while (limit < 0 || done < limit) {
      const auto f = s.find(from, pos);
      if (f == std::string_view::npos) break;
      out.append(s.substr(pos, f - pos));
      out.append(to);
      pos = f + from.size();
      ++done;
    }
    out.append(s.substr(pos));
    return value::string(std::move(out));
  };
  member("replace", "string_replace_string_string", {T_string(), T_string(), T_string()}, T_string(), replace);
  member("replace", "string_replace_string_string_int", {T_string(), T_string(), T_string(), T_int()}, T_string(), replace);
  auto split = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text(), sep = a[1].as_text();
    charge_text(c, s.size());
    const std::int64_t limit = a.size() > 2 ? a[2].as_int() : -1;
    std::vector<value> out;
    if (limit == 0) return value::list({});
    if (sep.empty()) {
      const auto offs = code_point_offsets(s);
      for (std::size_t i = 0; i + 1 < offs.size(); ++i) {
        if (limit > 0 && static_cast<std::int64_t>(out.size()) == limit - 1) {
          out.push_back(value::string(std::string(s.substr(offs[i]))));
          return value::list(std::move(out));
        }
        out.push_back(value::string(std::string(s.substr(offs[i], offs[i + 1] - offs[i]))));
      }
      return value::list(std::move(out));
    }
    std::size_t pos = 0;
    while (true) {
      if (limit > 0 && static_cast<std::int64_t>(out.size()) == limit - 1) break;
      const auto f = s.find(sep, pos);
      if (f == std::string_view::npos) break;
      out.push_back(value::string(std::string(s.substr(pos, f - pos))));
      pos = f + sep.size();
    }
    out.push_back(value::string(std::string(s.substr(pos))));
    return value::list(std::move(out));
  };
  member("split", "string_split_string", {T_string(), T_string()}, type::list(T_string()), split);
  member("split", "string_split_string_int", {T_string(), T_string(), T_int()}, type::list(T_string()), split);
  auto substring = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text();
    charge_text(c, s.size());
    const auto offs = code_point_offsets(s);
    const std::int64_t n = static_cast<std::int64_t>(offs.size()) - 1;
    const std::int64_t start = a[1].as_int();
    const std::int64_t end = a.size() > 2 ? a[2].as_int() : n;
    if (start < 0 || start > n) return value::error(dra::detail::concat("index out of range: ", std::to_string(start)));
    if (end < 0 || end > n) return value::error(dra::detail::concat("index out of range: ", std::to_string(end)));
    if (start > end) return value::error(dra::detail::concat("invalid substring range. start: ", std::to_string(start), ", end: ", std::to_string(end)));
    return value::string(std::string(s.substr(offs[static_cast<std::size_t>(start)], offs[static_cast<std::size_t>(end)] - offs[static_cast<std::size_t>(start)])));
  };
  member("substring", "string_substring_int", {T_string(), T_int()}, T_string(), substring);
  member("substring", "string_substring_int_int", {T_string(), T_int(), T_int()}, T_string(), substring);
  member("trim", "string_trim", {T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text();
    charge_text(c, s.size());
    auto is_space = [](std::uint32_t cp) {
      return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
             (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
    };
    const auto offs = code_point_offsets(s);
    std::size_t b = 0, e = offs.size() - 1;
    while (b < e) {
      std::uint32_t cp = 0;
      (void)detail::utf8_length(s, offs[b], &cp);
      if (!is_space(cp)) break;
      ++b;
    }
    while (e > b) {
      std::uint32_t cp = 0;
      (void)detail::utf8_length(s, offs[e - 1], &cp);
      if (!is_space(cp)) break;
      --e;
    }
    return value::string(std::string(s.substr(offs[b], offs[e] - offs[b])));
  });
  auto join = [](args_t a, call_context& c) -> value {
    std::string out;
    const std::string_view sep = a.size() > 1 ? a[1].as_text() : std::string_view{};
    bool first = true;
    for (const auto& e : items(a[0])) {
      if (!e.is(value_kind::string)) return no_overload("join");
      if (!first) out.append(sep);
      first = false;
      out.append(e.as_text());
    }
    charge_text(c, out.size());
    return value::string(std::move(out));
  };
  member("join", "list_join", {type::list(T_string())}, T_string(), join);
  member("join", "list_join_string", {type::list(T_string()), T_string()}, T_string(), join);
  fn("strings.quote", "strings_quote", {T_string()}, T_string(), [](args_t a, call_context&) -> value {
    return value::string(quote_for_format(a[0].as_text()));
  });
  member("format", "string_format", {T_string(), type::list(T_dyn())}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    return format_string(a[0].as_text(), items(a[1]));
  });

  // Sets extension.
  fn("sets.contains", "list_sets_contains_list", {type::list(T_A()), type::list(T_A())}, T_bool(), [](args_t a, call_context& c) -> value {
    c.cost += items(a[0]).size() * items(a[1]).size() / 10;
    for (const auto& x : items(a[1]))
      if (!list_contains(items(a[0]), x)) return false;
    return true;
  });
  fn("sets.equivalent", "list_sets_equivalent_list", {type::list(T_A()), type::list(T_A())}, T_bool(), [](args_t a, call_context&) -> value {
    for (const auto& x : items(a[1]))
      if (!list_contains(items(a[0]), x)) return false;
    for (const auto& x : items(a[0]))
      if (!list_contains(items(a[1]), x)) return false;
    return true;
  });
  fn("sets.intersects", "list_sets_intersects_list", {type::list(T_A()), type::list(T_A())}, T_bool(), [](args_t a, call_context&) -> value {
    for (const auto& x : items(a[1]))
      if (list_contains(items(a[0]), x)) return true;
    return false;
  });

  // Lists extension (version 3) and Kubernetes' lists library.
  fn("lists.range", "lists_range", {T_int()}, type::list(T_int()), [](args_t a, call_context& c) -> value {
    const auto n = a[0].as_int();
    if (n < 0) return value::error("lists.range() requires a non-negative argument");
    if (static_cast<std::uint64_t>(n) > c.cost_limit) return value::error("operation cancelled: actual cost limit exceeded");
    std::vector<value> out;
    for (std::int64_t i = 0; i < n; ++i) out.emplace_back(i);
    c.cost += static_cast<std::uint64_t>(n);
    return value::list(std::move(out));
  });
  member("distinct", "list_distinct", {type::list(T_A())}, type::list(T_A()), [](args_t a, call_context& c) -> value {
    std::vector<value> out;
    for (const auto& x : items(a[0]))
      if (!list_contains(out, x)) out.push_back(x);
    c.cost += items(a[0]).size();
    return value::list(std::move(out));
  });
  // flatten() is declared on lists of lists, flatten(depth) on any list; neither has run-time type guards.
  unguarded_member("flatten", "list_flatten", {type::list(type::list(T_A()))}, type::list(T_A()), [](args_t a, call_context&) -> value {
    std::vector<value> out;
    for (const auto& x : items(a[0])) {
      if (x.is(value_kind::list))
        out.insert(out.end(), items(x).begin(), items(x).end());
      else
        out.push_back(x);
    }
    return value::list(std::move(out));
  });
  unguarded_member("flatten", "list_flatten_int", {type::list(T_dyn()), T_int()}, type::list(T_dyn()), [](args_t a, call_context&) -> value {
    if (a[1].as_int() < 0) return value::error("level must be non-negative");
    std::vector<value> current = items(a[0]);
    for (std::int64_t level = 0; level < a[1].as_int(); ++level) {
      std::vector<value> next;
      for (const auto& x : current) {
        if (x.is(value_kind::list))
          next.insert(next.end(), items(x).begin(), items(x).end());
        else
          next.push_back(x);
      }
      current = std::move(next);
    }
    return value::list(std::move(current));
  });
  member("reverse", "list_reverse", {type::list(T_A())}, type::list(T_A()), [](args_t a, call_context&) -> value {
    std::vector<value> out(items(a[0]).rbegin(), items(a[0]).rend());
    return value::list(std::move(out));
  });
  member("slice", "list_slice", {type::list(T_A()), T_int(), T_int()}, type::list(T_A()), [](args_t a, call_context&) -> value {
    const auto& l = items(a[0]);
    const auto b = a[1].as_int(), e = a[2].as_int();
    if (b < 0 || e < 0) return value::error(dra::detail::concat("cannot slice(", std::to_string(b), ", ", std::to_string(e), "), negative indexes not supported"));
    if (b > e) return value::error(dra::detail::concat("cannot slice(", std::to_string(b), ", ", std::to_string(e), "), start index must be less than or equal to end index"));
    if (static_cast<std::size_t>(e) > l.size()) return value::error(dra::detail::concat("cannot slice(", std::to_string(b), ", ", std::to_string(e), "), list is length ", std::to_string(l.size())));
    return value::list(std::vector<value>(l.begin() + b, l.begin() + e));
  });
  auto sort_impl = [](args_t a, call_context& c) -> value {
    std::vector<value> out = items(a[0]);
    for (std::size_t i = 1; i < out.size(); ++i)
      if (!order(out[0], out[i])) return value::error("list elements must have the same type");
    if (!out.empty() && !order(out[0], out[0])) return value::error("list elements must be comparable");
    std::stable_sort(out.begin(), out.end(), [](const value& x, const value& y) { return *order(x, y) < 0; });
    c.cost += out.size();
    return value::list(std::move(out));
  };
  // sort and sortBy exist for CEL's comparable element types only, as in cel-go.
  for (const type& t : comparable_element_types()) {
    unguarded_member("sort", dra::detail::concat("list_", t.to_string(), "_sort"), {type::list(t)}, type::list(t), sort_impl);
    unguarded_member("@sortByAssociatedKeys", dra::detail::concat("list_", t.to_string(), "_sortByAssociatedKeys"),
           {type::list(T_A()), type::list(t)}, type::list(T_A()), [](args_t a, call_context& c) -> value {
             const auto& list = items(a[0]);
             const auto& keys = items(a[1]);
             if (list.size() != keys.size())
               return value::error("@sortByAssociatedKeys() expected a list of the same size as the associated keys list");
             for (std::size_t i = 1; i < keys.size(); ++i)
               if (!order(keys[0], keys[i])) return value::error("list elements must have the same type");
             std::vector<std::size_t> index(list.size());
             for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
             std::stable_sort(index.begin(), index.end(), [&](std::size_t x, std::size_t y) { return *order(keys[x], keys[y]) < 0; });
             std::vector<value> out;
             out.reserve(list.size());
             for (std::size_t i : index) out.push_back(list[i]);
             c.cost += list.size();
             return value::list(std::move(out));
           });
  }
  member("first", "list_first", {type::list(T_A())}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    return items(a[0]).empty() ? value::none() : value::some(items(a[0]).front());
  });
  member("last", "list_last", {type::list(T_A())}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    return items(a[0]).empty() ? value::none() : value::some(items(a[0]).back());
  });
  // Kubernetes' lists library declares isSorted, min and max for CEL's comparable element types
  // and sum for the summable ones; each overload of sum starts from its own type's zero.
  for (const type& t : comparable_element_types()) {
    // Kubernetes' ids spell the types short: list_duration_min_duration.
    const std::string n = t.kind == type_kind::duration ? "duration" : t.kind == type_kind::timestamp ? "timestamp" : t.to_string();
    member("isSorted", dra::detail::concat("list_", n, "_is_sorted_bool"), {type::list(t)}, T_bool(), [](args_t a, call_context& c) -> value {
      const auto& l = items(a[0]);
      c.cost += l.size();
      for (std::size_t i = 1; i < l.size(); ++i) {
        auto o = order(l[i - 1], l[i]);
        if (!o) return no_overload("isSorted");
        if (*o > 0) return false;
      }
      return true;
    });
    member("min", dra::detail::concat("list_", n, "_min_", n), {type::list(t)}, t, [](args_t a, call_context& c) -> value { return extreme(a, c, false); });
    member("max", dra::detail::concat("list_", n, "_max_", n), {type::list(t)}, t, [](args_t a, call_context& c) -> value { return extreme(a, c, true); });
  }
  member("sum", "list_int_sum_int", {type::list(T_int())}, T_int(), [](args_t a, call_context& c) -> value { return sum(a, c, std::int64_t{0}); });
  member("sum", "list_uint_sum_uint", {type::list(T_uint())}, T_uint(), [](args_t a, call_context& c) -> value { return sum(a, c, std::uint64_t{0}); });
  member("sum", "list_double_sum_double", {type::list(T_double())}, T_double(), [](args_t a, call_context& c) -> value { return sum(a, c, 0.0); });
  member("sum", "list_duration_sum_duration", {type::list(type::duration())}, type::duration(), [](args_t a, call_context& c) -> value {
    return sum(a, c, duration_value{0});
  });
  auto list_index_of = [](args_t a, call_context& c) -> value {
    const auto& l = items(a[0]);
    c.cost += l.size();
    for (std::size_t i = 0; i < l.size(); ++i)
      if (equals(l[i], a[1])) return static_cast<std::int64_t>(i);
    return std::int64_t{-1};
  };
  auto list_last_index_of = [](args_t a, call_context& c) -> value {
    const auto& l = items(a[0]);
    c.cost += l.size();
    for (std::size_t i = l.size(); i-- > 0;)
      if (equals(l[i], a[1])) return static_cast<std::int64_t>(i);
    return std::int64_t{-1};
  };
  member("indexOf", "list_a_index_of_int", {type::list(T_A()), T_A()}, T_int(), list_index_of);
  member("lastIndexOf", "list_a_last_index_of_int", {type::list(T_A()), T_A()}, T_int(), list_last_index_of);

  // Optional types.
  fn("optional.of", "optional_of", {T_A()}, type::optional(T_A()), [](args_t a, call_context&) -> value { return value::some(a[0]); });
  fn("optional.ofNonZeroValue", "optional_ofNonZeroValue", {T_A()}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    const value& v = a[0];
    bool zero = false;
    switch (v.kind()) {
      case value_kind::null: zero = true; break;
      case value_kind::boolean: zero = !v.as_bool(); break;
      case value_kind::int64: zero = v.as_int() == 0; break;
      case value_kind::uint64: zero = v.as_uint() == 0; break;
      case value_kind::double_: zero = v.as_double() == 0; break;
      case value_kind::string:
      case value_kind::bytes: zero = v.as_text().empty(); break;
      case value_kind::list: zero = items(v).empty(); break;
      case value_kind::map: zero = v.as<map_value>().size() == 0; break;
      case value_kind::host_map: zero = v.as<host_map_value>().map->size(v.as<host_map_value>().scope) == 0; break;
      case value_kind::duration: zero = v.as<duration_value>().nanos == 0; break;
      case value_kind::timestamp: zero = v.as<timestamp_value>().seconds == 0 && v.as<timestamp_value>().nanos == 0; break;
      default: break;
    }
    return zero ? value::none() : value::some(v);
  });
  fn("optional.none", "optional_none", {}, type::optional(T_dyn()), [](args_t, call_context&) -> value { return value::none(); });
  auto unwrap = [](args_t a, call_context&) -> value {
    std::vector<value> out;
    for (const auto& e : items(a[0])) {
      const auto* o = e.get_if<optional_value>();
      if (o == nullptr) return no_overload("optional.unwrap");
      if (o->inner) out.push_back(*o->inner);
    }
    return value::list(std::move(out));
  };
  fn("optional.unwrap", "optional_unwrap", {type::list(type::optional(T_A()))}, type::list(T_A()), unwrap);
  member("unwrapOpt", "optional_unwrapOpt", {type::list(type::optional(T_A()))}, type::list(T_A()), unwrap);
  member("value", "optional_value", {type::optional(T_A())}, T_A(), [](args_t a, call_context&) -> value {
    const auto& o = a[0].as<optional_value>();
    if (!o.inner) return value::error("optional.none() dereference");
    return *o.inner;
  });
  member("hasValue", "optional_hasValue", {type::optional(T_A())}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<optional_value>().inner != nullptr;
  });
  member("or", "optional_or_optional", {type::optional(T_A()), type::optional(T_A())}, type::optional(T_A()), [](args_t a, call_context&) -> value {
    return a[0].as<optional_value>().inner ? a[0] : a[1];
  });
  member("orValue", "optional_orValue_value", {type::optional(T_A()), T_A()}, T_A(), [](args_t a, call_context&) -> value {
    const auto& o = a[0].as<optional_value>();
    return o.inner ? *o.inner : a[1];
  });

  // Kubernetes quantity library.
  fn("quantity", "string_to_quantity", {T_string()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto q = dra::quantity::parse(a[0].as_text());
    if (!q) return value::error(dra::detail::concat("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    return quantity_value{q.value()};
  });
  fn("isQuantity", "is_quantity_string", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    return dra::quantity::parse(a[0].as_text()).has_value();
  });
  // sign() is declared as a global function: `sign(q)` compiles, `q.sign()` does not (as upstream).
  fn("sign", "quantity_sign", {T_quantity()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<quantity_value>().q.sign()}; });
  member("isInteger", "quantity_is_integer", {T_quantity()}, T_bool(), [](args_t a, call_context&) -> value { return a[0].as<quantity_value>().q.is_integer(); });
  member("asInteger", "quantity_get_int", {T_quantity()}, T_int(), [](args_t a, call_context&) -> value {
    auto i = a[0].as<quantity_value>().q.as_int64();
    if (!i) return value::error("cannot convert value to integer");
    return *i;
  });
  member("asApproximateFloat", "quantity_get_float", {T_quantity()}, T_double(), [](args_t a, call_context&) -> value {
    return a[0].as<quantity_value>().q.approximate_double();
  });
  member("add", "quantity_add", {T_quantity(), T_quantity()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.add(a[1].as<quantity_value>().q);
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  member("add", "quantity_add_int", {T_quantity(), T_int()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.add(dra::quantity::from_int(a[1].as_int()));
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  member("sub", "quantity_sub", {T_quantity(), T_quantity()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.sub(a[1].as<quantity_value>().q);
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  member("sub", "quantity_sub_int", {T_quantity(), T_int()}, T_quantity(), [](args_t a, call_context&) -> value {
    auto r = a[0].as<quantity_value>().q.sub(dra::quantity::from_int(a[1].as_int()));
    if (!r) return value::error(r.error().message);
    return quantity_value{r.value()};
  });
  member("isLessThan", "quantity_is_less_than", {T_quantity(), T_quantity()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<quantity_value>().q < a[1].as<quantity_value>().q;
  });
  member("isGreaterThan", "quantity_is_greater_than", {T_quantity(), T_quantity()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<quantity_value>().q > a[1].as<quantity_value>().q;
  });
  member("compareTo", "quantity_compare_to", {T_quantity(), T_quantity()}, T_int(), [](args_t a, call_context&) -> value {
    const auto o = a[0].as<quantity_value>().q <=> a[1].as<quantity_value>().q;
    return std::int64_t{o < 0 ? -1 : (o > 0 ? 1 : 0)};
  });

  // Kubernetes semver library (version 1: optional normalization).
  fn("semver", "string_to_semver", {T_string()}, T_semver(), [](args_t a, call_context&) -> value { return semver_of(a[0].as_text(), false); });
  fn("semver", "string_bool_to_semver", {T_string(), T_bool()}, T_semver(), [](args_t a, call_context&) -> value {
    return semver_of(a[0].as_text(), a[1].as_bool());
  });
  fn("isSemver", "is_semver_string", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    return !semver_of(a[0].as_text(), false).is_error();
  });
  fn("isSemver", "is_semver_string_bool", {T_string(), T_bool()}, T_bool(), [](args_t a, call_context&) -> value {
    return !semver_of(a[0].as_text(), a[1].as_bool()).is_error();
  });
  member("major", "semver_major", {T_semver()}, T_int(), [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as<semver_value>().get().major()); });
  member("minor", "semver_minor", {T_semver()}, T_int(), [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as<semver_value>().get().minor()); });
  member("patch", "semver_patch", {T_semver()}, T_int(), [](args_t a, call_context&) -> value { return static_cast<std::int64_t>(a[0].as<semver_value>().get().patch()); });
  member("isLessThan", "semver_is_less_than", {T_semver(), T_semver()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<semver_value>().get() < a[1].as<semver_value>().get();
  });
  member("isGreaterThan", "semver_is_greater_than", {T_semver(), T_semver()}, T_bool(), [](args_t a, call_context&) -> value {
    return a[0].as<semver_value>().get() > a[1].as<semver_value>().get();
  });
  member("compareTo", "semver_compare_to", {T_semver(), T_semver()}, T_int(), [](args_t a, call_context&) -> value {
    const auto o = a[0].as<semver_value>().get() <=> a[1].as<semver_value>().get();
    return std::int64_t{o < 0 ? -1 : (o > 0 ? 1 : 0)};
  });

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
      fn(name, x == y ? dra::detail::concat(prefix, "_", xs) : dra::detail::concat(prefix, "_", xs, "_", ys), {x, y}, T_bool(), impl);
    }

  // Timestamp and duration accessors (UTC, or a fixed "+hh:mm"/"-hh:mm" offset; IANA zone names are not available).
  fn("_+_", "add_duration_timestamp", {type::duration(), type::timestamp()}, type::timestamp(), [](args_t a, call_context&) -> value {
    return shift_timestamp(a[1].as<timestamp_value>(), a[0].as<duration_value>().nanos);
  });
  fn("_-_", "subtract_timestamp_duration", {type::timestamp(), type::duration()}, type::timestamp(), [](args_t a, call_context&) -> value {
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
    member(name, id, {type::timestamp()}, T_int(), accessor_impls[k]);
    member(name, id_with_tz, {type::timestamp(), T_string()}, T_int(), accessor_impls[k]);
  }
  member("getHours", "duration_to_hours", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 3600000000000}; });
  member("getMinutes", "duration_to_minutes", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 60000000000}; });
  member("getSeconds", "duration_to_seconds", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 1000000000}; });
  member("getMilliseconds", "duration_to_milliseconds", {type::duration()}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<duration_value>().nanos / 1000000}; });

  // Kubernetes' IP and CIDR libraries.
  const type T_ip = type::opaque("net.IP"), T_cidr = type::opaque("net.CIDR");
  fn("ip", "string_to_ip", {T_string()}, T_ip, [](args_t a, call_context&) -> value { return ip_of(a[0].as_text()); });
  fn("isIP", "is_ip", {T_string()}, T_bool(), [](args_t a, call_context&) -> value { return !ip_of(a[0].as_text()).is_error(); });
  fn("ip.isCanonical", "ip_is_canonical", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    value ip = ip_of(a[0].as_text());
    if (ip.is_error()) return ip;
    return detail::format_ip(ip.as<ip_value>().address) == a[0].as_text();
  });
  fn("string", "ip_to_string", {T_ip}, T_string(), [](args_t a, call_context&) -> value { return value::string(display(a[0])); });
  member("family", "ip_family", {T_ip}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<ip_value>().address.v4 ? 4 : 6}; });
  member("isUnspecified", "ip_is_unspecified", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return detail::is_unspecified(a[0].as<ip_value>().address); });
  member("isLoopback", "ip_is_loopback", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return detail::is_loopback(a[0].as<ip_value>().address); });
  member("isLinkLocalMulticast", "ip_is_link_local_multicast", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return detail::is_link_local_multicast(a[0].as<ip_value>().address); });
  member("isLinkLocalUnicast", "ip_is_link_local_unicast", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return detail::is_link_local_unicast(a[0].as<ip_value>().address); });
  member("isGlobalUnicast", "ip_is_global_unicast", {T_ip}, T_bool(), [](args_t a, call_context&) -> value { return detail::is_global_unicast(a[0].as<ip_value>().address); });
  fn("cidr", "string_to_cidr", {T_string()}, T_cidr, [](args_t a, call_context&) -> value { return cidr_of(a[0].as_text()); });
  fn("isCIDR", "is_cidr", {T_string()}, T_bool(), [](args_t a, call_context&) -> value { return !cidr_of(a[0].as_text()).is_error(); });
  fn("string", "cidr_to_string", {T_cidr}, T_string(), [](args_t a, call_context&) -> value { return value::string(display(a[0])); });
  auto contains_ip = [](args_t a, call_context&) -> value {
    value ip = a[1].is(value_kind::string) ? ip_of(a[1].as_text()) : a[1];
    if (ip.is_error()) return ip;
    return detail::prefix_contains(a[0].as<cidr_value>().prefix, ip.as<ip_value>().address);
  };
  member("containsIP", "cidr_contains_ip_string", {T_cidr, T_string()}, T_bool(), contains_ip);
  member("containsIP", "cidr_contains_ip_ip", {T_cidr, T_ip}, T_bool(), contains_ip);
  auto contains_cidr = [](args_t a, call_context&) -> value {
    value other = a[1].is(value_kind::string) ? cidr_of(a[1].as_text()) : a[1];
    if (other.is_error()) return other;
    const auto& p = a[0].as<cidr_value>().prefix;
    const auto& q = other.as<cidr_value>().prefix;
    return p.bits <= q.bits && detail::prefix_contains(p, q.address);
  };
  member("containsCIDR", "cidr_contains_cidr_string", {T_cidr, T_string()}, T_bool(), contains_cidr);
  member("containsCIDR", "cidr_contains_cidr", {T_cidr, T_cidr}, T_bool(), contains_cidr);
  member("ip", "cidr_ip", {T_cidr}, T_ip, [](args_t a, call_context&) -> value { return ip_value{a[0].as<cidr_value>().prefix.address}; });
  member("prefixLength", "cidr_prefix_length", {T_cidr}, T_int(), [](args_t a, call_context&) -> value { return std::int64_t{a[0].as<cidr_value>().prefix.bits}; });
  member("masked", "cidr_masked", {T_cidr}, T_cidr, [](args_t a, call_context&) -> value {
    const auto& p = a[0].as<cidr_value>().prefix;
    return cidr_value{{detail::mask(p.address, p.bits), p.bits}};
  });

  // Kubernetes' named formats: format.dns1123Label() …, format.named(name), <format>.validate(text).
  const type T_format = type::object("kubernetes.NamedFormat");
  constexpr auto constants = named_format_constants(std::make_index_sequence<detail::named_formats.size()>{});
  for (std::size_t k = 0; k < detail::named_formats.size(); ++k) {
    const std::string name = dra::detail::concat("format.", detail::named_formats[k].key);
    fn(name, name, {}, T_format, constants[k]);
  }
  fn("format.named", "format-named", {T_string()}, type::optional(T_format), [](args_t a, call_context&) -> value {
    for (std::size_t k = 0; k < detail::named_formats.size(); ++k)
      if (detail::named_formats[k].key == a[0].as_text()) return value::some(named_format_value{static_cast<std::uint8_t>(k)});
    return value::none();
  });
  member("validate", "format-validate", {T_format, T_string()}, type::optional(type::list(T_string())),
         [](args_t a, call_context& c) -> value {
           charge_text(c, a[1].as_text().size());
           const auto problems = detail::named_formats[a[0].as<named_format_value>().index].validate(a[1].as_text());
           if (problems.empty()) return value::none();
           std::vector<value> out;
           for (const auto& p : problems) out.push_back(value::string(p));
           return value::some(value::list(std::move(out)));
         });

  // Kubernetes' URL library: url() accepts what Go's url.ParseRequestURI accepts.
  const type T_url = type::opaque("kubernetes.URL");
  fn("url", "string_to_url", {T_string()}, T_url, [](args_t a, call_context&) -> value {
    if (auto problems = detail::request_uri(a[0].as_text()); !problems.empty())
      return value::error(dra::detail::concat("URL parse error during conversion from string: ", problems.front()));
    auto parts = detail::split_url(a[0].as_text());
    return url_value{std::make_shared<const url_parts>(
        url_parts{std::move(parts.scheme), std::move(parts.host), std::move(parts.path), std::move(parts.raw_query)})};
  });
  fn("isURL", "is_url_string", {T_string()}, T_bool(), [](args_t a, call_context&) -> value {
    return detail::request_uri(a[0].as_text()).empty();
  });
  member("getScheme", "url_get_scheme", {T_url}, T_string(), [](args_t a, call_context&) -> value { return value::string(a[0].as<url_value>().parts->scheme); });
  member("getHost", "url_get_host", {T_url}, T_string(), [](args_t a, call_context&) -> value { return value::string(a[0].as<url_value>().parts->host); });
  member("getHostname", "url_get_hostname", {T_url}, T_string(), [](args_t a, call_context&) -> value {
    std::string_view host = a[0].as<url_value>().parts->host;
    if (!host.empty() && host.front() == '[') return value::string(std::string(host.substr(1, host.find(']') - 1)));
    return value::string(std::string(host.substr(0, host.rfind(':'))));
  });
  member("getPort", "url_get_port", {T_url}, T_string(), [](args_t a, call_context&) -> value {
    std::string_view host = a[0].as<url_value>().parts->host;
    const auto colon = host.rfind(':');
    if (colon == std::string_view::npos || host.find(']', colon) != std::string_view::npos) return value::string("");
    return value::string(std::string(host.substr(colon + 1)));
  });
  member("getEscapedPath", "url_get_escaped_path", {T_url}, T_string(), [](args_t a, call_context&) -> value { return value::string(a[0].as<url_value>().parts->path); });
  member("getQuery", "url_get_query", {T_url}, type::map(T_string(), type::list(T_string())), [](args_t a, call_context&) -> value {
    // Go's url.Query(): pairs split on '&' (a pair with ';' or a bad escape is dropped), values grouped by key.
    std::vector<std::pair<std::string, std::vector<value>>> groups;
    std::string_view q = a[0].as<url_value>().parts->raw_query;
    while (!q.empty()) {
      const auto amp = q.find('&');
      std::string_view pair = q.substr(0, amp);
      q = amp == std::string_view::npos ? std::string_view{} : q.substr(amp + 1);
      if (pair.empty() || pair.find(';') != std::string_view::npos) continue;
      const auto eq = pair.find('=');
      auto key = detail::query_unescape(pair.substr(0, eq));
      auto val = detail::query_unescape(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
      if (!key || !val) continue;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == *key; });
      if (it == groups.end()) it = groups.insert(groups.end(), {*key, {}});
      it->second.push_back(value::string(std::move(*val)));
    }
    std::vector<std::pair<value, value>> entries;
    for (auto& [k, v] : groups) entries.emplace_back(value::string(k), value::list(std::move(v)));
    return value::map(std::move(entries));
  });

  // Kubernetes' lists library, version 1 (Kubernetes 1.37; before, DRA's own `includes` with a
  // limit of 64 values): whether a list holds the value, or a scalar equals it.
  member("includes", "list_includes_dyn_dyn", {T_dyn(), T_dyn()}, T_bool(), [](args_t a, call_context& c) -> value {
    if (a[0].is(value_kind::list)) {
      c.cost += items(a[0]).size();
      return list_contains(items(a[0]), a[1]);
    }
    return equals(a[0], a[1]);
  });

  add_authorizer_declarations(table);
}

}  // namespace dra::cel
