// Explanation benchmarks: why one pod fits nowhere on a full 500-node x 8-GPU cluster and on a MIG cluster whose
// GPUs are held whole, each from a cold start (a new funnel builder) as the runner meets its first such pod.
#include <dra/cel/selector.hpp>
#include <dra/sched/diagnosis.hpp>

#include <benchmark/benchmark.h>

#include <deque>
#include <string>
#include <vector>

namespace {

using namespace dra;

struct arena {
  std::deque<std::string> strings;
  model::text operator()(std::string s) { return strings.emplace_back(std::move(s)); }
};

// `nodes` nodes, each with `gpus` GPUs (and, with `mig`, the seven 1g.5gb partitions of each GPU drawing on its
// memory slices); every GPU is held by an allocated claim, one claim per node.
struct full_cluster {
  arena names;
  std::vector<model::node> nodes;
  std::vector<model::resource_slice> slices;
  model::device_class klass;
  std::vector<model::resource_claim> holders;
  model::resource_claim pending;
  alloc::ledger state;

  full_cluster(int node_count, int gpus, bool mig) {
    klass.meta.name = "gpu";
    klass.selectors.push_back({"device.driver == \"gpu.example.com\""});
    slices.reserve(static_cast<std::size_t>(node_count) * 2);
    holders.reserve(static_cast<std::size_t>(node_count));
    for (int n = 0; n < node_count; ++n) {
      model::text node_name = names("node-" + std::to_string(n));
      model::node node;
      node.meta.name = node_name;
      nodes.push_back(node);
      model::resource_slice slice;
      slice.meta.name = names(std::string(node_name) + "-gpus");
      slice.driver = "gpu.example.com";
      slice.pool = {node_name, 1, mig ? 2 : 1};
      slice.node_name = node_name;
      model::resource_slice counters = slice;
      counters.meta.name = names(std::string(node_name) + "-counters");
      model::resource_claim holder;
      holder.meta.name = names("holder-" + std::to_string(n));
      holder.meta.namespace_ = "default";
      model::allocation_result held;
      for (int g = 0; g < gpus; ++g) {
        const std::string gpu = "gpu-" + std::to_string(g);
        model::device d;
        d.name = names(gpu);
        d.attributes.push_back({"type", {model::text("gpu")}});
        model::counter_set set;
        set.name = names(gpu + "-counters");
        for (int m = 0; m < 8 && mig; ++m) set.counters.push_back({names("memory-slice-" + std::to_string(m)), quantity::from_int(1)});
        if (mig) {
          d.consumes_counters.push_back({set.name, set.counters, {}});
          for (int m = 0; m < 7; ++m) {
            model::device part;
            part.name = names(gpu + "-mig-1g.5gb-" + std::to_string(m));
            part.attributes.push_back({"type", {model::text("mig")}});
            part.consumes_counters.push_back({set.name, {{set.counters[static_cast<std::size_t>(m)]}}, {}});
            slice.devices.push_back(std::move(part));
          }
          counters.shared_counters.push_back(std::move(set));
        }
        slice.devices.push_back(std::move(d));
        model::device_request_allocation_result r;
        r.request = "gpus";
        r.driver = "gpu.example.com";
        r.pool = node_name;
        r.device = slice.devices.back().name;
        held.results.push_back(r);
      }
      slices.push_back(std::move(slice));
      if (mig) slices.push_back(std::move(counters));
      holders.push_back(holder);
      state.add(held, alloc::object_name(holder.meta));
    }
    pending.meta.name = "one-more";
    pending.meta.namespace_ = "default";
    model::device_request r;
    r.name = "gpu";
    model::exact_device_request e;
    e.device_class_name = "gpu";
    e.selectors.push_back({mig ? "device.attributes[\"gpu.example.com\"].type == \"mig\""
                               : "device.attributes[\"gpu.example.com\"].type == \"gpu\""});
    r.exactly = e;
    pending.spec.requests.push_back(r);
  }

  void explain(benchmark::State& st, model::explanation_code expected_code) {
    const cel::selector_engine engine;
    std::vector<const model::device_class*> classes{&klass};
    std::vector<const model::resource_slice*> slice_ptrs;
    for (const auto& s : slices) slice_ptrs.push_back(&s);
    std::vector<const model::node*> node_ptrs;
    for (const auto& n : nodes) node_ptrs.push_back(&n);
    const model::resource_claim* unit[] = {&pending};
    alloc::basic_allocator<alloc::first_fit, cel::selector_engine> allocator(alloc::features::all(), state, classes,
                                                                            slice_ptrs, engine);
    sched::allocator_oracle<decltype(allocator)> oracle{&allocator};
    for (auto _ : st) {
      sched::funnel_builder<cel::selector_engine> funnels(alloc::features::all(), state, classes, slice_ptrs, engine);
      model::explanation e = sched::summarize(sched::diagnose_unit(funnels, node_ptrs, unit, oracle));
      if (e.reasons.size() != 1 || e.reasons[0].code != expected_code || e.reasons[0].nodes != nodes.size()) {
        st.SkipWithError(("unexpected explanation: " + (e.reasons.empty() ? std::string("none") : std::string(model::name_of(e.reasons[0].code)))).c_str());
        break;
      }
      benchmark::DoNotOptimize(e);
    }
  }
};

void BM_ExplainFullCluster(benchmark::State& state) {
  full_cluster c(500, 8, false);
  c.explain(state, model::explanation_code::in_use);
  state.SetLabel("500 nodes x 8 GPUs, all held: in-use on 500 nodes");
}
BENCHMARK(BM_ExplainFullCluster)->Unit(benchmark::kMillisecond);

void BM_ExplainMigCluster(benchmark::State& state) {
  full_cluster c(100, 8, true);
  c.explain(state, model::explanation_code::counters);
  state.SetLabel("100 nodes x 8 GPUs x (1 + 7 MIG), GPUs held whole: counters on 100 nodes");
}
BENCHMARK(BM_ExplainMigCluster)->Unit(benchmark::kMillisecond);

}  // namespace
