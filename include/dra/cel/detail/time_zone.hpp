// IANA time zones for CEL's timestamp accessors (`getHours('Europe/Paris')`): the system's TZif files, read as Go's
// time.LoadLocation reads them.
#pragma once

#include <dra/cel/detail/text_format.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel::detail {

// The offset from UTC, in seconds east, of IANA zone `name` at `utc_seconds` (seconds since the
// Unix epoch); nothing when the name is malformed or no zone database on this machine has it.
[[nodiscard]] inline std::optional<std::int64_t> zone_offset(std::string_view name, std::int64_t utc_seconds);

// A POSIX TZ rule (the footer of a TZif file, e.g. "CET-1CEST,M3.5.0,M10.5.0/3"), which governs
// the times after the file's last transition.
struct posix_rule {
  struct date {
    char kind = 'M';  // 'J': day 1–365 without Feb 29; 'D': day 0–365; 'M': month.week.weekday
    int month = 0, week = 0, weekday = 0, day = 0;
    std::int64_t time = 7200;  // seconds after local midnight
  };
  std::int64_t std_offset = 0;  // seconds east of UTC
  std::optional<std::int64_t> dst_offset;
  date start, end;
};
[[nodiscard]] inline std::optional<posix_rule> parse_posix_rule(std::string_view text);
[[nodiscard]] inline std::int64_t rule_offset(const posix_rule& rule, std::int64_t utc_seconds);

// ---------------------------------------------------------------------------------------------
namespace tz {

// The year of a moment, in seconds since the epoch.
inline std::int64_t year_of(std::int64_t seconds) {
  return civil_from_days(seconds / 86400 - (seconds % 86400 < 0 ? 1 : 0)).year;
}

inline bool leap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Seconds from the year's start (local time) to the rule's date, at local midnight.
inline std::int64_t day_start(const posix_rule::date& d, std::int64_t year) {
  if (d.kind == 'J') return (d.day - 1 + (leap(year) && d.day >= 60 ? 1 : 0)) * std::int64_t{86400};
  if (d.kind == 'D') return d.day * std::int64_t{86400};
  static constexpr std::array<int, 12> month_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const std::int64_t first = days_from_civil(year, static_cast<unsigned>(d.month), 1);
  const std::int64_t first_weekday = ((first % 7) + 11) % 7;  // 1970-01-01 was a Thursday
  std::int64_t day = (d.weekday - first_weekday + 7) % 7 + 7 * (d.week - 1);
  const int length = month_days[static_cast<std::size_t>(d.month - 1)] + (d.month == 2 && leap(year) ? 1 : 0);
  while (day >= length) day -= 7;  // week 5: the month's last such weekday
  return (first - days_from_civil(year, 1, 1) + day) * 86400;
}

// Reads "[+-]hh[:mm[:ss]]" at `s`; POSIX offsets count west, so callers negate.
inline std::optional<std::int64_t> clock(std::string_view& s, int max_hours) {
  std::int64_t sign = 1;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  std::int64_t total = 0;
  for (int part = 0; part < 3; ++part) {
    if (part > 0) {
      if (s.empty() || s[0] != ':') break;
      s.remove_prefix(1);
    }
    std::int64_t n = 0;
    std::size_t digits = 0;
    while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9' && digits < 3) n = n * 10 + (s[digits++] - '0');
    if (digits == 0 || (part == 0 ? n > max_hours : n > 59)) return std::nullopt;
    s.remove_prefix(digits);
    total += n * (part == 0 ? 3600 : part == 1 ? 60 : 1);
  }
  return sign * total;
}

inline bool zone_name(std::string_view& s) {
  if (!s.empty() && s[0] == '<') {
    const std::size_t close = s.find('>');
    if (close == std::string_view::npos) return false;
    s.remove_prefix(close + 1);
    return true;
  }
  std::size_t n = 0;
  while (n < s.size() && ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z'))) ++n;
  s.remove_prefix(n);
  return n >= 3;
}

inline std::optional<posix_rule::date> rule_date(std::string_view& s) {
  posix_rule::date d;
  auto number = [&s](int& out) {
    std::size_t n = 0;
    out = 0;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9' && n < 3) out = out * 10 + (s[n++] - '0');
    s.remove_prefix(n);
    return n > 0;
  };
  if (!s.empty() && s[0] == 'M') {
    s.remove_prefix(1);
    if (!number(d.month) || s.empty() || s[0] != '.') return std::nullopt;
    s.remove_prefix(1);
    if (!number(d.week) || s.empty() || s[0] != '.') return std::nullopt;
    s.remove_prefix(1);
    if (!number(d.weekday)) return std::nullopt;
    if (d.month < 1 || d.month > 12 || d.week < 1 || d.week > 5 || d.weekday > 6) return std::nullopt;
  } else if (!s.empty() && s[0] == 'J') {
    s.remove_prefix(1);
    d.kind = 'J';
    if (!number(d.day) || d.day < 1 || d.day > 365) return std::nullopt;
  } else {
    d.kind = 'D';
    if (!number(d.day) || d.day > 365) return std::nullopt;
  }
  if (!s.empty() && s[0] == '/') {
    s.remove_prefix(1);
    auto time = clock(s, 167);  // RFC 8536 allows -167..167 hours
    if (!time) return std::nullopt;
    d.time = *time;
  }
  return d;
}

struct tzif {
  std::vector<std::int64_t> transitions;
  std::vector<std::uint8_t> types;    // per transition
  std::vector<std::int64_t> offsets;  // per type
  std::optional<posix_rule> footer;
};

inline std::int64_t big_endian(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = v << 8 | p[i];
  if (bytes == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  return static_cast<std::int64_t>(v);
}

// RFC 8536: a version 1 block of 32-bit times, and from version 2 on a second header and block of
// 64-bit times, then the footer.
inline std::optional<tzif> parse_tzif(std::string_view file) {
  auto block = [&file](std::size_t at, int time_bytes, std::size_t& end) -> std::optional<tzif> {
    if (file.size() < at + 44 || file.substr(at, 4) != "TZif") return std::nullopt;
    const auto* h = reinterpret_cast<const unsigned char*>(file.data() + at + 20);
    std::array<std::size_t, 6> n{};
    for (std::size_t i = 0; i < 6; ++i) n[i] = static_cast<std::size_t>(big_endian(h + 4 * i, 4) & 0xffffffff);
    const auto [isut, isstd, leaps, times, types, chars] = n;
    const auto tb = static_cast<std::size_t>(time_bytes);
    end = at + 44 + times * tb + times + types * 6 + chars + leaps * (tb + 4) + isstd + isut;
    if (types == 0 || end > file.size()) return std::nullopt;
    tzif z;
    const auto* p = reinterpret_cast<const unsigned char*>(file.data() + at + 44);
    for (std::size_t i = 0; i < times; ++i) z.transitions.push_back(big_endian(p + i * tb, time_bytes));
    p += times * tb;
    for (std::size_t i = 0; i < times; ++i) {
      if (p[i] >= types) return std::nullopt;
      z.types.push_back(p[i]);
    }
    p += times;
    for (std::size_t i = 0; i < types; ++i) z.offsets.push_back(big_endian(p + 6 * i, 4));
    return z;
  };
  std::size_t end = 0;
  auto first = block(0, 4, end);
  if (!first || file[4] == '\0') return first;
  auto second = block(end, 8, end);
  if (!second) return std::nullopt;
  if (end < file.size() && file[end] == '\n') {
    const std::size_t close = file.find('\n', end + 1);
    if (close != std::string_view::npos && close > end + 1)
      second->footer = parse_posix_rule(file.substr(end + 1, close - end - 1));
  }
  return second;
}

// Go's time.LoadLocation: a name of letters, digits and "/_-+" (no "..", no leading "/"),
// looked up in the system's zone directories.
inline std::optional<std::string> read_zone_file(std::string_view name) {
  if (name.empty() || name.size() > 255 || name[0] == '/' || name.find("..") != std::string_view::npos)
    return std::nullopt;
  for (char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '_' ||
          c == '-' || c == '+'))
      return std::nullopt;
  for (const char* dir :
       {"/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo/"}) {
    std::ifstream in(std::string(dir).append(name), std::ios::binary);
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.size() >= 4 && text.compare(0, 4, "TZif") == 0) return text;
  }
  return std::nullopt;
}

}  // namespace tz

inline std::optional<posix_rule> parse_posix_rule(std::string_view s) {
  posix_rule rule;
  if (!tz::zone_name(s)) return std::nullopt;
  auto std_offset = tz::clock(s, 24);
  if (!std_offset) return std::nullopt;
  rule.std_offset = -*std_offset;
  if (s.empty()) return rule;
  if (!tz::zone_name(s)) return std::nullopt;
  rule.dst_offset = rule.std_offset + 3600;
  if (!s.empty() && s[0] != ',') {
    auto dst = tz::clock(s, 24);
    if (!dst) return std::nullopt;
    rule.dst_offset = -*dst;
  }
  if (s.empty()) {  // no rule: POSIX's default, the US rule since 2007
    rule.start = {'M', 3, 2, 0, 0, 7200};
    rule.end = {'M', 11, 1, 0, 0, 7200};
    return rule;
  }
  if (s[0] != ',') return std::nullopt;
  s.remove_prefix(1);
  auto start = tz::rule_date(s);
  if (!start || s.empty() || s[0] != ',') return std::nullopt;
  s.remove_prefix(1);
  auto end = tz::rule_date(s);
  if (!end || !s.empty()) return std::nullopt;
  rule.start = *start;
  rule.end = *end;
  return rule;
}

inline std::int64_t rule_offset(const posix_rule& rule, std::int64_t utc_seconds) {
  if (!rule.dst_offset) return rule.std_offset;
  const std::int64_t year = tz::year_of(utc_seconds + rule.std_offset);
  const std::int64_t year_start = days_from_civil(year, 1, 1) * 86400;
  // Each change happens at a local time of the offset in force before it.
  const std::int64_t start = year_start + tz::day_start(rule.start, year) + rule.start.time - rule.std_offset;
  const std::int64_t end = year_start + tz::day_start(rule.end, year) + rule.end.time - *rule.dst_offset;
  const bool summer =
      start < end ? (utc_seconds >= start && utc_seconds < end) : !(utc_seconds >= end && utc_seconds < start);
  return summer ? *rule.dst_offset : rule.std_offset;
}

inline std::optional<std::int64_t> zone_offset(std::string_view name, std::int64_t utc_seconds) {
  const auto file = tz::read_zone_file(name);
  if (!file) return std::nullopt;
  const auto zone = tz::parse_tzif(*file);
  if (!zone) return std::nullopt;
  const auto& times = zone->transitions;
  if (times.empty() || utc_seconds < times.front()) {
    if (times.empty() && zone->footer) return rule_offset(*zone->footer, utc_seconds);
    return zone->offsets.front();  // RFC 8536: type 0 holds before the first transition
  }
  if (utc_seconds >= times.back() && zone->footer) return rule_offset(*zone->footer, utc_seconds);
  std::size_t lo = 0, hi = times.size();  // the last transition at or before the time
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (times[mid] <= utc_seconds ? lo : hi) = mid;
  }
  return zone->offsets[zone->types[lo]];
}

}  // namespace dra::cel::detail
