// Tests of YAML Lists converted in parts on several threads (run under TSan too): the same JSON and the same errors as converted whole.
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

using dra::json::detail::convert_list_in_parts;
using dra::json::detail::split_list_items;

// The conversion of `yaml` on `threads` threads, parts of `part_bytes`, is the whole conversion.
void expect_converts_alike(std::string_view yaml, unsigned threads, std::size_t part_bytes) {
  const auto whole = dra::json::yaml_to_json(yaml);
  const auto in_parts = dra::json::yaml_to_json(yaml, dra::json::yaml_options{threads, part_bytes});
  ASSERT_EQ(whole.has_value(), in_parts.has_value()) << yaml;
  if (!whole) {
    EXPECT_EQ(in_parts.error(), whole.error()) << yaml;
    return;
  }
  EXPECT_EQ(in_parts->json, whole->json) << yaml;
  EXPECT_EQ(in_parts->first_lines, whole->first_lines) << yaml;
}

TEST(ParallelYaml, CutsAListsItemsAtTheLinesThatStartAnItem) {
  const std::string_view yaml =
      "apiVersion: v1\nitems:\n\n- a: 1\n  b:\n  - 2\n# a comment\n- c\n-\n  d: 4\nkind: List\nmetadata:\n  x: 1\n";
  const auto split = split_list_items(yaml, 1);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->head, "apiVersion: v1\nitems:");
  EXPECT_EQ(split->tail, "kind: List\nmetadata:\n  x: 1\n");
  EXPECT_EQ(split->parts, (std::vector<std::string_view>{"- a: 1\n  b:\n  - 2\n# a comment\n", "- c\n", "-\n  d: 4\n"}));
  // Larger parts hold several items; a part ends where an item starts.
  const auto two = split_list_items(yaml, 10);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->parts, (std::vector<std::string_view>{"- a: 1\n  b:\n  - 2\n# a comment\n", "- c\n-\n  d: 4\n"}));
  // Items indented under their key, and no tail.
  const auto indented = split_list_items("items:\n  - a\n  -  b\n", 1);
  ASSERT_TRUE(indented.has_value());
  EXPECT_EQ(indented->parts, (std::vector<std::string_view>{"  - a\n", "  -  b\n"}));
  EXPECT_EQ(indented->tail, "");

  for (const std::string_view not_cut :
       {"items:\n  name: x\n", "items: []\n", "items:\n- only\n", "kind: A\n", "  items:\n  - a\n  - b\n",
        "items: # c\n- a\n- b\n", "list_items:\n- a\n- b\n", "items:\n-a\n-b\n"})
    EXPECT_FALSE(split_list_items(not_cut, 1).has_value()) << not_cut;
}

TEST(ParallelYaml, AListConvertsInPartsAsItDoesWhole) {
  const std::string items =
      "- apiVersion: v1\n  kind: Node\n  metadata: {name: a, labels: {zone: z1}}\n"
      "- kind: Pod\n  spec:\n    containers:\n    - name: c\n      args: [\"x\",\n        y]\n"
      "- base: &b {x: 1}\n  copy: *b\n"  // an alias of an anchor in its own item
      "\n# a comment between items\n"
      "- text: |\n    two\n    lines\n  folded: >\n    one\n    line\n  quoted: \"a\n    b\"\n  plain: c\n    d\n"
      "- keep: |+\n    kept\n\n\n"
      "- - nested\n  - sequence\n"
      "-\n  on: the next line\n"
      "- 7\n- null\n- ~\n";
  const std::vector<std::string> lists = {
      "apiVersion: v1\nitems:\n" + items + "kind: List\nmetadata:\n  resourceVersion: \"\"\n",
      "kind: List\nitems:\n" + items,
      "---\nitems:\n" + items + "...\n",
      "note: |\nitems:\n" + items,  // after an empty block scalar
  };
  for (const std::string& list : lists) {
    const auto whole = dra::json::yaml_to_json(list);
    ASSERT_TRUE(whole.has_value()) << whole.error().to_string();
    for (const std::size_t part_bytes : {1, 30, 100}) {
      // Converted in parts indeed: the whole conversion is the fallback, and must not be taken here.
      const auto in_parts = convert_list_in_parts(list, dra::json::yaml_options{3, part_bytes});
      ASSERT_TRUE(in_parts.has_value()) << list;
      EXPECT_EQ(in_parts->json, whole->json) << list;
      EXPECT_EQ(in_parts->first_lines, whole->first_lines);
      expect_converts_alike(list, 2, part_bytes);
    }
  }
  // Items indented under `items:`, and lines that end in CR LF.
  std::string indented = "items:\n";
  for (std::size_t at = 0; at < items.size();) {
    const std::size_t end = items.find('\n', at);
    const std::string_view line = std::string_view(items).substr(at, end - at);
    indented += line.empty() || line.starts_with('#') ? std::string(line) : "  " + std::string(line);
    indented += '\n';
    at = end + 1;
  }
  std::string crlf;
  for (char c : lists[0]) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  for (const std::string& list : {indented, crlf}) {
    const auto whole = dra::json::yaml_to_json(list);
    ASSERT_TRUE(whole.has_value()) << whole.error().to_string();
    const auto in_parts = convert_list_in_parts(list, dra::json::yaml_options{2, 1});
    ASSERT_TRUE(in_parts.has_value()) << list;
    EXPECT_EQ(in_parts->json, whole->json);
  }
}

// Text whose parts are not YAML by themselves, or not what they are in the whole, converts whole:
// the same JSON, or the same error with its line.
TEST(ParallelYaml, WhatDoesNotConvertInPartsConvertsWhole) {
  const std::vector<std::string_view> cases = {
      "base: &b {x: 1}\nitems:\n- *b\n- y\n",                              // an alias of the head's anchor
      "items:\n- &a x\n- *a\n",                                            // an alias of another item's anchor
      "items:\n- a: \"x\n- y\"\n- b\n",                                    // a quoted scalar over an item's `-`
      "items:\n- [a,\n- b]\n- c\n",                                        // a flow sequence over one
      "items:\n- a\n...\n- b\n- c\n",                                      // a document's end among the items
      "items:\n- a\n---\n- b\n- c\n",                                      // a document's start among them
      "items:\n- a\n- b\n---\nkind: B\n",                                  // a second document after them
      "kind: A\n---\nitems:\n- a\n- b\n",                                  // items in the second document
      "%TAG !e! tag:example.com,2000:\n---\nitems:\n- !e!x a\n- b\n",      // a tag handle of the head
      "{kind: List,\nitems:\n- a\n- b\n}\n",                               // a flow mapping's key
      "items:\n- a\nkind: x\n- b\n",                                       // a key among the items
      "items:\n- a\n- b: [\n",                                             // an unclosed flow sequence
      "items:\n- a\n- b\n   c: d\n",                                       // a mapping where a scalar ends
  };
  for (const std::string_view yaml : cases) {
    SCOPED_TRACE(yaml);
    EXPECT_TRUE(split_list_items(yaml, 1).has_value());  // every case is cut, and some part refused
    EXPECT_FALSE(convert_list_in_parts(yaml, dra::json::yaml_options{2, 1}).has_value());
    expect_converts_alike(yaml, 2, 1);
  }
}

TEST(ParallelYaml, ALoaderReadsAYamlListAlikeOnAnyNumberOfThreads) {
  const auto one = dra_test::load_fixture("documents/list.yaml");
  std::ifstream in(dra_test::fixture_path("documents/list.yaml"), std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(text.starts_with("apiVersion: v1\nkind: List\nitems:\n")) << text;  // a List, cut into parts
  for (unsigned threads : {2u, 3u}) {
    auto many = dra::json::load(text, dra::json::load_options{.threads = threads, .min_parallel_bytes = 0, .chunk_bytes = 1});
    ASSERT_TRUE(many.has_value()) << many.error().to_string();
    EXPECT_TRUE(many->scenario() == one.scenario());
  }
  // An error in an item names the line it is on in the input, converted in parts or not.
  const std::string bad = "kind: List\nitems:\n- kind: Node\n  metadata:\n    name: a\n- kind: Node\n  metadata:\n"
                          "    name: b\n    labels: 5\n";
  auto whole = dra::json::load(bad);
  auto in_parts = dra::json::load(bad, dra::json::load_options{.threads = 2, .min_parallel_bytes = 0, .chunk_bytes = 1});
  ASSERT_FALSE(whole.has_value());
  ASSERT_FALSE(in_parts.has_value());
  EXPECT_EQ(in_parts.error(), whole.error());
  EXPECT_TRUE(whole.error().message.ends_with(" (line 9)")) << whole.error().message;
}

}  // namespace
