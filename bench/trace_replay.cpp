// Replays a GPU cluster's trace as the FGD paper (USENIX ATC '23) replays Alibaba's openb: the tasks shuffled with a
// seed and topped up with random copies to 130 % of the cluster's GPUs, each a pending pod that arrives once and is
// never retried; reports the GPU share allocated against the share arrived, and each policy's CPU time.
// Usage: trace_replay --nodes NODES.csv --pods PODS.csv [--seeds 42,43] [--policies first_fit,sorted,sorted-own]
//                     [--score kube] [--curve FILE.csv] [--write FILE.json]
#include <dra/alloc/allocator.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

// --- The trace: one node per row of the node list, one task per row of the pod list. ---

struct trace_node {
  std::string name;
  std::int64_t cpu_milli = 0, memory_mib = 0, gpus = 0;
  std::string model;
};

struct trace_task {
  std::string name;
  std::int64_t cpu_milli = 0, memory_mib = 0, num_gpu = 0, gpu_milli = 0;
  std::string gpu_spec;  // the models it accepts, '|'-separated; empty: any

  // The GPUs it asks for: a share of one, or whole ones.
  [[nodiscard]] double gpus() const {
    if (num_gpu == 0) return 0;
    return static_cast<double>(num_gpu) * static_cast<double>(gpu_milli) / 1000.0;
  }
};

std::vector<std::string> split(std::string_view line, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = line.find(separator, start);
    out.emplace_back(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

// The rows of a CSV file with a header naming `columns` first; an error names the file and line.
std::vector<std::vector<std::string>> read_csv(const std::string& path, const std::vector<std::string>& columns) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto header = split(line, ',');
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (c >= header.size() || header[c] != columns[c])
      throw std::runtime_error(path + ":1: expected column " + std::to_string(c + 1) + " to be " + columns[c]);
  std::vector<std::vector<std::string>> rows;
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    auto row = split(line, ',');
    if (row.size() < columns.size())
      throw std::runtime_error(path + ":" + std::to_string(number) + ": expected " + std::to_string(columns.size()) +
                               " columns, found " + std::to_string(row.size()));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::int64_t integer(const std::string& text, const std::string& where) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || value < 0)
    throw std::runtime_error(where + ": not a non-negative integer: \"" + text + "\"");
  return value;
}

std::vector<trace_node> read_nodes(const std::string& path) {
  std::vector<trace_node> nodes;
  for (const auto& row : read_csv(path, {"sn", "cpu_milli", "memory_mib", "gpu", "model"})) {
    const std::string where = path + " node " + row[0];
    nodes.push_back({row[0], integer(row[1], where + " cpu_milli"), integer(row[2], where + " memory_mib"),
                     integer(row[3], where + " gpu"), row[4]});
  }
  return nodes;
}

std::vector<trace_task> read_tasks(const std::string& path) {
  std::vector<trace_task> tasks;
  for (const auto& row : read_csv(path, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"})) {
    const std::string where = path + " task " + row[0];
    trace_task t{row[0], integer(row[1], where + " cpu_milli"), integer(row[2], where + " memory_mib"),
                 integer(row[3], where + " num_gpu"), integer(row[4], where + " gpu_milli"),
                 row.size() > 5 ? row[5] : ""};
    if (t.num_gpu > 0 && (t.gpu_milli == 0 || t.gpu_milli > 1000 || (t.num_gpu > 1 && t.gpu_milli != 1000)))
      throw std::runtime_error(where + ": gpu_milli " + row[4] + " with num_gpu " + row[3] +
                               " (a share of one GPU, or whole GPUs)");
    tasks.push_back(std::move(t));
  }
  return tasks;
}

// The arrival order: the tasks shuffled with `seed`, then random copies appended until the GPUs asked for reach
// 130 % of the cluster's. Fisher-Yates over std::mt19937_64 (whose sequence the standard fixes), so every platform
// replays the same order.
std::vector<const trace_task*> arrivals(const std::vector<trace_task>& tasks, double cluster_gpus, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<const trace_task*> order;
  for (const auto& t : tasks) order.push_back(&t);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random() % i]);
  double asked = 0;
  for (const auto* t : order) asked += t->gpus();
  while (!tasks.empty() && asked < 1.3 * cluster_gpus) {
    order.push_back(&tasks[random() % tasks.size()]);
    asked += order.back()->gpus();
  }
  return order;
}

// --- The trace as a scenario: each GPU a device several pods may share, with 1 GPU of consumable capacity. ---

constexpr std::string_view driver = "gpu.openb.example.com";

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The claim template a task's GPUs come from: one per shape (count, share, models).
std::string template_name(const trace_task& t) {
  std::string name = t.num_gpu > 1 || t.gpu_milli == 1000 ? "gpus-" + std::to_string(t.num_gpu)
                                                          : "gpu-" + std::to_string(t.gpu_milli) + "m";
  for (char c : t.gpu_spec) name += c == '|' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!t.gpu_spec.empty()) name.insert(name.find_first_of('-'), "-of");
  return name;
}

std::string claim_template(const trace_task& t) {
  std::ostringstream out;
  out << R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":")"
      << template_name(t) << R"(","namespace":"openb"},"spec":{"spec":{"devices":{"requests":[{"name":"gpu",)"
      << R"("exactly":{"deviceClassName":"openb-gpu")";
  if (t.num_gpu > 1) out << R"(,"count":)" << t.num_gpu;
  out << R"(,"capacity":{"requests":{"gpu":")" << (t.gpu_milli == 1000 ? "1" : std::to_string(t.gpu_milli) + "m")
      << "\"}}";
  if (!t.gpu_spec.empty()) {
    std::string models;
    for (const auto& m : split(t.gpu_spec, '|')) models += (models.empty() ? "" : ", ") + json_string(m);
    out << R"(,"selectors":[{"cel":{"expression":)"
        << json_string("device.attributes[\"" + std::string(driver) + "\"].model in [" + models + "]") << "}}]";
  }
  out << "}}]}}}}";
  return out.str();
}

std::string timestamp(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(1672531200 + seconds);  // 2023-01-01T00:00:00Z
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// The cluster and the arriving pods as one List, the pods created in arrival order.
std::string scenario_json(const std::vector<trace_node>& nodes, const std::vector<const trace_task*>& order) {
  std::ostringstream out;
  out << R"({"apiVersion":"v1","kind":"List","items":[)";
  out << R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"openb-gpu"},)"
      << R"("spec":{"selectors":[{"cel":{"expression":"device.driver == \")" << driver << R"(\""}}]}})";
  for (const auto& n : nodes) {
    out << R"(,{"apiVersion":"v1","kind":"Node","metadata":{"name":)" << json_string(n.name)
        << R"(,"labels":{"kubernetes.io/hostname":)" << json_string(n.name) << R"(}},"status":{"allocatable":{"cpu":")"
        << n.cpu_milli << R"(m","memory":")" << n.memory_mib << R"(Mi","pods":"1000"}}})";
    if (n.gpus == 0) continue;
    out << R"(,{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":)"
        << json_string(n.name + "-gpus") << R"(},"spec":{"driver":")" << driver << R"(","nodeName":)"
        << json_string(n.name)
        << R"(,"pool":{"name":)" << json_string(n.name) << R"(,"generation":1,"resourceSliceCount":1},"devices":[)";
    for (std::int64_t g = 0; g < n.gpus; ++g)
      out << (g ? "," : "") << R"({"name":"gpu-)" << g << R"(","allowMultipleAllocations":true,)"
          << R"("attributes":{"model":{"string":)" << json_string(n.model) << R"(}},"capacity":{"gpu":{"value":"1"}}})";
    out << "]}}";
  }
  std::map<std::string, const trace_task*> templates;
  for (const auto* t : order)
    if (t->num_gpu > 0) templates.emplace(template_name(*t), t);
  for (const auto& [name, t] : templates) out << "," << claim_template(*t);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const trace_task& t = *order[i];
    char name[32];
    std::snprintf(name, sizeof name, "arrival-%05zu-", i);
    out << R"(,{"apiVersion":"v1","kind":"Pod","metadata":{"name":)" << json_string(name + t.name)
        << R"(,"namespace":"openb","creationTimestamp":")" << timestamp(static_cast<std::int64_t>(i))
        << R"("},"spec":{"containers":[{"name":"task","resources":{"requests":{"cpu":")" << t.cpu_milli
        << R"(m","memory":")" << t.memory_mib << R"(Mi"}}}])";
    if (t.num_gpu > 0)
      out << R"(,"resourceClaims":[{"name":"gpu","resourceClaimTemplateName":)" << json_string(template_name(t))
          << "}]";
    out << "}}";
  }
  out << "]}";
  return out.str();
}

// --- The replay: the curve of allocated against arrived GPUs, as the paper draws it. ---

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

struct replay {
  std::string policy;
  std::uint64_t seed = 0;
  double cpu = 0;             // seconds of CPU for the run (the scenario read once, before)
  std::size_t placed = 0;     // pods placed
  std::string answer;         // whose placements a guarded policy reported
  std::vector<double> curve;  // allocated % of the GPUs per arrived % (0-130), as the paper averages it
};

// Allocated % at each arrived % from 0 to 130: after each pod, the share of the cluster's GPUs held by placed pods,
// averaged over the pods whose arrived share rounds to that percentage (the paper's log lines), carried over where
// no pod's does.
std::vector<double> allocation_curve(const std::vector<const trace_task*>& order, const std::vector<bool>& placed,
                                     double cluster_gpus) {
  std::vector<double> sum(131, 0), count(131, 0);
  double arrived = 0, allocated = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    arrived += order[i]->gpus();
    if (placed[i]) allocated += order[i]->gpus();
    const auto percent = static_cast<std::size_t>(std::lround(100 * arrived / cluster_gpus));
    if (percent <= 130) {
      sum[percent] += 100 * allocated / cluster_gpus;
      count[percent] += 1;
    }
  }
  std::vector<double> curve(131, 0);
  for (std::size_t p = 0; p <= 130; ++p) curve[p] = count[p] > 0 ? sum[p] / count[p] : (p > 0 ? curve[p - 1] : 0);
  return curve;
}

// One policy's replay; `own`: its own placements, without the guard that reports first fit's where they place less.
template <class Policy>
replay run(const dra::model::scenario& s, const std::vector<const trace_task*>& order, double cluster_gpus,
           dra::sim::run_options options, bool own = false) {
  dra::cel::selector_engine engine;
  const double start = cpu_seconds();
  const dra::sim::run_report report =
      own ? dra::sim::scenario_run<dra::cel::selector_engine, Policy>(s, engine, dra::alloc::features::all(), Policy{},
                                                                      options)
                .run()
          : dra::sim::run_scenario(s, engine, dra::alloc::features::all(), Policy{}, options);
  replay r;
  r.cpu = cpu_seconds() - start;
  std::vector<bool> placed(order.size(), false);
  for (const auto& pod : report.pods)
    if (pod.pod < placed.size() && pod.node) placed[pod.pod] = true;
  r.placed = static_cast<std::size_t>(std::count(placed.begin(), placed.end(), true));
  const std::string_view note = dra::sim::answer_note(report.placements);
  r.answer = note.empty()                                                     ? "own"
             : report.placements == dra::sim::run_report::answer::first_fit ? "first fit's"
                                                                             : "hybrid";
  r.curve = allocation_curve(order, placed, cluster_gpus);
  return r;
}

struct arguments {
  std::string nodes, pods, curve, write;
  std::vector<std::uint64_t> seeds{42, 43, 44, 45, 46};
  std::vector<std::string> policies{"first_fit", "sorted"};
  bool kube_score = false;
};

arguments parse(int argc, char** argv) {
  arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(std::string(flag) + " needs a value");
      return argv[++i];
    };
    if (flag == "--nodes") a.nodes = value();
    else if (flag == "--pods") a.pods = value();
    else if (flag == "--curve") a.curve = value();
    else if (flag == "--write") a.write = value();
    else if (flag == "--score" && value() == "kube") a.kube_score = true;
    else if (flag == "--seeds") {
      a.seeds.clear();
      for (const auto& s : split(value(), ',')) a.seeds.push_back(static_cast<std::uint64_t>(integer(s, "--seeds")));
    } else if (flag == "--policies") {
      a.policies = split(value(), ',');
      for (const auto& p : a.policies)
        if (p != "first_fit" && p != "sorted" && p != "sorted-own")
          throw std::runtime_error("unknown policy " + p + " (first_fit, sorted, sorted-own)");
    } else throw std::runtime_error("unknown flag " + std::string(flag));
  }
  if (a.nodes.empty() || a.pods.empty()) throw std::runtime_error("--nodes and --pods are required");
  return a;
}

}  // namespace

int main(int argc, char** argv) try {
  const arguments a = parse(argc, argv);
  const std::vector<trace_node> nodes = read_nodes(a.nodes);
  const std::vector<trace_task> tasks = read_tasks(a.pods);
  double cluster_gpus = 0;
  for (const auto& n : nodes) cluster_gpus += static_cast<double>(n.gpus);
  if (cluster_gpus == 0) throw std::runtime_error(a.nodes + ": no GPUs");
  dra::sim::run_options options;
  if (a.kube_score) options.nodes = dra::sim::node_choice::kube_score;
  std::vector<replay> replays;
  std::printf("%-10s %5s %9s %9s %8s %7s  %s\n", "policy", "seed", "alloc@100", "alloc@130", "placed", "cpu s",
              "answer");
  for (const std::uint64_t seed : a.seeds) {
    const auto order = arrivals(tasks, cluster_gpus, seed);
    const std::string json = scenario_json(nodes, order);
    if (!a.write.empty()) std::ofstream(a.write) << json;
    auto doc = dra::json::load(json);
    if (!doc) throw std::runtime_error("the scenario written from the trace does not load: " + doc.error().message);
    for (const auto& policy : a.policies) {
      replay r = policy == "first_fit" ? run<dra::alloc::first_fit>(doc->scenario(), order, cluster_gpus, options)
                                       : run<dra::alloc::sorted>(doc->scenario(), order, cluster_gpus, options,
                                                                 policy == "sorted-own");
      r.policy = policy;
      r.seed = seed;
      std::printf("%-10s %5llu %8.2f%% %8.2f%% %8zu %7.2f  %s\n", policy.c_str(), static_cast<unsigned long long>(seed),
                  r.curve[100], r.curve[130], r.placed, r.cpu, r.answer.c_str());
      std::fflush(stdout);
      replays.push_back(std::move(r));
    }
  }
  std::printf("\nmean over %zu seeds\n", a.seeds.size());
  std::ofstream curve;
  if (!a.curve.empty()) curve.open(a.curve);
  if (curve) {
    curve << "arrived";
    for (const auto& p : a.policies) curve << "," << p;
    curve << "\n";
  }
  std::map<std::string, std::vector<double>> mean_curve;
  for (const auto& p : a.policies) {
    double cpu = 0;
    std::vector<double>& c = mean_curve[p];
    c.assign(131, 0);
    for (const auto& r : replays)
      if (r.policy == p) {
        cpu += r.cpu / static_cast<double>(a.seeds.size());
        for (std::size_t i = 0; i <= 130; ++i) c[i] += r.curve[i] / static_cast<double>(a.seeds.size());
      }
    std::printf("%-10s alloc@100 %.2f%%  alloc@130 %.2f%%  cpu %.2f s\n", p.c_str(), c[100], c[130], cpu);
  }
  if (curve)
    for (std::size_t i = 0; i <= 130; ++i) {
      curve << i;
      for (const auto& p : a.policies) curve << "," << mean_curve[p][i];
      curve << "\n";
    }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "trace_replay: " << e.what() << "\n";
  return 1;
}
