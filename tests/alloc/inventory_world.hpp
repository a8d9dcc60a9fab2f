// A scheduler's own inventory and claim types (member functions only, as the concepts name them) and one random
// cluster of them, for the inventory tests: the same world allocated through these types, through JSON and through
// third-party types read by inventory_traits must come out the same.
#pragma once

#include <dra/alloc/inventory.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace alloc = dra::alloc;

// ---- A user's own types: what a scheduler might keep in its inventory. ----

using quantities = std::map<std::string, std::string>;  // name -> "16Gi"

// A taint or a toleration, one type for both (a scheduler may keep them alike).
struct mark {
  std::string name, level, kind, how = "Equal";  // key, value, effect, operator
  std::string_view key() const { return name; }
  std::string_view value() const { return level; }
  std::string_view effect() const { return kind; }
  std::string_view op() const { return how; }
};

struct gpu_record {
  std::string id;
  std::vector<std::pair<std::string, alloc::attribute_value_view>> labels;  // values borrow string literals
  quantities memory;
  std::map<std::string, quantities> draws;  // counter set -> counters drawn
  bool multi = false;
  std::vector<mark> marks;

  std::string_view name() const { return id; }
  const auto& attributes() const { return labels; }
  const std::vector<mark>& taints() const { return marks; }
  const quantities& capacities() const { return memory; }
  const std::map<std::string, quantities>& counters() const { return draws; }
  bool shared() const { return multi; }
};

// A node selector requirement over node labels.
struct label_rule {
  std::string label, how;
  std::vector<std::string> among;

  std::string_view key() const { return label; }
  std::string_view op() const { return how; }
  const std::vector<std::string>& values() const { return among; }
};

struct host_pool {
  std::string vendor, id, host;  // host and terms empty: the pool serves every node
  std::vector<gpu_record> gpus;
  std::map<std::string, quantities> sets;
  bool whole = true;                           // false: the driver is still publishing it
  std::vector<std::vector<label_rule>> terms;  // a node selector: terms ORed, rules ANDed

  const std::vector<std::vector<label_rule>>& node_selector() const { return terms; }

  const std::string& driver() const { return vendor; }
  bool complete() const { return whole; }
  const std::string& name() const { return id; }
  const std::string& node() const { return host; }
  const std::vector<gpu_record>& devices() const { return gpus; }
  const std::map<std::string, quantities>& counter_sets() const { return sets; }
};

struct kind_of_device {
  std::string id;
  std::vector<std::string> cel;
  std::string_view name() const { return id; }
  const std::vector<std::string>& selectors() const { return cel; }
};

struct ask {
  std::string id, kind;
  std::vector<std::string> cel;
  std::int64_t how_many = 1;
  bool every = false;
  quantities amounts;
  std::vector<mark> passes;
  bool admin = false;
  std::vector<ask> options;  // firstAvailable: the first of these that fits

  std::string_view name() const { return id; }
  std::string_view device_class() const { return kind; }
  const std::vector<mark>& tolerations() const { return passes; }
  bool admin_access() const { return admin; }
  const std::vector<ask>& alternatives() const { return options; }
  const std::vector<std::string>& selectors() const { return cel; }
  std::int64_t count() const { return how_many; }
  bool all() const { return every; }
  const quantities& capacity() const { return amounts; }
};

struct job {
  std::string id;
  std::vector<ask> asks;
  std::vector<std::string> same;  // attributes all of its devices must share

  std::string_view name() const { return id; }
  std::string_view namespace_name() const { return "default"; }
  const std::vector<ask>& requests() const { return asks; }
  const std::vector<std::string>& match_attributes() const { return same; }
};

// The smallest types the concepts accept: only the required members; a pool of other devices and a claim of other
// requests for the cases that break one of them.
struct bare_device {
  std::string_view name() const { return "d"; }
  std::vector<std::pair<std::string_view, alloc::attribute_value_view>> attributes() const { return {}; }
};
template <class Device>
struct pool_of {
  std::string_view driver() const { return "x.example.com"; }
  std::string_view name() const { return "p"; }
  std::string_view node() const { return ""; }
  std::vector<Device> devices() const { return {Device{}}; }
};
using bare_pool = pool_of<bare_device>;
struct bare_request {
  std::string_view name() const { return "r"; }
  std::string_view device_class() const { return "c"; }
};
template <class Request>
struct claim_of {
  std::string_view name() const { return "claim"; }
  std::vector<Request> requests() const { return {Request{}}; }
};
using bare_claim = claim_of<bare_request>;

// One claim of a `Request` allocated over one pool of a `Device` (class "c", selecting every device): how the
// must-not-compile cases of compile_fail/ use a type that breaks a concept.
template <class Device, class Request = bare_request>
bool allocates_bare() {
  const dra::cel::selector_engine engine;
  const std::vector<kind_of_device> classes{{"c", {}}};
  auto allocator = alloc::inventory_allocator<>::make(std::vector<pool_of<Device>>{{}}, classes, engine);
  return allocator && allocator->allocate("node-1", std::vector<claim_of<Request>>{{}});
}

// ---- One random cluster of them. ----

struct world {
  std::vector<host_pool> pools;
  std::vector<kind_of_device> classes;
  std::vector<job> jobs;
};

constexpr const char* models[] = {"a100", "h100"};
// List attributes (ListTypeAttributes): views of these.
constexpr std::int64_t core_sets[3][2] = {{0, 1}, {1, 2}, {2, 3}};
constexpr std::string_view link_sets[2][2] = {{"nvlink", "pcie"}, {"pcie", "ethernet"}};
constexpr bool flag_sets[2][2] = {{true, false}, {false, true}};
constexpr const char* versions[] = {"1.0.0", "2.1.0"};

world random_world(std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  world w;
  w.classes.push_back({"gpu", {R"(device.driver == "gpu.example.com")"}});
  w.classes.push_back({"nic", {R"(device.driver == "nic.example.com")"}});
  // GPUs on the node, drawing from one counter set half the time.
  host_pool gpus{"gpu.example.com", "node-1-gpus", "node-1", {}, {}, pick(12) != 0, {}};
  const bool partitioned = pick(2) == 0;
  if (partitioned) gpus.sets["gpu-0"] = {{"memory", "32Gi"}};
  for (int i = 0, n = 1 + pick(6); i < n; ++i) {
    gpu_record d{"gpu-" + std::to_string(i), {}, {}, {}, false, {}};
    if (pick(2) == 0)
      d.marks.push_back({"maintenance", pick(2) == 0 ? "soon" : "", pick(3) == 0 ? "None" : "NoSchedule", "Equal"});
    d.labels.emplace_back("model", std::string_view(models[pick(2)]));
    d.labels.emplace_back("index", std::int64_t{i});
    d.labels.emplace_back("fast", pick(2) == 0);
    d.labels.emplace_back("driverVersion", alloc::version_text{versions[pick(2)]});
    d.labels.emplace_back("cores", std::span<const std::int64_t>(core_sets[pick(3)]));
    d.labels.emplace_back("links", std::span<const std::string_view>(link_sets[pick(2)]));
    d.labels.emplace_back("flags", std::span<const bool>(flag_sets[pick(2)]).first(1 + pick(2)));
    d.memory["memory"] = pick(2) == 0 ? "8Gi" : "16Gi";
    if (partitioned) d.draws["gpu-0"] = {{"memory", d.memory["memory"]}};
    gpus.gpus.push_back(std::move(d));
  }
  w.pools.push_back(std::move(gpus));
  // Shared NICs for every node, some of the time.
  if (pick(2) == 0) {
    host_pool nics{"nic.example.com", "fabric", "", {}, {}, true, {}};
    // Half the time for the nodes a node selector picks, which node-1 (zone a, generation 4) may not be.
    const std::vector<std::vector<label_rule>> selectors[] = {
        {{{"zone", "In", {"a", "c"}}}},
        {{{"zone", "NotIn", {"a"}}}},
        {{{"rack", "Exists", {}}}, {{"generation", "Gt", {"3"}}}},
        {{{"rack", "DoesNotExist", {}}, {"generation", "Lt", {"4"}}}}};
    if (pick(2) == 0) nics.terms = selectors[pick(4)];
    for (int i = 0, n = 1 + pick(2); i < n; ++i)
      nics.gpus.push_back({"nic-" + std::to_string(i), {}, {{"bandwidth", "10Gi"}}, {}, true, {}});
    w.pools.push_back(std::move(nics));
  }
  for (int c = 0, n = 1 + pick(4); c < n; ++c) {
    job j{"job-" + std::to_string(c), {}, {}};
    for (int r = 0, m = 1 + pick(2); r < m; ++r) {
      ask a{"req-" + std::to_string(r), "gpu", {}, 1 + pick(3), pick(10) == 0, {}, {}, pick(8) == 0, {}};
      if (pick(4) == 0) {  // firstAvailable: several of one model, else fewer of any
        ask many{"many",
                 "gpu",
                 {std::string(R"(device.attributes["gpu.example.com"].model == ")") + models[pick(2)] + "\""},
                 2 + pick(2),
                 false,
                 {},
                 {},
                 false,
                 {}};
        ask fewer{"fewer", "gpu", {}, 1, false, {}, {}, false, {}};
        a.options = {many, fewer};
      }
      if (pick(3) == 0)  // tolerates the taint: any value, "soon" only, or its NoSchedule effect only
        a.passes.push_back(pick(2) == 0 ? mark{"maintenance", "", "", "Exists"}
                                        : mark{"maintenance", "soon", pick(2) == 0 ? "NoSchedule" : "", "Equal"});
      if (pick(3) == 0)
        a.cel.push_back(std::string(R"(device.attributes["gpu.example.com"].model == ")") + models[pick(2)] + "\"");
      if (pick(4) == 0)
        a.cel.emplace_back(R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("2.0.0")))");
      if (pick(4) == 0)
        a.cel.emplace_back(R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0)");
      if (pick(4) == 0) a.cel.emplace_back(R"("nvlink" in device.attributes["gpu.example.com"].links)");
      if (pick(4) == 0) a.cel.emplace_back(R"(device.attributes["gpu.example.com"].flags.exists(f, f))");
      if (w.pools.size() > 1 && pick(3) == 0) {
        a = ask{"req-" + std::to_string(r),
                "nic",
                {},
                1,
                false,
                {{"bandwidth", pick(2) == 0 ? "4Gi" : "6Gi"}},
                {},
                false,
                {}};
      }
      j.asks.push_back(std::move(a));
    }
    if (pick(3) == 0 && std::ranges::all_of(j.asks, [](const ask& a) { return a.kind == "gpu"; }))
      j.same.emplace_back(
          std::array{"gpu.example.com/model", "gpu.example.com/cores", "gpu.example.com/flags"}[pick(3)]);
    w.jobs.push_back(std::move(j));
  }
  return w;
}

// What became of each claim, allocated one after the other on node-1 and committed when it fits.
using claim_line = std::string;

std::string describe(const std::vector<alloc::device_choice>& devices) {
  std::string out;
  for (const auto& d : devices) {
    out += " " + d.request + "=" + d.driver + "/" + d.pool + "/" + d.device;
    if (d.share_id) out += "#" + *d.share_id;
    for (const auto& [name, amount] : d.consumed) out += " " + name + ":" + amount.to_string();
  }
  return out;
}

// The node every claim of a world is allocated on.
struct labelled_node {
  std::map<std::string, std::string> tags{{"generation", "4"}, {"zone", "a"}};
  std::string_view name() const { return "node-1"; }
  const std::map<std::string, std::string>& labels() const { return tags; }
};

// Each job of `jobs` allocated on `node` alone, in order, committed when it fits: what became of it.
template <class Pools, class Classes, class Jobs, class Node>
std::vector<claim_line> allocate_one_by_one(const Pools& pools, const Classes& classes, const Jobs& jobs,
                                            const Node& node, const dra::cel::selector_engine& engine) {
  auto allocator = alloc::inventory_allocator<>::make(pools, classes, engine);
  if (!allocator) return {"make: " + allocator.error().to_string()};
  std::vector<claim_line> out;
  for (const auto& j : jobs) {
    using job_type = std::ranges::range_value_t<Jobs>;
    const std::string id(alloc::inventory_traits<job_type>::name(j));
    auto outcome = allocator->allocate(node, std::vector<job_type>{j});
    if (!outcome) {
      out.push_back(id + ": error: " + outcome.error().message);
    } else if (const auto* placed = outcome->fit()) {
      out.push_back(id + " on " + placed->node + ":" + describe(placed->claims.at(0)));
      allocator->commit(*placed);
    } else {
      out.push_back(id + ": " + std::string(outcome->reason()));
    }
  }
  return out;
}

std::vector<claim_line> through_the_concepts(const world& w, const dra::cel::selector_engine& engine) {
  return allocate_one_by_one(w.pools, w.classes, w.jobs, labelled_node{}, engine);
}

}  // namespace
