// A room umbrella that leaves out one of its room's headers and includes one of another room: room_umbrellas.cmake
// must reject it.
#pragma once

#include <dra/core/result.hpp>
#include <dra/flatten/listed.hpp>
