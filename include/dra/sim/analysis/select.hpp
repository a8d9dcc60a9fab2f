// What `dra select` computes: which devices of a scenario a CEL selector (and optionally a class's selectors) matches.
#pragma once

#include <dra/cel/selector.hpp>
#include <dra/core/result.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::sim {

struct device_match {
  std::string_view driver, pool, device;
  std::optional<bool> match;    // absent when evaluation failed
  std::optional<std::string> error;
};

// Evaluates `expression` (after the selectors of `class_name`, when given, as the allocator
// does) on every device of every slice, in scenario order. Fails when a selector does not
// compile or the class does not exist; per-device evaluation errors are part of the result.
[[nodiscard]] inline result<std::vector<device_match>> select_devices(const model::scenario& scenario,
                                                                      const cel::selector_engine& engine,
                                                                      std::string_view expression,
                                                                      std::optional<std::string_view> class_name = {}) {
  std::vector<std::pair<std::string, cel::selector_engine::program>> programs;
  if (class_name) {
    const model::device_class* klass = nullptr;
    for (const auto& c : scenario.classes)
      if (c.object.meta.name == *class_name) klass = &c.object;
    if (klass == nullptr)
      return error{dra::concat("device class ", dra::quoted(*class_name), " not found"), "", "",
                   errc::not_found};
    for (std::size_t i = 0; i < klass->selectors.size(); ++i) {
      auto p = engine.compile(klass->selectors[i].cel_expression);
      if (!p)
        return error{p.error().message, dra::concat("spec.selectors[", std::to_string(i), "].cel.expression"),
                     dra::concat("DeviceClass/", *class_name), p.error().code};
      programs.emplace_back(dra::concat("class ", *class_name, " selector #", std::to_string(i)), std::move(p).value());
    }
  }
  auto own = engine.compile(expression);
  if (!own) return std::move(own).error();
  programs.emplace_back("", std::move(own).value());

  std::vector<device_match> out;
  for (const auto& located : scenario.slices) {
    const model::resource_slice& slice = located.object;
    const model::resource_slice_mixins* mixins = slice.mixins ? &*slice.mixins : nullptr;
    for (const auto& d : slice.devices) {
      const flatten::mixin_device_view view(d, mixins);
      device_match m{slice.driver, slice.pool.name, d.name, true, std::nullopt};
      for (const auto& [what, program] : programs) {
        auto r = engine.matches(program, view, slice.driver);
        if (!r) {
          m.match.reset();
          m.error = what.empty() ? r.error().message : dra::concat(what, ": ", r.error().message);
          break;
        }
        if (!r.value()) {
          m.match = false;
          break;
        }
      }
      out.push_back(std::move(m));
    }
  }
  return out;
}

// {"devices": [{"driver": …, "pool": …, "device": …, "match": true|false} | {…, "error": "…"}]}
[[nodiscard]] inline std::string to_json(const std::vector<device_match>& matches) {
  json::writer w(2);
  w.begin_object().key("devices").begin_array();
  for (const auto& m : matches) {
    w.begin_object().field("driver", m.driver).field("pool", m.pool).field("device", m.device);
    if (m.match)
      w.field("match", *m.match);
    else
      w.field("error", std::string_view(*m.error));
    w.end_object();
  }
  w.end_array().end_object();
  return std::move(w).str() + "\n";
}

}  // namespace dra::sim
