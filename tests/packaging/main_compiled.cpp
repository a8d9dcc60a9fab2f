// A consumer of the optional compiled component (dra::compiled): the scenario of main.cpp, loaded, validated and
// allocated through dra/compiled.hpp alone, with the same exact result.
#include <dra/compiled.hpp>

#include "consumer_case.hpp"

#include <iostream>
#include <string>
#include <string_view>

namespace {

int fail(std::string_view what, std::string_view detail) {
  std::cerr << "dra compiled consumer failed: " << what << ": " << detail << '\n';
  return 1;
}

}  // namespace

int main() {
  auto doc = dra::compiled::scenario_document::load(consumer_case::scenario_json);
  if (!doc) return fail("load", doc.error().to_string());
  if (auto problems = doc->validate(); !problems.empty()) return fail("validate", problems.front().to_string());
  const auto report = dra::compiled::allocate(doc->scenario(), dra::alloc::first_fit{});
  const std::string output = dra::compiled::output_document(report.outcomes, 0);
  if (output != consumer_case::expected_output) return fail("allocate", output);
  std::cout << "dra compiled consumer ok\n";
  return 0;
}
