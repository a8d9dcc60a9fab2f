// The names of the claims a run makes from templates, for tests that name them: as the resourceclaim controller
// names them (dra::sched::generated_claim_name), found from the pod or PodGroup they are made for.
#pragma once

#include <dra/model/scenario.hpp>
#include <dra/sched/generated_names.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace dra_test {

// "namespace/name" of the claim made for entry `entry` of the pod (or else the PodGroup) `owner` ("namespace/name"
// or "name" in default) of `s`.
inline std::string made_claim(const dra::model::scenario& s, std::string_view owner, std::string_view entry) {
  const std::string qualified = owner.find('/') == std::string_view::npos ? "default/" + std::string(owner)
                                                                          : std::string(owner);
  auto made = [&](const dra::model::object_meta& meta) {
    return dra::model::namespaced_name(meta.namespace_, dra::sched::generated_claim_name(meta, entry));
  };
  for (const auto& p : s.pods)
    if (dra::model::namespaced_name(p.object.meta) == qualified) return made(p.object.meta);
  for (const auto& g : s.pod_groups)
    if (dra::model::namespaced_name(g.object.meta) == qualified) return made(g.object.meta);
  throw std::invalid_argument("no pod or PodGroup " + qualified);
}

}  // namespace dra_test
