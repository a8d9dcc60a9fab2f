// A summary of a scenario: objects by kind, pools, devices and claims, as data and as JSON (the dra command writes
// the text form).
#pragma once

#include <dra/core/text.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/scenario.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::sim {

struct pool_summary {
  std::string_view driver;
  std::string_view pool;
  std::int64_t generation = 0;   // the newest one published; older slices are ignored
  std::size_t slices = 0;        // slices of that generation
  std::int64_t slice_count = 0;  // resourceSliceCount they announce
  std::size_t devices = 0;
  std::size_t counter_sets = 0;
  [[nodiscard]] bool complete() const noexcept { return static_cast<std::int64_t>(slices) == slice_count; }
};

struct scenario_summary {
  std::size_t slices = 0, classes = 0, claims = 0, nodes = 0, pods = 0, claim_templates = 0, taint_rules = 0;
  std::vector<pool_summary> pools;  // sorted by driver, then pool name
  std::size_t devices = 0;          // in the newest generation of every pool
  std::vector<std::string> pending_claims;
  std::size_t allocated_claims = 0;
  std::vector<std::string> warnings;
};

// Devices the API server would refuse and the allocator skips: a slice may
// publish sharedCounters or devices, not both (Kubernetes 1.34 drivers put
// both in one slice). One warning per such slice, in input order.
[[nodiscard]] inline std::vector<std::string> skipped_device_warnings(const model::scenario& scenario) {
  std::vector<std::string> out;
  for (const auto& located : scenario.slices) {
    const model::resource_slice& slice = located.object;
    if (slice.devices.empty() || slice.shared_counters.empty()) continue;
    out.push_back(dra::concat("ResourceSlice ", slice.meta.name, ": its ", std::to_string(slice.devices.size()),
                                      " devices are skipped: a slice holds either sharedCounters or devices, not both "
                                      "(dra validate reports it)"));
  }
  return out;
}

// Counts what the allocator would see: devices published beside sharedCounters are not counted (see
// skipped_device_warnings).
[[nodiscard]] inline scenario_summary summarize(const model::scenario& scenario) {
  scenario_summary out;
  out.slices = scenario.slices.size();
  out.classes = scenario.classes.size();
  out.claims = scenario.claims.size();
  out.nodes = scenario.nodes.size();
  out.pods = scenario.pods.size();
  out.claim_templates = scenario.claim_templates.size();
  out.taint_rules = scenario.taint_rules.size();
  out.warnings = scenario.warnings;
  // Pools by (driver, name), in output order (a search of the list for each slice was quadratic).
  std::map<std::pair<std::string_view, std::string_view>, pool_summary> pools;
  for (const auto& located : scenario.slices) {
    const model::resource_slice& slice = located.object;  // not a structured binding: Clang 14 cannot capture one
    pool_summary& pool =
        pools.try_emplace({slice.driver, slice.pool.name}, pool_summary{slice.driver, slice.pool.name}).first->second;
    if (slice.pool.generation < pool.generation) continue;
    if (slice.pool.generation > pool.generation || pool.slices == 0)
      pool = pool_summary{slice.driver, slice.pool.name, slice.pool.generation};
    ++pool.slices;
    pool.slice_count = slice.pool.resource_slice_count;
    if (slice.shared_counters.empty()) pool.devices += slice.devices.size();
    pool.counter_sets += slice.shared_counters.size();
  }
  out.pools.reserve(pools.size());
  for (auto& [key, pool] : pools) out.pools.push_back(pool);
  for (const pool_summary& p : out.pools) out.devices += p.devices;
  for (const auto& [claim, source] : scenario.claims) {
    if (claim.allocation)
      ++out.allocated_claims;
    else
      out.pending_claims.push_back(model::namespaced_name(claim.meta));
  }
  return out;
}

[[nodiscard]] inline std::string to_json(const scenario_summary& s) {
  json::writer w(2);
  auto count = [](std::size_t v) { return static_cast<std::int64_t>(v); };
  w.begin_object().key("objects").begin_object();
  w.field("ResourceSlice", count(s.slices)).field("DeviceClass", count(s.classes));
  w.field("ResourceClaim", count(s.claims)).field("ResourceClaimTemplate", count(s.claim_templates));
  w.field("DeviceTaintRule", count(s.taint_rules)).field("Node", count(s.nodes)).field("Pod", count(s.pods));
  w.end_object().key("pools").begin_array();
  for (const pool_summary& p : s.pools) {
    w.begin_object().field("driver", p.driver).field("pool", p.pool).field("generation", p.generation);
    w.field("slices", count(p.slices)).field("resourceSliceCount", p.slice_count).field("complete", p.complete());
    w.field("devices", count(p.devices)).field("counterSets", count(p.counter_sets)).end_object();
  }
  w.end_array().field("devices", count(s.devices)).key("pendingClaims").begin_array();
  for (const std::string& c : s.pending_claims) w.string(c);
  w.end_array().field("allocatedClaims", count(s.allocated_claims)).key("warnings").begin_array();
  for (const std::string& warning : s.warnings) w.string(warning);
  w.end_array().end_object();
  return std::move(w).str() + "\n";
}

}  // namespace dra::sim
