// A header breaking the room order on purpose: the room-order check must reject it (tests/headers/room_order.cmake).
#pragma once
#include <dra/alloc/allocator.hpp>
