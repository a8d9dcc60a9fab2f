// Test support: q("4Gi") — a quantity from text the test knows is valid.
#pragma once

#include <dra/core/quantity.hpp>

#include <string_view>

namespace dra_test {

inline dra::quantity q(std::string_view text) { return *dra::quantity::parse(text); }

}  // namespace dra_test
