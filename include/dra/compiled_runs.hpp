// The scenario runs compiled once, in the dra_compiled library (as {fmt} compiles its formatting once in format.cc):
// for each policy listed here, with the compiled selector engine (dra/compiled_engine.hpp), the run driver, the
// scheduling cycle, run_scenario and capacity. A target linked to dra_compiled (DRA_COMPILED_RUNS defined) sees them
// declared extern, so that its own files instantiate none of them; without the macro this header declares nothing.
//
// Every member of the instantiated classes that a caller reaches is defined out of its class (not inline), and the
// entry points are function templates declared extern too: GCC instantiates inline members of an extern template
// class anyway, to inline them.
#pragma once

#include <dra/alloc/best_fit.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/compiled_engine.hpp>
#include <dra/core/result.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sched/scheduling_cycle.hpp>
#include <dra/sched/until_first_rejection.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/runner.hpp>

// The policies, each as X(name, type); src/runs/<name>.cpp defines its runs with DRA_COMPILED_RUNS_DEFINE(name). A
// policy guarded by first fit also runs first fit and itself until the queue's first rejection: both are listed.
#define DRA_COMPILED_RUN_POLICIES(X)                \
  X(first_fit, ::dra::alloc::first_fit)             \
  X(sorted, ::dra::alloc::sorted)                   \
  X(shared_capacity, ::dra::alloc::shared_capacity) \
  X(sorted_until_first_rejection, ::dra::sched::until_first_rejection<::dra::alloc::sorted>)

// Everything instantiated for one policy; `prefix` is `template` (a definition) or `extern template` (a declaration).
#define DRA_COMPILED_RUN_INSTANTIATION(prefix, policy)                                                               \
  prefix class ::dra::sched::scheduling_cycle<::dra::compiled::selector_engine, policy>;                             \
  prefix class ::dra::sim::scenario_run<::dra::compiled::selector_engine, policy>;                                   \
  prefix ::dra::sim::run_report dra::sim::run_scenario<::dra::compiled::selector_engine, policy>(                    \
      const ::dra::model::scenario&, const ::dra::compiled::selector_engine&, ::dra::alloc::features, policy,        \
      ::dra::sim::run_options);                                                                                      \
  prefix ::dra::result<::dra::sim::capacity_report> dra::sim::capacity<::dra::compiled::selector_engine, policy>(    \
      const ::dra::model::scenario&, const ::dra::model::located<::dra::model::pod>&,                                \
      const ::dra::compiled::selector_engine&, ::dra::alloc::features, policy, ::dra::sim::capacity_options);

namespace dra::compiled::run_policies {
#define DRA_COMPILED_RUN_POLICY_ALIAS(name, type) using name = type;
DRA_COMPILED_RUN_POLICIES(DRA_COMPILED_RUN_POLICY_ALIAS)
#undef DRA_COMPILED_RUN_POLICY_ALIAS
}  // namespace dra::compiled::run_policies

// The explicit instantiation definitions of the listed policy `name` (in src/runs/<name>.cpp only).
#define DRA_COMPILED_RUNS_DEFINE(name) \
  DRA_COMPILED_RUN_INSTANTIATION(template, ::dra::compiled::run_policies::name)

#if defined(DRA_COMPILED_RUNS)
#define DRA_COMPILED_RUN_DECLARE(name, type) \
  DRA_COMPILED_RUN_INSTANTIATION(extern template, ::dra::compiled::run_policies::name)
DRA_COMPILED_RUN_POLICIES(DRA_COMPILED_RUN_DECLARE)
#undef DRA_COMPILED_RUN_DECLARE
#endif
