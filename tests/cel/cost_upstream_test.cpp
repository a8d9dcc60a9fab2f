// dra's cost estimate against upstream's for the DRA selectors of tests/cel/data/cost-upstream.json (measured with
// Kubernetes' own compiler): the same {min, max} for every selector that compiles, a compile error where upstream
// reports one, and so the same verdict against the selector limit.
#include "../support/source_dir.hpp"
#include <dra/cel/program.hpp>

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace {

// Upstream's compile errors end with an excerpt of the source (lines starting " | "), which dra's leave out.
std::string_view without_source_excerpt(std::string_view message) { return message.substr(0, message.find('\n')); }

TEST(CostUpstream, EstimatesEqualUpstreamsForEverySelector) {
  const std::filesystem::path file =
      std::filesystem::path(dra_test::source_dir()) / "tests/cel/data/cost-upstream.json";
  ASSERT_TRUE(std::filesystem::is_regular_file(file)) << file << " is missing";
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  ASSERT_EQ(parser.load(file.string()).get(document), simdjson::SUCCESS) << file;
  const std::uint64_t limit = document["limit"].get_uint64().value();
  ASSERT_EQ(limit, dra::cel::selector_max_cost);

  const auto env = dra::cel::make_dra_environment();
  int compiled_cases = 0, refused_cases = 0, error_cases = 0;
  for (simdjson::dom::element c : document["cases"].get_array()) {
    const std::string expression(c["expr"].get_string().value());
    auto compiled = dra::cel::compile(env, expression);
    std::string_view upstream_error;
    if (c["error"].get(upstream_error) == simdjson::SUCCESS) {
      ++error_cases;
      ASSERT_FALSE(compiled) << expression << " compiles; upstream: " << upstream_error;
      EXPECT_EQ(compiled.error().message, without_source_excerpt(upstream_error)) << expression;
      continue;
    }
    ASSERT_TRUE(compiled) << expression << ": " << compiled.error().message;
    ++compiled_cases;
    const dra::cel::cost_estimate upstream{c["minCost"].get_uint64().value(), c["maxCost"].get_uint64().value()};
    const dra::cel::cost_estimate estimate = compiled.value().estimated_cost();
    EXPECT_EQ(estimate.min, upstream.min) << expression;
    EXPECT_EQ(estimate.max, upstream.max) << expression;
    const bool refused = c["exceeds"].get_bool().value();
    EXPECT_EQ(estimate.max > limit, refused) << expression;
    refused_cases += refused ? 1 : 0;
  }
  // The file holds 89 selectors, 88 that compile, 4 of them refused: a file that lost its cases proves nothing.
  EXPECT_EQ(compiled_cases, 88);
  EXPECT_EQ(error_cases, 1);
  EXPECT_EQ(refused_cases, 4);
}

}  // namespace
