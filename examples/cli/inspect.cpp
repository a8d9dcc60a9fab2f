// The commands that read the scenario without running it (commands.hpp): validate, flatten, summary and select.
#include "commands.hpp"
#include "text_output.hpp"
#include "validate_command.hpp"

#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/writer.hpp>
#include <dra/sim/analysis/flatten_scenario.hpp>
#include <dra/sim/analysis/select.hpp>
#include <dra/sim/analysis/summary.hpp>

#include <optional>
#include <ostream>
#include <string_view>

namespace dra_cli {

// Validates a loaded document and prints the result.
int run_validate(const dra::json::document& document, bool json_output, std::ostream& out) {
  return print_problems(dra::validate::validate(document), json_output, out);
}

// An input that does not even load is one problem, printed the same way, so
// that `--output json` callers always get JSON.
int report_load_failure(const dra::error& failure, bool json_output, std::ostream& out) {
  return print_problems(dra::error_list{failure}, json_output, out);
}

int run_flatten(const dra::json::document& doc, std::ostream& out) {
  out << dra::sim::flattened_list(doc.scenario());
  return 0;
}

int run_summary(const invocation& call, const dra::json::document& doc, std::ostream& out) {
  dra::sim::scenario_summary summary = dra::sim::summarize(doc.scenario());
  out << (call.output == output_format::json ? dra::sim::to_json(summary) : summary_text(summary));
  return 0;
}

// `dra select [FILE] EXPR [--class NAME]`: with one positional argument it is the expression.
int run_select(const invocation& call, const dra::json::document& doc, std::string_view expression, std::ostream& out,
               std::ostream& err) {
  const dra::cel::selector_engine engine;
  std::optional<std::string_view> klass;
  if (call.device_class) klass = *call.device_class;
  auto matches = dra::sim::select_devices(doc.scenario(), engine, expression, klass);
  const bool json = call.output == output_format::json;
  if (!matches) {
    if (json)
      out << dra::json::writer().begin_object().field("error", matches.error().to_string()).end_object().str() << "\n";
    else
      err << "dra: " << matches.error().to_string() << "\n";
    return 1;
  }
  out << (json ? dra::sim::to_json(*matches) : matches_text(*matches));
  return 0;
}

}  // namespace dra_cli
