// Stranded device capacity (sim/analysis/stranded.hpp) as people and programs read it: amounts in devices to a
// thousandth, a sentence saying where the shapes came from, a table per node with the total, and a JSON object.
#pragma once

#include <dra/json/writer.hpp>
#include <dra/sim/analysis/stranded.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sim {

// An amount in devices to a thousandth (a milli-GPU, the share pods ask for), in its shortest form: "1.6", "0", "2".
[[nodiscard]] inline std::string device_amount(double value) {
  const double rounded = std::round(value * 1000) / 1000;
  std::array<char, 32> text{};
  const auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), rounded == 0 ? 0.0 : rounded);
  return ec == std::errc{} ? std::string(text.data(), end) : "0";
}

// What the figures are for, in one line; empty when nothing was measured.
[[nodiscard]] inline std::string stranded_heading(const stranded_report& r) {
  if (r.shapes_from == shape_source::none) return {};
  const std::string kept = "(" + std::to_string(r.shapes) + " kept of " + std::to_string(r.pods) +
                           (r.pods == 1 ? " pod)" : " pods)");
  return r.shapes_from == shape_source::pending
             ? "stranded device capacity, in devices, for the pending pods' shapes " + kept
             : "stranded device capacity, in devices, for the shapes of the pods using device claims, as no pending "
               "pod asks for a device " + kept;
}

// NODE, DEVICES, FREE, STRANDED ("0.3 on 1": the devices holding it), FRAGMENTATION per node, then the total over
// the measured nodes (none when no node is); a node whose devices draw on counters has dashes and says it is not
// measured. Empty when nothing was measured.
[[nodiscard]] inline std::vector<std::vector<std::string>> stranded_rows(const stranded_report& r) {
  if (r.shapes_from == shape_source::none) return {};
  auto stranded = [](double amount, std::size_t devices) {
    return devices == 0 ? device_amount(amount) : device_amount(amount) + " on " + std::to_string(devices);
  };
  std::vector<std::vector<std::string>> rows{{"NODE", "DEVICES", "FREE", "STRANDED", "FRAGMENTATION"}};
  for (const auto& n : r.nodes) {
    if (!n.measured) {
      rows.push_back({n.node, std::to_string(n.devices), "-", "-", "-", "not measured: its devices draw on counters"});
      continue;
    }
    rows.push_back({n.node, std::to_string(n.devices), device_amount(n.free), stranded(n.stranded, n.stranded_list.size()),
                    device_amount(n.fragmentation)});
  }
  if (r.not_measured == r.nodes.size() && !r.nodes.empty()) return rows;
  rows.push_back({"total", std::to_string(r.devices), device_amount(r.free), stranded(r.stranded, r.stranded_devices),
                  device_amount(r.fragmentation)});
  if (r.not_measured > 0)
    rows.back().push_back("over the measured nodes (" + std::to_string(r.not_measured) + " not)");
  return rows;
}

// The heading and the table, columns padded to their widest cell, each line after `indent`; empty when nothing was
// measured.
[[nodiscard]] inline std::string stranded_text(const stranded_report& r, std::string_view indent = {}) {
  const auto rows = stranded_rows(r);
  if (rows.empty()) return {};
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out = std::string(indent) + stranded_heading(r) + "\n";
  for (const auto& row : rows) {
    std::string line(indent);
    for (std::size_t i = 0; i < row.size(); ++i)
      line += row[i] + (i + 1 < row.size() ? std::string(widths[i] - row[i].size() + 2, ' ') : "");
    out += line + "\n";
  }
  return out;
}

// {"shapes": {"from": "pending"|"typical"|"none", "pods", "kept"}, "devices", "free", "stranded", "strandedDevices",
// "fragmentation", "notMeasured", "nodes": [{"node", "devices", "measured", "free", "stranded", "strandedDevices",
// "fragmentation", "strandedOn": [{"driver", "pool", "device", "free"}]}]} as the value of the key the caller wrote;
// amounts in devices, to a thousandth. With no shapes, only "shapes" and an empty "nodes"; a node not measured has
// no amounts, and when no node is measured the total amounts are null.
inline void write_stranded(json::writer& w, const stranded_report& r) {
  auto count = [](std::size_t n) { return static_cast<std::int64_t>(n); };
  w.begin_object().key("shapes").begin_object().field("from", to_string(r.shapes_from));
  w.field("pods", count(r.pods)).field("kept", count(r.shapes)).end_object();
  if (r.shapes_from != shape_source::none) {
    // Over no measured node the totals are not 0 but unknown.
    const bool known = r.not_measured == 0 || r.not_measured < r.nodes.size();
    auto amount = [&](std::string_view key, double value) {
      w.key(key).raw(known ? device_amount(value) : "null");
    };
    w.field("devices", count(r.devices));
    amount("free", r.free);
    amount("stranded", r.stranded);
    w.key("strandedDevices").raw(known ? std::to_string(r.stranded_devices) : "null");
    amount("fragmentation", r.fragmentation);
    w.field("notMeasured", count(r.not_measured));
  }
  w.key("nodes").begin_array();
  for (const auto& n : r.nodes) {
    w.begin_object().field("node", n.node).field("devices", count(n.devices)).field("measured", n.measured);
    if (n.measured) {
      w.key("free").raw(device_amount(n.free)).key("stranded").raw(device_amount(n.stranded));
      w.field("strandedDevices", count(n.stranded_list.size())).key("fragmentation").raw(device_amount(n.fragmentation));
      w.key("strandedOn").begin_array();
      for (const auto& d : n.stranded_list)
        w.begin_object()
            .field("driver", d.driver)
            .field("pool", d.pool)
            .field("device", d.device)
            .key("free")
            .raw(device_amount(d.free))
            .end_object();
      w.end_array();
    }
    w.end_object();
  }
  w.end_array().end_object();
}

}  // namespace dra::sim
