// kube-scheduler's feature gates as dra's switches: a release's defaults ("1.37") and `--feature-gates` in
// kube-scheduler's own syntax, checked as kube-scheduler checks them.
#pragma once

#include <dra/alloc/features.hpp>
#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dra::alloc {

// The Kubernetes releases whose gates dra knows, oldest first; the last is what `--feature-gates` alone starts from.
inline constexpr std::array<std::string_view, 4> known_releases{"1.34", "1.35", "1.36", "1.37"};

// Whether `text` names a release of known_releases.
[[nodiscard]] constexpr bool is_known_release(std::string_view text) noexcept {
  return std::ranges::find(known_releases, text) != known_releases.end();
}

// The switches kube-scheduler of `release` (one of known_releases) runs with by default.
[[nodiscard]] result<features> release_features(std::string_view release);

// The switches after kube-scheduler's `--feature-gates` value `gates` ("DRAConsumableCapacity=true,
// DRADeviceTaints=false"; AllAlpha and AllBeta; a `kube:` prefix) on `release`'s gates, starting from `base`, or
// from the release's defaults without one. Refused in kube-scheduler's words: a value that is not a boolean, a locked
// gate set against its lock, a gate the release does not have yet, a DRA gate it does not know, a gate on whose
// dependency is off (without `base`). `notes` gets a line for each gate dra does not model that is not where dra runs it (dra always
// serves extended resources through DRA, for example), and for gates that are not DRA's or scheduling's (ignored).
[[nodiscard]] result<features> with_feature_gates(std::string_view gates, std::string_view release,
                                                  std::optional<features> base, std::vector<std::string>& notes);

namespace detail {

enum class gate_stage : std::uint8_t { absent, alpha, beta, ga, ga_locked };

struct gate_in_release {
  gate_stage stage = gate_stage::absent;
  bool on = false;
};

// A gate, per release of known_releases. `feature` is the switch it feeds (several gates feeding one switch turn it
// on together); a gate without one is not modelled: dra runs as with it at `modelled_as`.
struct gate_spec {
  std::string_view name;
  std::array<gate_in_release, known_releases.size()> releases;
  bool features::*feature = nullptr;
  bool modelled_as = true;
};

inline constexpr gate_in_release absent{};
inline constexpr gate_in_release alpha_off{gate_stage::alpha, false};
inline constexpr gate_in_release beta_off{gate_stage::beta, false};
inline constexpr gate_in_release beta_on{gate_stage::beta, true};
inline constexpr gate_in_release ga_on{gate_stage::ga, true};
inline constexpr gate_in_release locked_on{gate_stage::ga_locked, true};

// From kube-scheduler's versioned gate specs (pkg/features/kube_features.go) of 1.34 to 1.37.
inline constexpr std::array<gate_spec, 19> gate_specs{{
    {"DRAAdminAccess", {beta_on, beta_on, locked_on, locked_on}, &features::admin_access},
    {"DRAConsumableCapacity", {alpha_off, alpha_off, beta_on, beta_on}, &features::consumable_capacity},
    {"DRADerivedAttributes", {absent, absent, absent, alpha_off}, &features::derived_attributes},
    {"DRADeviceBindingConditions", {alpha_off, alpha_off, beta_on, beta_on}, &features::device_binding_and_status},
    {"DRAResourceClaimDeviceStatus", {beta_on, beta_on, beta_on, locked_on}, &features::device_binding_and_status},
    {"DRADeviceCompatibilityGroups", {absent, absent, absent, alpha_off}, &features::device_compatibility_groups},
    {"DRADeviceTaints", {alpha_off, alpha_off, beta_on, ga_on}, &features::device_taints},
    {"DRAListTypeAttributes", {absent, absent, alpha_off, alpha_off}, &features::list_type_attributes},
    {"DRANodeAllocatableResources", {absent, absent, alpha_off, alpha_off}, &features::node_allocatable_resources},
    {"DRAOptionalNodeOperations", {absent, absent, absent, alpha_off}, &features::optional_node_operations},
    {"DRAPartitionableDevices", {alpha_off, alpha_off, beta_on, beta_on}, &features::partitionable_devices},
    // KEP-5690 plans it straight to beta in 1.37, off by default.
    {"DRAPreemption", {absent, absent, absent, beta_off}, &features::device_preemption},
    {"DRAPrioritizedList", {beta_on, beta_on, ga_on, locked_on}, &features::prioritized_list},
    // Not modelled: dra runs as with each of these on.
    {"DynamicResourceAllocation", {ga_on, locked_on, locked_on, locked_on}},
    {"DRAExtendedResource", {alpha_off, alpha_off, beta_on, locked_on}},
    {"DRADeviceTaintRules", {absent, alpha_off, beta_off, ga_on}},
    {"DRASchedulerFilterTimeout", {beta_on, beta_on, beta_on, beta_on}},
    {"GenericWorkload", {absent, alpha_off, alpha_off, beta_off}},
    {"GangScheduling", {absent, alpha_off, alpha_off, absent}},
}};

// A gate on whose dependencies are off is refused (kube-scheduler 1.35 on).
struct gate_dependency {
  std::string_view gate, needs;
};
inline constexpr std::array<gate_dependency, 3> gate_dependencies{{{"DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus"},
                                                                   {"DRADeviceTaintRules", "DRADeviceTaints"},
                                                                   {"GangScheduling", "GenericWorkload"}}};

[[nodiscard]] inline std::size_t release_index(std::string_view release) {
  return static_cast<std::size_t>(std::ranges::find(known_releases, release) - known_releases.begin());
}

[[nodiscard]] inline const gate_spec* find_gate(std::string_view name) {
  const auto* found = std::ranges::find(gate_specs, name, &gate_spec::name);
  return found == gate_specs.end() ? nullptr : found;
}

// Go's strconv.ParseBool.
[[nodiscard]] inline std::optional<bool> parse_go_bool(std::string_view text) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"})
    if (text == t) return true;
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"})
    if (text == f) return false;
  return std::nullopt;
}

[[nodiscard]] inline std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

[[nodiscard]] inline std::string_view bool_text(bool value) { return value ? "true" : "false"; }

[[nodiscard]] inline dra::error gate_error(std::string message) {
  return dra::error{std::move(message), "", "--feature-gates", errc::invalid_input};
}

// The gates' values: each gate's, in gate_specs order.
using gate_values = std::array<bool, gate_specs.size()>;

// Reads `gates` into `values`, which hold the starting point; `set` marks the gates it names.
[[nodiscard]] inline dra::status read_gate_list(std::string_view gates, std::size_t release, gate_values& values,
                                                std::vector<std::string>& notes) {
  std::array<bool, gate_specs.size()> set{};
  std::optional<bool> all_alpha, all_beta;
  while (!gates.empty()) {
    const std::size_t comma = gates.find(',');
    std::string_view item = trimmed(gates.substr(0, comma));
    gates.remove_prefix(comma == std::string_view::npos ? gates.size() : comma + 1);
    if (item.empty()) continue;
    if (item.starts_with("kube:")) item = trimmed(item.substr(5));
    const std::size_t equals = item.find('=');
    const std::string_view name = trimmed(item.substr(0, equals));
    if (equals == std::string_view::npos) return gate_error(concat("missing bool value for ", name));
    const std::string_view text = trimmed(item.substr(equals + 1));
    const auto value = parse_go_bool(text);
    if (!value)
      return gate_error(concat("invalid value of ", name, "=", text, ", err: strconv.ParseBool: parsing \"", text,
                               "\": invalid syntax"));
    if (name == "AllAlpha" || name == "AllBeta") {
      (name == "AllAlpha" ? all_alpha : all_beta) = *value;
      continue;
    }
    const gate_spec* gate = find_gate(name);
    if (gate == nullptr) {
      if (name.starts_with("DRA") || name.starts_with("DynamicResource"))
        return gate_error(concat("unrecognized feature gate: ", name));
      notes.push_back(concat("--feature-gates: ", name, " changes nothing dra models; ignored"));
      continue;
    }
    const gate_in_release spec = gate->releases[release];
    if (spec.stage == gate_stage::absent)
      return gate_error(concat("cannot set feature gate ", name, " to ", bool_text(*value),
                               ", feature is PreAlpha at emulated version ", known_releases[release]));
    if (spec.stage == gate_stage::ga_locked && *value != spec.on)
      return gate_error(concat("cannot set feature gate ", name, " to ", bool_text(*value), ", feature is locked to ",
                               bool_text(spec.on)));
    const auto k = static_cast<std::size_t>(gate - gate_specs.data());
    values[k] = *value;
    set[k] = true;
  }
  // AllAlpha and AllBeta set the gates of their stage that the list does not set itself, wherever they stand in it.
  for (std::size_t k = 0; k < gate_specs.size(); ++k) {
    const gate_stage stage = gate_specs[k].releases[release].stage;
    if (set[k]) continue;
    if (stage == gate_stage::alpha && all_alpha) values[k] = *all_alpha;
    if (stage == gate_stage::beta && all_beta) values[k] = *all_beta;
  }
  return {};
}

}  // namespace detail

inline result<features> release_features(std::string_view release) {
  std::vector<std::string> notes;
  return with_feature_gates("", release, std::nullopt, notes);
}

inline result<features> with_feature_gates(std::string_view gates, std::string_view release,
                                           std::optional<features> base, std::vector<std::string>& notes) {
  using namespace detail;
  if (!is_known_release(release))
    return gate_error(concat("unknown release \"", release, "\" (known: 1.34, 1.35, 1.36, 1.37)"));
  const std::size_t at = release_index(release);
  gate_values values{};
  for (std::size_t k = 0; k < gate_specs.size(); ++k) {
    const gate_spec& gate = gate_specs[k];
    values[k] = base && gate.feature != nullptr ? (*base).*gate.feature : gate.releases[at].on;
  }
  if (auto status = read_gate_list(gates, at, values, notes); !status) return std::move(status).error();
  auto value_of = [&](std::string_view name) { return values[static_cast<std::size_t>(find_gate(name) - gate_specs.data())]; };
  if (!base && at >= release_index("1.35"))
    for (const auto& [gate, needs] : gate_dependencies)
      if (find_gate(gate)->releases[at].stage != gate_stage::absent && value_of(gate) && !value_of(needs))
        return gate_error(concat(gate, " is enabled, but depends on features that are disabled: [", needs, "]"));
  for (std::size_t k = 0; k < gate_specs.size(); ++k) {
    const gate_spec& gate = gate_specs[k];
    if (gate.feature != nullptr) continue;
    if (gate.releases[at].stage != gate_stage::absent && values[k] != gate.modelled_as)
      notes.push_back(concat(gate.name, " is ", bool_text(values[k]), " here, which dra does not model: it runs as with ",
                             gate.name, "=", bool_text(gate.modelled_as)));
  }
  // A switch is on when every gate feeding it is.
  features out = features::none();
  for (const gate_spec& gate : gate_specs)
    if (gate.feature != nullptr) out.*gate.feature = true;
  for (std::size_t k = 0; k < gate_specs.size(); ++k)
    if (gate_specs[k].feature != nullptr && !values[k]) out.*gate_specs[k].feature = false;
  return out;
}

}  // namespace dra::alloc
