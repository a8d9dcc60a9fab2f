// How many pending requests could take each candidate, for the facts (implementation; included by search.hpp).
#pragma once

#include <dra/alloc/allocator.hpp>

#include <algorithm>
#include <span>
#include <vector>

namespace dra::alloc {

template <allocation_policy Policy, selector_engine Engine>
std::vector<double> basic_allocator<Policy, Engine>::search::demand_per_candidate() {
  const pending_demand* demand = a_.demand_;
  std::vector<double> per_candidate(candidates_.size(), demand == nullptr ? 1 : 0);
  if (demand == nullptr) return per_candidate;
  std::vector<const compiled*> programs;
  std::vector<std::vector<detail::selector_verdict>*> verdicts;  // the node's, per program
  for (const auto& [shape, pending] : demand->shapes()) {
    const auto klass = a_.classes_.find(shape.device_class);
    if (klass == a_.classes_.end()) continue;  // a request of a class that does not exist takes nothing
    programs.clear();
    for (const auto& selector : klass->second->selectors) programs.push_back(&a_.compile(selector.cel_expression));
    for (const auto& selector : shape.selectors) programs.push_back(&a_.compile(selector));
    // A selector that does not compile fails its request: such a request takes nothing.
    if (std::ranges::any_of(programs, [](const compiled* p) { return !p->program; })) continue;
    verdicts.clear();
    for (const compiled* program : programs) {
      auto& known = layout_->selector_verdicts[program];
      if (known.empty()) known.assign(candidates_.size(), detail::selector_verdict::unknown);
      verdicts.push_back(&known);
    }
    for (std::uint32_t ix = 0; ix < candidates_.size(); ++ix)
      if (demand_selects(programs, verdicts, ix)) per_candidate[ix] += pending_demand::weight(pending);
  }
  return per_candidate;
}

// Whether every one of `programs` selects candidate `ix`. Verdicts are looked up and kept where the search keeps them
// (they depend on nothing else); an evaluation error counts as no and is not kept, so that the search meets it where
// upstream does.
template <allocation_policy Policy, selector_engine Engine>
bool basic_allocator<Policy, Engine>::search::demand_selects(
    std::span<const compiled* const> programs, std::span<std::vector<detail::selector_verdict>* const> verdicts,
    std::uint32_t ix) {
  const candidate& c = candidates_[ix];
  if (!f_.device_binding_and_status && !c.st->view.base().binding_conditions.empty()) return false;
  const bool reaches_every_node = !c.st->slice->node_name || c.st->slice->node_name->empty();
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const compiled* program = programs[i];
    detail::selector_verdict& known = (*verdicts[i])[ix];
    if (known == detail::selector_verdict::unknown && reaches_every_node)
      if (auto kept = a_.selector_results_.find(std::pair{program, &c.st->view.base()});
          kept != a_.selector_results_.end())
        known = kept->second ? detail::selector_verdict::selected : detail::selector_verdict::rejected;
    if (known == detail::selector_verdict::unknown) {
      auto matches = a_.engine_->matches(*program->program, c.st->view, c.st->slice->driver);
      if (!matches) return false;
      known = *matches ? detail::selector_verdict::selected : detail::selector_verdict::rejected;
      if (reaches_every_node) a_.selector_results_.emplace(std::pair{program, &c.st->view.base()}, *matches);
    }
    if (known == detail::selector_verdict::rejected) return false;
  }
  return true;
}

}  // namespace dra::alloc
