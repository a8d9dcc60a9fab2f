// One include for the alloc room: the allocator, its policies, concepts, ledger, per-device checks and node matching,
// for model:: objects or a scheduler's own types.
#pragma once

#include <dra/alloc/allocator.hpp>
#include <dra/alloc/best_fit.hpp>
#include <dra/alloc/check.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/demand.hpp>
#include <dra/alloc/device_checks.hpp>
#include <dra/alloc/feature_gates.hpp>
#include <dra/alloc/features.hpp>
#include <dra/alloc/inventory.hpp>
#include <dra/alloc/inventory_concepts.hpp>
#include <dra/alloc/inventory_traits.hpp>
#include <dra/alloc/ledger.hpp>
#include <dra/alloc/node_match.hpp>
#include <dra/alloc/pools.hpp>
