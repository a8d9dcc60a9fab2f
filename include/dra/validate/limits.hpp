// The size limits of resource.k8s.io/v1 objects that validation enforces, as the API reference, KEP-5234 and upstream state them.
#pragma once

#include <cstddef>

namespace dra::validate::limits {

// ResourceSlice (API reference, resource.k8s.io/v1).
inline constexpr std::size_t devices_per_slice = 128;
// Taints, counter consumption or list-typed attributes make devices costlier to evaluate.
inline constexpr std::size_t devices_per_slice_with_advanced_features = 64;
inline constexpr std::size_t attributes_and_capacities_per_device = 32;  // after mixins are applied (KEP-5234)
inline constexpr std::size_t attribute_value_length = 64;
// Every scalar attribute counts once, a list-typed one once per item (ResourceSliceMaxAttributeValuesPerDevice).
inline constexpr std::size_t attribute_values_per_device = 48;
inline constexpr std::size_t counter_sets_per_slice = 8;
inline constexpr std::size_t counters_per_counter_set = 32;
inline constexpr std::size_t counter_consumptions_per_device = 2;
inline constexpr std::size_t counters_per_counter_consumption = 32;
inline constexpr std::size_t compatibility_groups_per_counter_consumption = 2;  // KEP-5963
inline constexpr std::size_t consumed_counters_per_slice = 2048;
inline constexpr std::size_t taints_per_device = 16;
inline constexpr std::size_t binding_conditions_per_device = 4;
inline constexpr std::size_t binding_failure_conditions_per_device = 4;
inline constexpr std::size_t valid_values_per_request_policy = 10;
inline constexpr std::size_t pool_name_length = 253;

// KEP-5234 mixins.
inline constexpr std::size_t device_mixins_per_slice = 128;
inline constexpr std::size_t counter_set_mixins_per_slice = 32;
inline constexpr std::size_t counter_consumption_mixins_per_slice = 128;
inline constexpr std::size_t attributes_and_capacities_per_slice = 4096;  // devices and device mixins together
inline constexpr std::size_t counters_per_slice = 256;                    // counter sets and their mixins together
inline constexpr std::size_t device_includes = 8;
inline constexpr std::size_t counter_set_includes = 8;
inline constexpr std::size_t counter_consumption_includes = 4;

// ResourceClaim and DeviceClass.
inline constexpr std::size_t requests_per_claim = 32;
inline constexpr std::size_t subrequests_per_request = 8;  // firstAvailable
inline constexpr std::size_t selectors = 32;
inline constexpr std::size_t constraints_per_claim = 32;
inline constexpr std::size_t configs = 32;
inline constexpr std::size_t cel_expression_length = 10 * 1024;
inline constexpr std::size_t opaque_parameters_length = 10 * 1024;
inline constexpr std::size_t allocation_results = 32;
inline constexpr std::size_t reserved_for = 256;  // ResourceClaimReservedForMaxSize
inline constexpr std::size_t device_status_conditions = 8;          // AllocatedDeviceStatusMaxConditions
inline constexpr std::size_t network_interface_name_length = 256;    // NetworkDeviceDataInterfaceNameMaxLength
inline constexpr std::size_t network_hardware_address_length = 128;  // NetworkDeviceDataHardwareAddressMaxLength
inline constexpr std::size_t network_ips = 16;                       // NetworkDeviceDataMaxIPs

}  // namespace dra::validate::limits
