// The cause of a request's funnel (included by explain_request.hpp): the first stage that takes away devices without
// which the request would fit, and the sentence that says so.
#pragma once

#include <dra/sched/detail/diagnosis_request.hpp>

namespace dra::sched {

namespace detail {

[[nodiscard]] inline std::string constraint_shortfall(const fit_check& check, const std::vector<std::uint32_t>& set) {
  auto [best, which] = check.constrained(set);
  if (which == nullptr) return {};
  if (which->match)
    return dra::concat("at most ", std::to_string(best), " share one value of ", which->label);
  return dra::concat("only ", std::to_string(best), " distinct values of ", which->label);
}

[[nodiscard]] inline std::string bad_pools_sentence(const funnel_node& n) {
  std::vector<std::string> parts;
  for (const auto& bad : n.bad_pools)
    parts.push_back(bad.reason.empty()
                        ? dra::concat("pool ", bad.name, " is incomplete (being updated; ",
                                              std::to_string(bad.devices), " ", devices_word(bad.devices),
                                              " for this node)")
                        : dra::concat("pool ", bad.name, " is invalid (", bad.reason, ")"));
  return prose_list(parts);
}

[[nodiscard]] inline std::string with_errors(std::string message, const request_funnel& out,
                                             const funnel_findings& found) {
  if (out.selector_errors == 0) return message;
  return dra::concat(message, " (", std::to_string(out.selector_errors), " CEL runtime ",
                             out.selector_errors == 1 ? "error" : "errors", ": ", prose_list(found.cel_errors, 2), ")");
}

}  // namespace detail

template <alloc::selector_engine Engine>
void funnel_builder<Engine>::decide(request_funnel& out, const detail::funnel_node& n, const detail::fit_check& check,
                                    const detail::funnel_findings& found) {
  auto num = [](std::size_t v) { return std::to_string(v); };
  const std::string needed = num(out.needed) + " needed";
  using code = model::explanation_code;
  auto set_cause = [&](code c, std::string message) {
    out.verdict = c;
    out.message = std::move(message);
  };
  // Pools that are being updated or are invalid may hold the devices missing here.
  auto blame_pools = [&] {
    if (n.bad_pools.empty()) return false;
    set_cause(code::pool, detail::bad_pools_sentence(n));
    return true;
  };
  if (out.reachable == 0) {
    set_cause(code::node_selection, n.error.empty() ? std::string("no pool offers devices to this node")
                                                     : concat("node selection failed: ", n.error));
    return;
  }
  if (out.in_usable_pools == 0 && blame_pools()) return;
  if (out.class_match == 0) {
    if (blame_pools()) return;
    set_cause(code::device_class,
              detail::with_errors(concat("none of the ", num(out.in_usable_pools), " ",
                                         detail::devices_word(out.in_usable_pools), " matches device class ",
                                         found.class_name),
                                  out, found));
    return;
  }
  if (out.selector_match == 0) {
    if (blame_pools()) return;
    set_cause(code::selector, detail::with_errors(concat(num(out.class_match), " ",
                                                          detail::devices_word(out.class_match), " of class ",
                                                          found.class_name, ", none matches the request's selectors"),
                                                   out, found));
    return;
  }
  const auto& matching = found.matching;
  if (!check.fits(matching, false)) {
    if (blame_pools()) return;
    if (matching.size() >= out.needed) {
      set_cause(code::constraint, concat(num(matching.size()), " matching devices, but ",
                                          detail::constraint_shortfall(check, matching), ", ", needed));
      return;
    }
    std::vector<std::string> names;
    for (auto ix : matching) names.emplace_back(n.devices[ix].id.device);
    set_cause(code::count,
              detail::with_errors(concat(num(out.needed), " ", detail::devices_word(out.needed), " asked, ",
                                         num(matching.size()), found.narrowed ? " match" : " exist", " (",
                                         detail::prose_list(names), ")"),
                                  out, found));
    return;
  }
  // Availability: the first stage after which the request no longer fits.
  auto also = [&](const std::vector<std::uint32_t>& set, bool counted) {
    if (set.size() < out.needed) return std::string();
    if (counted && check.packed(set) < out.needed)
      return concat("; only ", num(check.packed(set)), " fit in the counters left together");
    std::string shortfall = detail::constraint_shortfall(check, set);
    return shortfall.empty() ? shortfall : "; " + shortfall;
  };
  const auto& after = found.after;
  if (!check.fits(after[0], false)) {
    set_cause(code::in_use, concat(num(out.free), " of ", num(matching.size()), " ", detail::devices_word(matching.size()),
                                    " free, ", needed, " (", detail::grouped(found.held, " held by "), ")",
                                    also(after[0], false)));
  } else if (!check.fits(after[1], true)) {
    set_cause(code::counters, concat(num(out.counters_left), " of ", num(out.free), " free ",
                                      detail::devices_word(out.free), " have counters left, ", needed, " (",
                                      detail::joined(found.counter_sentences), ")", also(after[1], true)));
  } else if (!check.fits(after[2], true)) {
    set_cause(code::capacity, concat(num(out.capacity_left), " of ", num(out.counters_left), " ",
                                      detail::devices_word(out.counters_left), " have capacity left, ", needed, " (",
                                      detail::grouped(found.short_capacity, ": "), ")", also(after[2], true)));
  } else if (!check.fits(after[3], true)) {
    set_cause(code::taint, concat(num(out.tolerated), " of ", num(out.capacity_left), " ",
                                   detail::devices_word(out.capacity_left), " tolerated, ", needed, " (",
                                   detail::grouped(found.tainted, ": "), ")", also(after[3], true)));
  } else {
    set_cause(code::fits, concat(num(out.tolerated), " usable ", detail::devices_word(out.tolerated), ", ", needed));
  }
}

}  // namespace dra::sched
