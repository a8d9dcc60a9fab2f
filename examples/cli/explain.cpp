// `dra explain` (commands.hpp): a first-fit run, then the funnel of the named claims, pods and PodGroups.
#include "commands.hpp"
#include "explain_command.hpp"

#include <dra/compiled_runs.hpp>

namespace dra_cli {

// `dra explain [FILE] [CLAIM... | pod/NAME... | podgroup/NAME...]`: every pending claim when nothing is named;
// `pod/NAME` (NAME as kubectl takes it: namespace/name, or name in -n's namespace, else "default") explains a pod, its answer
// then its claims; `podgroup/NAME` a PodGroup, its pods' answers then its claims. Exit code 1 when a named claim, pod
// or PodGroup does not exist, 2 when --features is invalid.
int run_explain(const invocation& call, const std::vector<std::string>& names, const dra::model::scenario& s,
                       std::ostream& out, std::ostream& err) {
  const auto requested = requested_features(call, err);
  if (!requested) return 2;
  const dra::alloc::features features = *requested;
  const dra::compiled::selector_engine engine;  // the CEL code compiled once, in dra_compiled
  dra::sim::run_options options = machine_run_options(call);
  options.keep_preemption_candidates = true;  // a preempting pod's explanation shows every candidate node
  auto report = dra::sim::run_scenario(s, engine, features, dra::alloc::first_fit{}, options);
  constexpr std::string_view pod_prefix = "pod/", group_prefix = "podgroup/";
  std::vector<std::string> claims, pods;
  bool groups_named = false;
  for (const std::string& name : names) {
    if (name.starts_with(pod_prefix)) {
      pods.push_back(qualified(call, std::string_view(name).substr(pod_prefix.size())));
      continue;
    }
    if (!name.starts_with(group_prefix)) {
      claims.push_back(qualified(call, name));
      continue;
    }
    groups_named = true;
    const auto group = dra::sim::explain_pod_group(s, report, qualified(call, std::string_view(name).substr(group_prefix.size())));
    if (!group.found) {
      err << "dra: PodGroup " << group.group << " not found\n";
      return 1;
    }
    if (call.output != output_format::json) detail::print_pod_group(group, out);
    claims.insert(claims.end(), group.claims.begin(), group.claims.end());
  }
  const bool nothing_named = pods.empty() && !groups_named && claims.empty();
  if (nothing_named && call.namespace_) {  // -n NS: NS's pending claims
    for (const auto& o : report.outcomes)
      if (in_namespace(call, o.claim)) claims.push_back(o.claim);
    if (claims.empty()) {
      err << "dra: no pending claims in namespace " << *call.namespace_ << "\n";
      return 0;
    }
  }
  std::vector<dra::sim::claim_explanation> explanations;
  if (nothing_named || !claims.empty())
    explanations = dra::sim::explain_claims(s, report, engine, features, claims);
  const auto pod_explanations = dra::sim::explain_pods(s, report, engine, features, pods);
  if (call.output == output_format::json) {
    out << (pods.empty() ? dra::sim::to_json(explanations)
                         : dra::sim::to_json(pod_explanations, claims.empty() ? nullptr : &explanations));
  } else {
    detail::print_pods(pod_explanations, out);
    detail::print_explanations(explanations, out);
  }
  int code = 0;
  for (const auto& e : explanations)
    if (e.status == dra::model::claim_status::not_found) {
      err << "dra: claim " << e.claim << " not found" << (e.error.empty() ? "" : "; ") << e.error << "\n";
      code = 1;
    }
  for (const auto& p : pod_explanations)
    if (p.status == dra::sim::pod_status::not_found) {
      err << "dra: pod " << p.pod << " not found\n";
      code = 1;
    }
  return code;
}

}  // namespace dra_cli
