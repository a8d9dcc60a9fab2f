// The sched room: kube-scheduler's framework — the per-node plugins (pod requests, node filters, scoring, extended
// resources, node allocatable resources, the queue order and the refusal text) and the scheduling cycle that uses
// them (cluster state, claim resolver, unit placer, diagnosis of refusals, gangs).
#pragma once

#include <dra/sched/claim_resolver.hpp>
#include <dra/sched/cluster_state.hpp>
#include <dra/sched/device_usage.hpp>
#include <dra/sched/diagnosis.hpp>
#include <dra/sched/disruption_budgets.hpp>
#include <dra/sched/extended_resources.hpp>
#include <dra/sched/filter_memo.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/fragmentation.hpp>
#include <dra/sched/gang.hpp>
#include <dra/sched/generated_names.hpp>
#include <dra/sched/node_allocatable.hpp>
#include <dra/sched/node_likeness.hpp>
#include <dra/sched/node_list.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_filter.hpp>
#include <dra/sched/pod_groups.hpp>
#include <dra/sched/pod_requests.hpp>
#include <dra/sched/preemption.hpp>
#include <dra/sched/queue.hpp>
#include <dra/sched/run_report.hpp>
#include <dra/sched/scheduling_cycle.hpp>
#include <dra/sched/scored_nodes.hpp>
#include <dra/sched/scoring.hpp>
#include <dra/sched/unfit_memo.hpp>
#include <dra/sched/unit_placer.hpp>
#include <dra/sched/until_first_rejection.hpp>
