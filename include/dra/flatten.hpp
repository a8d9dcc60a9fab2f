// One include for the flatten room: devices, counter sets and counter consumptions seen with their mixins applied.
#pragma once

#include <dra/flatten/concepts.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/flatten/plain_view.hpp>
