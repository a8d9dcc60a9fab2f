// Tests that reading a List or array on several threads gives the same document and the same first error as one.
#include "../support/source_dir.hpp"
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Every item a chunk of its own unless asked otherwise: the threads take turns as often as they can.
dra::json::loader chunked(unsigned threads, std::size_t chunk_bytes = 1) {
  return dra::json::loader(
      dra::json::load_options{.threads = threads, .min_parallel_bytes = 0, .chunk_bytes = chunk_bytes});
}

// Every object of every fixture, as its JSON text, in input order.
std::vector<std::string> fixture_items() {
  std::vector<std::string> items;
  for (const auto& entry : std::filesystem::directory_iterator(dra_test::json_test_data())) {
    if (!entry.is_regular_file()) continue;
    dra::json::document doc = dra_test::load_fixture(entry.path().filename().string());
    std::vector<std::pair<std::size_t, std::string_view>> objects;
    const dra::model::scenario& s = doc.scenario();
    for (const auto& o : s.slices) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.classes) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.claims) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.claim_templates) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.taint_rules) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.others) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.nodes) objects.emplace_back(o.source.index, o.source.json);
    for (const auto& o : s.pods) objects.emplace_back(o.source.index, o.source.json);
    std::sort(objects.begin(), objects.end());
    for (const auto& [index, json] : objects) items.emplace_back(json);
  }
  return items;
}

// A List of the fixtures' objects, several times over, with an ignored kind (a warning) and
// names with escapes (strings the loader must unescape and keep) among them.
std::string many_items_list(int copies) {
  const std::vector<std::string> items = fixture_items();
  std::string out = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (int copy = 0; copy < copies; ++copy) {
    for (const std::string& item : items) out += item + ",\n";
    out += R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-)" + std::to_string(copy) + R"("}},)";
    out += R"( {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-\u0041)" + std::to_string(copy) +
           R"(","labels":{"zone":"z\"1"}}})";
    out += copy + 1 < copies ? ",\n" : "\n";
  }
  out += "]}";
  return out;
}

TEST(ParallelIngest, GivesTheSameDocumentOnAnyNumberOfThreads) {
  const std::string list = many_items_list(4);
  auto sequential = chunked(1).load(list);
  ASSERT_TRUE(sequential.has_value()) << sequential.error().to_string();
  const dra::model::scenario& one = sequential->scenario();
  ASSERT_GT(one.slices.size(), 20u);
  ASSERT_EQ(one.warnings.size(), 8u);  // the ConfigMaps: the fixtures' and the list's own
  ASSERT_EQ(one.claim_templates.size(), 4u);
  ASSERT_EQ(one.taint_rules.size(), 8u);
  ASSERT_EQ(one.others.size(), 8u);
  EXPECT_EQ(one.nodes.back().object.meta.name, "node-A3");
  EXPECT_EQ(one.nodes.back().object.meta.labels.front().value, "z\"1");
  // Chunks of one item, of a few, and as the loader picks them (here one chunk: the walk hands
  // out nothing before it ends).
  for (const auto& [threads, chunk_bytes] : {std::pair{2u, std::size_t{1}}, std::pair{3u, std::size_t{1}},
                                              std::pair{4u, std::size_t{1}}, std::pair{64u, std::size_t{1}},
                                              std::pair{2u, std::size_t{2000}}, std::pair{4u, std::size_t{0}}}) {
    SCOPED_TRACE(testing::Message() << threads << " threads, chunks of " << chunk_bytes << " bytes");
    dra::json::loader loader = chunked(threads, chunk_bytes);
    auto doc = loader.load(list);
    ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
    // Moved, as a caller would: unescaped names live in arenas that move with the document.
    dra::json::document moved = std::move(doc).value();
    EXPECT_TRUE(moved.scenario() == one);
    EXPECT_EQ(moved.text(), list);
    auto again = loader.load(list);  // a loader's parsers are reused
    ASSERT_TRUE(again.has_value());
    EXPECT_TRUE(again->scenario() == one);
  }
}

TEST(ParallelIngest, ReadsATopLevelArrayAndSmallInputsAlike) {
  const std::string array = R"([{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}}, {"apiVersion":"v1","kind":"Node","metadata":{"name":"c"}}])";
  for (const std::string& json : {array, std::string(R"({"kind":"List","items":[]})"), std::string("[]"),
                                   std::string(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"x"}})")}) {
    auto one = chunked(1).load(json);
    auto two = chunked(2).load(json);
    ASSERT_TRUE(one.has_value() && two.has_value()) << json;
    EXPECT_TRUE(one->scenario() == two->scenario()) << json;
  }
  auto doc = chunked(2).load(array);
  ASSERT_EQ(doc->scenario().nodes.size(), 3u);
  EXPECT_EQ(doc->scenario().nodes[2].source.path, "[2]");
  EXPECT_EQ(doc->scenario().nodes[2].source.json, R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"c"}})");
}

// An item `index` of a List of Nodes whose name is a number: an error in that item.
std::string nodes_with_bad_items(std::size_t count, std::vector<std::size_t> bad) {
  std::string out = R"({"kind":"List","items":[)";
  for (std::size_t i = 0; i < count; ++i) {
    const bool broken = std::find(bad.begin(), bad.end(), i) != bad.end();
    out += R"({"apiVersion":"v1","kind":"Node","metadata":{"name":)" +
           (broken ? std::to_string(i) : "\"n" + std::to_string(i) + "\"") + "}}";
    if (i + 1 < count) out += ",";
  }
  return out + "]}";
}

TEST(ParallelIngest, ReportsTheFirstErrorOfTheInputWhicheverThreadFindsIt) {
  const std::vector<std::vector<std::size_t>> bad_items = {{0}, {49}, {99}, {10, 90}, {60, 99}};
  for (const auto& bad : bad_items) {
    const std::string json = nodes_with_bad_items(100, bad);
    for (unsigned threads : {2u, 4u}) {
      auto doc = chunked(threads).load(json);
      ASSERT_FALSE(doc.has_value());
      EXPECT_EQ(doc.error().path, "items[" + std::to_string(bad.front()) + "].metadata.name") << threads;
      EXPECT_EQ(doc.error().message, "must be a string, not a number");
    }
  }
}

// Malformed text that the walk over the items skips without noticing, so that only reading the
// rest of the List fails, is reported where one thread meets it (inside the first item), not at
// "items". The input is fuzz_ingest's finding, reduced.
TEST(ParallelIngest, ReportsMalformedTextTheWalkSkippedWhereOneThreadDoes) {
  const std::string json = R"({"":"","kind":"List","items":[{"":"":""}""{""{""""}""[{""{""{}]}{""""{""{}}]}{}}}]""""""})";
  auto sequential = dra::json::load(json);
  ASSERT_FALSE(sequential.has_value());
  EXPECT_EQ(sequential.error().path, "items[0]");
  for (unsigned threads : {2u, 4u}) {
    auto doc = chunked(threads).load(json);
    ASSERT_FALSE(doc.has_value()) << threads;
    EXPECT_EQ(doc.error(), sequential.error()) << threads;
  }
}

// fuzz_ingest's finding, reduced: NUL bytes after "generation" inside the first item, which the
// walk over the items skips without noticing, and a List whose end cannot be read ("x" is a key
// without a value). One thread meets the item's error first; several threads must not report
// the List's end (at "items") instead. The siblings put other bytes right after the key or the
// value: control characters, a letter after a number or a literal, a string followed by NUL.
TEST(ParallelIngest, ReportsAnItemsErrorBeforeAnUnreadableEndOfTheList) {
  const std::string head = R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"resource.k8s.io/v1",)"
                           R"("kind":"ResourceSlice","metadata":{"name":"tpu-counters"},)"
                           R"("spec":{"driver":"tpu.dra.example.com","pool":{"generation")";
  const std::string tail = R"("name":"my-pool","resourceSliceCount":1},"allNodes":true}}] "x"})";
  struct variant {
    std::string after_key;
    std::string path;
  };
  const variant variants[] = {
      {std::string("\0\0,", 3), "items[0].spec.pool"},  // the finding
      {"x,", "items[0].spec.pool"},
      {std::string(":1\0\0,", 5), "items[0].spec.pool.generation"},
      {":1\x01,", "items[0].spec.pool.generation"},
      {":1\x1f,", "items[0].spec.pool.generation"},
      {":1\x7f,", "items[0].spec.pool.generation"},
      {":1a,", "items[0].spec.pool.generation"},
      {":truex,", "items[0].spec.pool.generation"},
      {std::string(":\"1\"\0,", 6), "items[0].spec.pool.generation"},
  };
  for (const variant& v : variants) {
    const std::string json = head + v.after_key + tail;
    SCOPED_TRACE(testing::PrintToString(v.after_key));
    auto sequential = chunked(1).load(json);
    ASSERT_FALSE(sequential.has_value());
    EXPECT_EQ(sequential.error().object, "ResourceSlice/tpu-counters");
    EXPECT_EQ(sequential.error().path, v.path);
    for (unsigned threads : {2u, 4u}) {
      auto doc = chunked(threads).load(json);
      ASSERT_FALSE(doc.has_value()) << threads;
      // Message, path, object and code alike.
      EXPECT_EQ(doc.error(), sequential.error())
          << threads << " threads: " << doc.error().to_string() << "; one: " << sequential.error().to_string();
    }
  }
}

}  // namespace
