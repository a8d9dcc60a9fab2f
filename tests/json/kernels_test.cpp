// Tests that every simdjson kernel this CPU runs (chosen at run time, or forced) reads inputs into the same
// documents and the same errors.
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>

#include <simdjson.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace {

// The kernel simdjson chose for this process, put back after a test that switches kernels.
class active_kernel_restored {
 public:
  active_kernel_restored() : chosen_(simdjson::get_active_implementation()) {}
  ~active_kernel_restored() { simdjson::get_active_implementation() = chosen_; }
  active_kernel_restored(const active_kernel_restored&) = delete;
  active_kernel_restored& operator=(const active_kernel_restored&) = delete;

 private:
  const simdjson::implementation* chosen_;
};

std::vector<const simdjson::implementation*> kernels_this_cpu_runs() {
  std::vector<const simdjson::implementation*> out;
  for (const simdjson::implementation* kernel : simdjson::get_available_implementations())
    if (kernel->supported_by_runtime_system()) out.push_back(kernel);
  return out;
}

// Inputs whose bytes reach every part of the reader: the fixtures; a List big enough to be read
// on two threads, with escapes in names and labels; and malformed or invalid text of every kind
// the scanner and simdjson tell apart.
std::vector<std::string> inputs_for_every_kernel() {
  std::vector<std::string> inputs;
  std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (const auto& entry : std::filesystem::directory_iterator(dra_test::json_test_data())) {
    if (!entry.is_regular_file()) continue;
    const dra::json::document doc = dra_test::load_fixture(entry.path().filename().string());
    inputs.emplace_back(doc.text());
  }
  for (int i = 0; i < 300; ++i) {
    list += R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-\u0041)" + std::to_string(i) +
            R"(","labels":{"zone":"z\"1","gpu":"a100 \\ 80GB"}},"status":{"allocatable":{"cpu":"64","memory":"512Gi"}}},)";
  }
  list += R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"last"}}]})";
  inputs.push_back(list);
  inputs.push_back(list.substr(0, list.size() / 2));                             // cut in the middle of an item
  inputs.push_back(R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":7}}]})");
  inputs.push_back(R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"a\q"}}]})");
  inputs.push_back(R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"]}]})");
  inputs.push_back(R"([{"apiVersion":"v1","kind":"Node","metadata":{"name":"a","labels":{"x":1e400}}}])");
  inputs.push_back(std::string("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"\xff\xfe\"}}"));
  return inputs;
}

TEST(JsonKernels, EveryKernelThisCpuRunsReadsTheSameDocumentsAndErrors) {
  const active_kernel_restored restore;
  const std::vector<const simdjson::implementation*> kernels = kernels_this_cpu_runs();
  // The portable kernel runs everywhere; on x86-64 and ARM at least one vector kernel does too.
  ASSERT_TRUE(std::ranges::any_of(kernels, [](const auto* k) { return k->name() == "fallback"; }));
  ASSERT_GE(kernels.size(), 2u);
  const dra::json::load_options two_threads{.threads = 2, .min_parallel_bytes = 0, .chunk_bytes = 4096};
  std::size_t loaded = 0, refused = 0;
  for (const std::string& input : inputs_for_every_kernel()) {
    simdjson::get_active_implementation() = kernels.front();
    const auto expected = dra::json::load(input, two_threads);
    ++(expected ? loaded : refused);
    for (const simdjson::implementation* kernel : kernels) {
      SCOPED_TRACE(kernel->name() + " on " + input.substr(0, 120));
      simdjson::get_active_implementation() = kernel;
      ASSERT_EQ(dra::json::json_kernel(), kernel->name());
      const auto doc = dra::json::load(input, two_threads);
      ASSERT_EQ(doc.has_value(), expected.has_value()) << (doc ? expected.error() : doc.error()).to_string();
      if (doc) {
        EXPECT_TRUE(doc->scenario() == expected->scenario());
      } else {
        EXPECT_EQ(doc.error(), expected.error()) << doc.error().to_string() << " / " << expected.error().to_string();
      }
    }
  }
  EXPECT_GT(loaded, 10u);  // the fixtures and the List
  EXPECT_EQ(refused, 6u);  // the malformed and invalid inputs
}

TEST(JsonKernels, TheProcessRunsTheFastestKernelItsCpuSupports) {
  // simdjson ranks its kernels fastest first; the one a process starts with is the first the CPU
  // runs, unless SIMDJSON_FORCE_IMPLEMENTATION names another.
  if (std::getenv("SIMDJSON_FORCE_IMPLEMENTATION") != nullptr) GTEST_SKIP() << "a kernel is forced";
  const std::vector<const simdjson::implementation*> kernels = kernels_this_cpu_runs();
  ASSERT_FALSE(kernels.empty());
  EXPECT_EQ(dra::json::json_kernel(), kernels.front()->name());
  EXPECT_NE(dra::json::json_kernel(), "fallback");
}

}  // namespace
