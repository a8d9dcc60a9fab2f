// One include for the cel room: the CEL language with Kubernetes' DRA environment and libraries, and the allocator's
// selector engine.
#pragma once

#include <dra/cel/ast.hpp>
#include <dra/cel/checker.hpp>
#include <dra/cel/cost.hpp>
#include <dra/cel/derived.hpp>
#include <dra/cel/device.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/functions.hpp>
#include <dra/cel/interpreter.hpp>
#include <dra/cel/library.hpp>
#include <dra/cel/library_authz.hpp>
#include <dra/cel/library_format.hpp>
#include <dra/cel/library_ip.hpp>
#include <dra/cel/library_lists.hpp>
#include <dra/cel/library_optional.hpp>
#include <dra/cel/library_quantity.hpp>
#include <dra/cel/library_regex.hpp>
#include <dra/cel/library_semver.hpp>
#include <dra/cel/library_sets.hpp>
#include <dra/cel/library_standard.hpp>
#include <dra/cel/library_strings.hpp>
#include <dra/cel/library_url.hpp>
#include <dra/cel/parser.hpp>
#include <dra/cel/program.hpp>
#include <dra/cel/selector.hpp>
#include <dra/cel/types.hpp>
#include <dra/cel/value.hpp>
