// The API server's Priority admission over a scenario: each pod given the priority and preemption policy of its
// PriorityClass (or of the global default class) as admission gives them when the pod is created.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>
#include <dra/model/priority_class.hpp>
#include <dra/model/scenario.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dra::model {

// The PriorityClasses a scenario's pods can name: its own and the system classes every cluster has.
class priority_classes {
 public:
  struct entry {
    std::int32_t value = 0;
    std::optional<text> preemption_policy;
  };

  explicit priority_classes(const scenario& s) {
    for (const system_priority_class& c : system_priority_classes) by_name_[c.name] = {c.value, std::nullopt};
    for (const auto& located : s.priority_classes) {
      const priority_class& c = located.object;
      by_name_[c.meta.name] = {c.value, c.preemption_policy};
      // With several global defaults (which the API server refuses), admission takes the lowest.
      if (c.global_default && (!default_ || c.value < default_->value)) default_ = entry{c.value, c.preemption_policy};
    }
  }

  [[nodiscard]] const entry* find(std::string_view name) const {
    const auto it = by_name_.find(name);
    return it != by_name_.end() ? &it->second : nullptr;
  }
  // The global default class, if the scenario has one.
  [[nodiscard]] const entry* global_default() const { return default_ ? &*default_ : nullptr; }

 private:
  std::unordered_map<std::string_view, entry> by_name_;
  std::optional<entry> default_;
};

// What admission says of a pod that names a class the cluster does not have.
[[nodiscard]] inline std::string unknown_priority_class_message(std::string_view name) {
  return concat("no PriorityClass with name ", name, " was found");
}

// Gives every pod without spec.priority the value of its PriorityClass (the global default class's when it names
// none, 0 without one), and every pod without spec.preemptionPolicy its class's policy. A pod that carries
// spec.priority keeps it: it was admitted already (a snapshot carries both). Returns a problem per pod naming a class
// that does not exist, which the API server would have refused; such a pod keeps priority 0.
[[nodiscard]] inline std::vector<dra::error> admit_priorities(scenario& s) {
  std::vector<dra::error> problems;
  if (s.priority_classes.empty() &&
      std::none_of(s.pods.begin(), s.pods.end(), [](const auto& p) { return p.object.priority_class_name.has_value(); }))
    return problems;
  const priority_classes classes(s);
  for (auto& located : s.pods) {
    pod& p = located.object;
    const priority_classes::entry* c = nullptr;
    if (p.priority_class_name && !p.priority_class_name->empty()) {
      c = classes.find(*p.priority_class_name);
      if (c == nullptr) {
        problems.push_back({unknown_priority_class_message(*p.priority_class_name), "spec.priorityClassName",
                            object_label("Pod", p.meta.namespace_, p.meta.name), errc::not_found});
        continue;
      }
    } else {
      c = classes.global_default();
    }
    if (c == nullptr) continue;
    if (!p.priority_given) p.priority = c->value;
    if (!p.preemption_policy) p.preemption_policy = c->preemption_policy;
  }
  return problems;
}

}  // namespace dra::model
