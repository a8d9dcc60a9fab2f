// One include for the core room: quantities, semantic versions, Kubernetes name rules, IP addresses and prefixes, the
// result and error types, text helpers and function_ref.
#pragma once

#include <dra/core/function_ref.hpp>
#include <dra/core/ip.hpp>
#include <dra/core/names.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/core/semver.hpp>
#include <dra/core/text.hpp>
