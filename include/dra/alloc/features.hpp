// The allocator's feature switches (upstream's structured.Features) and their command-line spelling.
#pragma once

#include <dra/core/result.hpp>

#include <array>
#include <string>
#include <string_view>

namespace dra::alloc {

// Every switch but device_preemption is on by default; a switched-off feature behaves as upstream's allocator (or
// kube-scheduler's DynamicResources plugin) does with the matching DRA feature gate disabled.
struct features {
  bool admin_access = true;
  bool consumable_capacity = true;
  bool derived_attributes = true;  // KEP-6080 (alpha in 1.37)
  bool device_binding_and_status = true;
  bool device_compatibility_groups = true;  // KEP-5963 (alpha in 1.37)
  bool device_taints = true;
  bool list_type_attributes = true;
  // KEP-5517 (alpha in 1.37, DRANodeAllocatableResources): devices' nodeAllocatableResources add to their pods'
  // requests on the node. A scheduler feature rather than the allocator's: it never changes what the allocator picks.
  bool node_allocatable_resources = true;
  bool optional_node_operations = true;  // KEP-5945 (alpha in 1.37)
  bool partitionable_devices = true;
  bool prioritized_list = true;
  // KEP-5690 (DRAPreemption, off by default): preemption frees devices. Off in `all` too: it changes which pods
  // kube-scheduler evicts, and kube-scheduler's default answer is the one dra gives unless asked.
  bool device_preemption = false;

  // Every switch on but device_preemption.
  [[nodiscard]] static constexpr features all() noexcept { return {}; }
  [[nodiscard]] static constexpr features none() noexcept {
    return {false, false, false, false, false, false, false, false, false, false, false, false};
  }

  // "all", "none", or a comma-separated list of upstream feature names
  // (AdminAccess, ConsumableCapacity, DerivedAttributes, DeviceBindingAndStatus,
  // DeviceCompatibilityGroups, DeviceTaints, ListTypeAttributes, NodeAllocatableResources,
  // OptionalNodeOperations, PartitionableDevices, Preemption, PrioritizedList); a list
  // enables exactly the features it names.
  [[nodiscard]] static result<features> parse(std::string_view text);

  // Sets the switch named like upstream's Features field; false when the name is unknown.
  bool enable(std::string_view name) noexcept {
    for (const auto& [field_name, member] : fields())
      if (field_name == name) {
        this->*member = true;
        return true;
      }
    return false;
  }

  friend bool operator==(const features&, const features&) = default;

 private:
  using field = std::pair<std::string_view, bool features::*>;
  static constexpr std::array<field, 12> fields() noexcept {
    return {{{"AdminAccess", &features::admin_access},
             {"ConsumableCapacity", &features::consumable_capacity},
             {"DerivedAttributes", &features::derived_attributes},
             {"DeviceBindingAndStatus", &features::device_binding_and_status},
             {"DeviceCompatibilityGroups", &features::device_compatibility_groups},
             {"DeviceTaints", &features::device_taints},
             {"ListTypeAttributes", &features::list_type_attributes},
             {"NodeAllocatableResources", &features::node_allocatable_resources},
             {"OptionalNodeOperations", &features::optional_node_operations},
             {"PartitionableDevices", &features::partitionable_devices},
             {"Preemption", &features::device_preemption},
             {"PrioritizedList", &features::prioritized_list}}};
  }
};

// Upstream picks its "stable" allocator when only AdminAccess,
// PrioritizedList, PartitionableDevices and DeviceTaints may be on; that one
// has no distinctAttribute constraints (they came with ConsumableCapacity),
// so such a constraint is an unsupported, empty one there.
[[nodiscard]] constexpr bool served_by_stable_allocator(const features& f) noexcept {
  return !f.consumable_capacity && !f.device_binding_and_status && !f.list_type_attributes &&
         !f.device_compatibility_groups && !f.derived_attributes && !f.optional_node_operations;
}

inline result<features> features::parse(std::string_view text) {
  if (text == "all") return features::all();
  if (text == "none" || text.empty()) return features::none();
  features out = features::none();
  while (!text.empty()) {
    std::size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!out.enable(name))
      return error{"unknown feature \"" + std::string(name) +
                   "\" (known: AdminAccess, ConsumableCapacity, DerivedAttributes, DeviceBindingAndStatus, "
                   "DeviceCompatibilityGroups, "
                   "DeviceTaints, "
                   "ListTypeAttributes, NodeAllocatableResources, OptionalNodeOperations, PartitionableDevices, "
                   "Preemption, PrioritizedList, or all, none)"};
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace dra::alloc
