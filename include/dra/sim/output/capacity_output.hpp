// `dra capacity`'s machine-readable outputs: the count of copies and the availability table as JSON, and the
// availability table as Prometheus text exposition (one gauge per figure, for a textfile collector or a push).
#pragma once

#include <dra/json/emit.hpp>
#include <dra/json/writer.hpp>
#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/output/stranded_output.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sim {

// {"pod", "fits", "nodes": [{"node", "fits"}], "evictions": [{"pod", "node": null, "preemptedBy"}], "next":
// {"unschedulable", "explanation", "retry", "results"}}; `evictions` only when the run evicted pods (for the
// scenario's pods, then for the copies; the scenario `s` names them), `next` is absent when --max stopped the count,
// its `retry` only when it preempted, its `results` are the next copy's claims as `dra allocate` writes them.
[[nodiscard]] inline std::string to_json(const model::scenario& s, const capacity_report& r) {
  json::writer w(2);
  w.begin_object().field("pod", r.pod).field("fits", static_cast<std::int64_t>(r.fits)).key("nodes").begin_array();
  for (const auto& n : r.nodes)
    w.begin_object().field("node", n.node).field("fits", static_cast<std::int64_t>(n.fits)).end_object();
  w.end_array();
  if (!r.run.evictions.empty()) {
    w.key("evictions").begin_array();
    for (const auto& e : r.run.evictions) write_eviction(w, s, r.run, e);
    w.end_array();
  }
  if (r.next) {
    w.key("next").begin_object();
    write_pod_refusal(w, *r.next);
    if (r.next->preemption)
      w.key("retry").begin_object().field("unschedulable", r.next->preemption->retry_unschedulable).end_object();
    const std::span<const model::claim_outcome> outcomes(r.run.outcomes);
    json::write_results(w, r.next_claims.empty() ? outcomes.subspan(0, 0)
                                                 : outcomes.subspan(r.next_claims.front(), r.next_claims.size()));
    w.end_object();
  }
  w.end_object();
  return std::move(w).str() + "\n";
}

// {"classes": [{"class", "devices", "allocated", "available", "pools": […], "partitions": [{"attribute", "value",
// "devices", "available"}]}], "shared": [{"node", "driver", "pool", "device", "capacity": {NAME: {"total",
// "consumed", "available"}}}], "nodes": [{"node", "allocatable": {…}, "requested": {…}}], "stranded": {…}},
// quantities canonical; "stranded" as write_stranded writes it.
[[nodiscard]] inline std::string to_json(const availability_report& r) {
  json::writer w(2);
  auto counts = [&w](std::size_t devices, std::size_t allocated, std::size_t available) {
    w.field("devices", static_cast<std::int64_t>(devices))
        .field("allocated", static_cast<std::int64_t>(allocated))
        .field("available", static_cast<std::int64_t>(available));
  };
  auto quantities = [&w](std::string_view key, const model::resource_list& list) {
    w.key(key).begin_object();
    for (const auto& [name, amount] : list) w.field(name, amount.to_string());
    w.end_object();
  };
  w.begin_object().key("classes").begin_array();
  for (const auto& c : r.classes) {
    w.begin_object().field("class", c.device_class);
    counts(c.devices, c.allocated, c.available);
    w.key("pools").begin_array();
    for (const auto& p : c.pools) {
      w.begin_object().field("node", p.node).field("driver", p.driver).field("pool", p.pool);
      counts(p.devices, p.allocated, p.available);
      w.end_object();
    }
    w.end_array().key("partitions").begin_array();
    for (const auto& p : c.partitions)
      w.begin_object()
          .field("attribute", *r.attribute)
          .field("value", p.value)
          .field("devices", static_cast<std::int64_t>(p.devices))
          .field("available", static_cast<std::int64_t>(p.available))
          .end_object();
    w.end_array().end_object();
  }
  w.end_array().key("shared").begin_array();
  for (const auto& d : r.shared) {
    w.begin_object().field("node", d.node).field("driver", d.driver).field("pool", d.pool).field("device", d.device);
    w.key("capacity").begin_object();
    for (const auto& c : d.capacity)
      w.key(c.name)
          .begin_object()
          .field("total", c.total.to_string())
          .field("consumed", c.consumed.to_string())
          .field("available", c.available.to_string())
          .end_object();
    w.end_object().end_object();
  }
  w.end_array().key("nodes").begin_array();
  for (const auto& n : r.nodes) {
    w.begin_object().field("node", n.node);
    quantities("allocatable", n.allocatable);
    quantities("requested", n.requested);
    w.end_object();
  }
  w.end_array().key("stranded");
  write_stranded(w, r.stranded);
  w.end_object();
  return std::move(w).str() + "\n";
}

namespace detail {

// Prometheus text exposition, one metric family at a time.
class metrics_writer {
 public:
  void family(std::string_view name, std::string_view help) {
    name_ = name;
    out_.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out_.append("# TYPE ").append(name).append(" gauge\n");
  }
  void sample(std::initializer_list<std::pair<std::string_view, std::string_view>> labels, double value) {
    out_.append(name_);
    if (labels.size() == 0) {
      value_of(value);
      return;
    }
    out_.append("{");
    bool first = true;
    for (const auto& [label, text] : labels) {
      out_.append(first ? "" : ",").append(label).append("=\"");
      for (char c : text) {
        if (c == '\\' || c == '"') out_ += '\\';
        if (c == '\n') {
          out_ += "\\n";
          continue;
        }
        out_ += c;
      }
      out_ += '"';
      first = false;
    }
    out_.append("}");
    value_of(value);
  }
  [[nodiscard]] std::string str() && { return std::move(out_); }

 private:
  void value_of(double value) {
    char number[32];
    const auto end = std::to_chars(number, number + sizeof number, value).ptr;
    out_.append(" ").append(number, end).append("\n");
  }

  std::string out_;
  std::string name_;
};

// The stranded device capacity's gauges (to_metrics below); nothing when no pod shape was found.
inline void write_stranded_metrics(metrics_writer& m, const stranded_report& r) {
  if (r.shapes_from == shape_source::none) return;
  auto amount = [](double value) { return std::round(value * 1000) / 1000 + 0.0; };  // to a thousandth, as the text
  struct figure {
    std::string_view node_name, total_name, help;
    double (*node)(const node_stranded&);
    double (*total)(const stranded_report&);
  };
  const figure figures[] = {
      {"dra_node_device_capacity_free", "dra_device_capacity_free",
       "Free capacity of the devices some pod shape may take, in devices (a device's share left, 1 when idle).",
       [](const node_stranded& n) { return n.free; }, [](const stranded_report& t) { return t.free; }},
      {"dra_node_device_capacity_stranded", "dra_device_capacity_stranded",
       "Of that free capacity, what no kept pod shape can use, in devices.",
       [](const node_stranded& n) { return n.stranded; }, [](const stranded_report& t) { return t.stranded; }},
      {"dra_node_devices_stranded", "dra_devices_stranded", "Devices holding stranded capacity.",
       [](const node_stranded& n) { return static_cast<double>(n.stranded_list.size()); },
       [](const stranded_report& t) { return static_cast<double>(t.stranded_devices); }},
      {"dra_node_device_fragmentation", "dra_device_fragmentation",
       "Free device capacity each pod shape cannot use, weighted by the shape's share of the pods (FGD), in devices.",
       [](const node_stranded& n) { return n.fragmentation; },
       [](const stranded_report& t) { return t.fragmentation; }}};
  for (const auto& f : figures) {
    if (r.not_measured == r.nodes.size()) break;  // no node measured
    m.family(f.node_name, f.help);
    for (const auto& n : r.nodes)
      if (n.measured) m.sample({{"node", n.node}}, amount(f.node(n)));
  }
  const bool known = r.not_measured == 0 || r.not_measured < r.nodes.size();  // else no total to give
  for (const auto& f : figures) {
    if (!known) break;
    m.family(f.total_name, std::string(f.help.substr(0, f.help.size() - 1)) + ", over the measured nodes.");
    m.sample({}, amount(f.total(r)));
  }
  m.family("dra_stranded_pod_shapes", "The pod shapes stranded capacity is measured for, and where they came from.");
  m.sample({{"source", to_string(r.shapes_from)}}, static_cast<double>(r.shapes));
  m.family("dra_stranded_nodes_not_measured", "Nodes whose devices draw on counters, where stranding is not measured.");
  m.sample({}, static_cast<double>(r.not_measured));
}

}  // namespace detail

// The availability table as Prometheus text exposition: dra_class_devices{,_allocated,_available} per class and pool
// (labels class, node, driver, pool), dra_partition_devices{,_available} (class, attribute, value),
// dra_shared_capacity{,_consumed,_available} (node, driver, pool, device, capacity), dra_node_allocatable and
// dra_node_requested (node, resource; cpu in cores, memory in bytes); when pod shapes were found, the stranded device
// capacity in devices: dra_node_device_capacity_{free,stranded}, dra_node_devices_stranded and
// dra_node_device_fragmentation (node; a node not measured has none), the same over the measured nodes without
// labels (dra_device_capacity_free, …), dra_stranded_pod_shapes (source) and dra_stranded_nodes_not_measured.
[[nodiscard]] inline std::string to_metrics(const availability_report& r) {
  detail::metrics_writer m;
  using figure = std::size_t pool_availability::*;
  const std::pair<std::string_view, std::pair<figure, std::string_view>> class_figures[] = {
      {"dra_class_devices", {&pool_availability::devices, "Devices the DeviceClass selects."}},
      {"dra_class_devices_allocated", {&pool_availability::allocated, "Of those, devices allocated claims hold."}},
      {"dra_class_devices_available",
       {&pool_availability::available, "Devices a new claim for one device of the class could get now."}}};
  for (const auto& [name, what] : class_figures) {
    m.family(name, what.second);
    for (const auto& c : r.classes)
      for (const auto& p : c.pools)
        m.sample({{"class", c.device_class}, {"node", p.node}, {"driver", p.driver}, {"pool", p.pool}},
                 static_cast<double>(p.*what.first));
  }
  if (r.attribute) {
    using partition_figure = std::size_t partition_availability::*;
    const std::pair<std::string_view, std::pair<partition_figure, std::string_view>> partition_figures[] = {
        {"dra_partition_devices", {&partition_availability::devices, "Devices of the class with the attribute value."}},
        {"dra_partition_devices_available",
         {&partition_availability::available, "How many of them first_fit could still hand out one after another."}}};
    for (const auto& [name, what] : partition_figures) {
      m.family(name, what.second);
      for (const auto& c : r.classes)
        for (const auto& p : c.partitions)
          m.sample({{"class", c.device_class}, {"attribute", *r.attribute}, {"value", p.value}},
                   static_cast<double>(p.*what.first));
    }
  }
  using capacity_figure = quantity capacity_availability::*;
  const std::pair<std::string_view, std::pair<capacity_figure, std::string_view>> shared_figures[] = {
      {"dra_shared_capacity", {&capacity_availability::total, "A shared device's consumable capacity."}},
      {"dra_shared_capacity_consumed", {&capacity_availability::consumed, "What allocated claims consume of it."}},
      {"dra_shared_capacity_available", {&capacity_availability::available, "What is left of it."}}};
  for (const auto& [name, what] : shared_figures) {
    if (r.shared.empty()) break;
    m.family(name, what.second);
    for (const auto& d : r.shared)
      for (const auto& c : d.capacity)
        m.sample({{"node", d.node}, {"driver", d.driver}, {"pool", d.pool}, {"device", d.device}, {"capacity", c.name}},
                 (c.*what.first).approximate_double());
  }
  if (!r.nodes.empty()) {
    m.family("dra_node_allocatable", "A node's allocatable resources (cpu in cores).");
    for (const auto& n : r.nodes)
      for (const auto& [name, amount] : n.allocatable)
        m.sample({{"node", n.node}, {"resource", name}}, amount.approximate_double());
    m.family("dra_node_requested", "What the pods bound to the node request, and how many pods.");
    for (const auto& n : r.nodes)
      for (const auto& [name, amount] : n.requested)
        m.sample({{"node", n.node}, {"resource", name}}, amount.approximate_double());
  }
  detail::write_stranded_metrics(m, r.stranded);
  return std::move(m).str();
}

}  // namespace dra::sim
