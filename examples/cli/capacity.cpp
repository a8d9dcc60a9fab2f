// `dra capacity` (commands.hpp): how many more of a pod fit, or the availability table.
#include "capacity_command.hpp"
#include "commands.hpp"

#include <dra/alloc/best_fit.hpp>
#include <dra/cel/selector.hpp>
#include <dra/compiled_runs.hpp>

namespace dra_cli {

// `dra capacity`: with --pod, how many more copies fit; without, the availability table. Exit 0, 1 on bad input,
// 2 on bad flags.
int run_capacity(const invocation& call, const dra::model::scenario& s, dra::json::input_format format,
                        std::ostream& out, std::ostream& err) {
  if (call.pod) {
    if (call.policy == "sorted") return run_capacity_of_pod<dra::alloc::sorted>(call, s, format, out, err);
    if (call.policy == "shared_capacity")
      return run_capacity_of_pod<dra::alloc::shared_capacity>(call, s, format, out, err);
    return run_capacity_of_pod<dra::alloc::first_fit>(call, s, format, out, err);
  }
  if (call.output == output_format::scenario) {
    err << "dra: --output scenario needs --pod\n";
    return 2;
  }
  const dra::cel::selector_engine engine;
  std::optional<std::string_view> by;
  if (call.by) by = *call.by;
  auto report = dra::sim::availability(s, engine, by);
  if (!report) {
    err << "dra: " << report.error().to_string() << "\n";
    return 1;
  }
  if (call.output == output_format::json)
    out << dra::sim::to_json(*report);
  else if (call.output == output_format::prometheus)
    out << dra::sim::to_metrics(*report);
  else
    detail::print_availability(*report, out);
  return 0;
}

}  // namespace dra_cli
