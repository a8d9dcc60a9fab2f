// Small clusters drawn from a fuzzer's bytes, for the command fuzzers: a model the fuzzers also reason with (what each
// node offers, which device a class selects, which pod asks for what), its scenario text, and the what-if changes
// made on the model itself, so that `dra --drain`/`--add-node` can be checked against the changed input.
#pragma once

#include "byte_reader.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dra_fuzz {

inline constexpr const char* gpu_driver = "gpu.example.com";
inline constexpr const char* extended_gpu = "example.com/gpu";  // the class `gpu` serves it (KEP-5004)

// A device of the driver: a whole GPU (class `gpu`), a partition of one (class `mig`, drawing on the GPU's counter
// set as the GPU itself does) or a NIC that several claims share (class `nic`, consumable bandwidth).
struct device {
  std::string name{};
  std::string kind{};         // gpu, mig or nic
  std::string model{};        // a100 or t4
  std::string counter_set{};  // for a partitioned GPU and its partitions: the set they draw `mem` from
  int mem = 0;                // what it draws
  int bandwidth = 0;          // a nic's capacity
  bool tainted = false;       // NoSchedule: no claim here tolerates it
};

// What a partitioned GPU's counter set holds: the GPU draws all of it, each of its two halves half.
inline constexpr int partitioned_gpu_mem = 4;

struct counter_set {
  std::string name;
  int mem = 0;
};

struct node {
  std::string name;
  int cpu = 0, memory_gi = 0, pods = 0;
  std::string zone;
  bool unschedulable = false;
  std::vector<device> devices;
  std::vector<counter_set> counter_sets;
};

// The claim specs the fuzzers know, by index: what a template or a standalone claim asks for.
enum class claim_kind : std::uint8_t { one_gpu, two_gpus_same_model, gpu_or_mig, nic_share, a100, count };
inline constexpr int claim_kinds = static_cast<int>(claim_kind::count);
inline const char* template_name(claim_kind k) {
  switch (k) {
    case claim_kind::one_gpu:
      return "one-gpu";
    case claim_kind::two_gpus_same_model:
      return "two-gpus";
    case claim_kind::gpu_or_mig:
      return "gpu-or-mig";
    case claim_kind::nic_share:
      return "nic-share";
    case claim_kind::a100:
      return "a100";
    case claim_kind::count:
      break;
  }
  return "";
}

// A pod's claim entry: a template's claim, or a standalone claim by name.
struct claim_entry {
  std::string entry;
  std::optional<claim_kind> from_template;
  std::string claim;  // a standalone claim's name
};

struct pod {
  std::string name;
  std::string uid;
  int cpu = 0, memory_gi = 0;
  int extended_gpus = 0;  // example.com/gpu in its container's requests and limits
  int priority = 0;
  bool never_preempts = false;  // preemptionPolicy Never (capacity's copies, which count what fits without evicting)
  bool gated = false;
  bool in_group = false;  // of the PodGroup `gang`
  std::string node;       // bound there ("" for pending)
  std::string app;        // its label app=…, which the budget selects by
  bool running = false;   // status.phase Running (bound ones, and those a drain made pending again)
  std::vector<claim_entry> claims;
};

// A standalone claim, allocated (one whole GPU of `node`, reserved for `reserved_for`) or not.
struct standalone_claim {
  std::string name;
  claim_kind kind = claim_kind::one_gpu;
  std::string node, device;  // its allocation, when node is not empty
  std::string reserved_for;  // a pod's name
  std::string reserved_uid;
};

// A PodDisruptionBudget over the pods labelled app=a: its spec's budget field, and perhaps a status.
struct disruption_budget {
  std::string budget;               // e.g. "minAvailable":1
  std::optional<int> allowed;       // status.disruptionsAllowed, when it has a status
};

// A cluster of 1-4 nodes in namespace `default`.
struct cluster {
  std::vector<node> nodes;
  std::vector<pod> pods;
  std::vector<standalone_claim> claims;
  int gang_min_count = 0;               // the PodGroup `gang` exists when some pod is in it
  std::vector<device> cluster_devices;  // a pool every node reaches (no counters, no NICs)
  std::optional<disruption_budget> budget;
};

namespace detail {

inline std::string q(const std::string& s) { return "\"" + s + "\""; }

inline node draw_node(byte_reader& in, int index) {
  node n;
  n.name = "n" + std::to_string(index);
  n.cpu = 1 + in.next(8);
  n.memory_gi = 1 + in.next(8);
  n.pods = 1 + in.next(4);
  n.zone = in.next(2) == 0 ? "a" : "b";
  n.unschedulable = in.chance(12);
  const int gpus = in.next(3);
  for (int g = 0; g < gpus; ++g) {
    device gpu{.name = "gpu-" + std::to_string(g), .kind = "gpu", .model = in.next(2) == 0 ? "a100" : "t4"};
    gpu.tainted = in.chance(10);
    if (in.chance(2)) {  // partitioned: the GPU and two halves draw on one counter set
      gpu.counter_set = "gpu-" + std::to_string(g) + "-mem";
      gpu.mem = partitioned_gpu_mem;
      n.counter_sets.push_back({gpu.counter_set, partitioned_gpu_mem});
      n.devices.push_back(gpu);
      for (int half = 0; half < 2; ++half)
        n.devices.push_back({.name = "mig-" + std::to_string(g) + "-" + std::to_string(half),
                             .kind = "mig",
                             .model = gpu.model,
                             .counter_set = gpu.counter_set,
                             .mem = partitioned_gpu_mem / 2});
    } else {
      n.devices.push_back(gpu);
    }
  }
  if (in.chance(3)) n.devices.push_back({.name = "nic-0", .kind = "nic", .bandwidth = 1 + in.next(6)});
  return n;
}

// A whole GPU of `n` nothing holds yet, with its partitions then unusable for good (its set is all its own).
inline const device* free_whole_gpu(const node& n, const std::vector<standalone_claim>& claims) {
  for (const auto& d : n.devices) {
    if (d.kind != "gpu" || d.tainted) continue;
    bool held = false;
    for (const auto& c : claims) held = held || (c.node == n.name && c.device == d.name);
    if (!held) return &d;
  }
  return nullptr;
}

inline pod draw_pod(byte_reader& in, cluster& c, const std::string& name, bool bound) {
  pod p;
  p.name = name;
  p.uid = name + "-uid";
  p.app = name.back() % 2 == 0 ? "a" : "b";  // from the name: no byte drawn, so older inputs read as before
  p.cpu = in.next(4);
  p.memory_gi = in.next(3);
  p.priority = in.next(3);
  if (bound) {
    // Bound where it fits (so that the input over-commits nothing), perhaps holding an allocated claim there.
    for (int tries = 0; tries < 4 && p.node.empty(); ++tries) {
      const node& n = c.nodes[static_cast<std::size_t>(in.next(static_cast<int>(c.nodes.size())))];
      int cpu = 0, memory = 0, pods = 0;
      for (const auto& other : c.pods)
        if (other.node == n.name) cpu += other.cpu, memory += other.memory_gi, ++pods;
      if (cpu + p.cpu <= n.cpu && memory + p.memory_gi <= n.memory_gi && pods + 1 <= n.pods) p.node = n.name;
    }
    if (p.node.empty()) return p;
    p.running = true;
    const node& n = *std::find_if(c.nodes.begin(), c.nodes.end(), [&](const node& x) { return x.name == p.node; });
    if (const device* gpu = free_whole_gpu(n, c.claims); gpu != nullptr && in.chance(2)) {
      const std::string claim = name + "-gpu";
      c.claims.push_back({claim, claim_kind::one_gpu, n.name, gpu->name, name, p.uid});
      p.claims.push_back({"gpu", std::nullopt, claim});
    }
    return p;
  }
  switch (in.next(6)) {
    case 0:
      break;  // cpu and memory only
    case 1:
      p.extended_gpus = 1 + in.next(2);
      break;
    case 2: {  // a standalone claim: an unallocated one made for it, one another pending pod also names, or one
               // that does not exist (the pod waits: kube-scheduler's PreEnqueue)
      std::string claim;
      for (const auto& other : c.claims)
        if (other.node.empty() && in.chance(2)) claim = other.name;
      if (claim.empty() && in.chance(6)) {
        claim = name + "-missing";
      } else if (claim.empty()) {
        claim = name + "-own";
        c.claims.push_back({claim, static_cast<claim_kind>(in.next(claim_kinds)), "", "", "", ""});
      }
      p.claims.push_back({"dev", std::nullopt, claim});
      break;
    }
    default: {
      const int entries = 1 + in.next(2);
      for (int e = 0; e < entries; ++e)
        p.claims.push_back({"e" + std::to_string(e), static_cast<claim_kind>(in.next(claim_kinds)), ""});
    }
  }
  p.gated = in.chance(8);
  p.in_group = in.chance(5);
  return p;
}

}  // namespace detail

// The cluster the bytes describe.
inline cluster draw_cluster(byte_reader& in) {
  cluster c;
  const int nodes = 1 + in.next(4);
  for (int i = 0; i < nodes; ++i) c.nodes.push_back(detail::draw_node(in, i));
  for (int g = in.next(3) == 0 ? 1 + in.next(2) : 0; g > 0; --g)
    c.cluster_devices.push_back({.name = "shared-gpu-" + std::to_string(g), .kind = "gpu", .model = "t4"});
  const int bound = in.next(4);
  for (int i = 0; i < bound; ++i) {
    pod p = detail::draw_pod(in, c, "b" + std::to_string(i), true);
    if (!p.node.empty()) c.pods.push_back(std::move(p));
  }
  const int pending = 1 + in.next(6);
  for (int i = 0; i < pending; ++i) c.pods.push_back(detail::draw_pod(in, c, "p" + std::to_string(i), false));
  int members = 0;
  for (const auto& p : c.pods) members += p.in_group ? 1 : 0;
  if (members > 0) c.gang_min_count = 1 + in.next(members);
  if (in.chance(4))  // a standalone claim no pod names: the run allocates it on its own
    c.claims.push_back({"loose", static_cast<claim_kind>(in.next(claim_kinds)), "", "", "", ""});
  if (in.next(3) == 1) {  // drawn last, and not when the bytes ran out: older inputs read as before
    const int n = in.next(3);
    constexpr const char* budgets[] = {"\"minAvailable\":", "\"maxUnavailable\":", "\"maxUnavailable\":\"50%\""};
    const int kind = in.next(3);
    disruption_budget b{std::string(budgets[kind]) + (kind == 2 ? "" : std::to_string(n)), std::nullopt};
    if (in.chance(2)) b.allowed = in.next(3);
    c.budget = std::move(b);
  }
  return c;
}

// --- The cluster as scenario text: one JSON object a line.

namespace detail {

inline std::string device_text(const device& d) {
  std::string out = "{\"name\":" + q(d.name) + ",\"attributes\":{\"kind\":{\"string\":" + q(d.kind) + "}";
  if (!d.model.empty()) out += ",\"model\":{\"string\":" + q(d.model) + "}";
  out += "}";
  if (d.kind == "nic")
    out += ",\"allowMultipleAllocations\":true,\"capacity\":{\"bandwidth\":{\"value\":\"" +
           std::to_string(d.bandwidth) + "\",\"requestPolicy\":{\"default\":\"1\",\"validRange\":{\"min\":\"1\"}}}}";
  if (!d.counter_set.empty())
    out += ",\"consumesCounters\":[{\"counterSet\":" + q(d.counter_set) + ",\"counters\":{\"mem\":{\"value\":\"" +
           std::to_string(d.mem) + "\"}}}]";
  if (d.tainted) out += ",\"taints\":[{\"key\":\"broken\",\"effect\":\"NoSchedule\"}]";
  return out + "}";
}

inline std::string slice_text(const std::string& name, const std::string& pool, const std::string& where, int slices,
                              const std::string& body) {
  return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":" + q(name) +
         "},\"spec\":{\"driver\":" + q(gpu_driver) + ",\"pool\":{\"name\":" + q(pool) +
         ",\"generation\":1,\"resourceSliceCount\":" + std::to_string(slices) + "}," + where + "," + body + "}}\n";
}

inline std::string node_objects(const node& n) {
  std::string out = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":" + q(n.name) +
                    ",\"labels\":{\"kubernetes.io/hostname\":" + q(n.name) + ",\"zone\":" + q(n.zone) + "}}";
  if (n.unschedulable) out += ",\"spec\":{\"unschedulable\":true}";
  out += ",\"status\":{\"allocatable\":{\"cpu\":\"" + std::to_string(n.cpu) + "\",\"memory\":\"" +
         std::to_string(n.memory_gi) + "Gi\",\"pods\":\"" + std::to_string(n.pods) + "\"}}}\n";
  const int slices = (n.devices.empty() ? 0 : 1) + (n.counter_sets.empty() ? 0 : 1);
  const std::string where = "\"nodeName\":" + q(n.name);
  if (!n.counter_sets.empty()) {
    std::string sets;
    for (const auto& s : n.counter_sets)
      sets += std::string(sets.empty() ? "" : ",") + "{\"name\":" + q(s.name) + ",\"counters\":{\"mem\":{\"value\":\"" +
              std::to_string(s.mem) + "\"}}}";
    out += slice_text(n.name + "-counters", n.name, where, slices, "\"sharedCounters\":[" + sets + "]");
  }
  if (!n.devices.empty()) {
    std::string devices;
    for (const auto& d : n.devices) devices += std::string(devices.empty() ? "" : ",") + device_text(d);
    out += slice_text(n.name + "-devices", n.name, where, slices, "\"devices\":[" + devices + "]");
  }
  return out;
}

inline std::string class_text(const std::string& kind, const std::string& extra) {
  return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":" + q(kind) +
         "},\"spec\":{" + extra + "\"selectors\":[{\"cel\":{\"expression\":\"device.driver == '" + gpu_driver +
         "' && device.attributes['" + gpu_driver + "'].kind == '" + kind + "'\"}}]}}\n";
}

inline std::string claim_spec(claim_kind k) {
  switch (k) {
    case claim_kind::one_gpu:
      return R"({"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}})";
    case claim_kind::two_gpus_same_model:
      return R"({"devices":{"requests":[{"name":"gpus","exactly":{"deviceClassName":"gpu","count":2}}],)"
             R"("constraints":[{"requests":["gpus"],"matchAttribute":"gpu.example.com/model"}]}})";
    case claim_kind::gpu_or_mig:
      return R"({"devices":{"requests":[{"name":"accel","firstAvailable":[{"name":"whole","deviceClassName":"gpu"},)"
             R"({"name":"half","deviceClassName":"mig"}]}]}})";
    case claim_kind::nic_share:
      return R"({"devices":{"requests":[{"name":"net","exactly":{"deviceClassName":"nic",)"
             R"("capacity":{"requests":{"bandwidth":"2"}}}}]}})";
    case claim_kind::a100:
      return R"({"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","selectors":[{"cel":)"
             R"({"expression":"device.attributes['gpu.example.com'].model == 'a100'"}}]}}]}})";
    case claim_kind::count:
      break;
  }
  return "{}";
}

inline std::string claim_text(const standalone_claim& c) {
  std::string out =
      "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":" + q(c.name) +
      ",\"namespace\":\"default\"},\"spec\":" + claim_spec(c.kind);
  if (!c.node.empty()) {
    out += ",\"status\":{\"allocation\":{\"devices\":{\"results\":[{\"request\":\"gpu\",\"driver\":" + q(gpu_driver) +
           ",\"pool\":" + q(c.node) + ",\"device\":" + q(c.device) +
           "}]},\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":"
           "\"In\",\"values\":[" +
           q(c.node) + "]}]}]}}";
    if (!c.reserved_for.empty())
      out += ",\"reservedFor\":[{\"resource\":\"pods\",\"name\":" + q(c.reserved_for) +
             ",\"uid\":" + q(c.reserved_uid) + "}]";
    out += "}";
  }
  return out + "}\n";
}

inline std::string pod_text(const pod& p) {
  std::string requests =
      "\"cpu\":\"" + std::to_string(p.cpu) + "\",\"memory\":\"" + std::to_string(p.memory_gi) + "Gi\"";
  std::string resources = "{\"requests\":{" + requests;
  if (p.extended_gpus > 0) {
    const std::string gpus = "\"" + std::string(extended_gpu) + "\":\"" + std::to_string(p.extended_gpus) + "\"";
    resources += "," + gpus + "},\"limits\":{" + gpus;
  }
  resources += "}}";
  std::string spec = "\"priority\":" + std::to_string(p.priority) +
                     ",\"containers\":[{\"name\":\"main\",\"resources\":" + resources + "}]";
  if (p.never_preempts) spec += ",\"preemptionPolicy\":\"Never\"";
  if (!p.node.empty()) spec += ",\"nodeName\":" + q(p.node);
  if (p.gated) spec += ",\"schedulingGates\":[{\"name\":\"wait\"}]";
  if (p.in_group) spec += ",\"schedulingGroup\":{\"podGroupName\":\"gang\"}";
  if (!p.claims.empty()) {
    spec += ",\"resourceClaims\":[";
    for (std::size_t i = 0; i < p.claims.size(); ++i) {
      const auto& e = p.claims[i];
      spec += std::string(i ? "," : "") + "{\"name\":" + q(e.entry) + "," +
              (e.from_template ? "\"resourceClaimTemplateName\":" + q(template_name(*e.from_template))
                               : "\"resourceClaimName\":" + q(e.claim)) +
              "}";
    }
    spec += "]";
  }
  std::string out = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":" + q(p.name) +
                    ",\"namespace\":\"default\"" + (p.uid.empty() ? "" : ",\"uid\":" + q(p.uid)) +
                    (p.app.empty() ? "" : ",\"labels\":{\"app\":" + q(p.app) + "}") + "},\"spec\":{" + spec + "}";
  if (p.running) out += ",\"status\":{\"phase\":\"Running\"}";
  return out + "}\n";
}

}  // namespace detail

inline std::string scenario_text(const cluster& c) {
  std::string out = detail::class_text("gpu", "\"extendedResourceName\":\"" + std::string(extended_gpu) + "\",") +
                    detail::class_text("mig", "") + detail::class_text("nic", "");
  for (int k = 0; k < claim_kinds; ++k)
    out += "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaimTemplate\",\"metadata\":{\"name\":" +
           detail::q(template_name(static_cast<claim_kind>(k))) +
           ",\"namespace\":\"default\"},\"spec\":{\"spec\":" + detail::claim_spec(static_cast<claim_kind>(k)) + "}}\n";
  // The pool every node reaches comes first, so that node copies' slices come after it as `--add-node` adds them.
  if (!c.cluster_devices.empty()) {
    std::string devices;
    for (const auto& d : c.cluster_devices) devices += std::string(devices.empty() ? "" : ",") + detail::device_text(d);
    out += detail::slice_text("everywhere", "everywhere", "\"allNodes\":true", 1, "\"devices\":[" + devices + "]");
  }
  for (const auto& n : c.nodes) out += detail::node_objects(n);
  for (const auto& claim : c.claims) out += detail::claim_text(claim);
  if (c.gang_min_count > 0)
    out +=
        "{\"apiVersion\":\"scheduling.k8s.io/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"gang\","
        "\"namespace\":\"default\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":" +
        std::to_string(c.gang_min_count) + "}}}}\n";
  for (const auto& p : c.pods) out += detail::pod_text(p);
  if (c.budget) {
    out += "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"a\","
           "\"namespace\":\"default\"},\"spec\":{" +
           c.budget->budget + ",\"selector\":{\"matchLabels\":{\"app\":\"a\"}}}";
    if (c.budget->allowed) out += ",\"status\":{\"disruptionsAllowed\":" + std::to_string(*c.budget->allowed) + "}";
    out += "}\n";
  }
  return out;
}

// --- What-if changes made on the model, as `dra --drain`/`--add-node` promise to make them on the input.

// Without node `name`: its slices go, its pods become pending, claims allocated from its pool lose their allocation
// and reservations.
inline cluster drained(cluster c, const std::string& name) {
  std::erase_if(c.nodes, [&](const node& n) { return n.name == name; });
  for (auto& p : c.pods)
    if (p.node == name) p.node.clear();
  for (auto& claim : c.claims)
    if (claim.node == name)
      claim.node.clear(), claim.device.clear(), claim.reserved_for.clear(), claim.reserved_uid.clear();
  return c;
}

// With `copies` copies of node `name` after the others, named `<name>-whatif-<i>`, their devices free.
inline cluster with_copies(cluster c, const std::string& name, int copies) {
  const auto original = std::find_if(c.nodes.begin(), c.nodes.end(), [&](const node& n) { return n.name == name; });
  const node copied = *original;
  for (int i = 0; i < copies; ++i) {
    node n = copied;
    n.name = name + "-whatif-" + std::to_string(i);
    c.nodes.push_back(std::move(n));
  }
  return c;
}

// With copies 1..`copies` of pod `at` pending after the other pods, as `dra capacity --pod` places them: named
// `<pod>-<k>`, without node, uid, status or gates; its template entries make claims of their own, claims it names stay
// shared.
inline cluster with_pod_copies(cluster c, std::size_t at, int copies) {
  const pod original = c.pods[at];
  for (int k = 1; k <= copies; ++k) {
    pod copy = original;
    copy.name = original.name + "-" + std::to_string(k);
    copy.uid.clear();
    copy.node.clear();
    copy.running = false;
    copy.gated = false;
    copy.never_preempts = true;
    copy.app.clear();  // dra's copies come after the scenario's pods, which alone the budget counts
    c.pods.push_back(std::move(copy));
  }
  return c;
}

}  // namespace dra_fuzz
