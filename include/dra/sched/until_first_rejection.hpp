// The policy run_scenario falls back to when a policy guarded by first fit places less than first fit: the policy's
// own choices up to the queue's first rejection, first fit's after it.
#pragma once

#include <dra/alloc/concepts.hpp>

#include <cstdint>
#include <memory>
#include <span>

namespace dra::sched {

// A node-ranking policy until the queue's first rejection, first fit after it (candidates and nodes in upstream's
// order, the first node that fits taken): the answer run_scenario tries when a guarded policy places more before the
// first rejection than first fit but less in all. Copies share the switch (the placer's and its allocators').
template <class Ranked>
struct until_first_rejection {
  Ranked ranked;
  std::shared_ptr<bool> rejected = std::make_shared<bool>(false);

  void order_candidates(std::span<std::uint32_t> order, std::span<const alloc::candidate_facts> facts) const {
    if (!*rejected) ranked.order_candidates(order, facts);
  }
  void order_nodes(std::span<std::uint32_t> order, std::span<const alloc::node_facts> facts) const {
    if (!*rejected) ranked.order_nodes(order, facts);
  }
  [[nodiscard]] bool ranking() const { return !*rejected; }
  void first_rejection() const { *rejected = true; }
};

}  // namespace dra::sched
