// One include for the sim room: the run driver and what the dra command computes with the scheduling cycle:
// explanations, analyses (capacity, what-if, availability, occupancy, stranded capacity, summary, selections) and
// output documents.
#pragma once

#include <dra/sim/analysis/availability.hpp>
#include <dra/sim/analysis/capacity.hpp>
#include <dra/sim/analysis/flatten_scenario.hpp>
#include <dra/sim/analysis/occupancy.hpp>
#include <dra/sim/analysis/select.hpp>
#include <dra/sim/analysis/stranded.hpp>
#include <dra/sim/analysis/summary.hpp>
#include <dra/sim/analysis/what_if.hpp>
#include <dra/sim/explain/claims.hpp>
#include <dra/sim/explain/find_pod.hpp>
#include <dra/sim/explain/pod.hpp>
#include <dra/sim/explain/pod_group.hpp>
#include <dra/sim/explain/preemption.hpp>
#include <dra/sim/output/capacity_output.hpp>
#include <dra/sim/output/run_output.hpp>
#include <dra/sim/output/scenario_output.hpp>
#include <dra/sim/output/stranded_output.hpp>
#include <dra/sim/runner.hpp>
