// The scenario runs compiled once: the list of the policies whose runs (with Kubernetes' CEL engine) a program can
// link ready-made from src/runs/, one source file per policy, and, for a target that does (DRA_SIM_RUNS_COMPILED),
// the declarations that keep its own files from instantiating them again.
//
// A policy's run is the runner's class (sim::detail::scenario_run) and the two function templates that construct it,
// run_scenario and capacity. GCC instantiates a class's inline members (all of the runner's, defined in the class)
// despite an `extern template` declaration, to inline them; the two functions are not inline, so declaring them
// `extern` is what keeps a caller's file from instantiating the runner at all.
//
// Without DRA_SIM_RUNS_COMPILED this header declares nothing extern and the runner stays header-only. CMake target
// dra_runs (built with the dra command) compiles src/runs/ and defines the macro for the targets that link it.
#pragma once

#include <dra/alloc/best_fit.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/cel/selector.hpp>
#include <dra/core/result.hpp>
#include <dra/model/scenario.hpp>
#include <dra/sched/scoring.hpp>
#include <dra/sim/capacity.hpp>
#include <dra/sim/detail/first_fit_guard.hpp>
#include <dra/sim/run_report.hpp>
#include <dra/sim/runner.hpp>

// The policies, each as X(name, type): src/runs/<name>.cpp defines its run with DRA_SIM_RUN_DEFINE(name). The guard
// of a policy guarded by first fit runs first fit and the policy until the first rejection: both are listed.
#define DRA_SIM_RUN_POLICIES(X)                     \
  X(first_fit, ::dra::alloc::first_fit)             \
  X(sorted, ::dra::alloc::sorted)                   \
  X(shared_capacity, ::dra::alloc::shared_capacity) \
  X(kube_score, ::dra::sched::kube_score)           \
  X(sorted_until_first_rejection, ::dra::sim::detail::until_first_rejection<::dra::alloc::sorted>)

// Everything instantiated for one policy, at global scope; `prefix` is `template` (a definition) or `extern template`
// (a declaration).
#define DRA_SIM_RUN_INSTANTIATION(prefix, policy)                                                                    \
  prefix class ::dra::sim::detail::scenario_run<::dra::cel::selector_engine, policy>;                               \
  prefix ::dra::sim::run_report dra::sim::run_scenario<::dra::cel::selector_engine, policy>(                      \
      const ::dra::model::scenario&, const ::dra::cel::selector_engine&, ::dra::alloc::features, policy,            \
      ::dra::sim::run_options);                                                                                      \
  prefix ::dra::result<::dra::sim::capacity_report> dra::sim::capacity<::dra::cel::selector_engine, policy>(      \
      const ::dra::model::scenario&, const ::dra::model::located<::dra::model::pod>&,                                \
      const ::dra::cel::selector_engine&, ::dra::alloc::features, policy, ::dra::sim::capacity_options);

namespace dra::sim::run_policies {
// Each listed policy by its name in the list.
#define DRA_SIM_RUN_POLICY_ALIAS(name, type) using name = type;
DRA_SIM_RUN_POLICIES(DRA_SIM_RUN_POLICY_ALIAS)
#undef DRA_SIM_RUN_POLICY_ALIAS
}  // namespace dra::sim::run_policies

// The explicit instantiation definitions of the listed policy `name` (in src/runs/<name>.cpp only).
#define DRA_SIM_RUN_DEFINE(name) DRA_SIM_RUN_INSTANTIATION(template, ::dra::sim::run_policies::name)

#if defined(DRA_SIM_RUNS_COMPILED)
#define DRA_SIM_RUN_DECLARE(name, type) DRA_SIM_RUN_INSTANTIATION(extern template, ::dra::sim::run_policies::name)
DRA_SIM_RUN_POLICIES(DRA_SIM_RUN_DECLARE)
#undef DRA_SIM_RUN_DECLARE
#endif
