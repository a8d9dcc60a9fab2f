// A program using the library's internals on purpose: the room-order check must reject it
// (tests/headers/room_order.cmake). Its own detail namespace is allowed.
#include <dra/core/text.hpp>

namespace tool::detail {
int helper();
}  // namespace tool::detail

int main() { return dra::detail::concat("a").size() + tool::detail::helper(); }
