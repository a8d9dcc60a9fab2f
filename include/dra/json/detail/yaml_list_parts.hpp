// Where a YAML List's items (as `kubectl get -o yaml` prints them) can be cut, so that parts of them are converted apart.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::json::detail {

// A List cut for converting its items apart: `head` runs to the end of the root's `items:` key,
// `tail` is what follows the items, and `parts` hold the items in order, each part starting on a
// line that starts an item. Cutting reads lines only, so a part may turn out not to be YAML by
// itself (a cut inside a multi-line quoted scalar, say): the parts are then converted again whole.
struct list_items_parts {
  std::string_view head;
  std::string_view tail;
  std::vector<std::string_view> parts;
};

enum class list_line_kind : unsigned char { blank, item_start, deeper, other };

// What a line (without its newline) is for a block sequence whose `-` stand `indent` spaces in.
[[nodiscard]] constexpr list_line_kind classify_list_line(std::string_view line, std::size_t indent) noexcept {
  const std::size_t first = line.find_first_not_of(' ');
  if (first == std::string_view::npos || line[first] == '\r' || line[first] == '#') return list_line_kind::blank;
  if (first > indent) return list_line_kind::deeper;
  if (first < indent || line[first] != '-') return list_line_kind::other;
  const bool dash_alone = first + 1 == line.size() || line[first + 1] == ' ' || line[first + 1] == '\r';
  return dash_alone ? list_line_kind::item_start : list_line_kind::other;
}

// The line that starts at `at`, without its newline.
[[nodiscard]] inline std::string_view line_at(std::string_view text, std::size_t at) noexcept {
  const std::size_t end = text.find('\n', at);
  return text.substr(at, (end == std::string_view::npos ? text.size() : end) - at);
}

// The start of the line after the one `at` is on; text.size() when there is none.
[[nodiscard]] inline std::size_t next_line(std::string_view text, std::size_t at) noexcept {
  const std::size_t end = text.find('\n', at);
  return end == std::string_view::npos ? text.size() : end + 1;
}

// Where the root mapping's `items:` key line (alone on its line, at column 0) starts, if anywhere.
[[nodiscard]] inline std::optional<std::size_t> find_items_key(std::string_view yaml) noexcept {
  for (std::size_t at = yaml.find("items:"); at != std::string_view::npos; at = yaml.find("items:", at + 1)) {
    if (at != 0 && yaml[at - 1] != '\n') continue;
    const std::string_view rest = line_at(yaml, at).substr(6);
    if (rest.find_first_not_of(" \r") == std::string_view::npos) return at;
  }
  return std::nullopt;
}

// Cuts a YAML List's items into parts of about `part_bytes` each (at most `max_parts`); nothing when
// the text has no root `items:` key whose value is a block sequence, or its items make one part.
[[nodiscard]] inline std::optional<list_items_parts> split_list_items(std::string_view yaml, std::size_t part_bytes,
                                                                     std::size_t max_parts = 4096) {
  const std::optional<std::size_t> key = find_items_key(yaml);
  if (!key) return std::nullopt;
  std::size_t begin = next_line(yaml, *key);
  while (begin < yaml.size() && classify_list_line(line_at(yaml, begin), 0) == list_line_kind::blank)
    begin = next_line(yaml, begin);
  if (begin == yaml.size()) return std::nullopt;
  const std::string_view first_item = line_at(yaml, begin);
  const std::size_t indent = first_item.find_first_not_of(' ');
  if (classify_list_line(first_item, indent) != list_line_kind::item_start) return std::nullopt;

  // The items end where, after the last line that starts one, a line stands less deep (or as deep
  // without a `-`): kubectl writes `kind: List` and `metadata:` there. Looking from the end finds
  // it without reading every line; a line like that among the items is left inside a part, where
  // it does not parse, so the text is converted whole.
  std::size_t end = yaml.size();
  for (std::size_t line_end = yaml.size();;) {
    const std::size_t newline = line_end == 0 ? std::string_view::npos : yaml.rfind('\n', line_end - 1);
    const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
    const list_line_kind kind = classify_list_line(yaml.substr(start, line_end - start), indent);
    if (kind == list_line_kind::item_start) break;
    if (kind == list_line_kind::other) end = start;
    line_end = start - 1;  // start > begin: the line at begin starts an item
  }

  list_items_parts split{yaml.substr(0, *key + 6), yaml.substr(end), {}};
  const std::size_t bytes = std::max(part_bytes, (end - begin) / max_parts + 1);
  for (std::size_t from = begin; from < end;) {
    // The next part starts on the first line that starts an item at least `bytes` on.
    std::size_t cut = from + bytes >= end ? end : next_line(yaml, from + bytes - 1);
    while (cut < end && classify_list_line(line_at(yaml, cut), indent) != list_line_kind::item_start)
      cut = next_line(yaml, cut);
    split.parts.push_back(yaml.substr(from, cut - from));
    from = cut;
  }
  if (split.parts.size() < 2) return std::nullopt;
  return split;
}

}  // namespace dra::json::detail
