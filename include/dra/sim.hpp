// One include for the sim room: the scenario runner and what the dra command computes on a run: explanations,
// occupancy, summaries, selections, capacity and what-ifs.
#pragma once

#include <dra/sim/availability.hpp>
#include <dra/sim/capacity.hpp>
#include <dra/sim/capacity_output.hpp>
#include <dra/sim/explain.hpp>
#include <dra/sim/explain_pod_group.hpp>
#include <dra/sim/explain_pod.hpp>
#include <dra/sim/explain_report.hpp>
#include <dra/sim/find_pod.hpp>
#include <dra/sim/flatten_scenario.hpp>
#include <dra/sim/node_usage.hpp>
#include <dra/sim/occupancy.hpp>
#include <dra/sim/run_output.hpp>
#include <dra/sim/run_report.hpp>
#include <dra/sim/runner.hpp>
#include <dra/sim/runs.hpp>
#include <dra/sim/scenario_output.hpp>
#include <dra/sim/select.hpp>
#include <dra/sim/summary.hpp>
#include <dra/sim/what_if.hpp>
