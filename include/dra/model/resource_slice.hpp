// ResourceSlice and what it publishes: devices, attributes, capacities, counter sets, mixins (KEP-4815, KEP-5075,
// KEP-5234).
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/core/semver.hpp>
#include <dra/model/common.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace dra::model {

// A version attribute keeps its text (what CEL and emit show) and, when the
// text is a valid semantic version, the parsed form (validation reports it
// otherwise). The parsed form is immutable and shared: a cluster's devices
// repeat a handful of versions (driver, compute capability), and ingest
// parses each text once per document part instead of keeping a copy on every
// device. Made from its text, it parses it: `version_value{"550.54.15"}` is
// ready for CEL (an invalid text keeps only `source`; model::make_version
// rejects it).
struct version_value {
  version_value() = default;
  explicit version_value(text version) : source(version) {
    if (auto v = semver::parse(version)) parsed = std::make_shared<const semver>(std::move(*v));
  }
  version_value(text version, std::shared_ptr<const semver> parsed_form)
      : source(version), parsed(std::move(parsed_form)) {}

  text source;
  std::shared_ptr<const semver> parsed;  // null when `source` is no semantic version
  friend bool operator==(const version_value& a, const version_value& b) { return a.source == b.source; }
};

// DeviceAttribute: exactly one of int, bool, string, version, or (with the
// ListTypeAttributes feature) their list forms ints, bools, strings, versions.
using attribute_value = std::variant<std::int64_t, bool, text, version_value, std::vector<std::int64_t>,
                                     std::vector<bool>, std::vector<text>, std::vector<version_value>>;

// Which of attribute_value's alternatives an attribute holds, by name (in the variant's order).
enum class attribute_kind : std::uint8_t { integer, boolean, string, version, integers, booleans, strings, versions };

[[nodiscard]] constexpr attribute_kind kind_of(const attribute_value& v) noexcept {
  return static_cast<attribute_kind>(v.index());
}
[[nodiscard]] constexpr bool is_list(attribute_kind k) noexcept { return k >= attribute_kind::integers; }

static_assert(std::variant_size_v<attribute_value> == 8);
static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(attribute_kind::version), attribute_value>,
                   version_value>);
static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(attribute_kind::versions), attribute_value>,
                   std::vector<version_value>>);
static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(attribute_kind::booleans), attribute_value>,
                   std::vector<bool>>);

// An attribute as written: JSON may set no field or several; validation
// rejects both, the allocator only ever sees `value`.
struct device_attribute {
  attribute_value value;
  std::uint8_t fields_set = 1;  // how many of the eight fields the input set
  friend bool operator==(const device_attribute&, const device_attribute&) = default;
};

// CapacityRequestPolicyRange.
struct capacity_range {
  quantity min;
  std::optional<quantity> max;
  std::optional<quantity> step;
  bool has_min = true;  // false when the input's range has no `min` (validation reports it)
  friend bool operator==(const capacity_range&, const capacity_range&) = default;
};

// CapacityRequestPolicy (KEP-5075): how much one allocation of a shared
// device consumes, and which amounts are allowed.
struct capacity_request_policy {
  std::optional<quantity> default_value;
  std::vector<quantity> valid_values;
  std::optional<capacity_range> valid_range;
  friend bool operator==(const capacity_request_policy&, const capacity_request_policy&) = default;
};

// DeviceCapacity.
struct device_capacity {
  quantity value;
  optional_box<capacity_request_policy> request_policy;  // boxed: most capacities have none
  friend bool operator==(const device_capacity&, const device_capacity&) = default;
};

using attribute_map = sorted_map<device_attribute>;
using capacity_map = sorted_map<device_capacity>;
using counter_map = sorted_map<quantity>;  // Counter{value}

// CounterSet: named counters that devices of the pool draw from.
struct counter_set {
  text name;
  counter_map counters;
  std::vector<text> includes;  // CounterSetMixin names (KEP-5234)
  friend bool operator==(const counter_set&, const counter_set&) = default;
};

// DeviceCounterConsumption: what a device takes from one counter set.
struct device_counter_consumption {
  text counter_set;
  counter_map counters;
  std::vector<text> includes;  // DeviceCounterConsumptionMixin names (KEP-5234)
  // Devices drawing from the same counter set must share one of these, or
  // all declare none (KEP-5963, DRADeviceCompatibilityGroups).
  std::vector<text> compatibility_groups;
  friend bool operator==(const device_counter_consumption&, const device_counter_consumption&) = default;
};

// DeviceTaint (KEP-5055).
struct device_taint {
  text key;
  text value;
  text effect;  // NoSchedule, NoExecute, None
  std::optional<text> time_added;
  friend bool operator==(const device_taint&, const device_taint&) = default;
};

// NodeAllocatableMapping (KEP-5517): how much of a node resource one allocation of the device is. Valid input sets
// either `device_multiplier` (per allocated device) or `capacity_key` with `capacity_multiplier` (per amount of that
// capacity the allocation consumes); validation reports other combinations.
struct node_allocatable_mapping {
  std::optional<text> capacity_key;
  std::optional<quantity> capacity_multiplier;
  std::optional<quantity> device_multiplier;
  friend bool operator==(const node_allocatable_mapping&, const node_allocatable_mapping&) = default;
};

// NodeAllocatableOverhead (KEP-5517): what an allocated device costs each pod using its claim, once per pod and once
// per container that references the claim.
struct node_allocatable_overhead {
  std::optional<quantity> per_pod;
  std::optional<quantity> per_container;
  friend bool operator==(const node_allocatable_overhead&, const node_allocatable_overhead&) = default;
};

// NodeAllocatableResource (KEP-5517): a device's part of one node resource (cpu, memory, ephemeral-storage,
// hugepages-*); at least one of the two is set in valid input.
struct node_allocatable_resource {
  std::optional<node_allocatable_mapping> mapping;
  std::optional<node_allocatable_overhead> overhead;
  friend bool operator==(const node_allocatable_resource&, const node_allocatable_resource&) = default;
};

using node_allocatable_map = sorted_map<node_allocatable_resource>;  // by node resource name

// Device (v1: the former `basic` fields inline).
struct device {
  text name;
  attribute_map attributes;
  capacity_map capacity;
  std::vector<device_counter_consumption> consumes_counters;
  // Per-device node selection, only with spec.perDeviceNodeSelection.
  std::optional<text> node_name;
  std::optional<dra::model::node_selector> node_selector;
  std::optional<bool> all_nodes;
  std::vector<device_taint> taints;
  std::optional<bool> binds_to_node;
  std::vector<text> binding_conditions;
  std::vector<text> binding_failure_conditions;
  std::optional<bool> allow_multiple_allocations;
  std::vector<text> includes;  // DeviceMixin names (KEP-5234)
  // nodeAllocatableResources (KEP-5517, alpha in 1.37); boxed: almost no device has it.
  optional_box<node_allocatable_map> node_allocatable_resources;
  friend bool operator==(const device&, const device&) = default;
};

// KEP-5234 mixins.
struct device_mixin {
  text name;
  attribute_map attributes;
  capacity_map capacity;
  friend bool operator==(const device_mixin&, const device_mixin&) = default;
};
struct counter_set_mixin {
  text name;
  counter_map counters;
  friend bool operator==(const counter_set_mixin&, const counter_set_mixin&) = default;
};
struct device_counter_consumption_mixin {
  text name;
  counter_map counters;
  friend bool operator==(const device_counter_consumption_mixin&, const device_counter_consumption_mixin&) = default;
};
struct resource_slice_mixins {
  std::vector<device_mixin> device;
  std::vector<device_counter_consumption_mixin> device_counter_consumption;
  std::vector<counter_set_mixin> counter_set;
  friend bool operator==(const resource_slice_mixins&, const resource_slice_mixins&) = default;
};

// ResourcePool.
struct resource_pool {
  text name;
  std::int64_t generation = 0;
  std::int64_t resource_slice_count = 0;
  friend bool operator==(const resource_pool&, const resource_pool&) = default;
};

// ResourceSlice (metadata + spec).
struct resource_slice {
  object_meta meta;
  text driver;
  resource_pool pool;
  // Exactly one of these four selects the nodes (validation checks it).
  std::optional<text> node_name;
  std::optional<dra::model::node_selector> node_selector;
  std::optional<bool> all_nodes;
  std::optional<bool> per_device_node_selection;
  std::vector<device> devices;
  std::vector<counter_set> shared_counters;
  std::optional<resource_slice_mixins> mixins;
  // KEP-5945 (alpha in 1.37): node-local operations the kubelet skips for these devices ("NodePrepareResources",
  // "NodeUnprepareResources", "*"); copied into each allocation result of them.
  std::vector<text> skip_node_operations;
  friend bool operator==(const resource_slice&, const resource_slice&) = default;
};

// DeviceTaintRule (KEP-5055): `taint` applies to every device its selector
// picks, as if the slice had published it. Unset selector fields match all.
struct device_taint_selector {
  std::optional<text> driver;
  std::optional<text> pool;
  std::optional<text> device;
  friend bool operator==(const device_taint_selector&, const device_taint_selector&) = default;
};

struct device_taint_rule {
  object_meta meta;
  device_taint_selector device_selector;  // spec.deviceSelector
  device_taint taint;                     // spec.taint
  friend bool operator==(const device_taint_rule&, const device_taint_rule&) = default;
};

}  // namespace dra::model
