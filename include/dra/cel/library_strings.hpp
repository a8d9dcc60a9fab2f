// cel-go's strings extension (version 2): charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join, format, strings.quote.
#pragma once

#include <dra/cel/detail/library_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

namespace lib {

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

// --- the string.format() clause interpreter (strings extension) ------------
// The %b, %o, %x and %X clauses of string.format().
inline std::optional<value> format_radix_clause(char verb, const value& a, std::string& out) {
  auto fail = [&](std::string_view msg) {
    return value::error(dra::concat("error during formatting: ", msg, ", was given ", type_name(a)));
  };
  switch (verb) {
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
  return std::nullopt;
}

// One clause of string.format(): appends `a` formatted by `verb` to `out`, or returns the error.
inline std::optional<value> format_clause(char verb, int precision, const value& a, std::string& out) {
  auto fail = [&](std::string_view msg) {
    return value::error(dra::concat("error during formatting: ", msg, ", was given ", type_name(a)));
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
    case 'b':
    case 'o':
    case 'x':
    case 'X': return format_radix_clause(verb, a, out);
    default: break;
  }
  return std::nullopt;
}

// `failed_arg`, when given, receives the index of the argument a formatting error is about.
inline value format_string(std::string_view fmt, const std::vector<value>& args, std::size_t* failed_arg = nullptr) {
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
      return value::error(dra::concat("could not parse formatting clause: unrecognized formatting clause \"",
                                              std::string(1, verb), "\""));
    if (next >= args.size()) return value::error(dra::concat("index ", std::to_string(next), " out of range"));
    if (auto failed = format_clause(verb, precision, args[next], out)) {
      if (failed_arg != nullptr) *failed_arg = next;
      return *failed;
    }
    ++next;
  }
  return value::string(std::move(out));
}

}  // namespace lib

// ext.Strings: charAt, indexOf, lastIndexOf.
inline void add_strings_search(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.member("charAt", "string_char_at_int", {T_string(), T_int()}, T_string(), [](args_t a, call_context&) -> value {
    const auto offs = code_point_offsets(a[0].as_text());
    const auto i = a[1].as_int();
    if (i < 0 || static_cast<std::size_t>(i) >= offs.size()) return value::error(dra::concat("index out of range: ", std::to_string(i)));
    if (static_cast<std::size_t>(i) == offs.size() - 1) return value::string("");
    return value::string(std::string(a[0].as_text().substr(offs[static_cast<std::size_t>(i)], offs[static_cast<std::size_t>(i) + 1] - offs[static_cast<std::size_t>(i)])));
  });
  auto index_of = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text(), sub = a[1].as_text();
    charge_text(c, s.size());
    const auto offs = code_point_offsets(s);
    const std::int64_t n = static_cast<std::int64_t>(offs.size()) - 1;
    const std::int64_t start = a.size() > 2 ? a[2].as_int() : 0;
    if (start < 0 || start > n) return value::error(dra::concat("index out of range: ", std::to_string(start)));
    const auto found = s.find(sub, offs[static_cast<std::size_t>(start)]);
    if (found == std::string_view::npos) return std::int64_t{-1};
    return static_cast<std::int64_t>(std::lower_bound(offs.begin(), offs.end(), found) - offs.begin());
  };
  r.member("indexOf", "string_index_of_string", {T_string(), T_string()}, T_int(), index_of);
  r.member("indexOf", "string_index_of_string_int", {T_string(), T_string(), T_int()}, T_int(), index_of);
  auto last_index_of = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text(), sub = a[1].as_text();
    charge_text(c, s.size());
    const auto offs = code_point_offsets(s);
    const std::int64_t n = static_cast<std::int64_t>(offs.size()) - 1;
    std::int64_t start = a.size() > 2 ? a[2].as_int() : n;
    if (start < 0 || start > n) return value::error(dra::concat("index out of range: ", std::to_string(start)));
    const auto found = s.rfind(sub, offs[static_cast<std::size_t>(start)]);
    if (found == std::string_view::npos) return std::int64_t{-1};
    return static_cast<std::int64_t>(std::lower_bound(offs.begin(), offs.end(), found) - offs.begin());
  };
  r.member("lastIndexOf", "string_last_index_of_string", {T_string(), T_string()}, T_int(), last_index_of);
  r.member("lastIndexOf", "string_last_index_of_string_int", {T_string(), T_string(), T_int()}, T_int(), last_index_of);
}

// ext.Strings: lowerAscii, upperAscii, replace.
inline void add_strings_case_and_replace(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.member("lowerAscii", "string_lower_ascii", {T_string()}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    std::string s(a[0].as_text());
    for (char& ch : s)
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch + 32);
    return value::string(std::move(s));
  });
  r.member("upperAscii", "string_upper_ascii", {T_string()}, T_string(), [](args_t a, call_context& c) -> value {
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
    // The result is charged (0.1 per byte) before it is built: each link of a chain
    // `'aaaa'.replace('a', 'aaaa').replace('a', 'aaaa')…` quadruples it, so a charge after the
    // fact let the last link build hundreds of megabytes before the limit was seen.
    std::uint64_t replacements = 0;
    if (from.empty()) {
      replacements = code_points(s) + 1;
    } else {
      for (std::size_t f = s.find(from); f != std::string_view::npos; f = s.find(from, f + from.size())) ++replacements;
    }
    if (limit >= 0) replacements = std::min(replacements, static_cast<std::uint64_t>(limit));
    const bool huge = replacements > UINT32_MAX || to.size() > UINT32_MAX;  // the product could wrap
    const std::uint64_t inserted = huge ? UINT64_MAX : replacements * to.size();
    if (to.size() > from.size() && !charge_ahead(c, inserted / 10)) return cost_limit_exceeded();
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
  r.member("replace", "string_replace_string_string", {T_string(), T_string(), T_string()}, T_string(), replace);
  r.member("replace", "string_replace_string_string_int", {T_string(), T_string(), T_string(), T_int()}, T_string(), replace);
}

// ext.Strings: split, substring.
inline void add_strings_split_and_substring(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
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
  r.member("split", "string_split_string", {T_string(), T_string()}, type::list(T_string()), split);
  r.member("split", "string_split_string_int", {T_string(), T_string(), T_int()}, type::list(T_string()), split);
  auto substring = [](args_t a, call_context& c) -> value {
    const auto s = a[0].as_text();
    charge_text(c, s.size());
    const auto offs = code_point_offsets(s);
    const std::int64_t n = static_cast<std::int64_t>(offs.size()) - 1;
    const std::int64_t start = a[1].as_int();
    const std::int64_t end = a.size() > 2 ? a[2].as_int() : n;
    if (start < 0 || start > n) return value::error(dra::concat("index out of range: ", std::to_string(start)));
    if (end < 0 || end > n) return value::error(dra::concat("index out of range: ", std::to_string(end)));
    if (start > end) return value::error(dra::concat("invalid substring range. start: ", std::to_string(start), ", end: ", std::to_string(end)));
    return value::string(std::string(s.substr(offs[static_cast<std::size_t>(start)], offs[static_cast<std::size_t>(end)] - offs[static_cast<std::size_t>(start)])));
  };
  r.member("substring", "string_substring_int", {T_string(), T_int()}, T_string(), substring);
  r.member("substring", "string_substring_int_int", {T_string(), T_int(), T_int()}, T_string(), substring);
}

// ext.Strings: trim, join (version 2), format and strings.quote (version 1).
inline void add_strings_trim_join_format(function_table& table) {
  using namespace lib;
  detail::registrar r(table);
  r.member("trim", "string_trim", {T_string()}, T_string(), [](args_t a, call_context& c) -> value {
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
  r.member("join", "list_join", {type::list(T_string())}, T_string(), join);
  r.member("join", "list_join_string", {type::list(T_string()), T_string()}, T_string(), join);
  r.global("strings.quote", "strings_quote", {T_string()}, T_string(), [](args_t a, call_context&) -> value {
    return value::string(quote_for_format(a[0].as_text()));
  });
  r.member("format", "string_format", {T_string(), type::list(T_dyn())}, T_string(), [](args_t a, call_context& c) -> value {
    charge_text(c, a[0].as_text().size());
    return format_string(a[0].as_text(), items(a[1]));
  });
}

// cel-go's strings extension at version 2, as Kubernetes configures it (ext.StringsVersion(2)).
inline void add_strings_extension(function_table& table) {
  add_strings_search(table);
  add_strings_case_and_replace(table);
  add_strings_split_and_substring(table);
  add_strings_trim_join_format(table);
}

}  // namespace dra::cel
