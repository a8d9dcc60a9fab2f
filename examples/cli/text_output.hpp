// The dra command's plain-text forms of summary and select (the library gives the data, and JSON).
#pragma once

#include <dra/sim/analysis/select.hpp>
#include <dra/sim/analysis/summary.hpp>

#include <string>
#include <vector>

namespace dra_cli {

// "objects: …", the pools with their generation and slices, then the claims.
[[nodiscard]] inline std::string summary_text(const dra::sim::scenario_summary& s) {
  using dra::concat;
  auto n = [](std::size_t v) { return std::to_string(v); };
  std::string out = concat("objects: ", n(s.slices), " ResourceSlices, ", n(s.classes), " DeviceClasses, ", n(s.claims),
                           " ResourceClaims, ", n(s.claim_templates), " ResourceClaimTemplates, ", n(s.taint_rules),
                           " DeviceTaintRules, ", n(s.nodes), " Nodes, ", n(s.pods), " Pods\n");
  out += concat("pools: ", n(s.pools.size()), ", devices: ", n(s.devices), "\n");
  for (const dra::sim::pool_summary& p : s.pools)
    out += concat("  ", p.driver, "/", p.pool, "  generation ", std::to_string(p.generation), ", ", n(p.slices), " of ",
                  std::to_string(p.slice_count), " slices", p.complete() ? "" : " (incomplete)", ", ", n(p.devices),
                  " devices, ", n(p.counter_sets), " counter sets\n");
  out += concat("claims: ", n(s.pending_claims.size()), " pending, ", n(s.allocated_claims), " allocated\n");
  for (const std::string& c : s.pending_claims) out += concat("  ", c, "\n");
  for (const std::string& w : s.warnings) out += concat("warning: ", w, "\n");
  return out;
}

// One line per device: "driver/pool/device: true", "…: false" or "…: error: …".
[[nodiscard]] inline std::string matches_text(const std::vector<dra::sim::device_match>& matches) {
  using dra::concat;
  std::string out;
  for (const auto& m : matches) {
    out += concat(m.driver, "/", m.pool, "/", m.device, ": ");
    out += m.match ? (*m.match ? "true" : "false") : concat("error: ", *m.error);
    out += '\n';
  }
  return out;
}

}  // namespace dra_cli
