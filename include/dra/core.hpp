// One include for the core room: quantities, semantic versions, Kubernetes name rules, the result and error types, text
// helpers.
#pragma once

#include <dra/core/names.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/core/semver.hpp>
#include <dra/core/text.hpp>
