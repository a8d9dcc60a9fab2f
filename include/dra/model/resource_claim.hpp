// ResourceClaim: requests, constraints, configuration, and the AllocationResult in its status.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/model/common.hpp>
#include <dra/model/device_class.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dra::model {

// `unsupported` keeps a mode this version does not know (its text is in
// device_request_spec::mode_name), so that allocation reports it as upstream does.
enum class allocation_mode : std::uint8_t { exact_count, all, unsupported };

// CapacityRequirements.requests (KEP-5075).
struct capacity_requirements {
  sorted_map<quantity> requests;
  friend bool operator==(const capacity_requirements&, const capacity_requirements&) = default;
};

// DeviceDerivedAttribute (KEP-6080): an attribute a request computes for each
// candidate device with a CEL expression, which the claim's constraints see in
// place of (or in addition to) the device's own attributes.
struct device_derived_attribute {
  text name;
  text expression;
  friend bool operator==(const device_derived_attribute&, const device_derived_attribute&) = default;
};

// What ExactDeviceRequest and DeviceSubRequest have in common. On input the
// API server's defaults are applied: mode ExactCount, and count 1 with it.
struct device_request_spec {
  text device_class_name;
  std::vector<device_selector> selectors;
  allocation_mode mode = allocation_mode::exact_count;
  text mode_name;  // allocationMode as written; empty when defaulted
  std::int64_t count = 1;
  std::vector<device_toleration> tolerations;
  std::optional<capacity_requirements> capacity;
  std::vector<device_derived_attribute> derived_attributes;  // KEP-6080
  friend bool operator==(const device_request_spec&, const device_request_spec&) = default;
};

// ExactDeviceRequest.
struct exact_device_request : device_request_spec {
  std::optional<bool> admin_access;
  friend bool operator==(const exact_device_request&, const exact_device_request&) = default;
};

// DeviceSubRequest (an alternative of firstAvailable).
struct device_sub_request : device_request_spec {
  text name;
  friend bool operator==(const device_sub_request&, const device_sub_request&) = default;
};

// DeviceRequest: exactly one of `exactly` and `first_available` is set.
struct device_request {
  text name;
  std::optional<exact_device_request> exactly;
  std::vector<device_sub_request> first_available;
  friend bool operator==(const device_request&, const device_request&) = default;
};

// DeviceConstraint: requests empty means all requests of the claim.
struct device_constraint {
  std::vector<text> requests;
  std::optional<text> match_attribute;
  std::optional<text> distinct_attribute;
  friend bool operator==(const device_constraint&, const device_constraint&) = default;
};

// DeviceClaimConfiguration.
struct device_claim_configuration {
  std::vector<text> requests;
  opaque_device_configuration opaque;
  friend bool operator==(const device_claim_configuration&, const device_claim_configuration&) = default;
};

struct device_claim {
  std::vector<device_request> requests;
  std::vector<device_constraint> constraints;
  std::vector<device_claim_configuration> config;
  friend bool operator==(const device_claim&, const device_claim&) = default;
};

// DeviceRequestAllocationResult. `request` and `share_id` are owned because
// the allocator makes them ("request/subrequest", a fresh UID); the rest
// borrows from the slices (or from the input, for claims read back).
struct device_request_allocation_result {
  std::string request;
  text driver;
  text pool;
  text device;
  std::optional<bool> admin_access;
  std::vector<device_toleration> tolerations;
  std::vector<text> binding_conditions;
  std::vector<text> binding_failure_conditions;
  std::optional<std::string> share_id;
  sorted_map<quantity> consumed_capacity;
  std::vector<text> skip_node_operations;  // the device's slice's, when it was allocated (KEP-5945)
  friend bool operator==(const device_request_allocation_result&, const device_request_allocation_result&) = default;
};

// `unsupported` keeps a missing, empty or unknown source (its text is in
// source_name), so that validation reports it with the claim's other problems.
enum class allocation_config_source : std::uint8_t { from_class, from_claim, unsupported };

// DeviceAllocationConfiguration.
struct device_allocation_configuration {
  allocation_config_source source = allocation_config_source::from_claim;
  std::vector<std::string> requests;
  opaque_device_configuration opaque;
  text source_name = {};  // the source as written, when unsupported
  friend bool operator==(const device_allocation_configuration&, const device_allocation_configuration&) = default;
};

// AllocationResult.
struct allocation_result {
  std::vector<device_request_allocation_result> results;
  std::vector<device_allocation_configuration> config;
  std::optional<dra::model::node_selector> node_selector;
  std::optional<text> allocation_timestamp;
  friend bool operator==(const allocation_result&, const allocation_result&) = default;
};

// ResourceClaimConsumerReference (status.reservedFor).
struct resource_claim_consumer_reference {
  text api_group;  // empty for core objects (pods)
  text resource;   // "pods"
  text name;
  text uid;
  friend bool operator==(const resource_claim_consumer_reference&, const resource_claim_consumer_reference&) = default;
};

// NetworkDeviceData of an allocated device's status.
struct network_device_data {
  text interface_name;
  text hardware_address;
  std::vector<text> ips;
  friend bool operator==(const network_device_data&, const network_device_data&) = default;
};

// AllocatedDeviceStatus (status.devices): what a driver reports about a
// device allocated to the claim. Read only to be validated; conditions are
// only counted.
struct allocated_device_status {
  text driver;
  text pool;
  text device;
  std::optional<text> share_id;
  std::size_t conditions = 0;
  text data_json;  // raw JSON; empty when absent
  std::optional<network_device_data> network_data;
  friend bool operator==(const allocated_device_status&, const allocated_device_status&) = default;
};

struct resource_claim {
  object_meta meta;
  device_claim spec;
  std::optional<allocation_result> allocation;                // status.allocation
  std::vector<resource_claim_consumer_reference> reserved_for;  // status.reservedFor
  std::vector<allocated_device_status> devices;                 // status.devices
  friend bool operator==(const resource_claim&, const resource_claim&) = default;
};

// ResourceClaimTemplate: pods that name it get a claim made from `spec`,
// with the labels and annotations of `claim_meta` (spec.metadata).
struct resource_claim_template {
  object_meta meta;
  object_meta claim_meta;  // spec.metadata: only labels and annotations are used
  device_claim spec;       // spec.spec
  friend bool operator==(const resource_claim_template&, const resource_claim_template&) = default;
};

}  // namespace dra::model
