// The dra command's subcommands as plain functions, each family defined in a source file of its own (allocate.cpp,
// capacity.cpp, explain.cpp, occupancy.cpp, inspect.cpp), so that main.cpp includes none of the engine.
#pragma once

#include "invocation.hpp"

#include <dra/core/result.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace dra::model {
struct scenario;
}  // namespace dra::model

namespace dra::json {
class document;
enum class input_format : std::uint8_t;
}  // namespace dra::json

namespace dra_cli {

// `dra allocate` on `s` (the input, or its what-if change) read in `format` (allocate_command.hpp).
int run_allocate(const invocation& call, const dra::model::scenario& s, dra::json::input_format format,
                 std::ostream& out, std::ostream& err);

// `dra capacity` on `s` (capacity_command.hpp).
int run_capacity(const invocation& call, const dra::model::scenario& s, dra::json::input_format format,
                 std::ostream& out, std::ostream& err);

// `dra explain` of the claims, pods and PodGroups `names` on `s` (explain_command.hpp).
int run_explain(const invocation& call, const std::vector<std::string>& names, const dra::model::scenario& s,
                std::ostream& out, std::ostream& err);

// `dra occupancy` (occupancy_command.hpp).
int run_occupancy(const invocation& call, const dra::json::document& doc, std::ostream& out, std::ostream& err);

// `dra validate` of a loaded document, and of one that does not load (validate_command.hpp).
int run_validate(const dra::json::document& document, bool json_output, std::ostream& out);
int report_load_failure(const dra::error& failure, bool json_output, std::ostream& out);

// `dra flatten`, `dra summary` and `dra select` (inspect.cpp).
int run_flatten(const dra::json::document& doc, std::ostream& out);
int run_summary(const invocation& call, const dra::json::document& doc, std::ostream& out);
int run_select(const invocation& call, const dra::json::document& doc, std::string_view expression, std::ostream& out,
               std::ostream& err);

}  // namespace dra_cli
