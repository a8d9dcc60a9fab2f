// Example: allocate every pending claim of a scenario as the kube-scheduler would, with upstream's first-fit results.
//   allocate_claims SCENARIO.json
#include <dra/dra.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: allocate_claims SCENARIO.json\n";
    return 2;
  }
  auto doc = dra::json::load_file(argv[1]);
  if (!doc) {
    std::cerr << doc.error().to_string() << '\n';
    return 1;
  }
  // Validate first: the allocator skips invalid pools as upstream does, but a user wants to know.
  for (const dra::error& problem : dra::validate::validate(*doc)) std::cerr << "invalid: " << problem.to_string() << '\n';

  const dra::cel::selector_engine engine;
  // Policies are types: dra::alloc::first_fit (the default), sorted, shared_capacity.
  const auto report = dra::sim::run_scenario(doc->scenario(), engine, dra::alloc::features::all(), dra::alloc::first_fit{});
  // Each outcome is allocated (on a node), unschedulable (with why) or an error (with a dra::errc code).
  for (const dra::model::claim_outcome& outcome : report.outcomes) {
    const auto* allocated = outcome.allocated();
    std::cout << outcome.claim << " on " << (allocated != nullptr ? allocated->node : "-") << ":";
    if (allocated != nullptr) {
      for (const auto& result : allocated->allocation.results)
        std::cout << ' ' << result.request << '=' << result.device;
    } else if (const auto* failure = outcome.error()) {
      std::cout << " error (" << dra::to_string(failure->code) << "): " << failure->to_string();
    } else {
      std::cout << " unschedulable: " << outcome.unschedulable()->reason;
    }
    std::cout << '\n';
  }
  // The same results in Kubernetes' JSON form: dra::json::output_document(report.outcomes).
}
