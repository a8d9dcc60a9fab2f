// One include for the validate room: validation of loaded objects and whole scenarios as the API server validates them.
#pragma once

#include <dra/validate/common.hpp>
#include <dra/validate/device_class.hpp>
#include <dra/validate/device_taint_rule.hpp>
#include <dra/validate/disruption_budget.hpp>
#include <dra/validate/limits.hpp>
#include <dra/validate/pod_group.hpp>
#include <dra/validate/pools.hpp>
#include <dra/validate/resource_claim.hpp>
#include <dra/validate/resource_slice.hpp>
#include <dra/validate/scenario.hpp>
#include <dra/validate/unknown_fields.hpp>
#include <dra/validate/workload.hpp>
