// The funnel's implementation (included by explain_funnel.hpp): lays out a node's devices and counters, walks a
// request through the stages, and decides the cause with a sentence naming the blockers.
#pragma once

#include <dra/sched/detail/diagnosis_funnel.hpp>

namespace dra::sched {

template <alloc::selector_engine Engine>
const detail::funnel_node& funnel_builder<Engine>::lay_out(const model::node& node) {
  auto cached = nodes_.find(node.meta.name);
  if (cached != nodes_.end()) return cached->second;
  detail::funnel_node n;
  std::vector<const model::resource_slice*> for_node;
  if (auto it = slices_on_node_.find(node.meta.name); it != slices_on_node_.end()) for_node = it->second;
  for_node.insert(for_node.end(), shared_slices_.begin(), shared_slices_.end());
  auto gathered = [&]() -> result<std::vector<alloc::pool>> {
    if (!pool_source_) return alloc::gather_pools(for_node, node, f_, by_pool_);
    auto known = pool_source_(node);
    if (!known) return std::move(known).error();
    return std::vector<alloc::pool>(known->begin(), known->end());
  }();
  if (!gathered)
    n.error = gathered.error().message;
  else
    n.pools = std::move(gathered).value();
  for (const auto& pl : n.pools) {
    if (pl.incomplete || pl.invalid) {
      // Devices the pool would offer this node: its slices for the node, however many there are.
      detail::funnel_node::bad_pool bad{alloc::pool_name(pl.key), pl.invalid ? pl.invalid_reason : "", 0};
      for (const auto* s : for_node)
        if (s->driver == pl.key.driver && s->pool.name == pl.key.pool) bad.devices += s->devices.size();
      n.bad_pools.push_back(std::move(bad));
      continue;
    }
    const auto first_set = static_cast<std::uint32_t>(n.sets.size());
    const alloc::counter_numbering counter_numbers(pl, static_cast<std::uint32_t>(n.counters.size()));
    std::vector<std::size_t> counters_in_set;  // per set of this pool
    if (f_.partitionable_devices)
      for (const auto& set : pl.counter_sets) {
        n.sets.push_back({set.name(), {}});
        counters_in_set.push_back(0);
        for (const auto e : set.counters()) {
          ++counters_in_set.back();
          n.counters.push_back({static_cast<std::uint32_t>(n.sets.size() - 1), e.name, *e.value});
        }
      }
    auto draws_of = [&](const flatten::mixin_device_view& view) {
      std::vector<detail::funnel_node::draw> draws;
      if (f_.partitionable_devices)
        counter_numbers.for_each_draw(view, [&](std::uint32_t counter, const quantity& amount) {
          draws.push_back({counter, amount});
        });
      return draws;
    };
    const std::size_t first_device = n.devices.size();
    for (const auto* slice : pl.device_slices)
      for (const auto view : flatten::device_views(*slice)) {
        detail::funnel_node::device d;
        d.slice = slice;
        d.view = view;
        d.id = alloc::device_ref{slice->driver, slice->pool.name, view.name()};
        d.shared = f_.consumable_capacity && view.base().allow_multiple_allocations.value_or(false);
        d.draws = draws_of(view);
        n.devices.push_back(std::move(d));
      }
    if (n.sets.size() == first_set) continue;
    std::size_t next_device = first_device;  // the device slices' devices were laid out above, in this order
    for (const auto* group : {&pl.device_slices, &pl.other_slices})
      for (const auto* slice : *group)
        for (const auto view : flatten::device_views(*slice)) {
          std::span<const detail::funnel_node::draw> draws;
          if (group == &pl.device_slices) {
            draws = n.devices[next_device++].draws;
          } else if (auto own = draws_of(view); !own.empty()) {
            draws = n.other_draws.emplace_back(std::move(own));
          }
          if (draws.empty()) continue;
          // A device drawing every counter of a set in full is the physical device its partitions share.
          std::vector<std::pair<std::uint32_t, std::size_t>> full;  // set, its counters drawn in full
          for (const auto& d : draws) {
            const auto& counter = n.counters[d.counter];
            if (!(d.amount == counter.total)) continue;
            auto it = std::ranges::find(full, counter.set, &std::pair<std::uint32_t, std::size_t>::first);
            if (it == full.end())
              full.emplace_back(counter.set, 1);
            else
              ++it->second;
          }
          for (const auto& [set, count] : full)
            if (n.sets[set].whole_device.empty() && count == counters_in_set[set - first_set])
              n.sets[set].whole_device = std::string(view.name());
          n.holders.push_back({alloc::device_ref{slice->driver, slice->pool.name, view.name()}, draws});
        }
  }
  return nodes_.emplace(std::string(node.meta.name), std::move(n)).first->second;
}

template <alloc::selector_engine Engine>
const detail::counter_usage& funnel_builder<Engine>::usage(const detail::funnel_node& n) {
  // Kept while the ledger's versions of the node's pools stay the same: only allocations there change it.
  std::vector<std::uint64_t> versions;
  for (const auto& pl : n.pools) versions.push_back(state_->pool_version(pl.key.driver, pl.key.pool));
  auto& [seen, u] = usage_[&n];
  if (!seen.empty() && seen == versions) return u;
  seen = std::move(versions);
  u = {};
  u.used.assign(n.counters.size(), quantity{});
  u.consumers.resize(n.counters.size());
  u.whole_held.resize(n.sets.size());
  for (const auto& h : n.holders) {
    if (!state_->allocated(h.id)) continue;
    auto owners = state_->owners(h.id);
    std::vector<std::string> names(owners.begin(), owners.end());
    if (names.empty()) names.emplace_back("an allocated claim");
    for (const auto& d : h.draws) {
      if (auto sum = u.used[d.counter].add(d.amount)) u.used[d.counter] = *sum;
      for (const auto& owner : names) detail::add_unique(u.consumers[d.counter], owner);
      const auto set = n.counters[d.counter].set;
      if (n.sets[set].whole_device == h.id.device)
        for (const auto& owner : names) detail::add_unique(u.whole_held[set], owner);
    }
  }
  return u;
}

template <alloc::selector_engine Engine>
std::vector<std::vector<std::int8_t>*> funnel_builder<Engine>::verdicts_for(
    const detail::funnel_node& n, std::span<const program_entry* const> programs) {
  std::vector<std::vector<std::int8_t>*> out;
  for (const program_entry* p : programs) {
    auto& known = verdicts_[std::pair{&n, p}];
    if (known.empty()) known.assign(n.devices.size(), -1);
    out.push_back(&known);
  }
  return out;
}

template <alloc::selector_engine Engine>
int funnel_builder<Engine>::selectors_match(const model::node& node, std::span<const program_entry* const> programs,
                                            std::span<std::vector<std::int8_t>* const> known, std::uint32_t ix,
                                            const detail::funnel_node::device& d, std::string& error) {
  std::optional<std::optional<dra::error>> unusable;  // the device's attribute check, made when first needed
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const program_entry& p = *programs[i];
    if (!p.program) {
      error = "CEL compile error: " + p.error;
      return -1;
    }
    std::int8_t& verdict = (*known[i])[ix];
    if (verdict == 0) return 0;
    if (verdict == 1) continue;
    if (verdict_source_)
      if (const auto known = verdict_source_(node, p.expression, d.id, d.view.base())) {
        verdict = *known ? 1 : 0;
        if (!*known) return 0;
        continue;
      }
    // One that reads only the driver is evaluated once per driver.
    auto m = [&]() -> result<bool> {
      if constexpr (requires { engine_->unusable_attributes(d.view); }) {
        if (p.program->reads_only_driver) {
          if (!unusable) unusable = engine_->unusable_attributes(d.view);
          if (*unusable) return **unusable;
          auto [it, inserted] = by_driver_.try_emplace(std::pair{&p, d.slice->driver}, false);
          if (inserted) it->second = engine_->evaluate(*p.program, d.view, d.slice->driver);
          return it->second;
        }
      }
      return engine_->matches(*p.program, d.view, d.slice->driver);
    }();
    if (!m) {
      error = "CEL runtime error: " + m.error().message;
      return -1;
    }
    verdict = *m ? 1 : 0;
    if (!*m) return 0;
  }
  return 1;
}

namespace detail {

// How far a set of usable devices goes for one request: counted, packed into counters, and grouped by constraints.
struct fit_check {
  std::size_t needed = 0;
  const funnel_node* node = nullptr;
  const counter_usage* use = nullptr;
  struct constraint {
    std::string label;  // "matchAttribute x" / "distinctAttribute x"
    bool match = true;
    std::vector<std::vector<std::string>> values;  // per device of the node: its values of the attribute
  };
  std::vector<constraint> constraints;
  // Shared devices that already have allocations (ascending): they draw no counters again.
  std::vector<std::uint32_t> drawing_nothing;

  // How many devices of `set` fit in the counters left together (counting stops once `needed` fit). First in the
  // search's order; when that falls short, every choice is tried (a device skipped early may leave room for two), up
  // to a budget past which `needed` is returned: a shortfall is reported only when it is proven.
  [[nodiscard]] std::size_t packed(const std::vector<std::uint32_t>& set) const {
    std::size_t free = 0;
    std::vector<std::uint32_t> drawing;
    for (auto ix : set) {
      if (node->devices[ix].draws.empty() || std::binary_search(drawing_nothing.begin(), drawing_nothing.end(), ix))
        ++free;
      else
        drawing.push_back(ix);
    }
    if (free >= needed) return free;
    std::vector<quantity> used = use->used;
    // Adds the device's draws when all of them fit, in place; `give_back` undoes it.
    auto take = [&](std::uint32_t ix) {
      const auto& draws = node->devices[ix].draws;
      for (const auto& d : draws) {
        auto sum = used[d.counter].add(d.amount);
        if (!sum || *sum > node->counters[d.counter].total) return false;
      }
      for (const auto& d : draws) used[d.counter] = *used[d.counter].add(d.amount);
      return true;
    };
    auto give_back = [&](std::uint32_t ix) {
      for (const auto& d : node->devices[ix].draws)
        if (auto rest = used[d.counter].sub(d.amount)) used[d.counter] = *rest;
    };
    const std::size_t goal = needed - free;
    std::size_t greedy = 0;
    for (auto ix : drawing) greedy += take(ix) ? 1 : 0;
    if (greedy >= goal) return needed;
    std::size_t best = greedy;
    long budget = 2'000;
    // Depth-first over the devices from `from`, `taken` of them in `used` already.
    auto search = [&](auto& self, std::size_t from, std::size_t taken) -> void {
      best = std::max(best, taken);
      if (best >= goal || --budget < 0) return;
      for (std::size_t i = from; i < drawing.size() && taken + (drawing.size() - i) > best; ++i) {
        if (!take(drawing[i])) continue;
        self(self, i + 1, taken + 1);
        give_back(drawing[i]);
        if (best >= goal || budget < 0) return;
      }
    };
    used = use->used;
    search(search, 0, 0);
    if (budget < 0) return needed;
    return free + best;
  }
  // For each constraint, its best (largest group or distinct values) over `set`; the weakest one is returned.
  [[nodiscard]] std::pair<std::size_t, const constraint*> constrained(const std::vector<std::uint32_t>& set) const {
    std::pair<std::size_t, const constraint*> weakest{set.size(), nullptr};
    for (const auto& c : constraints) {
      std::map<std::string, std::size_t> groups;
      for (auto ix : set)
        for (const auto& v : c.values[ix]) ++groups[v];
      std::size_t best = 0;
      if (c.match) {
        for (const auto& [value, count] : groups) best = std::max(best, count);
      } else {
        best = groups.size();
      }
      if (weakest.second == nullptr || best < weakest.first) weakest = {best, &c};
    }
    return weakest;
  }
  [[nodiscard]] bool fits(const std::vector<std::uint32_t>& set, bool counted) const {
    if (set.size() < needed) return false;
    if (counted && packed(set) < needed) return false;
    return constraints.empty() || constrained(set).first >= needed;
  }
};

[[nodiscard]] inline std::string device_name(const alloc::device_ref& id) {
  return dra::concat(id.driver, "/", id.pool, "/", id.device);
}

}  // namespace detail

template <alloc::selector_engine Engine>
std::vector<std::vector<request_funnel>> funnel_builder<Engine>::claim_on_node(const model::node& node,
                                                                              const model::resource_claim& claim,
                                                                              bool keep_devices) {
  const detail::funnel_node& n = lay_out(node);
  const detail::counter_usage& use = usage(n);
  std::vector<std::vector<request_funnel>> out;
  for (const auto& request : claim.spec.requests) {
    std::vector<request_funnel> alternatives;
    if (!request.first_available.empty()) {
      for (const auto& sub : request.first_available)
        alternatives.push_back(run(node, n, use, claim, request, sub, sub.name, keep_devices));
    } else {
      static const model::exact_device_request missing{};
      alternatives.push_back(
          run(node, n, use, claim, request, request.exactly ? *request.exactly : missing, {}, keep_devices));
    }
    out.push_back(std::move(alternatives));
  }
  return out;
}

}  // namespace dra::sched

#include <dra/sched/detail/diagnosis_request.hpp>
