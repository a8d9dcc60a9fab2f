// The reader of a PodDisruptionBudget's fields under JSON ingest: its budget, its label selector and the status the
// disruption controller wrote.
#pragma once

#include <dra/json/detail/fields.hpp>
#include <dra/json/detail/reader.hpp>
#include <dra/model/pod_disruption_budget.hpp>

#include <simdjson.h>

#include <string_view>

namespace dra::json::detail {

class budget_reader : public field_reader {
 public:
  using field_reader::field_reader;

  dra::status budget_spec(od::value& v, model::pod_disruption_budget& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (reader::is_null(value)) return {};
      if (is(name, "minAvailable")) return int_or_percent(value, out.min_available.emplace());
      if (is(name, "maxUnavailable")) return int_or_percent(value, out.max_unavailable.emplace());
      if (is(name, "selector")) return label_selector(value, out.selector.emplace());
      if (is(name, "unhealthyPodEvictionPolicy")) return assign(out.unhealthy_pod_eviction_policy, r_.string(value));
      return {};
    });
  }

  // Only disruptionsAllowed and disruptedPods matter to preemption; the counts the controller also writes do not.
  dra::status budget_status(od::value& v, model::pod_disruption_budget& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (reader::is_null(value)) return {};
      if (is(name, "disruptionsAllowed"))
        return assign(status_of(out).disruptions_allowed, r_.integer32(value));
      if (is(name, "disruptedPods"))
        return r_.map(value, status_of(out).disrupted_pods,
                      [&](od::value& when, model::text& time) { return assign(time, r_.string(when)); });
      return {};
    });
  }

  dra::status label_selector(od::value& v, model::label_selector& out) {
    return r_.each_field(v, [&](std::string_view name, od::value& value) -> dra::status {
      auto at = r_.field(name);
      if (is(name, "matchLabels"))
        return r_.map(value, out.match_labels, [&](od::value& l, model::text& label) { return assign(label, r_.string(l)); });
      if (is(name, "matchExpressions")) return requirement_list(value, out.match_expressions);
      return r_.unknown();
    });
  }

 private:
  // A count as a JSON number, or a percentage as a JSON string; validation checks the string's form.
  dra::status int_or_percent(od::value& v, model::int_or_percent& out) {
    od::json_type type{};
    if (v.type().get(type) == simdjson::SUCCESS && type == od::json_type::string) {
      out.is_string = true;
      return assign(out.string, r_.string(v));
    }
    if (type != od::json_type::number) return r_.wrong_type(v, "an integer or a percentage");
    return assign(out.number, r_.integer32(v));
  }

  // A status with disruptedPods but no disruptionsAllowed still says 0 disruptions are allowed (the field's zero).
  static model::disruption_budget_status& status_of(model::pod_disruption_budget& out) {
    return out.status ? *out.status : out.status.emplace();
  }
};

}  // namespace dra::json::detail
