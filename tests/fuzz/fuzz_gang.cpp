// Fuzz target: bytes -> a small gang (1-3 nodes with cpu and GPUs, a PodGroup of 2-5 pods asking for cpu and 0-2
// GPUs each, a minCount), placed under first fit and best fit; each answer must be all or nothing, keep every node
// within its cpu and GPUs, and place the gang exactly when a brute force over every assignment of pods to nodes finds
// one (tests/sim/gang_world.hpp): the joint search beyond upstream's one-by-one placement, against the brute force.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include "../sim/gang_world.hpp"
#include "byte_reader.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

namespace {

template <class Policy>
void check(const dra_test::small_gang& g, const dra::model::scenario& s, const char* policy) {
  static const dra::cel::selector_engine engine;
  const auto report = dra::sim::run_scenario(s, engine, dra::alloc::features::all(), Policy{});
  if (const std::string wrong = dra_test::small_gang_verdict(g, report); !wrong.empty()) {
    std::fprintf(stderr, "fuzz_gang (%s): %s\n", policy, wrong.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dra_fuzz::byte_reader in({data, size});
  dra_test::small_gang g;
  const int nodes = 1 + in.next(3);
  for (int n = 0; n < nodes; ++n) g.nodes.push_back({"n" + std::to_string(n), in.next(4), 1 + in.next(4)});
  const int pods = 2 + in.next(4);
  for (int p = 0; p < pods; ++p) g.pods.emplace_back(1 + in.next(3), in.next(3));
  g.min_count = 1 + in.next(pods);
  auto doc = dra::json::load(dra_test::small_gang_text(g));
  if (!doc) {
    std::fprintf(stderr, "fuzz_gang: the generated scenario does not load: %s\n", doc.error().to_string().c_str());
    std::abort();
  }
  check<dra::alloc::first_fit>(g, doc->scenario(), "first_fit");
  check<dra::alloc::sorted>(g, doc->scenario(), "sorted");
  return 0;
}
