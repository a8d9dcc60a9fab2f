// The static cost estimate of a type-checked CEL expression (cel-go's checker.Cost with Kubernetes' library estimates),
// which the API server compares with a selector's cost limit.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/detail/cost_estimator.hpp>
#include <dra/cel/environment.hpp>

namespace dra::cel {

// Estimates the range of costs of evaluating `checked_root`, a tree the checker annotated and whose constants are
// not yet folded (the estimate, like cel-go's, is of the expression as written; cost_estimate is declared with the
// environment). Sizes of values read from the variables come from `env.declared_sizes`; where no size is known a
// loop or a text operation is unbounded (UINT64_MAX), as in cel-go.
[[nodiscard]] inline cost_estimate estimate_cost(const environment& env, const node& checked_root) {
  return detail::cost_estimator(env).run(checked_root);
}

}  // namespace dra::cel
