// A room umbrella that leaves out one of its room's headers: room_umbrellas.cmake must reject it.
#pragma once

#include <dra/flatten/listed.hpp>
