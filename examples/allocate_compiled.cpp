// Example: examples/allocate_claims.cpp against the optional compiled component: this file includes only
// dra/compiled.hpp (the model's types and a few declarations), links dra::compiled, and compiles in seconds.
//   allocate_compiled SCENARIO.json
#include <dra/compiled.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: allocate_compiled SCENARIO.json\n";
    return 2;
  }
  auto doc = dra::compiled::scenario_document::load_file(argv[1]);
  if (!doc) {
    std::cerr << doc.error().to_string() << '\n';
    return 1;
  }
  for (const dra::error& problem : doc->validate()) std::cerr << "invalid: " << problem.to_string() << '\n';

  const auto report = dra::compiled::allocate(doc->scenario(), dra::alloc::first_fit{});
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
}
