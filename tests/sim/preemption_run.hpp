// Scenario text for the preemption tests (nodes and pods), and a run of it: the report, and the pods' outcomes and
// names looked up by name.
#pragma once

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

namespace dra_test {

// A node of `cpu` cores, 16Gi and 110 pods allocatable.
inline std::string node(std::string_view name, std::string_view cpu) {
  return R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + std::string(name) +
         R"("}, "status": {"allocatable": {"cpu": ")" + std::string(cpu) + R"(", "memory": "16Gi", "pods": "110"}}})" +
         "\n";
}

// A pod of the default namespace asking `cpu`; bound and running when `node` is set.
struct pod_spec {
  std::string_view name;
  std::string_view cpu;
  std::optional<int> priority;
  std::string_view node;        // bound there when not empty
  std::string_view start_time;  // status.startTime
  std::string extra_spec;       // more spec fields, each followed by ", "
};

inline std::string pod(const pod_spec& p) {
  std::string spec = p.extra_spec;
  if (p.priority) spec += R"("priority": )" + std::to_string(*p.priority) + ", ";
  if (!p.node.empty()) spec += R"("nodeName": ")" + std::string(p.node) + R"(", )";
  spec += R"("containers": [{"name": "main", "resources": {"requests": {"cpu": ")" + std::string(p.cpu) + R"("}}}])";
  std::string status = p.node.empty() ? "" : R"(, "status": {"phase": "Running")";
  if (!p.start_time.empty()) status += R"(, "startTime": ")" + std::string(p.start_time) + R"(")";
  if (!status.empty()) status += "}";
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + std::string(p.name) +
         R"(", "namespace": "default", "uid": "uid-)" + std::string(p.name) + R"("}, "spec": {)" + spec + "}" + status +
         "}\n";
}

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

// Loads `text` (failing the test if it does not load) and runs it with `features` and `options`.
inline preemption_run run_preemption(const std::string& text,
                                     dra::alloc::features features = dra::alloc::features::all(),
                                     dra::sim::run_options options = {}) {
  static const dra::cel::selector_engine engine;
  preemption_run out;
  auto doc = dra::json::load(text);
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return out;
  out.doc.emplace(std::move(*doc));
  out.report = dra::sim::run_scenario(out.doc->scenario(), engine, features, dra::alloc::first_fit{}, options);
  return out;
}

}  // namespace dra_test
