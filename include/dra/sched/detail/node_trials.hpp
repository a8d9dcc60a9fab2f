// Trying a unit of work's candidate nodes on several threads (run_options::threads): each thread searches the nodes
// its own allocator owns, in order, and the placer then reads the outcomes in node order as if it had searched one
// node after the other.
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/core/result.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/workload.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>
#include <thread>
#include <vector>

namespace dra::sched::detail {

// Threads that run one job at a time on all of them, the calling thread included (as thread 0): started once per
// scenario run and woken per job, as a unit of work's nodes are tried in well under a millisecond.
class trial_threads {
 public:
  // Up to `count` threads in all; fewer when the system has no more to give.
  explicit trial_threads(std::size_t count) {
    for (std::size_t t = 1; t < count; ++t) {
      try {
        workers_.emplace_back([this, t](std::stop_token) { serve(t); });
      } catch (const std::system_error&) {
        break;
      }
    }
  }
  trial_threads(const trial_threads&) = delete;
  trial_threads& operator=(const trial_threads&) = delete;
  ~trial_threads() {
    {
      const std::scoped_lock hold(lock_);
      closing_ = true;
    }
    wake_.notify_all();
  }  // workers_ join

  [[nodiscard]] std::size_t size() const noexcept { return workers_.size() + 1; }

  // Runs job(t) for every thread t, and returns once all have; rethrows the first exception a job threw.
  void run(const std::function<void(std::size_t)>& job) {
    std::vector<std::exception_ptr> failures(size());
    auto guarded = [&](std::size_t t) {
      try {
        job(t);
      } catch (...) {
        failures[t] = std::current_exception();
      }
    };
    {
      const std::scoped_lock hold(lock_);
      job_ = guarded;
      running_ = workers_.size();
      ++generation_;
    }
    wake_.notify_all();
    guarded(0);
    {
      std::unique_lock hold(lock_);
      done_.wait(hold, [&] { return running_ == 0; });
      job_ = nullptr;
    }
    for (const auto& failure : failures)
      if (failure) std::rethrow_exception(failure);
  }

 private:
  void serve(std::size_t t) {
    std::uint64_t seen = 0;
    for (;;) {
      std::function<void(std::size_t)> job;
      {
        std::unique_lock hold(lock_);
        wake_.wait(hold, [&] { return closing_ || generation_ != seen; });
        if (closing_) return;
        seen = generation_;
        job = job_;
      }
      job(t);
      {
        const std::scoped_lock hold(lock_);
        --running_;
      }
      done_.notify_one();
    }
  }

  std::mutex lock_;
  std::condition_variable wake_, done_;
  std::function<void(std::size_t)> job_;
  std::uint64_t generation_ = 0;
  std::size_t running_ = 0;
  bool closing_ = false;
  std::vector<std::jthread> workers_;  // last: joined before the members they use go
};

// What trying one candidate node found: its outcome class once asked, its outcome once searched.
struct node_trial {
  bool class_known = false;
  std::optional<std::uint32_t> outcome_class;
  std::optional<result<alloc::allocation_outcome>> outcome;
};

// Searches the candidates at `positions` (increasing) on `threads`: position p on thread owner_of(p), with
// allocators[owner_of(p)]. `stops(outcome)` says whether the placer, reading outcomes in order, would stop at a node
// with that outcome; no thread searches past the first position known to stop. A thread asks each node's outcome
// class first and does not search a node of a class one of its earlier nodes had: the placer, reading in order,
// meets a node of that class before it and never asks for this one's outcome. The trials of the nodes not searched
// stay without an outcome.
template <class Allocator>
void try_nodes(trial_threads& threads, std::span<const model::node* const> candidates,
               std::span<const std::size_t> positions, std::span<const model::resource_claim* const> claims,
               std::span<Allocator* const> allocators, const std::function<std::size_t(std::size_t)>& owner_of,
               const std::function<bool(const result<alloc::allocation_outcome>&)>& stops,
               std::vector<node_trial>& trials) {
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::atomic<std::size_t> stop{none};
  threads.run([&](std::size_t thread) {
    Allocator& allocator = *allocators[thread];
    std::vector<std::uint32_t> classes_searched;
    for (const std::size_t p : positions) {
      if (p > stop.load(std::memory_order_acquire)) break;
      if (owner_of(p) != thread) continue;
      node_trial& trial = trials[p];
      trial.outcome_class = allocator.outcome_class(*candidates[p], claims);
      trial.class_known = true;
      if (trial.outcome_class) {
        if (std::ranges::find(classes_searched, *trial.outcome_class) != classes_searched.end()) continue;
        classes_searched.push_back(*trial.outcome_class);
      }
      trial.outcome = allocator.allocate(*candidates[p], claims);
      if (stops(*trial.outcome)) {
        std::size_t seen = stop.load(std::memory_order_acquire);
        while (p < seen && !stop.compare_exchange_weak(seen, p, std::memory_order_acq_rel)) {
        }
      }
    }
  });
}

}  // namespace dra::sched::detail
