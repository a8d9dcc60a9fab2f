// Runs upstream's allocator test table (exported as scenarios) through the scenario runner and compares results.
#include "../support/source_dir.hpp"
#include "compare.hpp"

#include <dra/alloc/allocator.hpp>
#include <dra/cel/selector.hpp>
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <dra/alloc/check.hpp>

namespace {

namespace fs = std::filesystem;

namespace dom = simdjson::dom;

struct case_outcome {
  bool pass = false;
  std::string why;
};

case_outcome run_case(const fs::path& scenario_file, const fs::path& expected_file) {
  auto doc = dra::json::load_file(scenario_file.string());
  if (!doc) return {false, "ingest: " + doc.error().to_string()};
  dom::parser expected_parser;
  dom::element expected;
  if (expected_parser.load(expected_file.string()).get(expected)) return {false, "expected file unreadable"};
  dra::alloc::features f = dra::alloc::features::none();
  for (auto name : expected["upstream"]["features"].get_array()) f.enable(std::string_view(name.get_string().value()));
  bool expect_error = false;
  if (expected["upstream"]["expectError"].get(expect_error)) expect_error = false;
  std::string_view error_substring;
  if (expected["upstream"]["errorSubstring"].get(error_substring)) error_substring = {};

  // Upstream's allocator compiles selectors in the "stored expressions" environment, which does
  // not depend on feature gates.
  const dra::cel::selector_engine engine;
  auto report = dra::sim::run_scenario(doc->scenario(), engine, f);
  if (auto problem = dra::alloc::find_overcommit(doc->scenario(), report.outcomes); !problem.empty())
    return {false, "over-commit: " + problem};
  std::string produced = dra::json::output_document(report.outcomes);
  dom::parser produced_parser;
  dom::element actual;
  if (produced_parser.parse(produced).get(actual)) return {false, "output unparsable"};

  dom::array want = expected["results"].get_array(), got = actual["results"].get_array();
  if (want.size() != got.size()) return {false, "result counts differ:\n" + produced};
  dom::array unordered_flags;
  bool has_flags = !expected["upstream"]["deviceResultsUnordered"].get(unordered_flags);
  std::size_t i = 0;
  auto g = got.begin();
  for (auto w : want) {
    dom::element a = *g;
    ++g;
    auto kind = [](dom::element e) -> std::string {
      for (const char* k : {"allocation", "unschedulable", "error"})
        if (!e[k].error()) return k;
      return "none";
    };
    if (kind(w) != kind(a))
      return {false, "result " + std::to_string(i) + ": expected " + kind(w) + ", got " + simdjson::minify(a)};
    if (kind(w) == "error") {
      std::string_view message = a["error"].get_string().value();
      if (!error_substring.empty() && message.find(error_substring) == std::string_view::npos)
        return {false, "error without \"" + std::string(error_substring) + "\": " + std::string(message)};
    }
    if (kind(w) == "allocation") {
      bool unordered = false;
      if (has_flags && i < unordered_flags.size()) unordered = unordered_flags.at(i).get_bool().value();
      dom::element wa = w["allocation"], aa = a["allocation"];
      std::string d;
      if (unordered) {
        d = dra_test::unordered_diff(wa["devices"]["results"].get_array(), aa["devices"]["results"].get_array(),
                                     "results");
        // Compare the rest with the results taken out.
        if (d.empty()) {
          for (auto key : {"nodeSelector", "allocationTimestamp"}) {
            dom::element x, y;
            bool hx = !wa[key].get(x), hy = !aa[key].get(y);
            if (hx != hy)
              d = std::string(key) + " presence differs";
            else if (hx)
              d = dra_test::json_diff(x, y, key);
            if (!d.empty()) break;
          }
          if (d.empty()) {
            dom::element x, y;
            bool hx = !wa["devices"]["config"].get(x), hy = !aa["devices"]["config"].get(y);
            if (hx != hy)
              d = "config presence differs";
            else if (hx)
              d = dra_test::json_diff(x, y, "config");
          }
        }
      } else {
        d = dra_test::json_diff(wa, aa, "allocation");
      }
      if (!d.empty()) return {false, "result " + std::to_string(i) + ": " + d + "\n got " + simdjson::minify(aa)};
    }
    dom::element wn = w["node"], an = a["node"];
    if (!dra_test::json_diff(wn, an, "node").empty()) return {false, "node differs"};
    ++i;
  }
  (void)expect_error;
  return {true, ""};
}

struct directory_outcome {
  std::size_t cases = 0;
  std::size_t passed = 0;
  std::string failures;
};

// Runs every `<case>.json` of `dir` against its `<case>.expected.json`.
directory_outcome run_directory(const fs::path& dir) {
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(dir)) {
    auto name = e.path().filename().string();
    if (name.ends_with(".expected.json") || !name.ends_with(".json") || name.starts_with("_")) continue;
    cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  directory_outcome out;
  out.cases = cases.size();
  std::ostringstream failures;
  for (const auto& c : cases) {
    fs::path expected = c;
    expected.replace_extension(".expected.json");
    if (std::getenv("DRA_CONFORMANCE_VERBOSE") != nullptr) std::cerr << c.stem().string() << std::endl;
    auto r = run_case(c, expected);
    if (r.pass)
      ++out.passed;
    else
      failures << "FAIL " << c.stem().string() << ": " << r.why << "\n";
  }
  out.failures = failures.str();
  return out;
}

TEST(UpstreamConformance, AllCases) {
  fs::path dir = fs::path(dra_test::source_dir()) / "tests" / "alloc" / "data" / "upstream";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  const directory_outcome r = run_directory(dir);
  std::cout << r.failures;
  std::cout << r.passed << " of " << r.cases << " upstream cases pass\n";
  EXPECT_EQ(r.passed, r.cases);
  EXPECT_EQ(r.cases, 223u);
}

// Cases for upstream fixes and features after the exported table's snapshot
// (tests/alloc/data/upstream-fixes: each says in "why" what it checks and in
// "source" where upstream fixed or added it), in the same format.
TEST(UpstreamConformance, FixesAfterTheSnapshot) {
  const directory_outcome r = run_directory(fs::path(dra_test::source_dir()) / "tests" / "alloc" / "data" / "upstream-fixes");
  EXPECT_EQ(r.failures, "");
  EXPECT_EQ(r.passed, r.cases);
  EXPECT_EQ(r.cases, 16u);
}

}  // namespace
