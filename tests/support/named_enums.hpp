// Test support: explanation enums print by name in test failures (gtest would print their bytes).
#pragma once

#include <dra/model/explanation_codes.hpp>

#include <ostream>

namespace dra::model {

// Found by argument-dependent lookup, from gtest's printer and from test messages alike.
template <named_enum Enum>
std::ostream& operator<<(std::ostream& out, Enum value) {
  return out << name_of(value);
}

}  // namespace dra::model
