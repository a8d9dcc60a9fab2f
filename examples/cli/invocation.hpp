// The parsed command line of the dra command, shared by all its subcommands.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dra_cli {

enum class output_format { text, json, scenario, svg };  // scenario: allocate only; svg: occupancy only

struct invocation {
  std::string command;                 // summary, validate, flatten, select, allocate, explain, occupancy
  std::optional<std::string> file;     // a path, "-" for stdin, none for stdin when piped, else the embedded default
  std::vector<std::string> arguments;  // positional arguments after FILE (e.g. the CEL expression of select)
  output_format output = output_format::text;
  bool output_given = false;                // --output was on the command line
  std::optional<std::string> device_class;  // select --class NAME
  std::optional<std::string> features;      // allocate/occupancy --features all|none|A,B
  std::optional<std::string> policy;        // allocate/occupancy --policy first_fit|sorted|shared_capacity
};

}  // namespace dra_cli
