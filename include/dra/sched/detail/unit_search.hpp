// One unit of work's search over its candidate nodes (unit_placer::place): the nodes in order, each skipped when
// known not to fit, judged by its outcome class when a like node was searched, or searched; the first fit taken, or
// the least costly (node-ranking policies), or the best scored.
#pragma once

#include <dra/sched/unit_placer.hpp>

namespace dra::sched {

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
class unit_placer<Engine, Policy>::search {
 public:
  search(unit_placer& placer, const unit_request& request, std::uint64_t& steps)
      : p_(placer), request_(request), steps_(steps), shape_(placer.unfit_.shape_of(request.claims)),
        asked_(request.filter != nullptr ? cpu_and_memory::of(request.filter->requests()) : cpu_and_memory{}),
        filtered_alike_(request.filter == nullptr || request.filter->reads_only_node_resources()),
        buffers_(std::exchange(placer.buffers_, {})) {
    ordered_.clear();
    ranked_positions_.clear();
  }
  search(const search&) = delete;
  search& operator=(const search&) = delete;
  ~search() { p_.buffers_ = std::move(buffers_); }

  unit_decision run() {
    const model::node* only = request_.only;
    if (const auto best = resource_ranked_choice()) only = p_.nodes_[*best];
    std::optional<unfit_memo::unfit_nodes> ranked_unfit;
    if (only != nullptr)
      ordered_.push_back(only);
    else if constexpr (alloc::node_ranking_policy<Policy>)
      rank_candidates(ranked_unfit.emplace(p_.unfit_.unfit_now(shape_)));
    // In node order, a candidate's position is its index in the node list, and known-unfit nodes are skipped in bulk.
    in_node_order_ = only == nullptr && !alloc::node_ranking_policy<Policy>;
    candidates_ = in_node_order_ ? p_.nodes_ : std::span<const model::node* const>(ordered_);
    trials_.emplace(p_, candidates_, request_, shape_);
    if (request_.scoring != nullptr && only == nullptr && !resource_ranked_)
      scored_.emplace(p_.scorer_.scored(*request_.scoring, p_.nodes_, p_.state_.requests));
    if (ranked_unfit)
      run_ranked(*ranked_unfit);
    else
      for (std::size_t position = 0; position < candidates_.size(); ++position) {
        if (in_node_order_) {
          const std::size_t open = p_.unfit_.next_open(shape_, position);
          if (!invalid_pools_) p_.unfit_.for_each_invalid(shape_, position, open, [&](std::size_t i) { skipped(i); });
          if ((position = open) == candidates_.size()) break;
        }
        if (!consider(position)) break;
      }
    if (scored_ && !scored_->empty() && !failure_) {
      const std::size_t best = scored_->best();
      chosen_ = p_.nodes_[best];
      results_ = p_.devices_on(best, request_.claims, shape_);
    }
    return finish(chosen_);
  }

 private:
  // The outcome class and the outcome of each candidate node, asked of the allocator that owns the node: its own
  // once, then, with several threads, the rest of the unit's nodes at once (detail::try_nodes).
  class node_trials {
   public:
    node_trials(unit_placer& placer, std::span<const model::node* const> candidates, const unit_request& request,
                std::size_t shape)
        : p_(placer), candidates_(candidates), request_(request), shape_(shape) {}

    std::optional<std::uint32_t> class_of(std::size_t position) {
      if (!trials_.empty() && trials_[position].class_known) return trials_[position].outcome_class;
      return allocator_at(position).outcome_class(*candidates_[position], request_.claims);
    }

    result<alloc::allocation_outcome> search(std::size_t position) {
      const bool tried = !trials_.empty() && trials_[position].outcome;
      if (!tried && searched_ >= searched_alone && p_.allocators_.size() > 1) try_rest_from(position);
      ++searched_;
      if (!trials_.empty() && trials_[position].outcome) return std::move(*trials_[position].outcome);
      return allocator_at(position).allocate(*candidates_[position], request_.claims);
    }

   private:
    allocator_type& allocator_at(std::size_t position) { return p_.owner(*candidates_[position]); }

    // The nodes from `first` on that the placer may search (not known to be unfit), on every thread.
    void try_rest_from(std::size_t first) {
      trials_.resize(candidates_.size());
      std::vector<std::size_t> positions;
      for (std::size_t pos = first; pos < candidates_.size(); ++pos) {
        const auto indexed = p_.index_of(candidates_[pos]);
        if (indexed && p_.unfit_.known_unfit(shape_, *indexed)) continue;
        if (alloc::node_ranking_policy<Policy> || p_.scorer_.on())
          if (indexed && p_.unfit_.fit_on(shape_, *indexed, p_.demand_epoch()) != nullptr) continue;
        if (request_.filter != nullptr && (!indexed || !request_.filter->feasible(*indexed))) continue;
        if (!trials_[pos].outcome) positions.push_back(pos);
      }
      if (!p_.threads_) p_.threads_.emplace(p_.allocators_.size());
      const std::vector<allocator_type*> allocators = p_.allocator_pointers();
      detail::try_nodes<allocator_type>(
          *p_.threads_, candidates_, positions, request_.claims, allocators,
          [this](std::size_t pos) { return p_.owner_index(candidates_[pos]); },
          [this](const result<alloc::allocation_outcome>& outcome) { return p_.stops_at(outcome); }, trials_);
    }

    // Nodes a unit searches one by one before the threads take the rest: most units fit on the first or second
    // node they need searched (a node is known unfit once it has been), and waking threads costs more than that.
    static constexpr std::size_t searched_alone = 2;

    unit_placer& p_;
    std::span<const model::node* const> candidates_;
    const unit_request& request_;
    std::size_t shape_;
    std::vector<detail::node_trial> trials_;  // per candidate, once threads have tried some (empty until then)
    std::size_t searched_ = 0;                // nodes searched for the unit so far
  };

  // The candidates, in the policy's ranking: every node, or, when few are not known unfit, only those and the
  // known-unfit nodes with invalid pools (most nodes a long queue meets are full, and a ranking that packs puts the
  // fullest first); every node again if the unit fits nowhere (all_candidates).
  void rank_candidates(const unfit_memo::unfit_nodes& unfit) {
    const auto ranked = p_.state_.devices->ranked_positions(p_.node_policy_);
    if (unfit.open_count(ranked.size()) * few_open > ranked.size()) {
      ranked_positions_.assign(ranked.begin(), ranked.end());
    } else {
      std::vector<std::uint32_t>& rank = buffers_.rank;
      rank.resize(ranked.size());
      for (std::uint32_t position = 0; position < ranked.size(); ++position) rank[ranked[position]] = position;
      unfit.for_each_open_or_invalid(ranked.size(), [&](std::size_t i) { ranked_positions_.push_back(rank[i]); });
      std::ranges::sort(ranked_positions_);
      for (std::uint32_t& position : ranked_positions_) position = ranked[position];
      some_candidates_ = true;
    }
    ordered_.reserve(ranked_positions_.size());
    for (const std::uint32_t i : ranked_positions_) ordered_.push_back(p_.nodes_[i]);
  }
  // Below one node in `few_open` not known unfit, listing those costs less than passing over the rest.
  static constexpr std::size_t few_open = 16;

  // The ranked candidates in order, known-unfit nodes passed over by a bit each.
  void run_ranked(const unfit_memo::unfit_nodes& unfit) {
    for (std::size_t position = 0; position < candidates_.size(); ++position) {
      const std::size_t i = ranked_positions_[position];
      if (const auto invalid = unfit.of(i)) {
        if (*invalid && !invalid_pools_) skipped(i);
        continue;
      }
      if (!consider(position)) return;
    }
  }

  // Every candidate, once a unit that fits nowhere is refused or explained over them.
  std::span<const model::node* const> all_candidates() {
    if constexpr (alloc::node_ranking_policy<Policy>)
      if (some_candidates_) {
        ordered_.clear();
        for (const std::uint32_t i : p_.state_.devices->ranked_positions(p_.node_policy_))
          ordered_.push_back(p_.nodes_[i]);
        candidates_ = ordered_;
        some_candidates_ = false;
      }
    return candidates_;
  }

  // Under scoring, when DynamicResources' scores come out alike, the node is found in the resource scores' order
  // (node_scorer::best_in_resource_order); when none takes the unit, the node-order run answers as first fit does.
  // When every score ties, that order is node order: first fit's run, which skips known-unfit nodes in bulk, is the
  // answer.
  std::optional<std::size_t> resource_ranked_choice() {
    if (request_.scoring == nullptr || request_.only != nullptr || p_.score_every_node_ ||
        !dra_scores_alike(request_.claims, p_.features_.prioritized_list))
      return std::nullopt;
    resource_ranked_ = true;
    const auto& order = p_.scorer_.order_for(*request_.scoring, p_.state_.requests);
    const bool all_tie = (order.empty() || order.begin()->first == order.rbegin()->first) &&
                         p_.scorer_.kinds_alike(*request_.scoring->pod);
    if (all_tie) return std::nullopt;
    return p_.scorer_.best_in_resource_order(*request_.scoring, p_.nodes_, p_.state_.requests, [&](std::size_t i) {
      return p_.unit_fits(request_, shape_, i, steps_);
    });
  }

  // A node known not to fit the claims is passed over before its filters run (most nodes a long queue meets are
  // full); its invalid pools count only where the pod may run.
  void skipped(std::size_t index) {
    if ((request_.filter == nullptr || request_.filter->feasible(index)) && p_.in_scope(index)) invalid_pools_ = true;
  }

  // Candidate `position`: skipped, judged by what is known, or searched. False when the search ends there.
  bool consider(std::size_t position) {
    const auto* node = candidates_[position];
    const std::optional<std::size_t> index = in_node_order_             ? std::optional<std::size_t>(position)
                                             : !ranked_positions_.empty() ? ranked_positions_[position]
                                                                          : p_.index_of(node);
    if (p_.scope_ != nullptr && (!index || !p_.in_scope(*index))) return true;
    // Both walks pass over the known-unfit nodes before they get here (next_open in node order, run_ranked).
    if (index && !in_node_order_ && ranked_positions_.empty())
      if (auto known = p_.unfit_.known_unfit(shape_, *index)) {
        if (*known) skipped(*index);
        return true;
      }
    // Filters that read only what alike nodes share filter them alike: a node is passed over before them.
    if (index && filtered_alike_ && like_one_tried(*index)) return true;
    if (request_.filter != nullptr && (!index || !request_.filter->feasible(*index))) return true;
    if (index && !filtered_alike_ && like_one_tried(*index)) return true;
    if (const auto answer = known_fit(node, index)) return *answer;
    // Asked only once a class is known: a node that fits ends a first-fit run without it.
    const bool classified = !class_unfit_.empty();
    std::optional<std::uint32_t> outcome_class;
    if (classified) outcome_class = trials_->class_of(position);
    if (outcome_class)
      if (const auto first = class_unfit_.find(*outcome_class); first != class_unfit_.end()) {
        // A node like one that fit fits alike (its devices are searched if it is the one taken).
        if (!first->second && scored_ && index) scored_->add(*index, class_score_.at(*outcome_class));
        if (!first->second) return true;
        if (index) p_.unfit_.remember_unfit(shape_, *index, *first->second);
        invalid_pools_ = invalid_pools_ || *first->second;
        return true;
      }
    auto outcome = trials_->search(position);
    if (!outcome) {
      if (chosen_ == nullptr) failure_ = std::move(outcome).error();
      return false;
    }
    return searched(node, index, position, *outcome, outcome_class, classified);
  }

  // Whether a node is alike one tried before (node_likeness), both passing the pod's filters: under a node-ranking
  // policy, its fit would cost the same and come later, so it is passed over. Not under scoring, which adds every
  // node, nor where the pod's verdict on a node reads its devices' node resources (KEP-5517), whose refusal counts.
  bool like_one_tried(std::size_t i) {
    if constexpr (alloc::node_ranking_policy<Policy>) {
      if (scored_ || resource_ranked_ || request_.accepts != nullptr || request_.only != nullptr) return false;
      if (!likeness_round_) {
        if (p_.likeness_) p_.likeness_->new_round();
        likeness_round_ = true;
      }
      return !p_.first_of_its_kind(i);
    }
    return false;
  }

  // What is known of a candidate's fit, under a policy or scoring that compares fits: nullopt when nothing is (the
  // node is then judged as any other), else whether to go on. A fit found for a like unit holds while nothing it
  // depends on changed (a unit commits to one node; the others keep their answers).
  std::optional<bool> known_fit(const model::node* node, std::optional<std::size_t> index) {
    if (!index) return std::nullopt;
    if (scored_ || resource_ranked_)
      if (const auto* known = p_.unfit_.fit_on(shape_, *index, p_.demand_epoch())) {
        if (!accepted(request_, *index, known->results)) return true;
        if (!scored_) {  // the node found first in the resource scores' order
          chosen_ = node;
          results_ = known->results;
          return false;
        }
        scored_->add(*index, p_.unit_score(request_.claims, known->results));
        return true;
      }
    if constexpr (alloc::node_ranking_policy<Policy>)
      if (const auto* known = p_.unfit_.fit_on(shape_, *index, p_.demand_epoch())) {
        if (!accepted(request_, *index, known->results)) return true;
        const auto cost = p_.cost_of(*index, asked_, known->results, known->cost);
        if (chosen_ == nullptr || cost < chosen_cost_) {
          chosen_ = node;
          chosen_cost_ = cost;
          results_ = known->results;
        }
        return !p_.takes_first_fit(chosen_cost_);
      }
    return std::nullopt;
  }

  // A candidate just searched: remembered, shared with its outcome class, and taken, kept or passed over.
  bool searched(const model::node* node, std::optional<std::size_t> index, std::size_t position,
                alloc::allocation_outcome& outcome, std::optional<std::uint32_t> outcome_class, bool classified) {
    steps_ += outcome.search_steps;
    // A node where the claims fit but the pod, with what their devices add to its requests, does not (KEP-5517):
    // the pod's refusal, not the claims' shape's, so neither remembered nor shared with the node's outcome class.
    if (const auto* fit = outcome.fit(); fit != nullptr && index && !accepted(request_, *index, fit->results))
      return true;
    // A node ruled out by a request for all devices of its pool (kubernetes PR #141898) keeps its own message:
    // neither remembered nor shared with its outcome class.
    if (const auto* bad = std::get_if<alloc::invalid_pools>(&outcome.result); bad && !bad->all_devices_error.empty()) {
      if (all_devices_error_.empty()) all_devices_error_ = bad->all_devices_error;
      invalid_pools_ = true;
      return true;
    }
    // Scoring shares a fitting class's outcome too, unless devices may add node resources (KEP-5517): the pod's
    // verdict on a node then needs that node's own devices.
    if (candidates_.size() > 1 &&
        (alloc::node_ranking_policy<Policy> || (scored_ && request_.accepts == nullptr) || !outcome.fit())) {
      if (!classified) outcome_class = trials_->class_of(position);
      // Where fragmentation is measured, a like node's cpu and memory make its own cost: a fit is not shared.
      if (outcome_class && !(outcome.fit() && p_.by_fragmentation()))
        class_unfit_.emplace(*outcome_class,
                             outcome.fit()
                                 ? std::nullopt
                                 : std::optional<bool>(std::holds_alternative<alloc::invalid_pools>(outcome.result)));
    }
    if (auto* fit = outcome.fit()) return fitted(node, index, *fit, outcome_class);
    const bool node_invalid = std::holds_alternative<alloc::invalid_pools>(outcome.result);
    if (index) p_.unfit_.remember_unfit(shape_, *index, node_invalid);
    invalid_pools_ = invalid_pools_ || node_invalid;
    return true;
  }

  // The claims fit the candidate. Scoring adds it to the scored nodes; a node-ranking policy keeps the fitting node
  // that fragments least (where that is measured), then whose devices strand the fewest counters, then cost the
  // fewest placements (ties: the earlier in its ranking); first fit takes the first node that fits.
  bool fitted(const model::node* node, std::optional<std::size_t> index, alloc::allocated& fit,
              std::optional<std::uint32_t> outcome_class) {
    const std::pair device_cost{fit.counters_stranded, fit.placements_lost};
    if (scored_ && index) {
      const std::int64_t score = p_.unit_score(request_.claims, fit.results);
      if (outcome_class) class_score_.emplace(*outcome_class, score);
      p_.unfit_.remember_fit(shape_, *index, p_.demand_epoch(), {std::move(fit.results), device_cost});
      scored_->add(*index, score);
      return true;
    }
    if constexpr (alloc::node_ranking_policy<Policy>)
      if (index) p_.unfit_.remember_fit(shape_, *index, p_.demand_epoch(), {fit.results, device_cost});
    const auto cost = index ? p_.cost_of(*index, asked_, fit.results, device_cost)
                            : typename unit_placer::node_cost{0, device_cost.first, device_cost.second};
    if (chosen_ != nullptr && !(cost < chosen_cost_)) return true;
    chosen_ = node;
    chosen_cost_ = cost;
    results_ = std::move(fit.results);
    return alloc::node_ranking_policy<Policy> && !p_.takes_first_fit(chosen_cost_);
  }

  // The decision: the node and its devices, or why none.
  unit_decision finish(const model::node* chosen) {
    unit_decision d;
    d.node = chosen;
    d.failure = std::move(failure_);
    d.invalid_pools = invalid_pools_;
    d.all_devices_error = std::move(all_devices_error_);
    if (chosen != nullptr) {
      d.results = std::move(results_);
      p_.number_shares(d.results);
      return d;
    }
    if (d.failure) return d;
    // The nodes that passed the pod's filters (and are in the scope): the ones its claims are explained over when
    // none took them. Unexplained, it is enough to know whether there is one.
    const bool narrowed = request_.filter != nullptr || p_.scope_ != nullptr;
    // A gang's trial is rolled back if it fails, and a run that only counts its placements keeps no reasons.
    const bool quiet = !p_.explain_refusals_ || (p_.scope_ != nullptr && !p_.scope_->explain);
    auto passes = [&](const model::node* n) {
      const auto indexed = p_.index_of(n);
      return indexed && (request_.filter == nullptr || request_.filter->feasible(*indexed)) && p_.in_scope(*indexed);
    };
    const std::span<const model::node* const> candidates = all_candidates();
    if (quiet) {
      d.refused = request_.filter != nullptr && std::ranges::none_of(candidates, passes);
      return d;
    }
    std::vector<const model::node*> passed;
    if (narrowed) std::ranges::copy_if(candidates, std::back_inserter(passed), passes);
    d.refused = request_.filter != nullptr && passed.empty();
    if (!d.invalid_pools && !d.refused)
      d.why = p_.explain(narrowed ? std::span<const model::node* const>(passed) : candidates, request_.claims, shape_);
    return d;
  }

  unit_placer& p_;
  const unit_request& request_;
  std::uint64_t& steps_;
  std::size_t shape_;
  cpu_and_memory asked_;  // the pod's, which every node's fragmentation score reads
  bool filtered_alike_;   // the pod's filters read only what alike nodes share (pod_node_filter)
  bool resource_ranked_ = false;
  bool in_node_order_ = false;
  typename unit_placer::search_buffers buffers_;  // the placer's, while the search runs
  std::vector<const model::node*>& ordered_ = buffers_.ordered;  // the candidates when they are not the node list
  std::vector<std::uint32_t>& ranked_positions_ = buffers_.ranked_positions;  // when ranked: each one's node index
  std::span<const model::node* const> candidates_;
  std::optional<node_trials> trials_;
  std::optional<scored_nodes> scored_;  // scoring: the nodes that fit, with their scores
  std::optional<dra::error> failure_;
  bool invalid_pools_ = false;
  std::string all_devices_error_;  // the first node's whose pool a request wanting all devices could not have
  const model::node* chosen_ = nullptr;
  std::vector<model::allocation_result> results_;
  typename unit_placer::node_cost chosen_cost_;  // fragmentation, counters stranded, placements lost
  // What the first node of each outcome class (alloc::basic_allocator::outcome_class) found: whether its pools were
  // invalid when nothing fit, nullopt when it fit. Another node of the class finds the same: it cannot fit at a lower
  // cost than the first, which ties go to, and it does not fit when the first does not.
  std::unordered_map<std::uint32_t, std::optional<bool>> class_unfit_;
  std::unordered_map<std::uint32_t, std::int64_t> class_score_;  // a fitting outcome class's DynamicResources score
  bool likeness_round_ = false;  // like_one_tried began this search's round of node kinds
  bool some_candidates_ = false;  // the ranked candidates are the few nodes not known unfit (rank_candidates)
};

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
unit_decision unit_placer<Engine, Policy>::place(const unit_request& request, std::uint64_t& search_steps) {
  return search(*this, request, search_steps).run();
}

template <alloc::selector_engine Engine, alloc::allocation_policy Policy>
template <class Takes>
std::optional<std::size_t> unit_placer<Engine, Policy>::node_without_claims(const pod_scoring* scoring, Takes takes,
                                                                           const amounts* requests, bool takes_alike) {
  auto allowed = [&](std::size_t i) { return in_scope(i) && takes(i); };
  if constexpr (alloc::node_ranking_policy<Policy>)
    if (by_fragmentation() && scoring == nullptr && requests != nullptr) {
      std::optional<std::size_t> best;
      std::int64_t best_score = -1;
      const cpu_and_memory asked = cpu_and_memory::of(*requests);
      if (likeness_) likeness_->new_round();  // alike nodes score alike: the first of them is kept
      for (const std::size_t i : state_.devices->ranked_positions(node_policy_)) {
        if (!in_scope(i)) continue;
        // A kind's first node answers for the rest of its kind: the filters are not run on them.
        if (takes_alike && !first_of_its_kind(i)) continue;
        if (!takes(i) || (!takes_alike && !first_of_its_kind(i))) continue;
        const std::int64_t score = gauge_->score(i, used_cpu_and_memory(i), asked, {}, state_.ledger);
        if (score > best_score) {
          best = i;
          best_score = score;
        }
      }
      return best;
    }
  if (scoring != nullptr && !score_every_node_)
    return scorer_.best_in_resource_order(*scoring, nodes_, state_.requests,
                                          [&](std::size_t i) -> std::optional<bool> { return allowed(i); });
  std::optional<scored_nodes> scored;
  if (scoring != nullptr) scored.emplace(scorer_.scored(*scoring, nodes_, state_.requests));
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (!allowed(i)) continue;
    if (!scored) return i;
    scored->add(i, 0);
  }
  if (!scored || scored->empty()) return std::nullopt;
  return scored->best();
}

}  // namespace dra::sched
