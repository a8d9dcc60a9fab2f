// Explanations: why a unit of work fits on no node (per node, per request, the funnel of device counts and the first
// stage that rules the node out), grouped across nodes the way kube-scheduler reports "0/N nodes are available".
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/model/outcome.hpp>
#include <dra/sched/detail/diagnosis_funnel.hpp>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sched {

// One node tried for a unit of work: every request's funnel and the verdict.
struct node_diagnosis {
  std::string node;
  struct claim_funnels {
    std::string claim;
    std::vector<std::vector<request_funnel>> requests;  // per request, per alternative
  };
  std::vector<claim_funnels> claims;
  model::explanation_code verdict = model::explanation_code::fits;
  std::string claim;    // the claim the verdict is about
  std::string request;  // its request ("request/subrequest" for an alternative)
  std::string message;
};

// Every node tried for a unit of work.
struct unit_diagnosis {
  std::vector<node_diagnosis> nodes;
};

// Decides whether claims fit together on a node (the allocator, asked without committing anything).
template <class F>
concept fit_oracle = requires(F f, const model::node& node, std::span<const model::resource_claim* const> claims) {
  { f(node, claims) } -> std::convertible_to<bool>;
};

namespace detail {

[[nodiscard]] inline std::string alternatives_note(const std::vector<request_funnel>& alternatives) {
  std::string note;
  for (std::size_t i = 1; i < alternatives.size(); ++i) {
    const auto& alt = alternatives[i];
    const bool same = alt.verdict == alternatives.front().verdict;
    // The same cause reads once: its counts, without repeating who blocks.
    std::string_view message = alt.message;
    if (same && message.find(" (") != std::string_view::npos) message = message.substr(0, message.find(" ("));
    note += dra::concat("; alternative ", alt.request, ": ", model::name_of(alt.verdict), same ? " too, " : ", ",
                                message);
  }
  return note;
}

// The names of claims [0, k) of the unit.
[[nodiscard]] inline std::vector<std::string> names_before(std::span<const model::resource_claim* const> claims,
                                                           std::size_t k) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < k; ++i) names.push_back(alloc::object_name(claims[i]->meta));
  return names;
}

// When every request passes its funnel alone: the claims' requests together, then the claims together.
template <fit_oracle Oracle>
void decide_together(node_diagnosis& d, const model::node& node, std::span<const model::resource_claim* const> claims,
                     Oracle& fits) {
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const model::resource_claim& claim = *claims[i];
    if (fits(node, claims.subspan(i, 1))) continue;
    d.claim = alloc::object_name(claim.meta);
    d.request = claim.spec.requests.empty() ? std::string() : std::string(claim.spec.requests.front().name);
    if (!claim.spec.constraints.empty()) {
      const auto& c = claim.spec.constraints.front();
      d.verdict = model::explanation_code::constraint;
      d.message = dra::concat(
          "each request has usable devices, but no choice of them satisfies ",
          c.match_attribute ? "matchAttribute " : "distinctAttribute ",
          c.match_attribute ? std::string_view(*c.match_attribute) : std::string_view(c.distinct_attribute.value_or("")),
          " across the claim's requests");
    } else {
      d.verdict = model::explanation_code::count;
      d.message = "each request has usable devices, but not enough for all of the claim's requests together";
    }
    return;
  }
  for (std::size_t k = 2; k <= claims.size(); ++k) {
    if (fits(node, claims.first(k))) continue;
    d.verdict = model::explanation_code::conflict;
    d.claim = alloc::object_name(claims[k - 1]->meta);
    d.request = claims[k - 1]->spec.requests.empty() ? std::string()
                                                     : std::string(claims[k - 1]->spec.requests.front().name);
    d.message = dra::concat("fits alone, but not together with ", prose_list(names_before(claims, k - 1)));
    return;
  }
  d.verdict = model::explanation_code::fits;
}

}  // namespace detail

// Diagnoses `claims` (one unit of work) on one node: the first request (in order) that fits by none of its
// alternatives names the cause; when every request passes alone, `fits` decides between the claim's requests
// together (count, constraint), the claims together (conflict), or a fit. Meant for a unit that does not fit on the
// node: a unit can fit while one of its claims alone does not (an All request takes fewer shared devices once
// others used up their capacity), and the claim would then be named.
template <alloc::selector_engine Engine, fit_oracle Oracle>
[[nodiscard]] node_diagnosis diagnose_node(funnel_builder<Engine>& funnels, const model::node& node,
                                           std::span<const model::resource_claim* const> claims, Oracle& fits,
                                           bool keep_devices = false) {
  node_diagnosis d;
  d.node = std::string(node.meta.name);
  bool decided = false;
  for (const auto* claim : claims) {
    node_diagnosis::claim_funnels entry{alloc::object_name(claim->meta), funnels.claim_on_node(node, *claim, keep_devices)};
    for (const auto& alternatives : entry.requests) {
      if (decided) break;
      if (std::any_of(alternatives.begin(), alternatives.end(),
                      [](const request_funnel& f) { return f.verdict == model::explanation_code::fits; }))
        continue;
      const request_funnel& first = alternatives.front();
      d.verdict = first.verdict;
      d.claim = first.claim;
      d.request = first.request;
      d.message = first.message + detail::alternatives_note(alternatives);
      decided = true;
    }
    d.claims.push_back(std::move(entry));
  }
  if (!decided) detail::decide_together(d, node, claims, fits);
  return d;
}

// Diagnoses a unit of work on every node it was tried on.
template <alloc::selector_engine Engine, fit_oracle Oracle>
[[nodiscard]] unit_diagnosis diagnose_unit(funnel_builder<Engine>& funnels, std::span<const model::node* const> nodes,
                                           std::span<const model::resource_claim* const> claims, Oracle& fits,
                                           bool keep_devices = false) {
  unit_diagnosis out;
  out.nodes.reserve(nodes.size());
  for (const auto* node : nodes) out.nodes.push_back(diagnose_node(funnels, *node, claims, fits, keep_devices));
  return out;
}

// The allocator as a fit oracle: it asks without keeping anything (shareID serials included).
template <class Allocator>
struct allocator_oracle {
  Allocator* allocator = nullptr;
  bool operator()(const model::node& node, std::span<const model::resource_claim* const> claims) const {
    const auto serial = allocator->share_serial();
    auto outcome = allocator->allocate(node, claims);
    allocator->set_share_serial(serial);
    return outcome && outcome->fit() != nullptr;
  }
};

// The format's explanation: nodes that did not fit grouped by (code, claim, request), largest group first. `claim`,
// when given, names the claim of every verdict about one (the diagnoses of a like claim, kept from before).
[[nodiscard]] inline model::explanation summarize(std::span<const node_diagnosis* const> nodes,
                                                 std::optional<std::string_view> claim = std::nullopt) {
  model::explanation out;
  out.nodes = nodes.size();
  struct group {
    model::explanation_reason reason;
    std::string_view first_node;
    bool same_message = true;
  };
  std::vector<group> groups;
  for (const node_diagnosis* n : nodes) {
    if (n->verdict == model::explanation_code::fits) continue;
    const std::string_view about = claim && !n->claim.empty() ? *claim : std::string_view(n->claim);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const group& g) {
      return g.reason.code == n->verdict && g.reason.claim == about && g.reason.request == n->request;
    });
    if (it == groups.end()) {
      groups.push_back({{n->verdict, 1, std::string(about), n->request, n->message}, n->node, true});
      continue;
    }
    ++it->reason.nodes;
    it->same_message = it->same_message && it->reason.message == n->message;
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const group& a, const group& b) { return a.reason.nodes > b.reason.nodes; });
  for (auto& g : groups) {
    if (!g.same_message)
      g.reason.message = dra::concat("on ", g.first_node, ": ", g.reason.message, " (",
                                             std::to_string(g.reason.nodes - 1), " more nodes alike)");
    out.reasons.push_back(std::move(g.reason));
  }
  return out;
}

[[nodiscard]] inline model::explanation summarize(const unit_diagnosis& unit) {
  std::vector<const node_diagnosis*> nodes;
  nodes.reserve(unit.nodes.size());
  for (const node_diagnosis& n : unit.nodes) nodes.push_back(&n);
  return summarize(nodes);
}

// One line for people: "0/3 nodes: request gpus: 2 of 3 devices free (…); 1 node: …". Reasons about
// another claim of the unit than `claim` name it.
[[nodiscard]] inline std::string one_line(const model::explanation& e, std::string_view claim = {}) {
  std::string out = dra::concat("0/", std::to_string(e.nodes), " nodes: ");
  for (std::size_t i = 0; i < e.reasons.size(); ++i) {
    const auto& r = e.reasons[i];
    if (i > 0) out += "; ";
    if (r.nodes != e.nodes || e.reasons.size() > 1)
      out += dra::concat(std::to_string(r.nodes), r.nodes == 1 ? " node, " : " nodes, ");
    if (r.claim != claim) out += dra::concat("claim ", r.claim, ", ");
    out += dra::concat("request ", r.request, ": ", r.message);
  }
  return out;
}

}  // namespace dra::sched
