// The cluster state a scheduling cycle works on and commits to: the devices' ledger, what each node's pods request,
// which claims have been answered and where their outcomes are — a value, so that a gang's trial, a capacity count
// or a what-if takes it by copy and puts it back.
#pragma once

#include <dra/alloc/ledger.hpp>
#include <dra/model/common.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/device_usage.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/run_report.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace dra::sched {

// Everything a commit changes besides the run's report, whose records are only ever appended (record_mark).
struct cluster_state {
  alloc::ledger ledger;                          // the devices allocated, counters and capacity consumed
  std::vector<node_usage> requests;              // per node of the list: what its pods request (bound, then placed)
  std::vector<std::uint64_t> usage_revision;     // per node: changed with its requests (change_requests)
  std::optional<device_usage> devices;           // per node: how used its devices are (node-ranking policies only)
  std::vector<bool> answered;                    // per scenario claim: its outcome is given (or none is needed)
  std::vector<std::optional<std::size_t>> claim_outcome;      // per scenario claim: its outcome, once allocated
  std::vector<std::optional<std::size_t>> generated_outcome;  // per generated claim: its outcome, once allocated
  std::set<std::pair<model::text, model::text>> generated_names;  // namespace and name of each claim made
  // Per PodGroup: the claims made from its template entries (entry name, index into run_report::generated).
  std::vector<std::vector<std::pair<model::text, std::size_t>>> group_generated;
  std::uint64_t share_serial = 1;  // the next share ID's serial
  std::uint64_t last_revision = 0;  // the newest usage_revision given

  // Node i's requests, to be changed: the node gets a revision no node had before, so that what was worked out of
  // its requests under another revision (node_filter_memo) is known to be stale. A state assigned back keeps the
  // revisions its requests had then, which still name those requests alone.
  node_usage& change_requests(std::size_t i) {
    if (usage_revision.size() < requests.size()) usage_revision.resize(requests.size(), 0);
    usage_revision[i] = ++last_revision;
    return requests[i];
  }

  // A scenario claim's allocation: in the input, or made by this run; nullptr when it has none yet.
  [[nodiscard]] const model::allocation_result* allocation_of(const model::scenario& s, const run_report& report,
                                                              std::size_t claim) const {
    const auto& object = s.claims[claim].object;
    if (object.allocation) return &*object.allocation;
    if (claim_outcome[claim]) return &report.outcomes[*claim_outcome[claim]].allocated()->allocation;
    return nullptr;
  }
  // Everything of `other` but the ledger, which the caller assigns only when it differs (assigning it tells every
  // cache keyed on it that it changed).
  void assign_all_but_ledger(const cluster_state& other) {
    requests = other.requests;
    usage_revision = other.usage_revision;
    last_revision = std::max(last_revision, other.last_revision);  // never given twice
    devices = other.devices;
    answered = other.answered;
    claim_outcome = other.claim_outcome;
    generated_outcome = other.generated_outcome;
    generated_names = other.generated_names;
    group_generated = other.group_generated;
    share_serial = other.share_serial;
  }

  // A generated claim's allocation, nullptr when it has none yet.
  [[nodiscard]] const model::allocation_result* generated_allocation(const run_report& report,
                                                                     std::size_t generated) const {
    if (!generated_outcome[generated]) return nullptr;
    return &report.outcomes[*generated_outcome[generated]].allocated()->allocation;
  }
};

// How long each of a report's record lists was at some point: the report is rolled back by cutting them there.
struct record_mark {
  std::size_t outcomes = 0, pods = 0, generated = 0, warnings = 0;

  [[nodiscard]] static record_mark of(const run_report& report) {
    return {report.outcomes.size(), report.pods.size(), report.generated.size(), report.warnings.size()};
  }
  void cut(run_report& report) const {
    report.outcomes.resize(outcomes);
    report.subjects.resize(outcomes);
    report.pods.resize(pods);
    report.generated.resize(generated);
    report.warnings.resize(warnings);
  }
};

// A cycle's state and its report's length at one moment: what a trial that may fail goes back to.
struct cluster_snapshot {
  cluster_state state;
  record_mark records;
  std::uint64_t ledger_generation = 0;  // the ledger's at the snapshot (or when last restored to it)
  std::size_t ledger_changes = 0;
};

}  // namespace dra::sched
