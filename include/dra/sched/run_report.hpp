// What a scenario run reports (claims' outcomes, pods' answers, the claims it made) and how it is run (run_options).
#pragma once

#include <dra/model/outcome.hpp>
#include <dra/model/scenario.hpp>
#include <dra/model/scheduler_config.hpp>
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/preemption.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dra::sched {

// A claim made from a ResourceClaimTemplate for a pod whose status names no
// claim for that entry yet, as Kubernetes' resourceclaim controller would
// make it: `<pod>-<entry>-` and five characters in the pod's namespace
// (generated_names.hpp: drawn from a hash, not at random), the template's
// spec.spec as its spec, spec.metadata's labels and annotations as its own,
// and the controller's pod-claim-name annotation.
//
// Or the claim kube-scheduler makes for a pod's extended resources served through DRA (KEP-5004), when `extended`
// is set: `<pod>-extended-resources`, its requests and container mappings in `extended` (no entry, no template).
struct generated_claim {
  std::size_t pod = 0;             // index into scenario.pods
  model::text entry;               // the pod's spec.resourceClaims[].name
  std::size_t claim_template = 0;  // index into scenario.claim_templates
  model::resource_claim claim;     // its name views `name`; everything else views the scenario (or `extended`)
  std::shared_ptr<const std::string> name;
  std::optional<std::size_t> pod_group;  // a PodGroup's claim (`<podgroup>-<entry>-…`): index into pod_groups
  std::shared_ptr<const sched::extended_claim_requests> extended;
};

// What one outcome is about: a claim of the scenario, a generated claim, or
// (for a template that does not exist) neither.
struct outcome_subject {
  std::optional<std::size_t> claim;      // index into scenario.claims
  std::optional<std::size_t> generated;  // index into run_report::generated
  std::optional<std::size_t> pod;        // the pod whose unit of work it was part of
  std::optional<std::size_t> pod_group;  // the PodGroup whose claim it is (reserved for the group, not the pod)
};

// A node DefaultPreemption's dry run found for a pod: evicting `victims` there lets it fit.
struct preemption_option {
  std::string node;
  std::vector<std::size_t> victims;  // indices into scenario.pods, the most important first
  std::size_t pdb_violations = 0;    // victims whose eviction exceeds a PodDisruptionBudget
  std::optional<preemption_rule> set_aside_by;  // the rule that preferred another node; none: the nominated one
};

// What DefaultPreemption did for a pending pod no node took: the node it nominated, the pods it evicted there, and
// the pod's next attempt once they were gone.
struct pod_preemption {
  std::string nominated_node;
  std::vector<std::size_t> victims;  // indices into scenario.pods, the most important first
  preemption_rule rule = preemption_rule::only_candidate;  // what settled the node among the candidates
  std::size_t candidates = 0;                              // the nodes where evicting some pods let the pod fit
  std::size_t pdb_violations = 0;                          // victims whose eviction exceeds a PodDisruptionBudget
  std::optional<std::string> retry_node;                   // where the next attempt placed the pod
  std::string retry_unschedulable;                         // or why it did not
  // With run_options::keep_preemption_candidates only: every candidate in node order, why each other node is none
  // (the dry run's own reasons), and the nodes it did not try once it had found enough candidates.
  std::vector<preemption_option> candidate_nodes;
  std::vector<reason_count> other_nodes;
  std::size_t nodes_not_tried = 0;
};

// What became of a pending pod (one neither bound to a node nor finished): the node it was placed on, or why no node
// takes it, in kube-scheduler's words.
struct pod_outcome {
  std::size_t pod = 0;                         // index into scenario.pods
  std::optional<std::string> node;             // where it was placed
  std::string unschedulable;                   // when not placed: "0/3 nodes are available: …", or why it waits
  bool gated = false;                          // held back by its scheduling gates
  std::size_t nodes = 0;                       // the nodes it was tried on
  std::vector<sched::reason_count> reasons;    // when not placed: how many nodes gave each reason
  // When placed: what its claims' devices add to its node resources (KEP-5517), as its status records it.
  std::vector<model::node_allocatable_claim_status> node_allocatable;
  // When preemption nominated a node: `unschedulable` is the first attempt's text, `node` where the retry placed it.
  std::optional<pod_preemption> preemption;
};

// A pod preemption evicted, and a claim its eviction released: reserved for no running pod any more, the
// resourceclaim controller deallocates it, and deletes it when it was made for the pod from a template.
struct eviction {
  std::size_t pod = 0;        // the victim: index into scenario.pods
  std::size_t preemptor = 0;  // the pod it made room for (a report pod index)
};
struct released_claim {
  std::size_t claim = 0;  // index into scenario.claims
  bool deleted = false;   // made from the victim's template: deleted with it
  std::size_t at = 0;     // how many outcomes the report had then: the units from that outcome on met its devices free
};

// A PodDisruptionBudget the evictions spent: the disruptions it allows after the run, as the disruption controller
// works them out again.
struct budget_spent {
  std::size_t budget = 0;  // index into scenario.disruption_budgets
  std::int32_t disruptions_allowed = 0;
};

// Borrows from the scenario it was run on (names, allocation results).
struct run_report {
  std::vector<model::claim_outcome> outcomes;  // one per pending claim (its last attempt), in processing order
  std::vector<outcome_subject> subjects;       // what each outcome is about, same order
  std::vector<pod_outcome> pods;               // one per pending pod, in queue order
  std::vector<generated_claim> generated;      // claims made from templates, in the order they were made
  std::vector<std::string> warnings;           // for stderr (claims that do not exist, ...)
  std::vector<eviction> evictions;             // the pods preemption evicted, in the order it evicted them
  std::vector<released_claim> released;        // the claims those evictions released
  std::vector<budget_spent> budgets;           // the disruption budgets those evictions spent
  std::uint64_t search_steps = 0;
  // Whose placements these are, for a policy guarded by first fit (alloc::guarded_by_first_fit).
  enum class answer : std::uint8_t {
    policy,                       // the policy's own
    first_fit_after_rejection,    // the policy's up to the queue's first rejection, first fit's after it
    first_fit,                    // first fit's: both others would have placed less by some count
  } placements = answer::policy;
  // Pods placed after the scenario's own (scheduling_cycle::place): pod index scenario.pods.size() + k is added_pods[k].
  // A deque, so that the pods stay where they are while more are added.
  std::deque<model::located<model::pod>> added_pods;
};

// The scenario claims whose input allocation the run released (alloc::find_overcommit leaves them out).
[[nodiscard]] inline std::vector<std::size_t> released_claims(const run_report& report) {
  std::vector<std::size_t> out;
  for (const released_claim& r : report.released) out.push_back(r.claim);
  return out;
}

// Whether the run released scenario claim `claim`'s input allocation before the unit whose first outcome is
// `outcome` was tried (such a unit met its devices free).
[[nodiscard]] inline bool released_before(const run_report& report, std::size_t claim, std::size_t outcome) {
  return std::ranges::any_of(report.released,
                             [&](const released_claim& r) { return r.claim == claim && r.at <= outcome; });
}

// What the dra command says when a guarded policy's own placements are not the ones reported; empty otherwise.
[[nodiscard]] inline std::string_view answer_note(run_report::answer a) {
  switch (a) {
    case run_report::answer::policy:
      return {};
    case run_report::answer::first_fit_after_rejection:
      return "the policy's placements alone would have placed fewer claims or pods in all than first fit's; its "
             "placements are reported up to the queue's first rejection, first fit's after it";
    case run_report::answer::first_fit:
      return "the policy's placements would have placed less than first fit's on this scenario; first fit's are "
             "reported";
  }
  return {};
}

// What a run placed, for comparing two policies' answers on one scenario: claims allocated (all, and before the
// queue's first claim that fits nowhere) and pods placed. The queue's order does not depend on the policy, so more
// claims before the first rejection means the same claims and then some.
struct placement_counts {
  std::size_t claims = 0;
  std::size_t claims_before_first_rejection = 0;
  std::size_t pods = 0;
};

// Whether `a` places less than `b` by any of the three counts.
[[nodiscard]] inline bool places_less(const placement_counts& a, const placement_counts& b) {
  return a.claims < b.claims || a.claims_before_first_rejection < b.claims_before_first_rejection || a.pods < b.pods;
}

// Per outcome, whether it is its claim's last: a scenario claim several pods name is tried with each of them until
// one allocates it, and until the report is taken (scheduling_cycle::take_report) it has an outcome per attempt.
[[nodiscard]] inline std::vector<bool> final_outcomes(const run_report& report) {
  std::vector<bool> last(report.outcomes.size(), true);
  std::vector<bool> seen_later;  // per scenario claim
  for (std::size_t i = std::min(report.outcomes.size(), report.subjects.size()); i-- > 0;)
    if (const auto c = report.subjects[i].claim) {
      if (seen_later.size() <= *c) seen_later.resize(*c + 1, false);
      last[i] = !seen_later[*c];
      seen_later[*c] = true;
    }
  return last;
}

[[nodiscard]] inline placement_counts count_placements(const run_report& report) {
  placement_counts counts;
  bool rejected = false;
  const std::vector<bool> last = final_outcomes(report);  // an earlier attempt at a claim counts for nothing
  for (std::size_t i = 0; i < report.outcomes.size(); ++i) {
    if (!last[i]) continue;
    const auto& outcome = report.outcomes[i];
    if (outcome.allocated() != nullptr) {
      ++counts.claims;
      if (!rejected) ++counts.claims_before_first_rejection;
    } else if (std::holds_alternative<model::claim_unschedulable>(outcome.status)) {
      rejected = true;
    }
  }
  for (const auto& pod : report.pods) counts.pods += pod.node.has_value() ? 1 : 0;
  return counts;
}

// The pod a report's pod index names: one of the scenario's, or one placed after them.
[[nodiscard]] inline const model::pod& pod_at(const model::scenario& s, const run_report& report, std::size_t index) {
  return index < s.pods.size() ? s.pods[index].object : report.added_pods[index - s.pods.size()].object;
}

// How a pending pod's node is chosen among those where it fits: the first in node order (or in a node-ranking
// policy's order: upstream's allocator tests and first fit's answers), or the one kube-scheduler's scoring ranks
// highest (`--score kube`: NodeResourcesFit, BalancedAllocation, TaintToleration, NodeAffinity and DynamicResources'
// scores, as run_options::profile weighs them). Devices on the node are chosen by the policy either way.
enum class node_choice : std::uint8_t { first_feasible, kube_score };

// How a scenario is run, beyond the policy and the features.
struct run_options {
  // Threads that try a unit of work's nodes at once: any number gives the same results (the same node wins, with
  // the same devices and share IDs, as with one). The first nodes a unit needs searched are searched one by one,
  // so that units that fit where they are first tried (most of them) pay nothing for the threads; the rest are split
  // among the threads, each node always to the same one (whose allocator keeps what it learnt of the node).
  unsigned threads = 1;
  node_choice nodes = node_choice::first_feasible;
  // Under node_choice::kube_score, score every node that fits each pod even where the order of the resource scores
  // finds the same node sooner (docs/allocator.md): the same results, slower; for checking.
  bool score_every_node = false;
  // Under node_choice::kube_score, the profile whose scoring ranks the nodes (`--scheduler-config`): its plugin
  // weights and NodeResourcesFit's and BalancedAllocation's resources; the default profile's by default.
  model::scheduler_profile profile{};
  // Keep every candidate node of each preemption, with its victims and the rule that set it aside
  // (pod_preemption::candidate_nodes): what `dra explain pod/NAME` shows; off, a run keeps the chosen node alone.
  bool keep_preemption_candidates = false;
  // Work out why each pod and claim that fits nowhere does (kube-scheduler's messages, the reasons per node, the
  // claims' explanations). Off, such a refusal says only that it is one: for a run whose placements are counted and
  // nothing more (a guarded policy's first-fit baseline), as placing is the same either way.
  bool explain_refusals = true;
};

}  // namespace dra::sched
