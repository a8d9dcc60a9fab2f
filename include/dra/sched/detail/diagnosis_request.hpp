// One request through the funnel (included by explain_funnel_impl.hpp): each device's stage, then the cause and a
// sentence naming what blocks the request.
#pragma once

#include <dra/sched/detail/diagnosis_funnel_impl.hpp>

namespace dra::sched {

namespace detail {

// The sentence for a counter set whose `groups` of counters are used up: who holds its whole device, or who uses them.
[[nodiscard]] inline std::string set_sentence(const funnel_node& n, const counter_usage& use, std::uint32_t set,
                                              std::vector<std::string> groups, const std::vector<std::string>& claims) {
  const auto& info = n.sets[set];
  if (!use.whole_held[set].empty())
    return dra::concat(info.whole_device, " held whole by ", prose_list(use.whole_held[set]));
  // Numbered counters (memory slices) are how partitions of one device exclude each other: name those alone.
  std::vector<std::string> numbered;
  for (const auto& g : groups)
    if (g.ends_with("s") && g.find(' ') != std::string::npos) numbered.push_back(g);
  if (!numbered.empty()) groups = std::move(numbered);
  return dra::concat(prose_list(groups), " of ",
                             info.whole_device.empty() ? "counter set " + std::string(info.name) : info.whole_device,
                             " used by ", prose_list(claims));
}

// Marks the counters the device cannot draw from any more; false when it can draw all it needs.
inline bool mark_short_counters(const funnel_node& n, const counter_usage& use, const funnel_node::device& d,
                                std::vector<char>& short_counters) {
  bool blocked = false;
  for (const auto& draw : d.draws) {
    auto sum = use.used[draw.counter].add(draw.amount);
    if (sum && *sum <= n.counters[draw.counter].total) continue;
    short_counters[draw.counter] = 1;
    blocked = true;
  }
  return blocked;
}

// One sentence per counter set with marked counters: what is used up and by whom.
[[nodiscard]] inline std::vector<std::string> counter_sentences(const funnel_node& n, const counter_usage& use,
                                                                const std::vector<char>& short_counters) {
  std::vector<std::string> out;
  for (std::uint32_t set = 0; set < n.sets.size(); ++set) {
    std::vector<std::string> groups, claims;
    for (std::uint32_t c = 0; c < n.counters.size(); ++c) {
      if (n.counters[c].set != set || short_counters[c] == 0) continue;
      add_unique(groups, counter_group(n.counters[c].name));
      for (const auto& owner : use.consumers[c]) add_unique(claims, owner);
    }
    if (!groups.empty()) out.push_back(set_sentence(n, use, set, std::move(groups), claims));
  }
  return out;
}

// Why one device is out for counters, for `dra explain`: its sets' sentences and one used-up counter.
[[nodiscard]] inline std::string counters_blocker(const funnel_node& n, const counter_usage& use,
                                                  const funnel_node::device& d) {
  std::vector<char> mine(n.counters.size(), 0);
  if (!mark_short_counters(n, use, d, mine)) return {};
  std::string detail;
  for (const auto& draw : d.draws) {
    const auto& c = n.counters[draw.counter];
    if (mine[draw.counter] == 0) continue;
    // A numbered counter (a memory slice) says most about partitions.
    if (!detail.empty() && counter_group(c.name) == c.name) continue;
    auto left = c.total.sub(use.used[draw.counter]);
    detail = dra::concat(c.name, " of ", n.sets[c.set].name, ": ", left ? left->to_string() : std::string("0"),
                                 " left, ", draw.amount.to_string(), " asked");
    if (counter_group(c.name) != c.name) break;
  }
  return dra::concat(joined(counter_sentences(n, use, mine)), " (", detail, ")");
}

// Why a device cannot give the request its capacity (empty when it can): KEP-5075's consumable capacity.
[[nodiscard]] inline std::string capacity_blocker(const alloc::ledger& state, const funnel_node::device& d,
                                                  const model::device_request_spec& spec) {
  using reason = alloc::capacity_shortfall::reason;
  const alloc::capacity_holdings held{state.given_out(d.id), nullptr};
  const auto shortfall = alloc::capacity_shortfall_of(d.view, spec, &held);
  if (!shortfall) return {};
  const std::string_view name = shortfall->capacity;
  if (shortfall->why == reason::no_such_capacity) return dra::concat("has no capacity ", name);
  const std::string amount = shortfall->amount.to_string();
  if (shortfall->why == reason::against_policy)
    return dra::concat(name, ": ", amount, " is not allowed by the request policy");
  std::string rounding;
  if (const quantity* requested = spec.capacity ? model::find(spec.capacity->requests, name) : nullptr;
      requested != nullptr && !(shortfall->amount == *requested))
    rounding = dra::concat(" (", requested->to_string(), " rounded by the request policy)");
  auto left = d.view.capacity(name)->value.sub(shortfall->held);
  std::string holders;
  auto owners = state.owners(d.id);
  if (!owners.empty()) holders = ", shared by " + prose_list(std::vector<std::string>(owners.begin(), owners.end()));
  return dra::concat(name, " ", left ? left->to_string() : std::string("0"), " left, ", amount, " asked", rounding,
                     holders);
}

// The first taint of the device (its own, then those DeviceTaintRules add) the request does not
// tolerate, as key=value:Effect; empty when none.
[[nodiscard]] inline std::string untolerated_taint(const model::device& d, const alloc::device_ref& id,
                                                   std::span<const model::device_taint_rule* const> rules,
                                                   const model::device_request_spec& spec) {
  const model::device_taint* taint = alloc::blocking_taint(d, alloc::taints_from_rules(rules, id), spec);
  if (taint == nullptr) return {};
  return dra::concat(taint->key, taint->value.empty() ? "" : "=", taint->value, ":", taint->effect);
}

// "gpu-0 and gpu-1 held by default/a; gpu-2 held by default/b": devices grouped by what blocks them.
template <class Text>
[[nodiscard]] std::string grouped(const std::vector<std::pair<Text, Text>>& device_and_blocker,
                                  std::string_view joiner) {
  std::vector<std::pair<std::string_view, std::vector<std::string>>> groups;
  for (const auto& entry : device_and_blocker) {  // no structured binding: clang 14 cannot capture one
    const std::string_view blocker = entry.second;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == blocker; });
    if (it == groups.end()) it = groups.insert(groups.end(), {blocker, {}});
    it->second.emplace_back(entry.first);
  }
  std::vector<std::string> parts;
  for (const auto& [blocker, devices] : groups)
    parts.push_back(dra::concat(prose_list(devices, 4), joiner, blocker));
  return prose_list(parts, 4);
}

// The constraints of `claim` that apply to request `request` (or its subrequest, named `subrequest` in full), each
// with every device's values of its attribute, for the funnel's last stage.
inline fit_check constraint_check(const funnel_node& n, const counter_usage& use, const model::resource_claim& claim,
                                  model::text request, std::string_view subrequest) {
  fit_check check;
  check.node = &n;
  check.use = &use;
  for (const auto& c : claim.spec.constraints) {
    bool applies = c.requests.empty();
    for (const auto& r : c.requests) applies = applies || r == request || (!subrequest.empty() && r == subrequest);
    if (!applies || (!c.match_attribute && !c.distinct_attribute)) continue;
    fit_check::constraint k;
    k.match = c.match_attribute.has_value();
    const std::string_view attribute = k.match ? *c.match_attribute : *c.distinct_attribute;
    k.label = dra::concat(k.match ? "matchAttribute " : "distinctAttribute ", attribute);
    for (const auto& d : n.devices)
      k.values.push_back(attribute_values(alloc::lookup_attribute(d.view, d.slice->driver, attribute)));
    check.constraints.push_back(std::move(k));
  }
  return check;
}

// The funnel's counts after each stage (`after`: the devices left after held, counters, capacity, taints), and the
// best the request's constraints allow of the last.
template <class After>
void count_stages(request_funnel& out, fit_check& check, const After& after) {
  out.free = after[0].size();
  out.counters_left = after[1].size();
  out.capacity_left = after[2].size();
  out.tolerated = after[3].size();
  check.needed = out.needed;
  if (!check.constraints.empty()) {
    auto [best, which] = check.constrained(after[3]);
    out.constraint = which->label;
    out.constraint_best = best;
  }
}

}  // namespace detail

template <alloc::selector_engine Engine>
request_funnel funnel_builder<Engine>::run(const model::node& node, const detail::funnel_node& n,
                                           const detail::counter_usage& use, const model::resource_claim& claim,
                                           const model::device_request& request, const model::device_request_spec& spec,
                                           std::string_view sub, bool keep_devices) {
  request_funnel out;
  out.claim = alloc::object_name(claim.meta);
  out.request = sub.empty() ? std::string(request.name) : dra::concat(request.name, "/", sub);
  out.all_mode = spec.mode == model::allocation_mode::all;
  out.needed = spec.count > 0 ? static_cast<std::size_t>(spec.count) : 0;
  const bool admin = sub.empty() && request.exactly && request.exactly->admin_access.value_or(false);
  const model::device_class* klass = nullptr;
  if (auto it = classes_.find(spec.device_class_name); it != classes_.end()) klass = it->second;

  detail::fit_check check = detail::constraint_check(n, use, claim, request.name, sub.empty() ? "" : out.request);

  for (const auto& bad : n.bad_pools) out.reachable += bad.devices;
  std::vector<const program_entry*> class_programs, request_programs;
  if (klass != nullptr)
    for (const auto& selector : klass->selectors) class_programs.push_back(&compile(selector.cel_expression));
  for (const auto& selector : spec.selectors) request_programs.push_back(&compile(selector.cel_expression));
  const auto class_verdicts = verdicts_for(n, class_programs), request_verdicts = verdicts_for(n, request_programs);
  detail::funnel_findings found;
  auto& after = found.after;
  auto& matching = found.matching;
  auto& held = found.held;
  std::vector<char> short_counters(n.counters.size(), 0);
  const std::string* last_owners = nullptr;
  auto& short_capacity = found.short_capacity;
  auto& tainted = found.tainted;
  auto& cel_errors = found.cel_errors;
  std::size_t all_takes = 0;  // with All: the devices the request must take
  using stage = model::funnel_stage;
  for (std::uint32_t ix = 0; ix < n.devices.size(); ++ix) {
    const auto& d = n.devices[ix];
    if (d.slice->per_device_node_selection.value_or(false)) {
      const model::device& base = d.view.base();
      auto m = alloc::node_matches(node, base.node_name.value_or(model::text{}), base.all_nodes.value_or(false),
                                   base.node_selector ? &*base.node_selector : nullptr);
      if (!m || !*m) continue;
    }
    ++out.reachable;
    ++out.in_usable_pools;
    device_verdict v{keep_devices ? detail::device_name(d.id) : std::string{}, stage::usable, {}};
    auto drop = [&](stage s, std::string why) {
      v.dropped = s;
      v.why = std::move(why);
    };
    std::string error;
    const int in_class = klass == nullptr ? 0 : selectors_match(node, class_programs, class_verdicts, ix, d, error);
    const bool binding_off = !f_.device_binding_and_status && !d.view.base().binding_conditions.empty();
    if (in_class <= 0 || binding_off) {
      if (in_class < 0) ++out.selector_errors, detail::add_unique(cel_errors, error);
      drop(stage::device_class, in_class < 0 ? "class " + std::string(klass->meta.name) + ": " + error : "");
    } else if (++out.class_match; selectors_match(node, request_programs, request_verdicts, ix, d, error) != 1) {
      if (!error.empty()) ++out.selector_errors, detail::add_unique(cel_errors, error);
      drop(stage::selector, error);
    } else {
      ++out.selector_match;
      matching.push_back(ix);
      // All takes every matching device with room for its capacity ask, in use or not (as the allocator does).
      if (out.all_mode && !(f_.consumable_capacity && !detail::capacity_blocker(*state_, d, spec).empty()))
        ++all_takes;
      const std::string_view short_name = d.id.device;
      const auto* in_ledger = state_->find(d.id);
      const bool counters_free = d.shared && in_ledger != nullptr && in_ledger->given_out;
      if (counters_free) check.drawing_nothing.push_back(ix);
      std::string why;
      if (!admin && in_ledger != nullptr && in_ledger->exclusive) {
        const std::span<const std::string> owners = in_ledger->owners;
        // Devices of one holder share its owner list: its words are built once.
        if (owners.data() != last_owners || held.empty()) {
          last_owners = owners.data();
          found.holder_words.push_back(
              owners.empty() ? std::string("another claim")
                             : detail::prose_list(std::vector<std::string>(owners.begin(), owners.end())));
        }
        held.emplace_back(short_name, found.holder_words.back());
        if (keep_devices) drop(stage::in_use, dra::concat("held by ", found.holder_words.back()));
      } else if (after[0].push_back(ix); !counters_free && !d.draws.empty() &&
                 detail::mark_short_counters(n, use, d, short_counters)) {
        if (keep_devices) drop(stage::counters, detail::counters_blocker(n, use, d));
      } else if (after[1].push_back(ix);
                 f_.consumable_capacity && !(why = detail::capacity_blocker(*state_, d, spec)).empty()) {
        short_capacity.emplace_back(short_name, why);
        drop(stage::capacity, why);
      } else if (after[2].push_back(ix); f_.device_taints && !(why = detail::untolerated_taint(d.view.base(), d.id, rules_, spec)).empty()) {
        tainted.emplace_back(short_name, "taint " + why);
        drop(stage::taint, "taint " + why);
      } else {
        after[3].push_back(ix);
      }
    }
    if (keep_devices) out.devices.push_back(std::move(v));
  }
  if (out.all_mode) out.needed = std::max<std::size_t>(all_takes, 1);
  found.counter_sentences = detail::counter_sentences(n, use, short_counters);
  found.class_name = klass != nullptr ? std::string_view(klass->meta.name) : std::string_view(spec.device_class_name);
  found.narrowed = !spec.selectors.empty();
  detail::count_stages(out, check, after);
  decide(out, n, check, found);
  return out;
}

}  // namespace dra::sched

#include <dra/sched/detail/diagnosis_cause.hpp>
