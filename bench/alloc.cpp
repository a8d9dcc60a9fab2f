// Allocator benchmarks: a MIG node with counters and a matchAttribute constraint, a 500-node cluster run through the
// scenario runner, shared NICs with capacity requests, a hopeless request (17 devices on a node with 16), and the
// families of claims with no solution, each to be answered at once.
#include <dra/cel/selector.hpp>

#include <dra/alloc/allocator.hpp>
#include <dra/sim/runner.hpp>

#include <benchmark/benchmark.h>

#include <deque>
#include <string>

namespace {

using namespace dra;

// Owns the strings the model's views point at.
struct arena {
  std::deque<std::string> strings;
  model::text operator()(std::string s) { return strings.emplace_back(std::move(s)); }
};

quantity q(std::string_view s) { return *quantity::parse(s); }

model::device_class simple_class(std::string_view name) {
  model::device_class c;
  c.meta.name = name;
  return c;
}

// (a) 8 A100s, each published as the full GPU and every MIG placement, all drawing on per-GPU counters.
struct mig_node {
  arena names;
  model::scenario s;
  model::resource_claim claim;

  mig_node() {
    s.classes.push_back({simple_class("mig"), {}});
    model::resource_slice slice;
    slice.meta.name = "node-0-gpus";
    slice.driver = "gpu.example.com";
    slice.pool = {"node-0", 1, 2};
    slice.node_name = model::text("node-0");
    // Counter sets live in a slice of their own (the API keeps them apart from devices).
    model::resource_slice counters = slice;
    counters.meta.name = "node-0-counters";
    struct profile {
      const char* name;
      int memory_slices, compute;
      std::vector<int> starts;
    };
    const std::vector<profile> profiles = {{"1g.5gb", 1, 1, {0, 1, 2, 3, 4, 5, 6}},
                                           {"2g.10gb", 2, 2, {0, 2, 4}},
                                           {"3g.20gb", 4, 3, {0, 4}},
                                           {"4g.20gb", 4, 4, {0}},
                                           {"7g.40gb", 8, 7, {0}}};
    for (int gpu = 0; gpu < 8; ++gpu) {
      model::counter_set set;
      set.name = names("gpu-" + std::to_string(gpu) + "-counters");
      set.counters.push_back({"compute", quantity::from_int(7)});
      for (int m = 0; m < 8; ++m)
        set.counters.push_back({names("memory-slice-" + std::to_string(m)), quantity::from_int(1)});
      std::sort(set.counters.begin(), set.counters.end(), [](auto& a, auto& b) { return a.name < b.name; });
      model::text uuid = names("GPU-" + std::to_string(gpu));
      auto add_device = [&](std::string name, std::string_view profile_name, int first, int slices, int compute) {
        model::device d;
        d.name = names(std::move(name));
        d.attributes.push_back({"parentUUID", {uuid}});
        d.attributes.push_back({"profile", {model::text(names(std::string(profile_name)))}});
        model::device_counter_consumption use;
        use.counter_set = set.name;
        use.counters.push_back({"compute", quantity::from_int(compute)});
        for (int m = first; m < first + slices; ++m)
          use.counters.push_back({names("memory-slice-" + std::to_string(m)), quantity::from_int(1)});
        std::sort(use.counters.begin(), use.counters.end(), [](auto& a, auto& b) { return a.name < b.name; });
        d.consumes_counters.push_back(std::move(use));
        slice.devices.push_back(std::move(d));
      };
      add_device("gpu-" + std::to_string(gpu), "full", 0, 8, 7);
      for (const auto& p : profiles)
        for (int start : p.starts)
          add_device("gpu-" + std::to_string(gpu) + "-mig-" + p.name + "-" + std::to_string(start), p.name, start,
                     p.memory_slices, p.compute);
      counters.shared_counters.push_back(std::move(set));
    }
    s.slices.push_back({std::move(slice), {}});
    s.slices.push_back({std::move(counters), {}});
    claim.meta.name = "four-partitions";
    claim.meta.namespace_ = "default";
    for (const char* p : {"1g.5gb", "2g.10gb", "3g.20gb", "1g.5gb"}) {
      model::device_request r;
      r.name = names("part-" + std::to_string(claim.spec.requests.size()));
      model::exact_device_request e;
      e.device_class_name = "mig";
      e.selectors.push_back({names("device.attributes[\"gpu.example.com\"].profile == \"" + std::string(p) + "\"")});
      r.exactly = e;
      claim.spec.requests.push_back(std::move(r));
    }
    claim.spec.constraints.push_back({{}, model::text("gpu.example.com/parentUUID"), std::nullopt});
  }
};

void BM_MigFourPartitionsWithConstraint(benchmark::State& state) {
  mig_node fixture;
  dra::cel::selector_engine engine;
  alloc::ledger none;
  std::vector<const model::device_class*> classes{&fixture.s.classes[0].object};
  std::vector<const model::resource_slice*> slices{&fixture.s.slices[0].object, &fixture.s.slices[1].object};
  model::node node;
  node.meta.name = "node-0";
  const model::resource_claim* claims[] = {&fixture.claim};
  for (auto _ : state) {
    alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> allocator(alloc::features::all(), none, classes,
                                                                                 slices, engine);
    auto outcome = allocator.allocate(node, claims);
    if (!outcome || outcome->fit() == nullptr) {
      state.SkipWithError(outcome ? std::string(outcome->reason()).c_str() : outcome.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(outcome);
  }
  state.SetLabel("112 devices, 4 requests, matchAttribute parentUUID");
}
BENCHMARK(BM_MigFourPartitionsWithConstraint)->Unit(benchmark::kMicrosecond);

// The same claim again and again on one allocator: node layout and selector results are cached.
void BM_MigFourPartitionsWarm(benchmark::State& state) {
  mig_node fixture;
  dra::cel::selector_engine engine;
  alloc::ledger none;
  std::vector<const model::device_class*> classes{&fixture.s.classes[0].object};
  std::vector<const model::resource_slice*> slices{&fixture.s.slices[0].object, &fixture.s.slices[1].object};
  model::node node;
  node.meta.name = "node-0";
  const model::resource_claim* claims[] = {&fixture.claim};
  alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> allocator(alloc::features::all(), none, classes,
                                                                               slices, engine);
  for (auto _ : state) {
    auto outcome = allocator.allocate(node, claims);
    if (!outcome || outcome->fit() == nullptr) {
      state.SkipWithError("the claim should fit");
      break;
    }
    benchmark::DoNotOptimize(outcome);
  }
}
BENCHMARK(BM_MigFourPartitionsWarm)->Unit(benchmark::kMicrosecond);

// (b) 500 nodes with 8 GPUs each; 5,000 pods asking for one GPU each, scheduled in order.
struct cluster {
  arena names;
  model::scenario s;
  cluster(int nodes, int gpus, int pods) {
    s.classes.push_back({simple_class("gpu"), {}});
    for (int n = 0; n < nodes; ++n) {
      model::text node_name = names("node-" + std::to_string(n));
      model::node node;
      node.meta.name = node_name;
      s.nodes.push_back({node, {}});
      model::resource_slice slice;
      slice.meta.name = names(std::string(node_name) + "-gpus");
      slice.driver = "gpu.example.com";
      slice.pool = {node_name, 1, 1};
      slice.node_name = node_name;
      for (int g = 0; g < gpus; ++g) {
        model::device d;
        d.name = names("gpu-" + std::to_string(g));
        slice.devices.push_back(std::move(d));
      }
      s.slices.push_back({std::move(slice), {}});
    }
    for (int p = 0; p < pods; ++p) {
      model::resource_claim claim;
      claim.meta.name = names("claim-" + std::to_string(p));
      claim.meta.namespace_ = "default";
      model::device_request r;
      r.name = "gpu";
      model::exact_device_request e;
      e.device_class_name = "gpu";
      r.exactly = e;
      claim.spec.requests.push_back(std::move(r));
      s.claims.push_back({std::move(claim), {}});
      model::pod pod;
      pod.meta.name = names("pod-" + std::to_string(p));
      pod.meta.namespace_ = "default";
      pod.resource_claims.push_back({"gpu", s.claims.back().object.meta.name, std::nullopt});
      s.pods.push_back({std::move(pod), {}});
    }
  }
};

void BM_ClusterSinglePods(benchmark::State& state) {
  cluster c(500, 8, 5000);
  dra::cel::selector_engine engine;
  std::size_t allocated = 0;
  for (auto _ : state) {
    auto report = sim::run_scenario(c.s, engine);
    allocated = static_cast<std::size_t>(std::count_if(report.outcomes.begin(), report.outcomes.end(),
                                                       [](auto& o) { return o.allocated() != nullptr; }));
  }
  if (allocated != 4000) state.SkipWithError("expected 4000 allocated pods");
  state.SetLabel("500 nodes x 8 GPUs, 5000 pods (4000 fit)");
}
BENCHMARK(BM_ClusterSinglePods)->Unit(benchmark::kMillisecond)->Iterations(1);

// (c) 4 shared NICs with 100G of bandwidth each; 40 claims of 10G each (all fit).
struct shared_nics {
  arena names;
  model::scenario s;
  shared_nics() {
    s.classes.push_back({simple_class("nic"), {}});
    model::resource_slice slice;
    slice.meta.name = "node-0-nics";
    slice.driver = "nic.example.com";
    slice.pool = {"node-0", 1, 1};
    slice.node_name = model::text("node-0");
    for (int i = 0; i < 4; ++i) {
      model::device d;
      d.name = names("nic-" + std::to_string(i));
      d.allow_multiple_allocations = true;
      model::capacity_request_policy policy;
      policy.default_value = q("1G");
      policy.valid_range = model::capacity_range{q("1G"), q("100G"), q("1G")};
      d.capacity.push_back({"bandwidth", {q("100G"), policy}});
      slice.devices.push_back(std::move(d));
    }
    s.slices.push_back({std::move(slice), {}});
    for (int i = 0; i < 40; ++i) {
      model::resource_claim claim;
      claim.meta.name = names("nic-claim-" + std::to_string(i));
      model::device_request r;
      r.name = "nic";
      model::exact_device_request e;
      e.device_class_name = "nic";
      e.capacity = model::capacity_requirements{{{"bandwidth", q("10G")}}};
      r.exactly = e;
      claim.spec.requests.push_back(std::move(r));
      s.claims.push_back({std::move(claim), {}});
    }
  }
};

void BM_SharedNicsWithCapacity(benchmark::State& state) {
  shared_nics fixture;
  dra::cel::selector_engine engine;
  for (auto _ : state) {
    auto report = sim::run_scenario(fixture.s, engine);
    if (report.outcomes.size() != 40 || report.outcomes.back().allocated() == nullptr)
      state.SkipWithError("all 40 should fit");
    benchmark::DoNotOptimize(report);
  }
  state.SetLabel("4 NICs x 100G, 40 claims x 10G");
}
BENCHMARK(BM_SharedNicsWithCapacity)->Unit(benchmark::kMicrosecond);

// (d) 17 devices requested on a node with 16: no solution exists.
void BM_SeventeenOfSixteen(benchmark::State& state) {
  cluster c(1, 16, 0);
  model::resource_claim claim;
  claim.meta.name = "too-many";
  model::device_request r;
  r.name = "gpus";
  model::exact_device_request e;
  e.device_class_name = "gpu";
  e.count = 17;
  r.exactly = e;
  claim.spec.requests.push_back(r);
  dra::cel::selector_engine engine;
  alloc::ledger none;
  std::vector<const model::device_class*> classes{&c.s.classes[0].object};
  std::vector<const model::resource_slice*> slices{&c.s.slices[0].object};
  const model::resource_claim* claims[] = {&claim};
  for (auto _ : state) {
    alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> allocator(alloc::features::all(), none, classes,
                                                                                 slices, engine);
    auto outcome = allocator.allocate(c.s.nodes[0].object, claims);
    if (!outcome || outcome->fit() != nullptr) state.SkipWithError("17 of 16 must not fit");
    benchmark::DoNotOptimize(outcome);
  }
}
BENCHMARK(BM_SeventeenOfSixteen)->Unit(benchmark::kMicrosecond);

// (e) Claims with no solution (each to be answered in under 1 ms of search). One node, one slice of `devices`
// devices with a `numa` value (groups of 8) and a `low` flag (the first four).
struct hopeless_family {
  arena names;
  model::device_class klass = simple_class("gpu");
  model::resource_slice slice;
  model::node node;
  model::resource_claim claim;

  hopeless_family(int devices, std::vector<int> counts, std::vector<std::string_view> selectors = {},
                  std::string_view match = {}, std::string_view distinct = {}) {
    node.meta.name = "node-0";
    slice.meta.name = "node-0-gpus";
    slice.driver = "gpu.example.com";
    slice.pool = {"node-0", 1, 1};
    slice.node_name = model::text("node-0");
    for (int i = 0; i < devices; ++i) {
      model::device d;
      d.name = names("gpu-" + std::to_string(i));
      d.attributes.push_back({"low", model::device_attribute{i < 4}});  // sorted by name
      d.attributes.push_back({"numa", model::device_attribute{std::int64_t{i / 8}}});
      slice.devices.push_back(std::move(d));
    }
    claim.meta.name = "hopeless";
    claim.meta.namespace_ = "default";
    for (std::size_t r = 0; r < counts.size(); ++r) {
      model::device_request request;
      request.name = names("r" + std::to_string(r));
      model::exact_device_request e;
      e.device_class_name = "gpu";
      e.count = counts[r];
      if (r < selectors.size() && !selectors[r].empty()) e.selectors.push_back({selectors[r]});
      request.exactly = e;
      claim.spec.requests.push_back(std::move(request));
    }
    model::device_constraint c;
    if (!match.empty()) c.match_attribute = match;
    if (!distinct.empty()) c.distinct_attribute = distinct;
    if (!match.empty() || !distinct.empty()) claim.spec.constraints.push_back(c);
  }
};

hopeless_family family(std::int64_t which) {
  constexpr std::string_view low = R"(device.attributes["gpu.example.com"].low)";
  switch (which) {
    case 0: return hopeless_family(30, {15, 16});           // one device more than the node has, in 2 requests
    case 1: return hopeless_family(30, {10, 10, 11});       // ... in 3
    case 2: return hopeless_family(30, {8, 8, 8, 7});       // ... in 4
    case 3: return hopeless_family(128, {5, 4}, {}, "gpu.example.com/numa");     // 9 of one NUMA group of 8
    case 4: return hopeless_family(128, {9, 8}, {}, {}, "gpu.example.com/numa");  // 17 NUMA values of 16
    default: return hopeless_family(32, {16, 3, 2}, {{}, low, low});  // 5 low devices of 4 (no count sees it)
  }
}

void BM_HopelessFamilies(benchmark::State& state) {
  hopeless_family f = family(state.range(0));
  dra::cel::selector_engine engine;
  alloc::ledger none;
  const model::device_class* classes[] = {&f.klass};
  const model::resource_slice* slices[] = {&f.slice};
  const model::resource_claim* claims[] = {&f.claim};
  std::uint64_t steps = 0;
  for (auto _ : state) {
    alloc::basic_allocator<alloc::first_fit, dra::cel::selector_engine> allocator(alloc::features::all(), none, classes,
                                                                                 slices, engine);
    allocator.set_step_budget(1'000'000);  // without its pruning, a family would run for hours
    auto outcome = allocator.allocate(f.node, claims);
    if (!outcome || outcome->fit() != nullptr) {
      state.SkipWithError(outcome ? "a hopeless claim fitted" : outcome.error().message.c_str());
      break;
    }
    steps = outcome->search_steps;
  }
  static constexpr const char* labels[] = {"31 of 30 in 2 requests", "31 of 30 in 3 requests", "31 of 30 in 4 requests",
                                           "matchAttribute: 9 of a NUMA group of 8 (128 devices)",
                                           "distinctAttribute: 17 values of 16 (128 devices)",
                                           "16 any + 3 + 2 of 4 low devices (32 devices)"};
  state.SetLabel(labels[std::min<std::int64_t>(state.range(0), 5)]);
  state.counters["steps"] = static_cast<double>(steps);
}
BENCHMARK(BM_HopelessFamilies)->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);

}  // namespace
