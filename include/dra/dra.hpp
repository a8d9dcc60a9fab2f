// The umbrella header: everything dra offers, in one include.
#pragma once

#include <dra/core/result.hpp>
