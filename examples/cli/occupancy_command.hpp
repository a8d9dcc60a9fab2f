// The `dra occupancy` command: draws what each claim holds of counter sets and shared devices as text, JSON or SVG.
#pragma once

#include "allocate_command.hpp"
#include "invocation.hpp"

#include <dra/alloc/features.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/writer.hpp>
#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/output/stranded_output.hpp>
#include <dra/sim/runner.hpp>
#include <dra/compiled_runs.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra_cli {

namespace occupancy_detail {

// A number as JSON writes it: integers without a fraction, others in their shortest exact form.
inline std::string number(double value) {
  if (std::isfinite(value) && std::abs(value) < 9.0e15 && value == std::floor(value))
    return std::to_string(static_cast<long long>(value));
  std::array<char, 32> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return ec == std::errc{} ? std::string(buffer.data(), end) : "0";
}

// A number for people: binary suffixes when it is a whole number of KiB, MiB, GiB or TiB (memory).
inline std::string amount(double value) {
  static constexpr std::array<std::string_view, 4> suffixes{"Ki", "Mi", "Gi", "Ti"};
  if (value >= 1024 && value == std::floor(value)) {
    double scaled = value;
    std::size_t step = 0;
    while (step < suffixes.size() && std::fmod(scaled, 1024.0) == 0 && scaled >= 1024) {
      scaled /= 1024;
      ++step;
    }
    if (step > 0) return number(scaled) + std::string(suffixes[step - 1]);
  }
  return number(value);
}

// Memory slices are the counters drawn as cells: those named memory-slice-N; in a set without such
// names, every counter of total 1 (an engine a GPU has one of is a counter, not a slice, when named slices exist).
inline std::optional<long long> slice_number(std::string_view name) {
  constexpr std::string_view prefix = "memory-slice-";
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
  long long n = 0;
  auto [end, ec] = std::from_chars(name.data() + prefix.size(), name.data() + name.size(), n);
  if (ec != std::errc{} || end != name.data() + name.size()) return std::nullopt;
  return n;
}

// A counter set's cells in slice order (memory-slice-2 before memory-slice-10), then its other counters.
struct split_counters {
  std::vector<const dra::sim::counter_occupancy*> cells, others;
};
inline split_counters split(const std::vector<dra::sim::counter_occupancy>& counters) {
  split_counters out;
  const bool named_slices =
      std::ranges::any_of(counters, [](const auto& c) { return slice_number(c.name).has_value(); });
  for (const auto& c : counters) {
    const bool cell = named_slices ? slice_number(c.name).has_value() : c.total == 1;
    (cell ? out.cells : out.others).push_back(&c);
  }
  std::ranges::stable_sort(out.cells, [](const auto* a, const auto* b) {
    const auto na = slice_number(a->name), nb = slice_number(b->name);
    if (na && nb) return *na < *nb;
    return na.has_value() && !nb.has_value();
  });
  return out;
}

// The claim holding a cell, if any.
inline const std::string* cell_holder(const dra::sim::counter_occupancy& c) {
  for (const auto& h : c.holders)
    if (h.amount > 0) return &h.claim;
  return nullptr;
}

// Every claim once, in the order it first holds something; its index gives its key and colour.
struct claim_keys {
  std::vector<std::string> claims;
  std::map<std::string, std::size_t, std::less<>> index;

  explicit claim_keys(const dra::sim::occupancy& occ) {
    for (const auto& claim : occ.claims)
      if (index.emplace(claim, claims.size()).second) claims.push_back(claim);
  }
  // A, B, … Z, AA, AB, …
  static std::string key_of(std::size_t i) {
    std::string key;
    ++i;
    while (i > 0) {
      --i;
      key.insert(key.begin(), static_cast<char>('A' + i % 26));
      i /= 26;
    }
    return key;
  }
  [[nodiscard]] std::string key(std::string_view claim) const {
    auto it = index.find(claim);
    return it == index.end() ? "?" : key_of(it->second);
  }
};

// Counter sets grouped by node, then pool, keeping the order they were published in.
template <class Item, class KeyOf>
std::vector<std::pair<std::string, std::vector<const Item*>>> grouped(const std::vector<Item>& items, KeyOf key_of) {
  std::vector<std::pair<std::string, std::vector<const Item*>>> groups;
  for (const auto& item : items) {
    std::string key = key_of(item);
    auto it = std::ranges::find_if(groups, [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
    it->second.push_back(&item);
  }
  return groups;
}

inline std::string place(const std::string& node, const std::string& driver, const std::string& pool) {
  return "node " + (node.empty() ? std::string("(none)") : node) + ", pool " + driver + "/" + pool;
}

inline std::string used_of(const dra::sim::counter_occupancy& c) { return amount(c.used) + "/" + amount(c.total); }

inline std::string holders_text(const dra::sim::counter_occupancy& c, const claim_keys& keys) {
  std::string text;
  for (const auto& h : c.holders) {
    if (h.amount <= 0) continue;
    text += (text.empty() ? " (" : ", ") + keys.key(h.claim) + " " + amount(h.amount);
  }
  return text.empty() ? text : text + ")";
}

// The stranded capacity of each shared device that has some, by driver/pool/device.
inline std::map<std::string, double, std::less<>> stranded_shares(const dra::sim::stranded_report& r) {
  std::map<std::string, double, std::less<>> out;
  for (const auto& n : r.nodes)
    for (const auto& d : n.stranded_list) out[d.driver + "/" + d.pool + "/" + d.device] = d.free;
  return out;
}

inline void print_text(const dra::sim::occupancy& occ, std::ostream& out) {
  const claim_keys keys(occ);
  std::size_t key_width = 1, name_width = 0;
  for (std::size_t i = 0; i < keys.claims.size(); ++i) key_width = std::max(key_width, claim_keys::key_of(i).size());
  for (const auto& set : occ.counter_sets) name_width = std::max(name_width, set.name.size());
  auto groups = grouped(occ.counter_sets, [](const auto& s) { return place(s.node, s.driver, s.pool); });
  for (const auto& [heading, sets] : groups) {
    out << heading << "\n";
    for (const auto* set : sets) {
      const split_counters parts = split(set->counters);
      std::string line = "  " + set->name + std::string(name_width - set->name.size() + 2, ' ');
      if (!parts.cells.empty()) {
        line += "|";
        for (const auto* cell : parts.cells) {
          const std::string* holder = cell_holder(*cell);
          std::string label = holder ? keys.key(*holder) : ".";
          line += label + std::string(key_width - label.size(), ' ') + "|";
        }
        line += "  ";
      }
      for (const auto* c : parts.others) line += c->name + " " + used_of(*c) + "  ";
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << "\n";
    }
  }
  if (!occ.shared_devices.empty()) {
    out << "shared devices\n";
    const auto stranded = stranded_shares(occ.stranded);
    for (const auto& d : occ.shared_devices) {
      const std::string name = d.driver + "/" + d.pool + "/" + d.device;
      const auto left = stranded.find(name);
      out << "  " << name << (d.node.empty() ? "" : " on " + d.node)
          << (left == stranded.end() ? "" : " (" + dra::sim::device_amount(left->second) + " stranded)") << "\n";
      for (const auto& c : d.capacity) out << "    " << c.name << " " << used_of(c) << holders_text(c, keys) << "\n";
      if (d.capacity.empty()) {
        std::string sharers;
        for (const auto& claim : d.claims) sharers += (sharers.empty() ? "" : ", ") + keys.key(claim);
        out << "    shared by " << (sharers.empty() ? "no claim" : sharers) << "\n";
      }
    }
  }
  if (const std::string stranded = dra::sim::stranded_text(occ.stranded, "  "); !stranded.empty())
    out << "stranded\n" << stranded;
  out << "claims\n";
  if (keys.claims.empty()) out << "  (none holds anything)\n";
  for (std::size_t i = 0; i < keys.claims.size(); ++i) {
    const std::string key = claim_keys::key_of(i);
    out << "  " << key << std::string(key_width - key.size() + 2, ' ') << keys.claims[i] << "\n";
  }
  const bool any_cells =
      std::ranges::any_of(occ.counter_sets, [](const auto& set) { return !split(set.counters).cells.empty(); });
  if (any_cells)
    out << "  "
        << "." << std::string(key_width + 1, ' ') << "free\n";
}

inline void write_counters(dra::json::writer& w, std::string_view field,
                           const std::vector<dra::sim::counter_occupancy>& list) {
  w.key(field).begin_array();
  for (const auto& c : list) {
    w.begin_object().field("name", c.name).key("total").raw(number(c.total)).key("used").raw(number(c.used));
    w.key("holders").begin_array();
    for (const auto& h : c.holders)
      w.begin_object().field("claim", h.claim).key("amount").raw(number(h.amount)).end_object();
    w.end_array().end_object();
  }
  w.end_array();
}

inline void print_json(const dra::sim::occupancy& occ, std::ostream& out) {
  dra::json::writer w(2);
  w.begin_object().key("claims").begin_array();
  for (const auto& claim : claim_keys(occ).claims) w.string(claim);
  w.end_array().key("counterSets").begin_array();
  for (const auto& set : occ.counter_sets) {
    w.begin_object()
        .field("node", set.node)
        .field("driver", set.driver)
        .field("pool", set.pool)
        .field("name", set.name);
    write_counters(w, "counters", set.counters);
    w.end_object();
  }
  w.end_array().key("sharedDevices").begin_array();
  for (const auto& d : occ.shared_devices) {
    w.begin_object().field("node", d.node).field("driver", d.driver).field("pool", d.pool).field("device", d.device);
    w.key("claims").begin_array();
    for (const auto& claim : d.claims) w.string(claim);
    w.end_array();
    write_counters(w, "capacity", d.capacity);
    w.end_object();
  }
  w.end_array().key("stranded");
  dra::sim::write_stranded(w, occ.stranded);
  w.end_object();
  out << w.str() << "\n";
}

// ---- SVG: a picture for a design document ----

inline std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// One colour per claim, repeating after ten (the keys in the cells still tell claims apart).
inline constexpr std::array<std::string_view, 10> palette{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
inline constexpr std::string_view free_colour = "#eeeeee";
inline constexpr std::string_view in_use_colour = "#bbbbbb";  // a node's devices in use, in the stranded rows
inline constexpr std::string_view stranded_fill = "url(#stranded)";
// Grey hatching over the free colour: free, and no pod shape can use it.
inline constexpr std::string_view stranded_pattern =
    "<defs><pattern id=\"stranded\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#777777\" stroke-width=\"3\"/></pattern></defs>\n";

// The caption of the stranded capacity: the total, what it is measured for, the nodes not measured; none when no node
// is measured (its row says why).
inline std::string stranded_caption(const dra::sim::stranded_report& r) {
  using dra::sim::device_amount;
  const std::string shapes = r.shapes_from == dra::sim::shape_source::pending ? "pending" : "typical";
  std::string text;
  if (r.nodes.size() > r.not_measured)
    text = "Stranded: " + device_amount(r.stranded) + " of " + device_amount(r.free) + " free devices, on " +
           std::to_string(r.stranded_devices) + ", that no " + shapes + " pod shape can use; fragmentation " +
           device_amount(r.fragmentation);
  if (r.not_measured > 0 && !text.empty())
    text += "; not measured on " + std::to_string(r.not_measured) + (r.not_measured == 1 ? " node" : " nodes") +
            " (devices draw on counters)";
  return text;
}

struct svg_layout {
  static constexpr int margin = 20, char_width = 7, cell = 30, cell_gap = 4, bar_columns = 4, bar_column = 160,
                       bar_width = 140, bar_block = 28;
  int label_width = 0, cells_x = 0, bars_x = 0, width = 0;
};

inline int text_width(std::string_view text) { return static_cast<int>(text.size()) * svg_layout::char_width; }

class svg_builder {
 public:
  svg_builder(const dra::sim::occupancy& occ, const claim_keys& keys) : occ_(occ), keys_(keys) {
    std::size_t max_cells = 0, max_others = 0;
    int label = 0;
    for (const auto& set : occ.counter_sets) {
      const split_counters parts = split(set.counters);
      max_cells = std::max(max_cells, parts.cells.size());
      max_others = std::max(max_others, parts.others.size());
      label = std::max(label, text_width(set.name));
    }
    for (const auto& d : occ.shared_devices) {
      max_others = std::max(max_others, d.capacity.size());
      label = std::max(label, text_width(d.device));
      label = std::max(label, static_cast<int>(d.claims.size()) * 20 + 50);  // "shared by A, B, …" in small type
    }
    for (const auto& n : occ.stranded.nodes) label = std::max(label, text_width(n.node));
    layout_.label_width = label + 16;
    layout_.cells_x = svg_layout::margin + layout_.label_width;
    layout_.bars_x = layout_.cells_x + static_cast<int>(max_cells) * (svg_layout::cell + svg_layout::cell_gap) +
                     (max_cells > 0 ? 16 : 0);
    const int columns = static_cast<int>(std::min<std::size_t>(max_others, svg_layout::bar_columns));
    layout_.width = std::max(layout_.bars_x + columns * svg_layout::bar_column + svg_layout::margin, 640);
    // Headings in bold 14px type are about 9px a character.
    for (const auto& set : occ.counter_sets)
      layout_.width = std::max(
          layout_.width, 2 * svg_layout::margin + 9 * static_cast<int>(place(set.node, set.driver, set.pool).size()));
    for (const auto& d : occ.shared_devices)
      layout_.width = std::max(
          layout_.width, 2 * svg_layout::margin + 9 * static_cast<int>(place(d.node, d.driver, d.pool).size() + 19));
    // The stranded rows: a bar twice a counter's, then a line of small type (about 6px a character).
    if (!occ.stranded.nodes.empty())
      layout_.width = std::max(layout_.width, svg_layout::margin + layout_.label_width + 2 * svg_layout::bar_width +
                                                  12 + 6 * 64 + svg_layout::margin);
    layout_.width = std::max(layout_.width, 2 * svg_layout::margin + 7 * static_cast<int>(
                                                stranded_caption(occ.stranded).size()));
    stranded_ = stranded_shares(occ.stranded);
  }

  std::string build() {
    y_ = 34;
    text(svg_layout::margin, y_, "Device occupancy after allocation", "16", "bold");
    if (const std::string caption = stranded_caption(occ_.stranded); !caption.empty()) {
      y_ += 20;
      text(svg_layout::margin, y_, caption, "12");
    }
    y_ += 14;
    legend();
    auto groups = grouped(occ_.counter_sets, [](const auto& s) { return place(s.node, s.driver, s.pool); });
    for (const auto& [heading, sets] : groups) {
      y_ += 30;
      text(svg_layout::margin, y_, heading, "14", "bold");
      y_ += 10;
      for (const auto* set : sets) counter_set_row(*set);
    }
    auto shared = grouped(occ_.shared_devices, [](const auto& d) { return place(d.node, d.driver, d.pool); });
    for (const auto& [heading, devices] : shared) {
      y_ += 30;
      text(svg_layout::margin, y_, "shared devices on " + heading, "14", "bold");
      y_ += 10;
      for (const auto* d : devices) shared_device_row(*d);
    }
    if (occ_.stranded.shapes_from != dra::sim::shape_source::none && !occ_.stranded.nodes.empty()) {
      y_ += 30;
      text(svg_layout::margin, y_, "stranded device capacity per node, in devices", "14", "bold");
      y_ += 10;
      for (const auto& n : occ_.stranded.nodes) stranded_row(n);
    }
    y_ += svg_layout::margin;
    const std::string w = std::to_string(layout_.width), h = std::to_string(y_);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
           w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
           "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n" + "<rect x=\"0\" y=\"0\" width=\"" + w +
           "\" height=\"" + h + "\" fill=\"#ffffff\"/>\n" + (hatched_ ? std::string(stranded_pattern) : "") + body_ +
           "</svg>\n";
  }

 private:
  void text(int x, int y, std::string_view content, std::string_view size, std::string_view weight = "normal",
            std::string_view anchor = "start", std::string_view fill = "#222222") {
    body_ += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" font-size=\"" + std::string(size) +
             "\"" + (weight == "normal" ? "" : " font-weight=\"" + std::string(weight) + "\"") +
             (anchor == "start" ? "" : " text-anchor=\"" + std::string(anchor) + "\"") + " fill=\"" +
             std::string(fill) + "\">" + xml_escape(content) + "</text>\n";
  }
  void rect(double x, int y, double width, int height, std::string_view fill, std::string_view title = {}) {
    body_ += "<rect x=\"" + number(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + number(width) + "\" height=\"" +
             std::to_string(height) + "\" fill=\"" + std::string(fill) + "\" stroke=\"#888888\" stroke-width=\"0.5\"" +
             (title.empty() ? "/>\n" : "><title>" + xml_escape(title) + "</title></rect>\n");
  }
  [[nodiscard]] std::string_view colour(std::string_view claim) const {
    auto it = keys_.index.find(claim);
    return it == keys_.index.end() ? std::string_view("#000000") : palette[it->second % palette.size()];
  }

  void legend() {
    int x = svg_layout::margin;
    y_ += 12;
    auto entry = [&](std::string_view key, std::string_view name, std::string_view fill) {
      const std::string label = std::string(key) + (key.empty() ? "" : "  ") + std::string(name);
      const int width = 22 + text_width(label) + 18;
      if (x + width > layout_.width - svg_layout::margin && x > svg_layout::margin) {
        x = svg_layout::margin;
        y_ += 22;
      }
      rect(x, y_, 16, 16, fill);
      text(x + 22, y_ + 12, label, "12");
      x += width;
    };
    for (std::size_t i = 0; i < keys_.claims.size(); ++i)
      entry(claim_keys::key_of(i), keys_.claims[i], palette[i % palette.size()]);
    entry("", "free", free_colour);
    if (occ_.stranded.stranded > 0) {
      hatched_ = true;
      entry("", "stranded: free, no pod shape can use it", stranded_fill);
    }
    y_ += 16;
  }

  // Bars of used/total, one segment per holder in its claim's colour, four to a line; with `stranded`, what is left of
  // each is hatched.
  int bars(const std::vector<const dra::sim::counter_occupancy*>& counters, int top, bool stranded = false) {
    int lines = 0;
    for (std::size_t i = 0; i < counters.size(); ++i) {
      const auto& c = *counters[i];
      const int column = static_cast<int>(i % svg_layout::bar_columns),
                line = static_cast<int>(i / svg_layout::bar_columns);
      lines = line + 1;
      const int x = layout_.bars_x + column * svg_layout::bar_column, y = top + line * svg_layout::bar_block;
      text(x, y + 11, c.name + " " + used_of(c), "11");
      rect(x, y + 15, svg_layout::bar_width, 9, free_colour);
      double offset = 0;
      for (const auto& h : c.holders) {
        if (h.amount <= 0 || c.total <= 0) continue;
        const double width = std::min(h.amount / c.total, 1.0 - offset / svg_layout::bar_width) * svg_layout::bar_width;
        if (width <= 0) break;
        rect(x + offset, y + 15, width, 9, colour(h.claim), h.claim + ": " + amount(h.amount));
        offset += width;
      }
      if (stranded && offset < svg_layout::bar_width)
        rect(x + offset, y + 15, svg_layout::bar_width - offset, 9, stranded_fill,
             c.name + ": " + amount(c.total - c.used) + " left, stranded");
    }
    return lines;
  }

  void counter_set_row(const dra::sim::counter_set_occupancy& set) {
    const split_counters parts = split(set.counters);
    const int top = y_ + 8;
    const int lines = bars(parts.others, top);
    const int height = std::max(svg_layout::cell + 4, lines * svg_layout::bar_block);
    const int cell_top = top + (height - svg_layout::cell) / 2;
    text(svg_layout::margin + 8, cell_top + svg_layout::cell / 2 + 4, set.name, "12");
    for (std::size_t i = 0; i < parts.cells.size(); ++i) {
      const auto& cell = *parts.cells[i];
      const std::string* holder = cell_holder(cell);
      const int x = layout_.cells_x + static_cast<int>(i) * (svg_layout::cell + svg_layout::cell_gap);
      rect(x, cell_top, svg_layout::cell, svg_layout::cell, holder ? colour(*holder) : free_colour,
           cell.name + (holder ? ": " + *holder : ": free"));
      if (holder)
        text(x + svg_layout::cell / 2, cell_top + svg_layout::cell / 2 + 4, keys_.key(*holder), "11", "bold", "middle");
      const auto n = slice_number(cell.name);
      text(x + svg_layout::cell / 2, cell_top + svg_layout::cell + 10, n ? std::to_string(*n) : cell.name, "8",
           "normal", "middle", "#777777");
    }
    y_ = top + height + 12;
  }

  void shared_device_row(const dra::sim::shared_device_occupancy& d) {
    const int top = y_ + 8;
    std::vector<const dra::sim::counter_occupancy*> capacity;
    for (const auto& c : d.capacity) capacity.push_back(&c);
    const auto left = stranded_.find(d.driver + "/" + d.pool + "/" + d.device);
    const int lines = bars(capacity, top, left != stranded_.end());
    if (capacity.empty())  // nothing to consume: one square per claim sharing the device
      for (std::size_t i = 0; i < d.claims.size(); ++i) {
        const int x = layout_.bars_x + static_cast<int>(i) * (svg_layout::cell + svg_layout::cell_gap);
        rect(x, top, svg_layout::cell, 22, colour(d.claims[i]), d.claims[i]);
        text(x + svg_layout::cell / 2, top + 15, keys_.key(d.claims[i]), "11", "bold", "middle");
      }
    const int height = std::max(svg_layout::bar_block, lines * svg_layout::bar_block);
    text(svg_layout::margin + 8, top + 12, d.device, "12");
    std::string sharers;
    for (const auto& claim : d.claims) sharers += (sharers.empty() ? "" : ", ") + keys_.key(claim);
    text(svg_layout::margin + 8, top + 25, sharers.empty() ? "not shared yet" : "shared by " + sharers, "9", "normal",
         "start", "#777777");
    y_ = top + height + 12;
  }

  // A node's devices some pod shape may take as one bar, a device's width each: in use, free, and stranded (hatched).
  void stranded_row(const dra::sim::node_stranded& n) {
    using dra::sim::device_amount;
    const int top = y_ + 8;
    const int x = layout_.cells_x, width = 2 * svg_layout::bar_width;
    text(svg_layout::margin + 8, top + 12, n.node, "12");
    if (!n.measured) {
      text(x, top + 12, std::to_string(n.devices) + " devices: not measured (they draw on counters)", "11", "normal",
           "start", "#777777");
      y_ = top + svg_layout::bar_block;
      return;
    }
    const double devices = static_cast<double>(n.devices), scale = devices > 0 ? width / devices : 0;
    rect(x, top + 3, width, 12, free_colour, "free: " + device_amount(n.free - n.stranded));
    const double in_use = std::max(0.0, devices - n.free);
    if (in_use > 0) rect(x, top + 3, in_use * scale, 12, in_use_colour, "in use: " + device_amount(in_use));
    if (n.stranded > 0) {
      hatched_ = true;
      rect(x + (devices - n.stranded) * scale, top + 3, n.stranded * scale, 12, stranded_fill,
           "stranded: " + device_amount(n.stranded) + " on " + std::to_string(n.stranded_list.size()));
    }
    text(x + width + 12, top + 13,
         std::to_string(n.devices) + (n.devices == 1 ? " device" : " devices") + ", free " + device_amount(n.free) +
             ", stranded " + device_amount(n.stranded) + ", fragmentation " + device_amount(n.fragmentation),
         "11");
    y_ = top + svg_layout::bar_block;
  }

  const dra::sim::occupancy& occ_;
  const claim_keys& keys_;
  svg_layout layout_;
  std::map<std::string, double, std::less<>> stranded_;  // stranded_shares of the occupancy
  bool hatched_ = false;                                  // the stranded pattern is used: it is defined
  std::string body_;
  int y_ = 0;
};

inline std::string to_svg(const dra::sim::occupancy& occ) {
  const claim_keys keys(occ);
  return svg_builder(occ, keys).build();
}

}  // namespace occupancy_detail

// Allocates with the policy, then prints the occupancy: --output json or svg as asked, otherwise
// text on a terminal and JSON when stdout is not one.
template <dra::alloc::allocation_policy Policy = dra::alloc::first_fit, dra::alloc::selector_engine Engine>
int run_occupancy_with(const Engine& engine, const dra::alloc::features& features, const invocation& call,
                       const dra::json::document& doc, std::ostream& out, std::ostream& err) {
  auto report = dra::sim::run_scenario(doc.scenario(), engine, features, Policy{}, machine_run_options(call));
  for (const auto& w : report.warnings) err << "dra: warning: " << w << "\n";
  if (const auto note = dra::sim::answer_note(report.placements); !note.empty()) err << "dra: note: " << note << "\n";
  const dra::sim::occupancy occ = dra::sim::compute_occupancy(doc.scenario(), report, engine);
  const output_format format =
      call.output_given ? call.output : (isatty(fileno(stdout)) == 0 ? output_format::json : output_format::text);
  if (format == output_format::json)
    occupancy_detail::print_json(occ, out);
  else if (format == output_format::svg)
    out << occupancy_detail::to_svg(occ);
  else
    occupancy_detail::print_text(occ, out);
  return 0;
}

}  // namespace dra_cli
