// The dra command's help: the overview (`dra help`, `dra --help`) and each command's own (`dra help COMMAND`,
// `dra COMMAND --help`) with its options and examples.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <ostream>
#include <string_view>

namespace dra_cli {

inline constexpr std::string_view usage_text =
    "usage: dra [COMMAND] [FILE|-] [ARGS...] [--output text|json|scenario|svg|prometheus] [-n NAMESPACE]\n"
    "\n"
    "commands (`dra help COMMAND` or `dra COMMAND --help` for each one's options and examples):\n"
    "  allocate   where every pending pod goes and which devices its claims get (the default command)\n"
    "  explain    why a claim, pod or PodGroup got its devices and node, or none\n"
    "  capacity   how many more copies of a pod fit (--pod), or what devices and room there are\n"
    "  occupancy  what each claim holds of every counter set and shared device, after allocating\n"
    "  summary    objects by kind, pools, devices, pending claims\n"
    "  validate   every problem with the objects (exit 1 if any)\n"
    "  flatten    the objects with every mixin applied\n"
    "  select     the devices a CEL selector matches\n"
    "  help       this text, or a command's\n"
    "\n"
    "FILE is a scenario: Kubernetes Lists, JSON arrays or objects, one after another, or YAML\n"
    "documents separated by '---'. '-' reads stdin; without FILE, stdin is read when it is a pipe\n"
    "or a file, else the embedded default scenario (a DGX A100 with MIG partitions) is used.\n"
    "-n/--namespace NS: names without a namespace are NS's, and allocate and explain report only NS's\n"
    "pods and claims (the whole cluster is still scheduled); -A/--all-namespaces: every namespace's.\n"
    "Run as kubectl-dra (`kubectl dra COMMAND`), the scenario is the cluster's, read with one kubectl get\n"
    "of every namespace; --context, --kubeconfig and kubectl's other connection flags are passed to it.\n"
    "--version prints dra's version and the memory allocator the command runs on.\n"
    "\n"
    "exit status: 0 success; 1 bad input (allocate: also a claim in error); 2 usage error;\n"
    "3 allocate: some claims are unschedulable (and none in error).\n";

// One command's help.
struct command_help {
  std::string_view command;
  std::string_view text;
};

inline constexpr std::string_view run_options_help =
    "  --features all|none|A,B|RELEASE\n"
    "                           the DRA features on, by upstream's allocator names (all by default, but\n"
    "                           Preemption), or kube-scheduler RELEASE's defaults (1.34 ... 1.37)\n"
    "  --feature-gates A=true,B=false\n"
    "                           kube-scheduler's --feature-gates as it takes them (from 1.37's defaults)\n"
    "  --policy first_fit|sorted|shared_capacity\n"
    "                           how devices are chosen: first fit (upstream's, the default), best fit, or\n"
    "                           shared devices' capacity first\n"
    "  --score kube             put each pod on the node kube-scheduler's default scoring ranks highest,\n"
    "                           rather than the first that fits\n"
    "  --scheduler-config FILE  score as FILE's KubeSchedulerConfiguration profile (default-scheduler's)\n"
    "                           does: its plugin weights and NodeResourcesFit's scoringStrategy; implies\n"
    "                           --score kube\n"
    "  --add-node NODE=K        add K copies of node NODE and its ResourceSlices (repeatable)\n"
    "  --drain NODE             remove node NODE: its pods are pending again (repeatable)\n";

inline constexpr std::array<command_help, 8> command_helps{{
    {"allocate",
     "usage: dra allocate [FILE] [--output text|json|scenario] [-n NAMESPACE] [run options]\n"
     "\n"
     "Schedules every pending pod as kube-scheduler would (queue order, node filters, gates, gangs) and\n"
     "allocates its claims' devices; prints each claim's devices and each pod's node, or why none.\n"
     "\n"
     "options:\n"
     "  --output text|json|scenario\n"
     "                           a table (on a terminal), JSON (when piped), or the input's objects with the\n"
     "                           allocations and bindings written back, in the input's format\n"
     "  -n, --namespace NS       report only NS's pods and claims\n"
     "%RUN%"
     "\n"
     "examples:\n"
     "  dra allocate cluster.yaml --output text\n"
     "  dra allocate cluster.yaml --drain node-a --output scenario > after-drain.yaml\n"
     "  kubectl dra allocate -n ml\n"},
    {"explain",
     "usage: dra explain [FILE] [CLAIM... | pod/NAME... | podgroup/NAME...] [--output text|json] [-n NAMESPACE]\n"
     "\n"
     "Why each claim (every pending one by default) got its devices or none, per node and request: the devices\n"
     "left after each check. pod/NAME explains a pod (its node, or kube-scheduler's reasons), podgroup/NAME a gang.\n"
     "NAME is namespace/name, or name in the namespace -n names (default: \"default\").\n"
     "\n"
     "options:\n"
     "  --output text|json\n"
     "  -n, --namespace NS       names without a namespace are NS's; by default, NS's pending claims\n"
     "  --features, --feature-gates, --add-node, --drain\n"
     "                           as allocate takes them\n"
     "\n"
     "examples:\n"
     "  dra explain cluster.yaml pod/trainer -n ml\n"
     "  dra explain cluster.yaml ml/dataset-cache --output json\n"
     "  kubectl dra explain podgroup/llm-job -n ml\n"},
    {"capacity",
     "usage: dra capacity [FILE] --pod POD [--max N] [--preempt] [--output text|json|scenario] [run options]\n"
     "       dra capacity [FILE] [--by ATTRIBUTE] [--output text|json|prometheus]\n"
     "\n"
     "With --pod: how many more copies of POD fit after the pending pods, per node, and why the next one does\n"
     "not. POD is namespace/name (pod/NAME too; a bare name is in -n's namespace) or a file holding one Pod and\n"
     "its ResourceClaimTemplates. Without --pod: devices per class (and partition value with --by), allocated and\n"
     "available; shared devices' capacity; nodes' resources; device capacity stranded per node (free, yet no\n"
     "pending pod's shape can use it).\n"
     "\n"
     "options:\n"
     "  --pod POD                the pod to copy\n"
     "  --max N                  stop counting at N copies\n"
     "  --preempt                a copy no node takes may evict lower-priority pods the input has running,\n"
     "                           as kube-scheduler's preemption would; the evicted pods are listed\n"
     "  --by ATTRIBUTE           split each class's devices by this attribute's value\n"
     "  --output text|json|scenario|prometheus\n"
     "                           scenario: with --pod, the cluster with the copies placed;\n"
     "                           prometheus: without --pod, the counts as metrics\n"
     "  -n, --namespace NS       a bare --pod name is NS's\n"
     "%RUN%"
     "\n"
     "examples:\n"
     "  dra capacity cluster.yaml --pod ml/trainer\n"
     "  dra capacity cluster.yaml --pod trainer-pod.yaml --add-node node-b=1\n"
     "  dra capacity cluster.yaml --pod ml/trainer --preempt\n"
     "  kubectl dra capacity --by gpu.nvidia.com/profile --output prometheus\n"},
    {"occupancy",
     "usage: dra occupancy [FILE] [--output text|json|svg] [run options]\n"
     "\n"
     "After allocating every pending claim as allocate does, what each claim holds of every counter set (memory\n"
     "slices as cells) and of every shared device, and the device capacity left stranded for the pods still\n"
     "pending.\n"
     "\n"
     "options:\n"
     "  --output text|json|svg   svg: a standalone picture\n"
     "%RUN%"
     "\n"
     "examples:\n"
     "  dra occupancy --output svg > mig.svg\n"},
    {"summary",
     "usage: dra summary [FILE] [--output text|json]\n"
     "\n"
     "The objects by kind, pools (generation, slices present, devices, counter sets), pending and allocated claims,\n"
     "and warnings about the input.\n"
     "\n"
     "examples:\n"
     "  kubectl get resourceslices,deviceclasses -o json | dra summary\n"},
    {"validate",
     "usage: dra validate [FILE] [--output text|json]\n"
     "\n"
     "Every problem of every object as the API server's validation finds it, one per line as\n"
     "`object: path: message`, or `valid`. Exit status 1 when there is any.\n"
     "\n"
     "examples:\n"
     "  dra validate slices.yaml\n"},
    {"flatten",
     "usage: dra flatten [FILE]\n"
     "\n"
     "The objects as a List, ResourceSlices with every mixin (KEP-5234) applied, for a cluster without mixins.\n"
     "\n"
     "examples:\n"
     "  dra flatten slices-with-mixins.yaml > slices.json\n"},
    {"select",
     "usage: dra select [FILE] EXPR [--class NAME] [--output text|json]\n"
     "\n"
     "For every device, whether the CEL selector EXPR matches it (or the evaluation's error).\n"
     "\n"
     "options:\n"
     "  --class NAME             evaluate that DeviceClass's selectors first, as the allocator does\n"
     "\n"
     "examples:\n"
     "  dra select 'device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\"'\n"},
}};

// Prints the help of `command` (the overview for an empty one); false when there is no such command.
inline bool print_help(std::string_view command, std::ostream& out) {
  if (command.empty() || command == "help") {
    out << usage_text;
    return true;
  }
  const auto* help = std::ranges::find(command_helps, command, &command_help::command);
  if (help == command_helps.end()) return false;
  constexpr std::string_view shared = "%RUN%";  // where the run options go
  const std::size_t at = help->text.find(shared);
  if (at == std::string_view::npos) {
    out << help->text;
  } else {
    out << help->text.substr(0, at) << run_options_help << help->text.substr(at + shared.size());
  }
  return true;
}

}  // namespace dra_cli
