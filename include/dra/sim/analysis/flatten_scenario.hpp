// The `dra flatten` operation: a scenario written back with every ResourceSlice's mixins applied.
#pragma once

#include <dra/flatten/mixin_view.hpp>
#include <dra/json/defaults.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/overlay.hpp>
#include <dra/model/scenario.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace dra::sim {

// A Kubernetes List holding every object of the scenario in input order.
// ResourceSlices are written as resource.k8s.io/v1 objects with every mixin
// applied (v1beta1 and v1beta2 input is converted); every other object,
// of any kind, is copied as it was written, so nothing the engine does not
// model is lost — except that claims and templates get the fields the API
// server defaults where they were left out (json::api_server_defaults).
[[nodiscard]] inline std::string flattened_list(const model::scenario& scenario) {
  struct item {
    std::size_t index;
    const model::resource_slice* slice;  // non-null: write it flattened
    std::string_view json;
  };
  std::vector<item> items;
  auto add_all = [&](const auto& list) {
    for (const auto& [object, source] : list) items.push_back({source.index, nullptr, source.json});
  };
  for (const auto& [slice, source] : scenario.slices) items.push_back({source.index, &slice, source.json});
  add_all(scenario.classes);
  add_all(scenario.claims);
  add_all(scenario.claim_templates);
  add_all(scenario.taint_rules);
  add_all(scenario.nodes);
  add_all(scenario.pods);
  add_all(scenario.pod_groups);
  add_all(scenario.workloads);
  add_all(scenario.priority_classes);
  add_all(scenario.disruption_budgets);
  add_all(scenario.others);
  std::ranges::sort(items, {}, &item::index);

  json::writer w(2);
  w.begin_object().field("apiVersion", "v1").field("kind", "List").key("items").begin_array();
  for (const item& i : items) {
    if (i.slice != nullptr)
      json::write(w, flatten::flatten_slice(*i.slice));
    else if (auto defaulted = json::with_api_server_defaults(i.json); defaulted && *defaulted)
      (void)json::write_overlaid(w, **defaulted, {});  // text just written by the writer: it reads back
    else
      w.raw(i.json);
  }
  w.end_array().end_object();
  return std::move(w).str() + "\n";
}

}  // namespace dra::sim
