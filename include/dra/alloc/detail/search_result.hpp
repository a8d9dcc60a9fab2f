// Building a unit's AllocationResults once its search found devices (implementation; included by search.hpp): each
// claim's device results, the configuration its classes and the claim give, and the node selector its devices need.
#pragma once

#include <dra/alloc/allocator.hpp>

#include <algorithm>
#include <string_view>
#include <vector>

namespace dra::alloc {

namespace detail {
[[nodiscard]] inline bool same_requirement(const model::node_selector_requirement& a,
                                           const model::node_selector_requirement& b) {
  if (a.key != b.key || a.op != b.op) return false;
  auto has_all = [](const auto& x, const auto& y) {
    return std::all_of(x.begin(), x.end(), [&](auto v) { return std::find(y.begin(), y.end(), v) != y.end(); });
  };
  return has_all(a.values, b.values) && has_all(b.values, a.values);
}
inline void add_new_requirements(const std::vector<model::node_selector_requirement>& from,
                                 std::vector<model::node_selector_requirement>& to) {
  for (const auto& r : from)
    if (std::none_of(to.begin(), to.end(), [&](const auto& existing) { return same_requirement(existing, r); }))
      to.push_back(r);
}
[[nodiscard]] inline bool contains_name(const std::vector<model::text>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}
}  // namespace detail

template <allocation_policy Policy, selector_engine Engine>
result<model::allocation_result> basic_allocator<Policy, Engine>::search::build_result(std::size_t ci) {
  model::allocation_result out;
  add_device_results(ci, out);
  add_class_configs(ci, out);
  add_claim_configs(ci, out);
  if (auto selected = set_node_selector(ci, out); !selected) return std::move(selected).error();
  return out;
}

// One result per device the claim was given.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::add_device_results(std::size_t ci, model::allocation_result& out) {
  for (const auto& r : results_[ci]) {
    const candidate& c = candidates_[r.candidate];
    model::device_request_allocation_result d;
    d.request = r.request->full_name;
    d.driver = c.st->id.driver;
    d.pool = c.st->id.pool;
    d.device = c.st->id.device;
    if (r.request->admin_access) d.admin_access = true;
    d.tolerations = r.request->spec->tolerations;
    if (f_.optional_node_operations) d.skip_node_operations = c.st->slice->skip_node_operations;
    if (f_.device_binding_and_status) {
      d.binding_conditions = c.st->view.base().binding_conditions;
      d.binding_failure_conditions = c.st->view.base().binding_failure_conditions;
    }
    // Numbered as results are built, not as the search tries devices: a shareID does not depend on the branches
    // the search tried or skipped (upstream draws a random one per try).
    if (c.st->shared) d.share_id = a_.next_share_id();
    d.consumed_capacity = r.consumed;
    out.results.push_back(std::move(d));
  }
}

// The request (or the subrequest of a firstAvailable request) the search chose for request `ri` of claim `ci`.
template <allocation_policy Policy, selector_engine Engine>
auto basic_allocator<Policy, Engine>::search::chosen_request(std::size_t ci, std::size_t ri) const
    -> const request_data& {
  const auto& entries = requests_[ci][ri];
  return entries.front().is_sub ? entries[entries.front().selected_sub] : entries.front();
}

// Class configuration, once per class, naming every request of the class.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::add_class_configs(std::size_t ci, model::allocation_result& out) {
  const model::resource_claim& claim = *claims_[ci];
  std::map<std::string_view, std::pair<std::size_t, std::size_t>> class_configs;
  for (std::size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
    const request_data& rd = chosen_request(ci, ri);
    if (rd.klass == nullptr) continue;
    if (auto it = class_configs.find(rd.klass->meta.name); it != class_configs.end()) {
      for (std::size_t i = it->second.first; i < it->second.second; ++i) out.config[i].requests.push_back(rd.full_name);
      continue;
    }
    std::size_t first = out.config.size();
    for (const auto& config : rd.klass->config)
      out.config.push_back({model::allocation_config_source::from_class, {rd.full_name}, config.opaque});
    class_configs.emplace(rd.klass->meta.name, std::pair{first, out.config.size()});
  }
}

// The claim's own configuration (after the classes'), for the requests chosen; a configuration that names every
// request of the claim names none.
template <allocation_policy Policy, selector_engine Engine>
void basic_allocator<Policy, Engine>::search::add_claim_configs(std::size_t ci, model::allocation_result& out) {
  const model::resource_claim& claim = *claims_[ci];
  auto to_strings = [](const std::vector<model::text>& names) {
    return std::vector<std::string>(names.begin(), names.end());
  };
  for (const auto& config : claim.spec.config) {
    if (config.requests.empty()) {
      out.config.push_back({model::allocation_config_source::from_claim, {}, config.opaque});
      continue;
    }
    for (std::size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
      const auto& request = claim.spec.requests[ri];
      bool applies = detail::contains_name(config.requests, request.name);
      if (!applies && requests_[ci][ri].front().is_sub)
        applies = detail::contains_name(config.requests, chosen_request(ci, ri).full_name);
      if (applies) {
        out.config.push_back({model::allocation_config_source::from_claim, to_strings(config.requests), config.opaque});
        break;
      }
    }
  }
  for (auto& config : out.config) {
    if (config.requests.empty()) continue;
    bool covers_all = true;
    for (std::size_t ri = 0; ri < claim.spec.requests.size() && covers_all; ++ri) {
      auto has = [&](std::string_view n) {
        return std::find(config.requests.begin(), config.requests.end(), n) != config.requests.end();
      };
      covers_all = has(claim.spec.requests[ri].name) ||
                   (requests_[ci][ri].front().is_sub && has(chosen_request(ci, ri).full_name));
    }
    if (covers_all) config.requests.clear();
  }
}

// The node selector of the devices given: this node's name when one of them is bound to a node, else the union of
// their slices' (or devices') selectors.
template <allocation_policy Policy, selector_engine Engine>
status basic_allocator<Policy, Engine>::search::set_node_selector(std::size_t ci, model::allocation_result& out) {
  const model::resource_claim& claim = *claims_[ci];
  model::node_selector_term term;
  for (const auto& r : results_[ci]) {
    const candidate& c = candidates_[r.candidate];
    const model::device& d = c.st->view.base();
    const bool per_device = c.st->slice->per_device_node_selection.value_or(false);
    std::optional<model::text> node_name = per_device ? d.node_name : c.st->slice->node_name;
    const std::optional<model::node_selector>& selector = per_device ? d.node_selector : c.st->slice->node_selector;
    if ((node_name && !node_name->empty()) || d.binds_to_node.value_or(false)) {
      model::node_selector only_this;
      only_this.terms.push_back(
          {{},
           {model::node_selector_requirement{"metadata.name", model::node_selector_operator::in, {node_.meta.name}}}});
      out.node_selector = std::move(only_this);
      return {};
    }
    if (selector) {
      if (selector->terms.size() > 1)
        return dra::error{"create NodeSelector for claim " + std::string(claim.meta.name) +
                              ": unsupported ResourceSlice.NodeSelector with " +
                              std::to_string(selector->terms.size()) + " terms",
                          "", "", errc::unsupported};
      if (selector->terms.size() == 1) {
        detail::add_new_requirements(selector->terms[0].match_fields, term.match_fields);
        detail::add_new_requirements(selector->terms[0].match_expressions, term.match_expressions);
      }
    }
  }
  if (!term.match_fields.empty() || !term.match_expressions.empty()) out.node_selector = model::node_selector{{term}};
  return {};
}

}  // namespace dra::alloc
