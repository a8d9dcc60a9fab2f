// A header using core's internals on purpose: the room-order check must reject it (tests/headers/room_order.cmake).
#pragma once
#include <dra/core/text.hpp>

namespace dra::json {
using namespace dra::detail;
}  // namespace dra::json
