// Gangs (PodGroups with schedulingPolicy.gang): the group's pending pods placed together or not at all, first as
// kube-scheduler places them (one by one, first fit), then, where that fails, by a bounded search of the arrangement.
// `Cycle` is a scheduling_cycle (scheduling_cycle.hpp); the gang uses only its public interface.
#pragma once

#include <dra/alloc/ledger.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/pod_group.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/claim_resolver.hpp>
#include <dra/sched/cluster_state.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/queue.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sched/unit_placer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sched {

// Trials the joint search may make for one gang (a trial: one pod tried on one node) before it gives up and says so.
inline constexpr std::uint64_t gang_search_budget = 20000;

// Places one gang (see docs/scheduling.md, "Workloads") through a scheduling cycle's interface: its pods' cycles run
// in a scope of nodes, and a trial that fails is taken back to a snapshot of the cluster state.
template <class Cycle>
class gang_placement {
 public:
  gang_placement(Cycle& cycle, std::size_t group)
      : run_(cycle), group_(group), spec_(cycle.resolver().groups().group(group).spec) {}

  void run() {
    const auto& s = run_.scenario();
    for (std::size_t p : run_.resolver().groups().members(group_)) {
      const model::pod& pod = s.pods[p].object;
      if (model::is_terminal(pod)) continue;
      if (pod.node_name && !pod.node_name->empty()) {
        bound_.push_back(p);
      } else if (sched::is_gated(pod) || run_.resolver().pre_enqueue_rejection(pod)) {
        run_.run_pod(p);  // held back by the queue: answered as such, not part of the gang's attempt
      } else {
        pending_.push_back(p);
      }
    }
    // Bound pods' claims are allocated where they are, as for any bound pod.
    for (std::size_t p : bound_) run_.run_pod(p);
    if (pending_.empty()) return;  // every other pod waits for its gates: nothing to place yet
    const std::int64_t min_count = *spec_.gang_min_count;
    need_ = min_count - static_cast<std::int64_t>(bound_.size());
    const std::vector<node_scope> domains = topology_domains();
    if (need_ <= 0 && domains.size() == 1) {
      // minCount is met by the bound pods: the rest are placed as any pods are (in the gang's domain).
      node_scope explained = domains.front();
      explained.explain = true;
      run_.set_scope(&explained);
      for (std::size_t p : pending_) run_.run_pod(p);
      run_.set_scope(nullptr);
      return;
    }
    cluster_snapshot base = run_.snapshot();
    // kube-scheduler's answer first: one by one, first fit, in each domain in turn.
    for (const node_scope& domain : domains) {
      if (one_by_one(domain)) return;
      run_.restore(base);
    }
    // Beyond upstream: the arrangement searched as one problem.
    for (const node_scope& domain : domains) {
      if (hopeless(domain, base)) continue;
      std::vector<std::size_t> skipped;
      if (search(domain, 0, 0, skipped)) {
        finish_search(domain, skipped);
        run_.warn(group_label() +
                                        ": placed by dra's search of the gang's arrangements; kube-scheduler's "
                                        "one-by-one placement leaves it pending (kubernetes#138765)");
        return;
      }
      run_.restore(base);
      if (exhausted_) break;
    }
    fail(base);
  }

 private:
  // The gang's pods placed as kube-scheduler would: in queue order, each on the first node that takes it. Whether at
  // least minCount pods (bound ones count) found nodes; the best failed attempt is kept for the explanation.
  bool one_by_one(const node_scope& domain) {
    node_scope explained = domain;
    explained.explain = true;
    run_.set_scope(&explained);
    std::int64_t placed = 0;
    std::optional<pod_outcome> stopped;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      run_.run_pod(pending_[i]);
      if (run_.report().pods.back().node) {
        ++placed;
        continue;
      }
      if (!stopped) stopped = run_.report().pods.back();
      // The pods left cannot make up minCount any more: the rest of this domain's attempt is moot.
      if (placed + static_cast<std::int64_t>(pending_.size() - i - 1) < need_) break;
    }
    run_.set_scope(nullptr);
    if (placed >= need_) return true;
    if (!best_ || placed > best_placed_) {
      best_placed_ = placed;
      best_ = std::move(stopped);
    }
    return false;
  }

  // Depth-first over the pending pods in queue order: pod `i` on each node of the domain (nodes interchangeable in
  // the current state tried once), then, when minCount allows, left out. Whether minCount pods found nodes.
  bool search(const node_scope& domain, std::size_t i, std::int64_t placed, std::vector<std::size_t>& skipped) {
    if (placed >= need_) {
      skipped.insert(skipped.end(), pending_.begin() + static_cast<std::ptrdiff_t>(i), pending_.end());
      return true;
    }
    if (placed + static_cast<std::int64_t>(pending_.size() - i) < need_) return false;
    cluster_snapshot before = run_.snapshot();
    std::vector<node_key> failed;
    node_scope one;
    one.nodes.assign(domain.nodes.size(), 0);
    for (std::size_t n = 0; n < domain.nodes.size(); ++n) {
      if (!domain.nodes[n]) continue;
      node_key key = key_of(n);
      if (std::find(failed.begin(), failed.end(), key) != failed.end()) continue;
      if (++steps_ > gang_search_budget) {
        exhausted_ = true;
        return false;
      }
      one.nodes[n] = 1;
      run_.set_scope(&one);
      run_.run_pod(pending_[i]);
      run_.set_scope(nullptr);
      one.nodes[n] = 0;
      if (run_.report().pods.back().node && search(domain, i + 1, placed + 1, skipped)) return true;
      if (exhausted_) return false;
      failed.push_back(std::move(key));
      run_.restore(before);
    }
    skipped.push_back(pending_[i]);
    if (search(domain, i + 1, placed, skipped)) return true;
    skipped.pop_back();
    return false;
  }

  // The search placed minCount pods: the pods it left out are tried where the gang went, as any pod would be; the
  // gang's pod outcomes are put back in queue order.
  void finish_search(const node_scope& domain, const std::vector<std::size_t>& skipped) {
    node_scope explained = domain;
    explained.explain = true;
    run_.set_scope(&explained);
    for (std::size_t p : skipped) run_.run_pod(p);
    run_.set_scope(nullptr);
    run_.reorder_pods(run_.report().pods.size() - pending_.size(), [&](const pod_outcome& a, const pod_outcome& b) {
      return queue_rank(a.pod) < queue_rank(b.pod);
    });
  }

  std::size_t queue_rank(std::size_t pod) const {
    return static_cast<std::size_t>(std::find(pending_.begin(), pending_.end(), pod) - pending_.begin());
  }

  // A counting bound before any search: when the gang's pods are alike and share no claim, a node takes at most as
  // many of them as fit there one after another with nothing else placed; if the domain's nodes together take fewer
  // than minCount, no arrangement places the gang. Interchangeable nodes are counted once.
  bool hopeless(const node_scope& domain, cluster_snapshot& base) {
    if (!alike_unshared()) return false;
    std::int64_t room = 0;
    std::vector<std::pair<node_key, std::int64_t>> counted;
    node_scope one;
    one.nodes.assign(domain.nodes.size(), 0);
    for (std::size_t n = 0; n < domain.nodes.size() && room < need_; ++n) {
      if (!domain.nodes[n]) continue;
      node_key key = key_of(n);
      const auto known = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == key; });
      if (known != counted.end()) {
        room += known->second;
        continue;
      }
      one.nodes[n] = 1;
      run_.set_scope(&one);
      std::int64_t fits = 0;
      for (std::size_t p : pending_) {
        if (fits >= need_) break;
        run_.run_pod(p);
        if (!run_.report().pods.back().node) break;
        ++fits;
      }
      run_.set_scope(nullptr);
      one.nodes[n] = 0;
      run_.restore(base);
      counted.emplace_back(std::move(key), fits);
      room += fits;
    }
    return room < need_;
  }

  // Pods equal in everything but their names, with no claim named by more than one of them (nor any group claim).
  bool alike_unshared() const {
    if (!spec_.resource_claims.empty()) return false;
    auto shape = [&](std::size_t p) {
      model::pod pod = run_.scenario().pods[p].object;
      pod.meta = {};
      pod.resource_claim_statuses.clear();
      return pod;
    };
    const model::pod first = shape(pending_.front());
    for (const auto& ref : first.resource_claims)
      if (ref.resource_claim_name) return false;
    return std::all_of(pending_.begin(), pending_.end(), [&](std::size_t p) { return shape(p) == first; });
  }

  // What makes two nodes interchangeable for the rest of the search: their fields but their names, what pods take of
  // them, and which devices of their own pools are held. Nodes of one key lead to the same outcome: a node's name
  // appears only in its hostname label (compared when the gang's pods pick nodes by it) and in node selectors of
  // what was allocated on it during the run (which a pod placed there also counts in its usage).
  struct node_key {
    std::size_t hardware = 0;  // nodes alike in fields and in the slices published for them alone
    sched::node_usage usage;
    std::vector<bool> held;  // per device of the node's own slices, in slice order
    friend bool operator==(const node_key&, const node_key&) = default;
  };

  node_key key_of(std::size_t n) {
    if (hardware_.empty()) classify_nodes();
    node_key key{hardware_[n], run_.state().requests[n], {}};
    for (const model::resource_slice* slice : own_slices_[n])
      for (const auto& device : slice->devices)
        key.held.push_back(run_.state().ledger.allocated({slice->driver, slice->pool.name, device.name}));
    return key;
  }

  // Groups the nodes by hardware: fields but the name and hostname label, and slices published for each node alone
  // (compared without their names, node and pool names).
  void classify_nodes() {
    const auto nodes = run_.nodes();
    own_slices_.assign(nodes.size(), {});
    std::map<std::string_view, std::size_t> index_of;
    for (std::size_t i = 0; i < nodes.size(); ++i) index_of.emplace(nodes[i]->meta.name, i);
    // Nodes reached by a pool that is not one node's own may still differ (e.g. selectors): each of those is its own.
    std::vector<char> shared_reach(nodes.size(), 0);
    for (const auto& located : run_.scenario().slices) {
      const model::resource_slice& slice = located.object;
      const bool own = slice.node_name && !slice.node_name->empty() && !slice.node_selector &&
                       !slice.all_nodes.value_or(false) && !slice.per_device_node_selection.value_or(false);
      if (own) {
        if (const auto it = index_of.find(*slice.node_name); it != index_of.end())
          own_slices_[it->second].push_back(&slice);
      } else if (!slice.all_nodes.value_or(false)) {
        std::fill(shared_reach.begin(), shared_reach.end(), 1);
      }
    }
    // A node's name and hostname label set it apart only when a pod of the gang picks nodes by them.
    const bool named = pods_pick_nodes_by_name();
    auto normal_node = [&](std::size_t i) {
      model::node node = *nodes[i];
      if (named) return node;
      node.meta.name = {};
      std::erase_if(node.meta.labels, [](const auto& label) { return label.name == hostname_label; });
      return node;
    };
    auto normal_slices = [&](std::size_t i) {
      std::vector<model::resource_slice> out;
      for (const model::resource_slice* slice : own_slices_[i]) {
        model::resource_slice copy = *slice;
        copy.meta = {};
        copy.node_name = {};
        copy.pool.name = {};
        out.push_back(std::move(copy));
      }
      return out;
    };
    std::vector<std::size_t> representatives;
    hardware_.assign(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      std::optional<std::size_t> found;
      if (!shared_reach[i])
        for (std::size_t r = 0; r < representatives.size() && !found; ++r) {
          const std::size_t j = representatives[r];
          if (!shared_reach[j] && normal_node(i) == normal_node(j) && normal_slices(i) == normal_slices(j)) found = r;
        }
      if (!found) {
        found = representatives.size();
        representatives.push_back(i);
      }
      hardware_[i] = *found;
    }
  }

  static constexpr std::string_view hostname_label = "kubernetes.io/hostname";

  // Whether a pending pod of the gang selects nodes by name or hostname, or uses a claim allocated before the run
  // (whose node selector may name nodes).
  bool pods_pick_nodes_by_name() const {
    auto names = [](const model::node_selector& selector) {
      return std::ranges::any_of(selector.terms, [](const model::node_selector_term& term) {
        return !term.match_fields.empty() ||
               std::ranges::any_of(term.match_expressions, [](const auto& r) { return r.key == hostname_label; });
      });
    };
    return std::ranges::any_of(pending_, [&](std::size_t p) {
      const model::pod& pod = run_.scenario().pods[p].object;
      if (model::find(pod.node_selector, hostname_label) != nullptr) return true;
      if (pod.required_node_affinity && names(*pod.required_node_affinity)) return true;
      return std::ranges::any_of(run_.resolver().claims_named_by(pod), [&](std::size_t c) {
        return run_.scenario().claims[c].object.allocation.has_value();
      });
    });
  }

  // The domains the gang may go to: one per value of the topology key (in node order; bound pods fix it), else
  // every node.
  std::vector<node_scope> topology_domains() const {
    const auto nodes = run_.nodes();
    if (spec_.topology_keys.empty()) return {node_scope{std::vector<char>(nodes.size(), 1), false, {}}};
    const model::text key = spec_.topology_keys.front();
    std::optional<model::text> fixed;
    for (std::size_t p : bound_)
      for (const model::node* node : nodes)
        if (node->meta.name == *run_.scenario().pods[p].object.node_name)
          if (const model::text* value = model::find(node->meta.labels, key); value != nullptr && !fixed) fixed = *value;
    std::vector<model::text> values;
    for (const model::node* node : nodes)
      if (const model::text* value = model::find(node->meta.labels, key))
        if (std::find(values.begin(), values.end(), *value) == values.end() && (!fixed || *fixed == *value))
          values.push_back(*value);
    std::vector<node_scope> out;
    for (const model::text value : values) {
      node_scope& domain = out.emplace_back();
      domain.outside = std::string(outside_domain_reason) + " " + std::string(key) + "=" + std::string(value);
      for (const model::node* node : nodes) {
        const model::text* label = model::find(node->meta.labels, key);
        domain.nodes.push_back(label != nullptr && *label == value ? 1 : 0);
      }
    }
    return out;
  }

  std::string group_label() const {
    const auto& meta = run_.resolver().groups().group(group_).meta;
    return "PodGroup " + model::namespaced_name(meta.namespace_, meta.name);
  }

  // No arrangement placed minCount pods: nothing the gang tried stays; each pending pod is unschedulable with the
  // gang's reason (how many of minCount pods fit, then what stopped the next one), and so are its pending claims.
  void fail(cluster_snapshot& base) {
    run_.restore(base);
    const std::int64_t min_count = *spec_.gang_min_count;
    const std::int64_t fit = std::max<std::int64_t>(best_placed_, 0) + static_cast<std::int64_t>(bound_.size());
    std::string reason = group_label() + ": " + std::to_string(fit) + " of minCount " + std::to_string(min_count) +
                         " pods fit";
    if (spec_.topology_keys.size() == 1 && topology_domains().empty())
      reason += " (no node has the topology label " + std::string(spec_.topology_keys.front()) + ")";
    if (exhausted_)
      reason += "; the search of the gang's arrangements stopped at its budget of " +
                std::to_string(gang_search_budget) + " trials";
    std::string message = reason;
    std::vector<sched::reason_count> reasons;
    reasons.push_back({{sched::node_reason_code::gang, reason}, run_.nodes().size()});
    if (best_) {
      message += "; pod " + model::namespaced_name(run_.scenario().pods[best_->pod].object.meta) + ": " + best_->unschedulable;
      reasons.insert(reasons.end(), best_->reasons.begin(), best_->reasons.end());
    }
    for (std::size_t p : pending_) {
      run_.record_pod({p, std::nullopt, message, false, run_.nodes().size(), reasons, {}, {}});
      for (std::size_t c : pending_claims_of(p)) run_.record_claim(c, p, "its pod's gang could not be placed: " + reason);
    }
  }

  // The scenario claims a pending pod names (directly, through its status or its group's) that are still pending and
  // not yet answered for.
  std::vector<std::size_t> pending_claims_of(std::size_t p) const {
    const model::pod& pod = run_.scenario().pods[p].object;
    const claim_resolver& resolver = run_.resolver();
    std::vector<std::size_t> out = resolver.claims_named_by(pod);
    for (const auto& ref : pod.resource_claims)
      if (const model::pod_resource_claim* entry = resolver.group_entry(pod, ref))
        if (const auto found = resolver.find_group_claim(group_, pod, *entry, run_.state()); found.claim)
          out.push_back(*found.claim);
    std::erase_if(out, [&](std::size_t c) {
      return run_.state().answered[c] || run_.state().allocation_of(run_.scenario(), run_.report(), c) != nullptr;
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  Cycle& run_;
  std::size_t group_;
  const model::pod_group_spec& spec_;
  std::vector<std::size_t> bound_, pending_;  // the gang's pods bound to nodes, and pending (not gated), queue order
  std::int64_t need_ = 0;                     // pods still to place: minCount less the bound ones
  std::int64_t best_placed_ = -1;             // the most pods one-by-one placement placed in a domain
  std::optional<pod_outcome> best_;  // the first pod that stopped that attempt
  std::uint64_t steps_ = 0;
  bool exhausted_ = false;
  std::vector<std::size_t> hardware_;                              // per node: its hardware class (classify_nodes)
  std::vector<std::vector<const model::resource_slice*>> own_slices_;  // per node: the slices published for it alone
};

}  // namespace dra::sched
