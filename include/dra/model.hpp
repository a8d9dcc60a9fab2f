// One include for the model room: the Kubernetes objects device allocation reads (slices, classes, claims, templates,
// taint rules, nodes, pods, priority classes, disruption budgets), their builders and outcomes, and Priority admission.
#pragma once

#include <dra/model/build.hpp>
#include <dra/model/common.hpp>
#include <dra/model/device_class.hpp>
#include <dra/model/explanation_codes.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/pod_disruption_budget.hpp>
#include <dra/model/pod_group.hpp>
#include <dra/model/priority_admission.hpp>
#include <dra/model/priority_class.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/scenario.hpp>
#include <dra/model/scheduler_config.hpp>
#include <dra/model/workload.hpp>
