// The umbrella header: everything dra offers, in one include (each room also has its own: dra/<room>.hpp).
#pragma once

#include <dra/alloc.hpp>
#include <dra/cel.hpp>
#include <dra/core.hpp>
#include <dra/flatten.hpp>
#include <dra/json.hpp>
#include <dra/model.hpp>
#include <dra/sched.hpp>
#include <dra/sim.hpp>
#include <dra/validate.hpp>
