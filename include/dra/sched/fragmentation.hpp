// How much of a node's free device capacity the pending pods could not use (FGD's fragmentation, in DRA terms), and
// how a placement changes it: what `sorted` chooses nodes by where devices are shared by capacity.
#pragma once

#include <dra/alloc/concepts.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/scoring.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::sched {

// One request a kind of pending pod makes: which devices it may take (an index into the gauge's selections), how
// many, and what share of each device's capacity it consumes.
struct device_ask {
  std::size_t selection = 0;
  std::int64_t count = 1;
  const model::capacity_requirements* capacity = nullptr;  // null: the whole device's, or its request policy's default
};

// The cpu (millicores) and memory (bytes) of some requests: all the measure reads of a pod's, or of a node's pods'.
struct cpu_and_memory {
  std::int64_t cpu = 0, memory = 0;
  [[nodiscard]] static cpu_and_memory of(const amounts& requests) {
    return {amount_of(requests, "cpu"), amount_of(requests, "memory")};
  }
};

// The cpu and memory each node's pods request, looked up by name again only once the node's requests have another
// revision (cluster_state::usage_revision): a search scoring every node's fragmentation reads them once per change.
class requested_cpu_and_memory {
 public:
  explicit requested_cpu_and_memory(std::size_t nodes = 0) : kept_(nodes) {}
  // Node i's, its pods requesting `usage` at `revision`.
  [[nodiscard]] cpu_and_memory of(std::size_t i, const node_usage& usage, std::uint64_t revision) {
    if (i >= kept_.size()) kept_.resize(i + 1);
    auto& [stamp, amounts] = kept_[i];
    if (stamp != revision + 1) {  // stamps are revisions + 1, so that a fresh entry is stale
      stamp = revision + 1;
      amounts = cpu_and_memory::of(usage.requested);
    }
    return amounts;
  }

 private:
  std::vector<std::pair<std::uint64_t, cpu_and_memory>> kept_;  // per node: revision + 1, and the amounts then
};

// A kind of pending pod (its cpu and memory requests and its device requests) and how many such pods are pending.
struct pod_shape {
  std::int64_t cpu = 0;     // millicores
  std::int64_t memory = 0;  // bytes
  std::vector<device_ask> asks;
  double weight = 0;  // share of the pending pods
};

// What a report shows of one node's free device capacity, in devices (a device's share left of its scarcest capacity,
// 1 when idle), over the devices some kept shape may take: all of it, the part no kept shape can use (`stranded`: the
// shape does not fit the node, or none of its asks can take the device), and FGD's expected unusable part
// (`fragmentation`, what fragmentation_gauge::stranded returns). `measured` is false when one of those devices draws on
// counters (partitions of a GPU): its share left is not what the gauge models, so the figures mean nothing there.
struct node_fragments {
  struct device {
    alloc::device_ref id;
    double free = 0;
    bool stranded = false;  // free, and no kept shape can use it
  };
  bool measured = true;
  double free = 0, stranded = 0, fragmentation = 0;
  std::vector<device> devices;  // the devices some kept shape may take, in slice order
};

// The fragmentation of a node for the pending pods' shapes, as the FGD paper (Weng et al., "Beware of Fragmentation:
// Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent", USENIX ATC '23) measures it: for each shape,
// the free capacity of the node's devices that a pod of that shape could not use (all of it when the pod does not fit
// the node at all, for cpu, memory or devices; else the devices it cannot take, or whose share left is smaller than its
// ask), weighted by how common the shape is. A device's free capacity is its share left (1 when idle), over the
// devices some shape may take; the others never count.
//
// `sorted` scores a fit by how much it lowers that measure, `100 × sigmoid(before − after)` truncated to a whole
// number as the paper's scheduler does, and takes the best score (ties in its node ranking's order). The truncation
// matters: on Alibaba's openb trace, choosing by the exact change placed no more than first fit, while the
// whole-number score places as much as the paper reports (bench/README.md, "Fragmentation: replaying openb").
template <alloc::selector_engine Engine>
class fragmentation_gauge {
 public:
  // Shapes making up `popular` of the pending pods, most common first, are kept (the paper's 95 %): a rare shape
  // costs as much to weigh as a common one and hardly moves the score.
  static constexpr double popular = 0.95;
  static constexpr std::int64_t unlimited = std::numeric_limits<std::int64_t>::max() / 4;

  fragmentation_gauge(const model::scenario& s, std::span<const model::node* const> nodes, const Engine& engine)
      : s_(s), engine_(engine), devices_(nodes.size()), tables_(nodes.size()), versions_(nodes.size(), 0),
        free_(nodes.size()), scores_(nodes.size()) {
    std::map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      index.emplace(nodes[i]->meta.name, i);
      // A node that lists no allocatable is not limited (NodeResourcesFit checks nothing there).
      resources_.push_back(nodes[i]->allocatable ? resources_of(*nodes[i])
                                                 : node_resources{unlimited, unlimited});
    }
    for (const auto& located : s.slices) {
      const model::resource_slice& slice = located.object;
      for (const auto view : flatten::device_views(slice)) {
        const auto& name = slice.node_name && !slice.node_name->empty() ? slice.node_name : view.base().node_name;
        if (!name) continue;
        const auto it = index.find(*name);
        if (it == index.end()) continue;
        node_of_.emplace(alloc::device_ref{slice.driver, slice.pool.name, view.name()},
                         std::pair{it->second, devices_[it->second].size()});
        devices_[it->second].push_back({view, &slice});
      }
    }
  }

  // The pending pods' shapes, from each pod's requests and its claims' specs. Pods asking for no device count as
  // shapes too (they take cpu and memory a device's pod may need); a firstAvailable request counts as its first
  // alternative, and a pod with a request for all devices is left out.
  void set_workload(std::span<const std::pair<amounts, std::vector<const model::device_claim*>>> pods) {
    struct counted_shape {
      std::size_t count = 0;
      std::string asks_key;  // the shape's asks alone: shapes that differ only in cpu and memory share it
      pod_shape shape;
    };
    std::map<std::string, counted_shape> counted;
    for (const auto& [requests, claims] : pods) {
      pod_shape shape{amount_of(requests, "cpu"), amount_of(requests, "memory"), {}, 0};
      std::string asks_key;
      bool modelled = true;
      for (const model::device_claim* claim : claims)
        for (const auto& request : claim->requests) {
          const model::device_request_spec* spec =
              request.exactly ? static_cast<const model::device_request_spec*>(&*request.exactly)
                              : (request.first_available.empty() ? nullptr : &request.first_available.front());
          if (spec == nullptr || spec->mode != model::allocation_mode::exact_count) {
            modelled = false;  // "All" asks for no share of a device: not a shape this measure knows
            continue;
          }
          const device_ask ask{selection_of(*spec), spec->count, spec->capacity ? &*spec->capacity : nullptr};
          asks_key += "/" + std::to_string(ask.selection) + "x" + std::to_string(ask.count);
          if (ask.capacity != nullptr)
            for (const auto& [name, amount] : ask.capacity->requests)
              asks_key += ":" + std::string(name) + "=" + amount.to_string();
          shape.asks.push_back(ask);
        }
      if (!modelled) continue;
      std::string key = std::to_string(shape.cpu) + "/" + std::to_string(shape.memory) + asks_key;
      auto [it, fresh] = counted.try_emplace(std::move(key), counted_shape{0, std::move(asks_key), std::move(shape)});
      ++it->second.count;
    }
    std::vector<counted_shape> by_count;
    for (auto& [key, entry] : counted) by_count.push_back(std::move(entry));
    std::stable_sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
    std::size_t total = 0, kept = 0;
    for (const auto& e : by_count) total += e.count;
    pods_ = total;
    shapes_.clear();
    ask_sets_.clear();
    ask_set_of_.clear();
    std::map<std::string, std::size_t, std::less<>> ask_set_index;
    std::size_t first_ask = 0;
    for (auto& [count, asks_key, shape] : by_count) {
      if (static_cast<double>(kept) >= popular * static_cast<double>(total)) break;
      kept += count;
      const auto [set, fresh] = ask_set_index.try_emplace(std::move(asks_key), ask_sets_.size());
      if (fresh) ask_sets_.push_back({first_ask, shapes_.size()});
      ask_set_of_.push_back(set->second);
      first_ask += shape.asks.size();
      shapes_.push_back(std::move(shape));
      shapes_.back().weight = static_cast<double>(count);
    }
    ask_set_fits_.assign(ask_sets_.size(), 0);
    ask_set_usable_.assign(ask_sets_.size(), 0);
    kept_pods_ = kept;
    asks_ = 0;
    for (auto& shape : shapes_) {
      shape.weight /= static_cast<double>(kept);
      asks_ += shape.asks.size();
    }
    for (auto& t : tables_) t.reset();
    for (auto& memo : scores_) memo = {};
    on_ = false;
    for (std::size_t i = 0; i < devices_.size() && !on_; ++i) {
      const node_table& t = table(i);
      for (std::size_t k = 0; k < devices_[i].size() && !on_; ++k)
        on_ = t.counted[k] && devices_[i][k].view.base().allow_multiple_allocations.value_or(false) &&
              devices_[i][k].view.capacity_count() > 0;
    }
  }

  // Whether fits are scored at all: some kept shape asks for devices that are shared by capacity.
  [[nodiscard]] bool on() const noexcept { return on_; }

  // The score of placing a pod asking for `asked` cpu and memory on node `i`, its claims getting `results`: how much
  // the placement lowers the node's fragmentation, 0 to 100 (50: unchanged). `used` is what the node's pods take
  // (cpu_and_memory: a search scoring many nodes for one pod looks them up once, not per node).
  [[nodiscard]] std::int64_t score(std::size_t i, cpu_and_memory used, cpu_and_memory asked,
                                   std::span<const model::allocation_result> results, const alloc::ledger& ledger) {
    sync(ledger);
    node_scores& memo = scores_[i];
    if (memo.stamp != versions_[i] + 1 || memo.cpu_used != used.cpu || memo.memory_used != used.memory) {
      memo.stamp = versions_[i] + 1;
      memo.cpu_used = used.cpu;
      memo.memory_used = used.memory;
      memo.before.reset();
      memo.scores.clear();  // its room kept: the node is asked again after each change
    }
    const std::uint64_t taken = digest(results);
    for (const auto& c : memo.scores)
      if (c.cpu == asked.cpu && c.memory == asked.memory && c.taken == taken) return c.score;
    const node_state before = state_of(i, used.cpu, used.memory, ledger);
    node_state after = before;
    after.cpu -= asked.cpu;
    after.memory -= asked.memory;
    for (const auto& allocation : results)
      for (const auto& r : allocation.results) take(i, after, r);
    if (!memo.before) memo.before = fragmentation(i, before);
    const double lowered = *memo.before - fragmentation(i, after);
    const auto score = static_cast<std::int64_t>(static_cast<double>(max_node_score) / (1 + std::exp(-lowered)));
    if (memo.scores.size() >= kept_scores) memo.scores.erase(memo.scores.begin());
    memo.scores.push_back({asked.cpu, asked.memory, taken, score});
    return score;
  }

  // The node's fragmentation now, in devices: the free capacity the pending pods' shapes could not use.
  [[nodiscard]] double stranded(std::size_t i, const node_usage& used, const alloc::ledger& ledger) {
    sync(ledger);
    return fragmentation(i, state_of(i, amount_of(used.requested, "cpu"), amount_of(used.requested, "memory"), ledger));
  }

  // The node's free device capacity now, for a report: per device, and what of it no kept shape can use.
  [[nodiscard]] node_fragments fragments(std::size_t i, const node_usage& used, const alloc::ledger& ledger) {
    sync(ledger);
    const node_state st =
        state_of(i, amount_of(used.requested, "cpu"), amount_of(used.requested, "memory"), ledger);
    const node_table& t = table(i);
    const std::size_t n = devices_[i].size();
    std::vector<char> usable(n, 0);
    std::size_t a = 0;
    for (const pod_shape& shape : shapes_) {
      const std::size_t first_ask = a;
      a += shape.asks.size();
      if (!fits(shape, first_ask, t, st, n)) continue;
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t b = first_ask; b < a && !usable[k]; ++b)
          usable[k] = t.need[b * n + k] <= st.free[k] + 1e-9 ? 1 : 0;
    }
    node_fragments out;
    out.fragmentation = fragmentation(i, st);
    for (std::size_t k = 0; k < n; ++k) {
      if (!t.counted[k]) continue;
      const node_device& d = devices_[i][k];
      if (!std::ranges::empty(d.view.counter_consumptions())) out.measured = false;
      const bool stranded = st.free[k] > 0 && !usable[k];
      out.devices.push_back({{d.slice->driver, d.slice->pool.name, d.view.name()}, st.free[k], stranded});
      out.free += st.free[k];
      if (stranded) out.stranded += st.free[k];
    }
    return out;
  }

  // The kept shapes, most common first, and how many pods the measure modelled and kept (a shape's weight is its
  // pods over the kept ones).
  [[nodiscard]] std::span<const pod_shape> shapes() const noexcept { return shapes_; }
  [[nodiscard]] std::size_t pods() const noexcept { return pods_; }
  [[nodiscard]] std::size_t kept_pods() const noexcept { return kept_pods_; }

 private:
  struct node_device {
    flatten::mixin_device_view view;
    const model::resource_slice* slice;
  };
  // What a node has left: cpu, memory, and each device's share left (0 to 1).
  struct node_state {
    std::int64_t cpu = 0, memory = 0;
    std::vector<double> free;
  };
  // Per node, worked out once: the share of each device each ask (of every kept shape, in order) needs, infinite
  // where the ask cannot take the device; and whether some ask may take it.
  struct node_table {
    std::vector<double> need;  // [ask][device]
    std::vector<char> counted;
  };
  // Per node, since its devices or its pods' cpu and memory last changed: its fragmentation, once worked out, and the
  // scores of the kinds of placements asked of it. A long queue of many kinds asks every node about each kind between
  // two changes of the node; each answer costs a pass over the shapes.
  struct asked_score {
    std::int64_t cpu, memory;  // the pod's
    std::uint64_t taken;       // digest of the devices and capacity the placement takes
    std::int64_t score;
  };
  struct node_scores {
    std::uint64_t stamp = 0;  // the node's version + 1, so that a fresh entry is stale
    std::int64_t cpu_used = 0, memory_used = 0;
    std::optional<double> before;
    std::vector<asked_score> scores;
  };
  static constexpr std::size_t kept_scores = 64;

  // The devices and capacity a placement takes, as one number (each name hashed whole, the hashes combined in order).
  static std::uint64_t digest(std::span<const model::allocation_result> results) {
    std::uint64_t h = results.size();
    const std::hash<std::string_view> text_hash;
    auto mix = [&h](std::uint64_t value) { h ^= value + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    for (const auto& allocation : results)
      for (const auto& r : allocation.results) {
        mix(text_hash(r.driver));
        mix(text_hash(r.pool));
        mix(text_hash(r.device));
        mix(r.consumed_capacity.size());
        for (const auto& [name, amount] : r.consumed_capacity) {
          mix(text_hash(name));
          mix(std::bit_cast<std::uint64_t>(amount.approximate_double()));
        }
      }
    return h;
  }

  // Requests with the same class and selectors take the same devices: one selection.
  std::size_t selection_of(const model::device_request_spec& spec) {
    std::vector<std::string> key{std::string(spec.device_class_name)};
    for (const auto& selector : spec.selectors) key.emplace_back(selector.cel_expression);
    const auto [it, fresh] = selection_index_.try_emplace(std::move(key), selections_.size());
    if (fresh) selections_.push_back(&spec);
    return it->second;
  }

  // Whether the request's class and selectors take the device; an unknown class or a failing selector takes nothing.
  bool selects(std::size_t which, const node_device& d) {
    const model::device_request_spec& spec = *selections_[which];
    const model::device_class* klass = class_named(spec.device_class_name);
    if (klass == nullptr) return false;
    auto check = [&](std::string_view expression) {
      auto program = programs_.find(expression);
      if (program == programs_.end()) {
        auto compiled = engine_.compile(expression);
        program = programs_
                      .emplace(std::string(expression),
                               compiled ? std::optional(std::move(compiled).value()) : std::nullopt)
                      .first;
      }
      if (!program->second) return false;
      const auto matches = engine_.matches(*program->second, d.view, d.slice->driver);
      return matches && *matches;
    };
    return std::ranges::all_of(klass->selectors, [&](const auto& sel) { return check(sel.cel_expression); }) &&
           std::ranges::all_of(spec.selectors, [&](const auto& sel) { return check(sel.cel_expression); });
  }

  const model::device_class* class_named(std::string_view name) const {
    for (const auto& c : s_.classes)
      if (c.object.meta.name == name) return &c.object;
    return nullptr;
  }

  // The share of device `d` an ask consumes (1: the whole device).
  static double share_asked(const node_device& d, const device_ask& ask) {
    if (!d.view.base().allow_multiple_allocations.value_or(false)) return 1;
    double share = 0;
    for (const auto e : d.view.capacities()) {
      const double total = e.value->value.approximate_double();
      if (total <= 0) continue;
      const quantity* asked = ask.capacity != nullptr ? model::find(ask.capacity->requests, e.name) : nullptr;
      double amount = total;  // no ask and no default: the whole capacity
      if (asked != nullptr)
        amount = asked->approximate_double();
      else if (e.value->request_policy && e.value->request_policy->default_value)
        amount = e.value->request_policy->default_value->approximate_double();
      share = std::max(share, amount / total);
    }
    return share;
  }

  const node_table& table(std::size_t i) {
    if (tables_[i]) return *tables_[i];
    node_table& t = tables_[i].emplace();
    const auto& devices = devices_[i];
    t.need.assign(asks_ * devices.size(), std::numeric_limits<double>::infinity());
    t.counted.assign(devices.size(), 0);
    // Many asks share a selection: each selector runs once per device.
    std::vector<signed char> selected(selections_.size() * devices.size(), -1);
    auto selected_by = [&](std::size_t selection, std::size_t k) {
      signed char& known = selected[selection * devices.size() + k];
      if (known < 0) known = selects(selection, devices[k]) ? 1 : 0;
      return known == 1;
    };
    std::size_t a = 0;
    for (const pod_shape& shape : shapes_)
      for (const device_ask& ask : shape.asks) {
        for (std::size_t k = 0; k < devices.size(); ++k)
          if (selected_by(ask.selection, k)) {
            t.need[a * devices.size() + k] = share_asked(devices[k], ask);
            t.counted[k] = 1;
          }
        ++a;
      }
    return t;
  }

  // Devices the ledger changed since last seen make their node's state and scores stale.
  void sync(const alloc::ledger& ledger) {
    if (ledger.generation() != generation_ || ledger.changes_seen() < seen_) {
      generation_ = ledger.generation();
      for (auto& v : versions_) ++v;
      seen_ = ledger.changes_seen();
      return;
    }
    for (const auto& id : ledger.changed_devices_since(seen_))
      if (const auto it = node_of_.find(id); it != node_of_.end()) ++versions_[it->second.first];
    seen_ = ledger.changes_seen();
  }

  node_state state_of(std::size_t i, std::int64_t cpu_used, std::int64_t memory_used, const alloc::ledger& ledger) {
    node_state st{resources_[i].allocatable_cpu - cpu_used, resources_[i].allocatable_memory - memory_used, {}};
    auto& [version, free] = free_[i];
    if (version != versions_[i] + 1) {  // stamps are versions + 1, so that a fresh entry is stale
      free.clear();
      for (const auto& d : devices_[i]) free.push_back(free_share(d, ledger));
      version = versions_[i] + 1;
    }
    st.free = free;
    return st;
  }

  static double free_share(const node_device& d, const alloc::ledger& ledger) {
    const alloc::device_ref id{d.slice->driver, d.slice->pool.name, d.view.name()};
    if (ledger.exclusively_allocated(id)) return 0;
    const alloc::capacity_amounts* given = ledger.given_out(id);
    const bool shared = d.view.base().allow_multiple_allocations.value_or(false);
    if (given == nullptr) return ledger.allocated(id) && !shared ? 0 : 1;
    double free = 1;
    for (const auto e : d.view.capacities()) {
      const double total = e.value->value.approximate_double();
      const quantity* out = model::find(*given, e.name);
      if (total > 0 && out != nullptr) free = std::min(free, std::max(0.0, 1 - out->approximate_double() / total));
    }
    return free;
  }

  // What one device result of a placement takes from the node's state.
  void take(std::size_t i, node_state& st, const model::device_request_allocation_result& r) const {
    if (r.admin_access.value_or(false)) return;
    const auto it = node_of_.find(alloc::device_ref{r.driver, r.pool, r.device});
    if (it == node_of_.end() || it->second.first != i) return;
    const std::size_t k = it->second.second;
    if (!r.share_id && r.consumed_capacity.empty()) {
      st.free[k] = 0;
      return;
    }
    for (const auto e : devices_[i][k].view.capacities()) {
      const double total = e.value->value.approximate_double();
      const quantity* consumed = model::find(r.consumed_capacity, e.name);
      if (total > 0 && consumed != nullptr)
        st.free[k] = std::max(0.0, st.free[k] - consumed->approximate_double() / total);
    }
  }

  // Whether a pod of `shape` (its asks from `first_ask` on in the table) fits the node's state: cpu, memory, and for
  // each ask as many devices it can take with enough share left as it asks for.
  static bool fits(const pod_shape& shape, std::size_t first_ask, const node_table& t, const node_state& st,
                   std::size_t n) {
    return st.cpu >= shape.cpu && st.memory >= shape.memory && devices_fit(shape.asks, first_ask, t, st, n);
  }
  // Whether the node's devices take `asks` (from `first_ask` on in the table): for each, as many devices with enough
  // share left as it asks for.
  static bool devices_fit(std::span<const device_ask> asks, std::size_t first_ask, const node_table& t,
                          const node_state& st, std::size_t n) {
    std::size_t a = first_ask;
    for (const device_ask& ask : asks) {
      std::int64_t takers = 0;
      for (std::size_t k = 0; k < n; ++k)
        if (t.need[a * n + k] <= st.free[k] + 1e-9 && st.free[k] > 0) ++takers;
      if (takers < ask.count) return false;
      ++a;
    }
    return true;
  }
  // The free share of the node's counted devices that one of `asks` can take.
  static double usable_share(std::size_t first_ask, std::size_t asks, const node_table& t, const node_state& st,
                             std::size_t n) {
    double usable = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (!t.counted[k] || st.free[k] <= 0) continue;
      for (std::size_t b = first_ask; b < first_ask + asks; ++b)
        if (t.need[b * n + k] <= st.free[k] + 1e-9) {
          usable += st.free[k];
          break;
        }
    }
    return usable;
  }

  // The node's fragmentation in devices, over the kept shapes: for each, the free share of the node's counted devices
  // a pod of that shape could not use (all of it when such a pod does not fit the node). Shapes that differ only in
  // cpu and memory (most of a trace's) ask for the same devices: their devices are weighed once.
  double fragmentation(std::size_t i, const node_state& st) {
    const node_table& t = table(i);
    const std::size_t n = devices_[i].size();
    double idle = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (t.counted[k]) idle += st.free[k];
    for (std::size_t g = 0; g < ask_sets_.size(); ++g) {
      const auto [first_ask, shape] = ask_sets_[g];
      const std::vector<device_ask>& asks = shapes_[shape].asks;
      ask_set_fits_[g] = devices_fit(asks, first_ask, t, st, n) ? 1 : 0;
      ask_set_usable_[g] = ask_set_fits_[g] != 0 ? usable_share(first_ask, asks.size(), t, st, n) : 0;
    }
    double total = 0;
    for (std::size_t s = 0; s < shapes_.size(); ++s) {
      const pod_shape& shape = shapes_[s];
      const std::size_t g = ask_set_of_[s];
      const bool fit = st.cpu >= shape.cpu && st.memory >= shape.memory && ask_set_fits_[g] != 0;
      total += shape.weight * (idle - (fit ? ask_set_usable_[g] : 0.0));
    }
    return total;
  }

  const model::scenario& s_;
  const Engine& engine_;
  std::vector<std::vector<node_device>> devices_;  // per node of the list: its devices
  std::vector<node_resources> resources_;          // per node: its allocatable cpu and memory
  // Each node-local device: its node and its place among the node's devices.
  std::unordered_map<alloc::device_ref, std::pair<std::size_t, std::size_t>, alloc::device_ref_hash> node_of_;
  std::vector<pod_shape> shapes_;
  std::size_t asks_ = 0;  // over every kept shape
  // The kept shapes' distinct sets of asks: where the first shape with the set has its asks in the table, and that
  // shape; per kept shape, its set; per set, while one node is weighed: whether its devices take the asks, and the
  // share of them they can use.
  struct ask_set {
    std::size_t first_ask = 0, shape = 0;
  };
  std::vector<ask_set> ask_sets_;
  std::vector<std::size_t> ask_set_of_;
  std::vector<char> ask_set_fits_;
  std::vector<double> ask_set_usable_;
  std::size_t pods_ = 0, kept_pods_ = 0;  // the pods the last workload had that the measure models, and kept
  std::vector<const model::device_request_spec*> selections_;  // a request of each selection
  std::map<std::vector<std::string>, std::size_t> selection_index_;
  std::map<std::string, std::optional<typename Engine::program>, std::less<>> programs_;
  std::vector<std::optional<node_table>> tables_;
  std::vector<std::uint64_t> versions_;  // per node: bumped when the ledger changes one of its devices
  std::vector<std::pair<std::uint64_t, std::vector<double>>> free_;  // per node: version stamp, devices' share left
  std::vector<node_scores> scores_;
  std::uint64_t generation_ = 0;
  std::size_t seen_ = 0;
  bool on_ = false;
};

}  // namespace dra::sched
