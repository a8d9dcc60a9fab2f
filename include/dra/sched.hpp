// The sched room: where a pod may run, device claims aside — kube-scheduler's node filters, pod requests, the queue
// order and its refusal text.
#pragma once

#include <dra/sched/extended_resources.hpp>
#include <dra/sched/filters.hpp>
#include <dra/sched/fit_error.hpp>
#include <dra/sched/node_allocatable.hpp>
#include <dra/sched/node_usage.hpp>
#include <dra/sched/pod_requests.hpp>
#include <dra/sched/queue.hpp>
#include <dra/sched/scoring.hpp>
