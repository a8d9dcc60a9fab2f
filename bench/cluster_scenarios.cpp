// Writes the cluster-scale scenarios as scenario files (JSON Lists) for
// `dra allocate`: 500 nodes x 8 GPUs, 64 MIG nodes, and the 100-node scheduler_perf
// "partitionable devices" and "consumable capacity" shapes; and the ingest benchmark's 100 MB
// of slices (bench/slice_corpus.hpp) for `dra summary`. Plain C++20, no dra headers,
// deterministic output. Usage: cluster_scenarios OUTDIR
#include "slice_corpus.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// --- A minimal JSON writer: values are built as strings, objects keep the order given. ---

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          std::array<char, 8> escaped{};
          std::snprintf(escaped.data(), escaped.size(), "\\u%04x", static_cast<unsigned>(c));
          out += escaped.data();
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

class object {
 public:
  object& raw(std::string_view key, std::string_view json) {
    text_ += text_.size() > 1 ? "," : "";
    text_ += quoted(key) + ":";
    text_ += json;
    return *this;
  }
  object& str(std::string_view key, std::string_view value) { return raw(key, quoted(value)); }
  object& num(std::string_view key, long long value) { return raw(key, std::to_string(value)); }
  object& boolean(std::string_view key, bool value) { return raw(key, value ? "true" : "false"); }
  object& obj(std::string_view key, const object& value) { return raw(key, value.json()); }
  [[nodiscard]] std::string json() const { return text_ + "}"; }

 private:
  std::string text_ = "{";
};

std::string array(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]";
}

std::string n(int value) { return std::to_string(value); }

// --- Kubernetes objects, in the shape the scenario format reads. ---

object metadata(std::string_view name, std::string_view namespace_ = {}) {
  object meta;
  meta.str("name", name);
  if (!namespace_.empty()) meta.str("namespace", namespace_);
  return meta;
}

std::string node(const std::string& name, const std::vector<std::pair<std::string, std::string>>& extra_labels = {}) {
  object labels;
  labels.str("kubernetes.io/hostname", name);
  for (const auto& [key, value] : extra_labels) labels.str(key, value);
  return object{}
      .str("apiVersion", "v1")
      .str("kind", "Node")
      .obj("metadata", metadata(name).obj("labels", labels))
      .json();
}

std::string cel_selectors(std::string_view expression) {
  return array({object{}.obj("cel", object{}.str("expression", expression)).json()});
}

std::string device_class(std::string_view name, std::string_view expression) {
  return object{}
      .str("apiVersion", "resource.k8s.io/v1")
      .str("kind", "DeviceClass")
      .obj("metadata", metadata(name))
      .obj("spec", object{}.raw("selectors", cel_selectors(expression)))
      .json();
}

// One request "exactly": class, optional CEL selector, count (omitted when 1), optional capacity ask.
object exact_request(std::string_view class_name, std::string_view selector = {}, int count = 1,
                     std::string_view memory_request = {}) {
  object exactly;
  exactly.str("deviceClassName", class_name);
  if (!selector.empty()) exactly.raw("selectors", cel_selectors(selector));
  if (count != 1) exactly.num("count", count);
  if (!memory_request.empty())
    exactly.obj("capacity", object{}.obj("requests", object{}.str("memory", memory_request)));
  return exactly;
}

std::string request(std::string_view name, const object& exactly) {
  return object{}.str("name", name).obj("exactly", exactly).json();
}

object claim_spec(const std::vector<std::string>& requests, const std::vector<std::string>& constraints = {}) {
  object devices;
  devices.raw("requests", array(requests));
  if (!constraints.empty()) devices.raw("constraints", array(constraints));
  return object{}.obj("devices", devices);
}

std::string claim_template(std::string_view namespace_, std::string_view name, const object& spec) {
  return object{}
      .str("apiVersion", "resource.k8s.io/v1")
      .str("kind", "ResourceClaimTemplate")
      .obj("metadata", metadata(name, namespace_))
      .obj("spec", object{}.obj("spec", spec))
      .json();
}

std::string claim(std::string_view namespace_, std::string_view name, const object& spec) {
  return object{}
      .str("apiVersion", "resource.k8s.io/v1")
      .str("kind", "ResourceClaim")
      .obj("metadata", metadata(name, namespace_))
      .obj("spec", spec)
      .json();
}

// A pod with one resourceClaims entry, naming a claim or a template.
std::string pod(std::string_view namespace_, std::string_view name, std::string_view entry, std::string_view field,
                std::string_view target) {
  return object{}
      .str("apiVersion", "v1")
      .str("kind", "Pod")
      .obj("metadata", metadata(name, namespace_))
      .obj("spec", object{}.raw("resourceClaims", array({object{}.str("name", entry).str(field, target).json()})))
      .json();
}

std::string pod_with_template(std::string_view namespace_, std::string_view name, std::string_view entry,
                              std::string_view template_name) {
  return pod(namespace_, name, entry, "resourceClaimTemplateName", template_name);
}

// --- The scheduling fields real nodes and pods carry (docs/scheduling.md), for the `-nodes` variants. ---

// A node as kubectl shows one: zone and instance-type labels, a taint that keeps pods without a GPU toleration
// away (`gpu`), and allocatable cpu, memory and pods.
std::string scheduling_node(const std::string& name, std::string_view zone, bool gpu_taint,
                            const std::vector<std::pair<std::string, std::string>>& extra_labels = {}) {
  object labels;
  labels.str("kubernetes.io/hostname", name)
      .str("kubernetes.io/os", "linux")
      .str("node.kubernetes.io/instance-type", "p5.48xlarge")
      .str("topology.kubernetes.io/zone", zone);
  for (const auto& [key, value] : extra_labels) labels.str(key, value);
  object spec;
  if (gpu_taint)
    spec.raw("taints", array({object{}.str("key", "nvidia.com/gpu").str("value", "present").str("effect", "NoSchedule").json()}));
  return object{}
      .str("apiVersion", "v1")
      .str("kind", "Node")
      .obj("metadata", metadata(name).obj("labels", labels))
      .obj("spec", spec)
      .obj("status", object{}.obj("allocatable", object{}.str("cpu", "191450m").str("memory", "2000Gi").str("pods", "110")))
      .json();
}

// A pod's spec fields for the scheduler: a container's requests, a GPU toleration, a node selector.
object scheduled_pod_spec(std::string_view cpu, std::string_view memory, std::string_view zone) {
  object selector;
  selector.str("kubernetes.io/os", "linux");
  if (!zone.empty()) selector.str("topology.kubernetes.io/zone", zone);
  object spec;
  spec.obj("nodeSelector", selector);
  spec.raw("tolerations", array({object{}.str("key", "nvidia.com/gpu").str("operator", "Exists").str("effect", "NoSchedule").json()}));
  spec.raw("containers", array({object{}
                                    .str("name", "main")
                                    .str("image", "registry.example.com/trainer:1.0")
                                    .obj("resources", object{}.obj("requests", object{}.str("cpu", cpu).str("memory", memory)))
                                    .json()}));
  return spec;
}

// A pending pod with one claim from a template and the scheduling fields above.
std::string scheduled_pod_with_template(std::string_view name, std::string_view template_name) {
  object spec = scheduled_pod_spec("4", "16Gi", "");
  spec.raw("resourceClaims", array({object{}.str("name", "gpu").str("resourceClaimTemplateName", template_name).json()}));
  return object{}.str("apiVersion", "v1").str("kind", "Pod").obj("metadata", metadata(name, "default")).obj("spec", spec).json();
}

object pool(std::string_view name, int slices) {
  return object{}.str("name", name).num("generation", 1).num("resourceSliceCount", slices);
}

// A slice that the node selector `node-with-dra In ["true"]` scopes, as scheduler_perf's network-wide slices.
object slice_spec_for_dra_nodes(std::string_view driver, std::string_view pool_name, int slices) {
  const std::string term = object{}
                               .raw("matchExpressions", array({object{}
                                                                   .str("key", "node-with-dra")
                                                                   .str("operator", "In")
                                                                   .raw("values", array({quoted("true")}))
                                                                   .json()}))
                               .json();
  return object{}
      .str("driver", driver)
      .obj("pool", pool(pool_name, slices))
      .obj("nodeSelector", object{}.raw("nodeSelectorTerms", array({term})));
}

object slice_spec_on_node(std::string_view driver, std::string_view node_name, int slices) {
  return object{}.str("driver", driver).obj("pool", pool(node_name, slices)).str("nodeName", node_name);
}

std::string resource_slice(std::string_view name, const object& spec) {
  return object{}
      .str("apiVersion", "resource.k8s.io/v1")
      .str("kind", "ResourceSlice")
      .obj("metadata", metadata(name))
      .obj("spec", spec)
      .json();
}

std::string value(std::string_view quantity) { return object{}.str("value", quantity).json(); }
std::string string_attribute(std::string_view s) { return object{}.str("string", s).json(); }
std::string int_attribute(long long i) { return object{}.num("int", i).json(); }
std::string bool_attribute(bool b) { return object{}.boolean("bool", b).json(); }
std::string version_attribute(std::string_view v) { return object{}.str("version", v).json(); }

std::string counters(const std::vector<std::pair<std::string, std::string>>& values) {
  object out;
  for (const auto& [name, quantity] : values) out.raw(name, value(quantity));
  return out.json();
}

std::string counter_set(std::string_view name, const std::vector<std::pair<std::string, std::string>>& values) {
  return object{}.str("name", name).raw("counters", counters(values)).json();
}

std::string consumes(std::string_view set, const std::vector<std::pair<std::string, std::string>>& values) {
  return array({object{}.str("counterSet", set).raw("counters", counters(values)).json()});
}

// --- The output file: one Kubernetes List per scenario. ---

class scenario_file {
 public:
  void add(std::string item) { items_.push_back(std::move(item)); }
  [[nodiscard]] bool write(const std::filesystem::path& path) const {
    std::ofstream out(path, std::ios::binary);
    out << "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n";
    for (std::size_t i = 0; i < items_.size(); ++i) out << items_[i] << (i + 1 < items_.size() ? ",\n" : "\n");
    out << "]}\n";
    return static_cast<bool>(out);
  }

 private:
  std::vector<std::string> items_;
};

// (a) 500 nodes, each with a node-local pool of 8 identical GPUs; 4,000 pods, each with one claim
// (from a template) for one GPU. Every GPU is taken, every claim allocated.
// With `node_fields` (gpus-500x8-nodes), the nodes carry labels, a GPU taint and allocatable, and the pods requests,
// a node selector and the toleration, as a real cluster's do: the same placements, through the node filters.
// gpus-5000x8 is the same at ten times the size (5,000 nodes, 40,000 pods): a pod's cost must not grow with it.
scenario_file gpus_nx8(int nodes, bool node_fields) {
  constexpr int gpus = 8;
  const int pods = nodes * gpus;
  constexpr std::string_view driver = "gpu.example.com";
  scenario_file s;
  s.add(device_class(driver, "device.driver == 'gpu.example.com'"));
  s.add(claim_template("default", "single-gpu", claim_spec({request("gpu", exact_request(driver))})));
  for (int i = 0; i < nodes; ++i)
    s.add(node_fields ? scheduling_node("node-" + n(i), i % 2 ? "zone-b" : "zone-a", true) : node("node-" + n(i)));
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "node-" + n(i);
    std::vector<std::string> devices;
    for (int g = 0; g < gpus; ++g) {
      object attributes;
      attributes.raw("type", string_attribute("gpu"))
          .raw("productName", string_attribute("NVIDIA H100 80GB HBM3"))
          .raw("index", int_attribute(g))
          .raw("uuid", string_attribute("GPU-" + n(i) + "-" + n(g)));
      devices.push_back(object{}
                            .str("name", "gpu-" + n(g))
                            .obj("attributes", attributes)
                            .raw("capacity", object{}.raw("memory", value("80Gi")).json())
                            .json());
    }
    s.add(resource_slice(name + "-" + std::string(driver),
                         slice_spec_on_node(driver, name, 1).raw("devices", array(devices))));
  }
  for (int p = 0; p < pods; ++p)
    s.add(node_fields ? scheduled_pod_with_template("pod-" + n(p), "single-gpu")
                      : pod_with_template("default", "pod-" + n(p), "gpu", "single-gpu"));
  return s;
}

// A MIG profile of an A100 40GB (the same figures as examples/scenarios/dgx-a100.json).
struct mig_profile {
  std::string_view name;
  std::vector<int> starts;
  int slices;
  std::string_view memory;
  int multiprocessors, copy_engines, decoders, jpeg_engines, ofa_engines;
};

const std::vector<mig_profile>& a100_profiles() {
  static const std::vector<mig_profile> profiles = {{"1g.5gb", {0, 1, 2, 3, 4, 5, 6}, 1, "4864Mi", 14, 1, 0, 0, 0},
                                                    {"2g.10gb", {0, 2, 4}, 2, "9856Mi", 28, 2, 1, 0, 0},
                                                    {"3g.20gb", {0, 4}, 4, "19968Mi", 42, 3, 2, 0, 0},
                                                    {"4g.20gb", {0}, 4, "19968Mi", 56, 4, 2, 0, 0},
                                                    {"7g.40gb", {0}, 8, "40192Mi", 98, 7, 5, 1, 1}};
  return profiles;
}

std::vector<std::pair<std::string, std::string>> whole_a100_counters() {
  std::vector<std::pair<std::string, std::string>> out = {
      {"copy-engines", "7"}, {"decoders", "5"},         {"encoders", "0"},   {"jpeg-engines", "1"},
      {"memory", "40Gi"},    {"multiprocessors", "98"}, {"ofa-engines", "1"}};
  for (int m = 0; m < 8; ++m) out.emplace_back("memory-slice-" + n(m), "1");
  return out;
}

// GPU `g` of node `node_index`, published whole and as every MIG placement, all on `set`.
void add_a100_devices(int node_index, int g, const std::string& set, std::vector<std::string>& out) {
  const std::string uuid = "GPU-" + n(node_index) + "-" + n(g);
  auto common_attributes = [&](std::string_view type) {
    object attributes;
    attributes.raw("productName", string_attribute("NVIDIA A100-SXM4-40GB"))
        .raw("brand", string_attribute("Nvidia"))
        .raw("architecture", string_attribute("Ampere"))
        .raw("cudaComputeCapability", version_attribute("8.0.0"))
        .raw("driverVersion", version_attribute("550.54.15"))
        .raw("cudaDriverVersion", version_attribute("12.4.0"))
        .raw("type", string_attribute(type));
    return attributes;
  };
  out.push_back(object{}
                    .str("name", "gpu-" + n(g))
                    .obj("attributes",
                         common_attributes("gpu").raw("uuid", string_attribute(uuid)).raw("index", int_attribute(g)))
                    .raw("capacity", object{}.raw("memory", value("40Gi")).json())
                    .raw("consumesCounters", consumes(set, whole_a100_counters()))
                    .json());
  for (const auto& p : a100_profiles()) {
    for (const int start : p.starts) {
      std::string profile_dashed(p.name);
      profile_dashed[profile_dashed.find('.')] = '-';
      std::vector<std::pair<std::string, std::string>> uses = {{"copy-engines", n(p.copy_engines)},
                                                               {"decoders", n(p.decoders)},
                                                               {"memory", std::string(p.memory)},
                                                               {"multiprocessors", n(p.multiprocessors)}};
      if (p.jpeg_engines) uses.emplace_back("jpeg-engines", n(p.jpeg_engines));
      if (p.ofa_engines) uses.emplace_back("ofa-engines", n(p.ofa_engines));
      for (int m = start; m < start + p.slices; ++m) uses.emplace_back("memory-slice-" + n(m), "1");
      out.push_back(
          object{}
              .str("name", "gpu-" + n(g) + "-mig-" + profile_dashed + "-" + n(start))
              .obj("attributes", common_attributes("mig")
                                     .raw("profile", string_attribute(p.name))
                                     .raw("uuid", string_attribute("MIG-" + n(node_index) + "-" + n(g) + "-" +
                                                                   std::string(p.name) + "-" + n(start)))
                                     .raw("parentUUID", string_attribute(uuid))
                                     .raw("index", int_attribute(g))
                                     .raw("placementStart", int_attribute(start))
                                     .raw("placementSize", int_attribute(p.slices)))
              .raw("capacity",
                   object{}.raw("memory", value(p.memory)).raw("multiprocessors", value(n(p.multiprocessors))).json())
              .raw("consumesCounters", consumes(set, uses))
              .json());
    }
  }
}

// (b) 64 DGX A100 nodes as dra's default scenario models them (KEP-4815): per node a pool of two
// slices, one with a counter set per GPU, one with each GPU published whole plus every MIG
// placement (1g.5gb x7, 2g.10gb x3, 3g.20gb x2, 4g.20gb, 7g.40gb), all drawing on its GPU's set;
// the 120 devices are split over two slices, as the API server allows at most 64 devices per
// slice when they consume counters: a pool of three slices per node.
// 600 pods, one claim each from a template, in a fixed cycle of whole GPUs and MIG partitions
// that asks for more than the 512 GPUs hold: the last whole-GPU pods find no room.
// With `node_fields` (mig-64-nodes): nodes and pods with scheduling fields, as gpus_nx8 has them.
// mig-1000 is the same at 1,000 nodes and 9,000 pods (7,200 whole GPUs, 1,800 partitions on 8,000 GPUs).
scenario_file mig_n(int nodes, int pods, bool node_fields) {
  constexpr int gpus = 8;
  constexpr std::string_view driver = "gpu.nvidia.com";
  scenario_file s;
  s.add(device_class("gpu.nvidia.com",
                     "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"));
  s.add(device_class("mig.nvidia.com",
                     "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'"));
  s.add(claim_template("default", "whole-gpu", claim_spec({request("gpu", exact_request("gpu.nvidia.com"))})));
  for (const auto& profile : a100_profiles()) {
    const std::string selector = "device.attributes['gpu.nvidia.com'].profile == '" + std::string(profile.name) + "'";
    s.add(claim_template("default", "mig-" + std::string(profile.name.substr(0, 2)),
                         claim_spec({request("mig", exact_request("mig.nvidia.com", selector))})));
  }
  for (int i = 0; i < nodes; ++i)
    s.add(node_fields ? scheduling_node("dgx-a100-" + n(i), i % 2 ? "zone-b" : "zone-a", true,
                                        {{"nvidia.com/gpu.product", "A100-SXM4-40GB"}})
                      : node("dgx-a100-" + n(i), {{"nvidia.com/gpu.product", "A100-SXM4-40GB"}}));
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "dgx-a100-" + n(i);
    std::vector<std::string> sets;
    std::array<std::vector<std::string>, 2> devices;  // GPUs 0-3 and 4-7: 60 devices per slice
    for (int g = 0; g < gpus; ++g) {
      std::vector<std::string>& slice_devices = devices[static_cast<std::size_t>(g / (gpus / 2))];
      const std::string set = "gpu-" + n(g) + "-counter-set";
      sets.push_back(counter_set(set, whole_a100_counters()));
      add_a100_devices(i, g, set, slice_devices);
    }
    s.add(resource_slice(name + "-gpu.nvidia.com-counters",
                         slice_spec_on_node(driver, name, 3).raw("sharedCounters", array(sets))));
    for (std::size_t half = 0; half < devices.size(); ++half)
      s.add(resource_slice(name + "-gpu.nvidia.com-devices-" + std::to_string(half),
                           slice_spec_on_node(driver, name, 3).raw("devices", array(devices[half]))));
  }
  // Four whole GPUs to one MIG partition (3g, 1g, 2g, 4g in turn): 480 whole GPUs and 120
  // partitions ask for more than the 512 GPUs hold, so the queue ends with 12 whole-GPU pods
  // that fit nowhere (each tried on every node).
  constexpr std::array<std::string_view, 4> partitions = {"mig-3g", "mig-1g", "mig-2g", "mig-4g"};
  auto kind = [&](int p) {
    const int in_cycle = p % 20;
    return in_cycle % 5 == 4 ? partitions[static_cast<std::size_t>(in_cycle / 5)] : std::string_view("whole-gpu");
  };
  for (int p = 0; p < pods; ++p)
    s.add(node_fields ? scheduled_pod_with_template("pod-" + n(p), kind(p))
                      : pod_with_template("default", "pod-" + n(p), "gpu", kind(p)));
  return s;
}

// (g) A 5,000-node cluster as kubectl shows it, without DRA: 40,000 bound, running pods with cpu and memory requests
// (8 a node), then 1,000 pending pods with a zone node selector and the GPU toleration (half the nodes are tainted),
// each asking 4 cpu: the node half alone, at the scale Kubernetes supports.
scenario_file nodes_5000() {
  constexpr int nodes = 5000, bound_per_node = 8, pending = 1000;
  scenario_file s;
  for (int i = 0; i < nodes; ++i) s.add(scheduling_node("node-" + n(i), i % 3 == 0 ? "zone-a" : (i % 3 == 1 ? "zone-b" : "zone-c"), i % 2 == 0));
  for (int i = 0; i < nodes; ++i)
    for (int b = 0; b < bound_per_node; ++b) {
      object spec = scheduled_pod_spec("20", "200Gi", "");
      spec.str("nodeName", "node-" + n(i)).str("schedulerName", "default-scheduler").str("restartPolicy", "Always");
      s.add(object{}
                .str("apiVersion", "v1")
                .str("kind", "Pod")
                .obj("metadata", metadata("running-" + n(i) + "-" + n(b), "default")
                                     .str("uid", "uid-" + n(i) + "-" + n(b))
                                     .str("creationTimestamp", "2026-11-01T00:00:00Z"))
                .obj("spec", spec)
                .obj("status", object{}.str("phase", "Running").str("podIP", "10.0.0.1").str("qosClass", "Burstable"))
                .json());
    }
  for (int p = 0; p < pending; ++p)
    s.add(object{}
              .str("apiVersion", "v1")
              .str("kind", "Pod")
              .obj("metadata", metadata("pending-" + n(p), "default").str("creationTimestamp", "2026-11-02T00:00:00Z"))
              .obj("spec", scheduled_pod_spec("4", "16Gi", p % 2 ? "zone-b" : "zone-c"))
              .obj("status", object{}.str("phase", "Pending"))
              .json());
  return s;
}

// (g') nodes-5000 with its nodes full: the 40,000 bound pods (priority 100, started a minute apart) leave 250m cpu
// on each node, and the 1,000 pending pods (priority 10000) fit only where kube-scheduler's DefaultPreemption
// evicts one: each preemption frees room for the pods after it on the node, until that is taken too.
scenario_file preempt_5000() {
  constexpr int nodes = 5000, bound_per_node = 8, pending = 1000;
  scenario_file s;
  for (int i = 0; i < nodes; ++i)
    s.add(scheduling_node("node-" + n(i), i % 3 == 0 ? "zone-a" : (i % 3 == 1 ? "zone-b" : "zone-c"), i % 2 == 0));
  for (int i = 0; i < nodes; ++i)
    for (int b = 0; b < bound_per_node; ++b) {
      object spec = scheduled_pod_spec("23900m", "200Gi", "");
      spec.str("nodeName", "node-" + n(i)).raw("priority", "100");
      const int minute = (i * bound_per_node + b) % 1440;
      char start[32];
      std::snprintf(start, sizeof start, "2026-11-01T%02d:%02d:00Z", minute / 60, minute % 60);
      s.add(object{}
                .str("apiVersion", "v1")
                .str("kind", "Pod")
                .obj("metadata", metadata("batch-" + n(i) + "-" + n(b), "default").str("uid", "uid-" + n(i) + "-" + n(b)))
                .obj("spec", spec)
                .obj("status", object{}.str("phase", "Running").str("startTime", start))
                .json());
    }
  for (int p = 0; p < pending; ++p) {
    object spec = scheduled_pod_spec("4", "16Gi", p % 2 ? "zone-b" : "zone-c");
    spec.raw("priority", "10000");
    s.add(object{}
              .str("apiVersion", "v1")
              .str("kind", "Pod")
              .obj("metadata", metadata("urgent-" + n(p), "default"))
              .obj("spec", spec)
              .json());
  }
  return s;
}

constexpr std::string_view test_driver = "test-driver.cdi.k8s.io";

std::string scheduler_perf_node(int i) { return node("scheduler-perf-dra-" + n(i), {{"node-with-dra", "true"}}); }

// (c) scheduler_perf's SteadyStateClusterResourceClaimTemplatePartitionable, 2000pods_100nodes:
// 100 nodes labelled node-with-dra=true; 2,000 pools reachable from all of them, each of two
// slices (a counter set of four counters of 1, and six devices: two drawing two counters each,
// four drawing one each, attributes preallocate and dra.example.com/slice = the pool's index,
// capacity `counters`); 2,000 "init" claims, each for one device with capacity counters >= 2 and
// preallocate (so the first device of every pool), then 2,000 pods whose template asks for two
// devices of one pool (matchAttribute dra.example.com/slice), which fits only by backtracking
// once to the two single-counter devices left. Upstream allocates the init claims before the
// pods (allocResourceClaims); here each init claim has a pod of its own, queued first.
scenario_file partitionable_100() {
  constexpr int nodes = 100, pools = 2000, init_claims = 2000, pods = 2000;
  scenario_file s;
  for (int i = 0; i < nodes; ++i) s.add(scheduler_perf_node(i));
  for (int i = 0; i < pools; ++i) {
    const std::string pool_name = "resourceslice-" + n(i);
    s.add(resource_slice(
        "resourceslice-countersets-" + n(i),
        slice_spec_for_dra_nodes(test_driver, pool_name, 2)
            .raw("sharedCounters",
                 array({counter_set("counter-set",
                                    {{"counter1", "1"}, {"counter2", "1"}, {"counter3", "1"}, {"counter4", "1"}})}))));
    auto device = [&](std::string_view name, bool preallocate, std::string_view capacity,
                      const std::vector<std::string>& counter_names) {
      std::vector<std::pair<std::string, std::string>> uses;
      for (const auto& c : counter_names) uses.emplace_back(c, "1");
      return object{}
          .str("name", name)
          .obj("attributes",
               object{}.raw("preallocate", bool_attribute(preallocate)).raw("dra.example.com/slice", int_attribute(i)))
          .raw("capacity", object{}.raw("counters", value(capacity)).json())
          .raw("consumesCounters", consumes("counter-set", uses))
          .json();
    };
    s.add(resource_slice("resourceslice-devices-" + n(i),
                         slice_spec_for_dra_nodes(test_driver, pool_name, 2)
                             .raw("devices", array({device("device-2-counters-1", true, "2", {"counter1", "counter2"}),
                                                    device("device-2-counters-2", false, "2", {"counter3", "counter4"}),
                                                    device("device-1-counter-1", false, "1", {"counter1"}),
                                                    device("device-1-counter-2", false, "1", {"counter2"}),
                                                    device("device-1-counter-3", false, "1", {"counter3"}),
                                                    device("device-1-counter-4", false, "1", {"counter4"})}))));
  }
  s.add(device_class("test-class", "device.driver == \"test-driver.cdi.k8s.io\""));
  const std::string init_selector =
      "device.capacity['test-driver.cdi.k8s.io'].counters.compareTo(quantity('2')) >= 0 &&\n"
      "device.attributes['test-driver.cdi.k8s.io'].preallocate";
  for (int i = 0; i < init_claims; ++i)
    s.add(claim("init", "test-claim-with-selector-" + n(i),
                claim_spec({request("req-0", exact_request("test-class", init_selector))})));
  for (int i = 0; i < init_claims; ++i)
    s.add(pod("init", "init-pod-" + n(i), "resource", "resourceClaimName", "test-claim-with-selector-" + n(i)));
  const std::string same_slice =
      object{}.raw("requests", array({quoted("req-0")})).str("matchAttribute", "dra.example.com/slice").json();
  s.add(claim_template("test", "test-claim-template",
                       claim_spec({request("req-0", exact_request("test-class", {}, 2))}, {same_slice})));
  for (int p = 0; p < pods; ++p)
    s.add(pod_with_template("test", "test-dra-" + n(p), "resource", "test-claim-template"));
  return s;
}

// (d) scheduler_perf's SteadyStateClusterResourceClaimTemplateConsumableCapacity, 2000pods_100nodes:
// 100 nodes labelled node-with-dra=true, each with the test driver's node-local pool of 20
// exclusive devices (createResourceDriver, maxClaimsPerNode 20: attributes model, family,
// driverVersion, dra.example.com/numa; capacity memory 1Gi); 2,000 pools reachable from every
// node, each a counter set (counter1, counter2) and two devices that allow multiple allocations,
// each with 80Gi of memory (request policy: default 1Gi, at least 1Gi), the second also drawing
// both counters; the class takes only devices that allow multiple allocations; 2,000 pods whose
// template asks for 40Gi twice (two requests).
scenario_file consumable_100() {
  constexpr int nodes = 100, devices_per_node = 20, pools = 2000, pods = 2000;
  scenario_file s;
  for (int i = 0; i < nodes; ++i) s.add(scheduler_perf_node(i));
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "scheduler-perf-dra-" + n(i);
    std::vector<std::string> devices;
    for (int d = 0; d < devices_per_node; ++d)
      devices.push_back(object{}
                            .str("name", "instance-" + n(d))
                            .obj("attributes", object{}
                                                   .raw("model", string_attribute("A100"))
                                                   .raw("family", string_attribute("GPU"))
                                                   .raw("driverVersion", version_attribute("1.2.3"))
                                                   .raw("dra.example.com/numa", int_attribute(d)))
                            .raw("capacity", object{}.raw("memory", value("1Gi")).json())
                            .json());
    s.add(resource_slice(name, slice_spec_on_node(test_driver, name, 1).raw("devices", array(devices))));
  }
  const std::string memory_policy =
      object{}
          .str("value", "80Gi")
          .obj("requestPolicy", object{}.str("default", "1Gi").obj("validRange", object{}.str("min", "1Gi")))
          .json();
  for (int i = 0; i < pools; ++i) {
    const std::string pool_name = "resourceslice-" + n(i);
    s.add(resource_slice(
        "resourceslice-countersets-" + n(i),
        slice_spec_for_dra_nodes(test_driver, pool_name, 2)
            .raw("sharedCounters", array({counter_set("counter-set", {{"counter1", "1"}, {"counter2", "1"}})}))));
    auto attributes = [&](bool preallocate) {
      return object{}.raw("preallocate", bool_attribute(preallocate)).raw("dra.example.com/slice", int_attribute(i));
    };
    const std::string shareable = object{}
                                      .str("name", "shareable-device")
                                      .boolean("allowMultipleAllocations", true)
                                      .obj("attributes", attributes(false))
                                      .raw("capacity", object{}.raw("memory", memory_policy).json())
                                      .json();
    const std::string two_counters =
        object{}
            .str("name", "device-2-counters-1")
            .boolean("allowMultipleAllocations", true)
            .obj("attributes", attributes(true))
            .raw("capacity", object{}.raw("counters", value("2")).raw("memory", memory_policy).json())
            .raw("consumesCounters", consumes("counter-set", {{"counter1", "1"}, {"counter2", "1"}}))
            .json();
    s.add(resource_slice(
        "resourceslice-devices-" + n(i),
        slice_spec_for_dra_nodes(test_driver, pool_name, 2).raw("devices", array({shareable, two_counters}))));
  }
  s.add(device_class("test-class",
                     "device.driver == \"test-driver.cdi.k8s.io\" &&\ndevice.allowMultipleAllocations == true"));
  s.add(claim_template("test", "test-claim-template",
                       claim_spec({request("req-0", exact_request("test-class", {}, 1, "40Gi")),
                                   request("req-1", exact_request("test-class", {}, 1, "40Gi"))})));
  for (int p = 0; p < pods; ++p)
    s.add(pod_with_template("test", "test-dra-" + n(p), "resource", "test-claim-template"));
  return s;
}

// (e) Claims with no solution, each in one of the families that must end at once (< 1 ms of search, < 50 ms
// for the whole process): one node with 30 GPUs (the first four "low") and 128 accelerators in NUMA groups of 8;
// 31 GPUs split over 2, 3 and 4 requests; 9 accelerators of one NUMA group; 17 distinct NUMA values of 16; and 16
// GPUs plus 3 and 2 low ones (no count catches it: interchangeable devices do).
scenario_file hopeless() {
  scenario_file s;
  s.add(node("node-0"));
  std::vector<std::string> gpus, accelerators;
  for (int i = 0; i < 30; ++i)
    gpus.push_back(object{}
                       .str("name", "gpu-" + n(i))
                       .obj("attributes", object{}.raw("index", int_attribute(i)).raw("low", bool_attribute(i < 4)))
                       .json());
  for (int i = 0; i < 128; ++i)
    accelerators.push_back(
        object{}.str("name", "acc-" + n(i)).obj("attributes", object{}.raw("numa", int_attribute(i / 8))).json());
  s.add(resource_slice("node-0-gpus", slice_spec_on_node("gpu.example.com", "node-0", 1).raw("devices", array(gpus))));
  s.add(resource_slice("node-0-accelerators",
                       slice_spec_on_node("acc.example.com", "node-0", 1).raw("devices", array(accelerators))));
  s.add(device_class("gpu", "device.driver == 'gpu.example.com'"));
  s.add(device_class("acc", "device.driver == 'acc.example.com'"));
  auto requests = [](std::string_view class_name, const std::vector<int>& counts,
                     const std::vector<std::string>& selectors = {}) {
    std::vector<std::string> out;
    for (std::size_t r = 0; r < counts.size(); ++r)
      out.push_back(request("r" + n(int(r)), exact_request(class_name, r < selectors.size() ? selectors[r] : "",
                                                            counts[r])));
    return out;
  };
  auto constraint = [](std::string_view kind) {
    return object{}.str(kind, "acc.example.com/numa").json();
  };
  const std::string low = "device.attributes['gpu.example.com'].low";
  s.add(claim("default", "gpus-31-of-30-in-2", claim_spec(requests("gpu", {15, 16}))));
  s.add(claim("default", "gpus-31-of-30-in-3", claim_spec(requests("gpu", {10, 10, 11}))));
  s.add(claim("default", "gpus-31-of-30-in-4", claim_spec(requests("gpu", {8, 8, 8, 7}))));
  s.add(claim("default", "nine-of-one-numa-group",
              claim_spec(requests("acc", {5, 4}), {constraint("matchAttribute")})));
  s.add(claim("default", "seventeen-distinct-numa-values",
              claim_spec(requests("acc", {9, 8}), {constraint("distinctAttribute")})));
  s.add(claim("default", "five-of-four-low-gpus", claim_spec(requests("gpu", {16, 3, 2}, {"", low, low}))));
  return s;
}

}  // namespace

// (h) gang-512x8, gang-hopeless: a 64-pod gang (PodGroup, minCount 64, topology key `rack`) on 512 nodes of 8 GPUs in
// 8 racks of 64; racks 0, 2, 4, 6 are busy (a bound pod takes each node's cpu). Each pod takes a whole node (8 GPUs
// from its own template). gang-512x8 is placed on rack 1; in gang-hopeless one node of each free rack publishes 7
// GPUs: the gang is one GPU short everywhere, which the counting bound answers before any search.
scenario_file gang_512x8(bool hopeless) {
  constexpr int racks = 8, nodes_per_rack = 64, gpus = 8, pods = 64;
  constexpr std::string_view driver = "gpu.example.com";
  scenario_file s;
  s.add(device_class(driver, "device.driver == 'gpu.example.com'"));
  s.add(claim_template("default", "eight-gpus", claim_spec({request("gpu", exact_request(driver, {}, gpus))})));
  s.add(object{}
            .str("apiVersion", "scheduling.k8s.io/v1beta1")
            .str("kind", "PodGroup")
            .obj("metadata", metadata("trainer", "default"))
            .obj("spec", object{}
                             .obj("schedulingPolicy", object{}.obj("gang", object{}.num("minCount", pods)))
                             .obj("schedulingConstraints",
                                  object{}.raw("topology", array({object{}.str("key", "rack").json()}))))
            .json());
  for (int r = 0; r < racks; ++r)
    for (int i = 0; i < nodes_per_rack; ++i) {
      const std::string name = "node-" + n(r * nodes_per_rack + i);
      object labels;
      labels.str("kubernetes.io/hostname", name).str("rack", "rack-" + n(r));
      s.add(object{}
                .str("apiVersion", "v1")
                .str("kind", "Node")
                .obj("metadata", metadata(name).obj("labels", labels))
                .obj("status", object{}.obj("allocatable", object{}.str("cpu", "64").str("pods", "110")))
                .json());
      const int published = hopeless && r % 2 == 1 && i == nodes_per_rack - 1 ? gpus - 1 : gpus;
      std::vector<std::string> devices;
      for (int g = 0; g < published; ++g) devices.push_back(object{}.str("name", "gpu-" + n(g)).json());
      s.add(resource_slice(name + "-gpus", slice_spec_on_node(driver, name, 1).raw("devices", array(devices))));
      if (r % 2 == 0) {
        object busy_spec;
        busy_spec.str("nodeName", name).raw(
            "containers",
            array({object{}.str("name", "main").obj("resources", object{}.obj("requests", object{}.str("cpu", "64"))).json()}));
        s.add(object{}
                  .str("apiVersion", "v1")
                  .str("kind", "Pod")
                  .obj("metadata", metadata("busy-" + name, "default"))
                  .obj("spec", busy_spec)
                  .json());
      }
    }
  for (int p = 0; p < pods; ++p) {
    object spec;
    spec.obj("schedulingGroup", object{}.str("podGroupName", "trainer"));
    spec.raw("containers", array({object{}.str("name", "main").obj("resources", object{}.obj("requests", object{}.str("cpu", "1"))).json()}));
    spec.raw("resourceClaims", array({object{}.str("name", "gpus").str("resourceClaimTemplateName", "eight-gpus").json()}));
    s.add(object{}.str("apiVersion", "v1").str("kind", "Pod").obj("metadata", metadata("trainer-" + n(p), "default")).obj("spec", spec).json());
  }
  return s;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cluster_scenarios OUTDIR\n"
                 "writes OUTDIR/{gpus-500x8,gpus-500x8-nodes,gpus-5000x8,mig-64,mig-64-nodes,mig-1000,nodes-5000,\n"
                 "               preempt-5000,partitionable-100,consumable-100,hopeless,gang-512x8,gang-hopeless,\n"
                 "               slices-1400}.json\n";
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "cluster_scenarios: cannot create " << out_dir << ": " << ec.message() << "\n";
    return 1;
  }
  const std::vector<std::pair<std::string_view, scenario_file (*)()>> scenarios = {
      {"gpus-500x8.json", [] { return gpus_nx8(500, false); }},
      {"gpus-500x8-nodes.json", [] { return gpus_nx8(500, true); }},
      {"gpus-5000x8.json", [] { return gpus_nx8(5000, false); }},
      {"mig-64.json", [] { return mig_n(64, 600, false); }},
      {"mig-64-nodes.json", [] { return mig_n(64, 600, true); }},
      {"mig-1000.json", [] { return mig_n(1000, 9000, false); }},
      {"nodes-5000.json", nodes_5000},
      {"preempt-5000.json", preempt_5000},
      {"partitionable-100.json", partitionable_100},
      {"consumable-100.json", consumable_100},
      {"hopeless.json", hopeless},
      {"gang-512x8.json", [] { return gang_512x8(false); }},
      {"gang-hopeless.json", [] { return gang_512x8(true); }}};
  for (const auto& [file, make] : scenarios) {
    if (!make().write(out_dir / file)) {
      std::cerr << "cluster_scenarios: cannot write " << (out_dir / file) << "\n";
      return 1;
    }
  }
  std::size_t devices = 0;
  const std::string slices = bench_corpus::cluster_slices(1400, devices);
  std::ofstream out(out_dir / "slices-1400.json", std::ios::binary);
  if (!(out << slices) || !out.flush()) {
    std::cerr << "cluster_scenarios: cannot write " << (out_dir / "slices-1400.json") << "\n";
    return 1;
  }
  return 0;
}
