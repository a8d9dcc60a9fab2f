// A run of scenario text for the preemption tests: the report, and the pods' outcomes and names looked up by name.
#pragma once

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

namespace dra_test {

struct preemption_run {
  std::optional<dra::json::document> doc;
  dra::sim::run_report report;

  const dra::sim::pod_outcome& outcome(std::string_view name) const {
    for (const auto& p : report.pods)
      if (dra::sim::pod_at(doc->scenario(), report, p.pod).meta.name == name) return p;
    ADD_FAILURE() << "no outcome for " << name;
    static const dra::sim::pod_outcome none;
    return none;
  }
  std::string pod_name(std::size_t index) const { return std::string(doc->scenario().pods[index].object.meta.name); }
};

// Loads `text` (failing the test if it does not load) and runs it with `features`.
inline preemption_run run_preemption(const std::string& text,
                                     dra::alloc::features features = dra::alloc::features::all()) {
  static const dra::cel::selector_engine engine;
  preemption_run out;
  auto doc = dra::json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return out;
  out.doc.emplace(std::move(*doc));
  out.report = dra::sim::run_scenario(out.doc->scenario(), engine, features);
  return out;
}

}  // namespace dra_test
