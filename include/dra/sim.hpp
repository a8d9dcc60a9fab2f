// One include for the sim room: the scenario runner and what the dra command computes on a run: explanations,
// occupancy, summaries, selections, capacity and what-ifs.
#pragma once

#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/output/capacity_output.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sim/explain/pod_group.hpp>
#include <dra/sim/explain/pod.hpp>
#include <dra/sim/explain/claims.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/analysis/flatten_scenario.hpp>
#include <dra/sched/device_usage.hpp>
#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/output/scenario_output.hpp>
#include <dra/sim/analysis/select.hpp>
#include <dra/sim/analysis/summary.hpp>
#include <dra/sim/analysis/what_if.hpp>
