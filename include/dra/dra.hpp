// The umbrella header: everything dra offers, in one include.
#pragma once

#include <dra/core/names.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/core/semver.hpp>
#include <dra/flatten/concepts.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/flatten/plain_view.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/writer.hpp>
#include <dra/model/common.hpp>
#include <dra/model/device_class.hpp>
#include <dra/model/outcome.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/scenario.hpp>
#include <dra/model/workload.hpp>
#include <dra/sim/flatten_scenario.hpp>
#include <dra/sim/summary.hpp>
