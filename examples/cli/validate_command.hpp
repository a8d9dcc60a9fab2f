// The `dra validate` command: prints every problem of the input's objects, one per line or as JSON, and exits 1 if there are any.
#pragma once

#include <dra/core/result.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/writer.hpp>
#include <dra/validate/scenario.hpp>

#include <ostream>

namespace dra_cli {

// Prints `problems` as `object: path: message` lines (or "valid"), or as
// {"valid":…,"errors":[{"object","path","message"}]}; 1 when there are problems, else 0.
inline int print_problems(const dra::error_list& problems, bool json_output, std::ostream& out) {
  if (json_output) {
    dra::json::writer w;
    w.begin_object().field("valid", problems.empty()).key("errors").begin_array();
    for (const dra::error& e : problems)
      w.begin_object().field("object", e.object).field("path", e.path).field("message", e.message).end_object();
    w.end_array().end_object();
    out << w.str() << '\n';
  } else if (problems.empty()) {
    out << "valid\n";
  } else {
    for (const dra::error& e : problems) out << e.to_string() << '\n';
  }
  return problems.empty() ? 0 : 1;
}

}  // namespace dra_cli
