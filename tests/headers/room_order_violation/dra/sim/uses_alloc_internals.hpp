// A header using the alloc room's internals on purpose: the room-order check must reject it
// (tests/headers/room_order.cmake). Its own room's internals are allowed.
#pragma once
#include <dra/alloc/detail/search.hpp>

namespace dra::sim {
inline auto own = sim::detail::own_helper;
inline auto used = alloc::detail::capacity_key;
}  // namespace dra::sim
