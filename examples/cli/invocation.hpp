// The parsed command line of the dra command, shared by all its subcommands.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dra_cli {

enum class output_format { text, json, scenario, svg, prometheus };  // scenario: allocate, capacity --pod; svg: occupancy;
                                                                   // prometheus: capacity without --pod

struct invocation {
  std::string command;                 // summary, validate, flatten, select, allocate, explain, occupancy, capacity
  std::optional<std::string> file;     // a path, "-" for stdin, none for stdin when piped, else the embedded default
  std::vector<std::string> arguments;  // positional arguments after FILE (e.g. the CEL expression of select)
  output_format output = output_format::text;
  bool output_given = false;                // --output was on the command line
  std::optional<std::string> device_class;  // select --class NAME
  std::optional<std::string> features;      // allocate/occupancy --features all|none|A,B
  std::optional<std::string> policy;        // allocate/occupancy/capacity --policy first_fit|sorted|shared_capacity
  std::optional<std::string> score;         // allocate/occupancy/capacity --score kube
  std::optional<std::string> pod;           // capacity --pod NAMESPACE/NAME or a file with one Pod
  std::optional<std::size_t> max;           // capacity --max N
  std::optional<std::string> by;            // capacity --by ATTRIBUTE
  std::vector<std::pair<std::string, std::size_t>> add_nodes;  // allocate/capacity/explain --add-node NODE=K
  std::vector<std::string> drain;                              // allocate/capacity/explain --drain NODE
};

}  // namespace dra_cli
