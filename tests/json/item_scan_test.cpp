// Tests of the byte scan that finds a List's items before simdjson indexes the input (json/detail/item_scan.hpp).
#include <dra/json/detail/item_scan.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using dra::json::detail::item_scanner;
using dra::json::detail::scanned_list;

struct scan_outcome {
  std::optional<scanned_list> list;
  std::vector<std::string> items;
};

scan_outcome scan_items(std::string_view text) {
  scan_outcome out;
  item_scanner scanner(text);
  out.list = scanner.scan([&](std::string_view item) { out.items.emplace_back(item); });
  return out;
}

TEST(ItemScan, FindsEachItemOfAListAndLeavesTheRestWithoutThem) {
  const std::string text =
      R"( {"apiVersion":"v1","items" : [ {"a":"}]\"{["} , {"b":{"c":[1,{}]}}],"kind":"List","metadata":{"x":[true,null,-1.5e3]}} )";
  const auto out = scan_items(text);
  ASSERT_TRUE(out.list.has_value());
  EXPECT_EQ(out.list->prefix, "items");
  EXPECT_EQ(out.items, (std::vector<std::string>{R"({"a":"}]\"{["})", R"({"b":{"c":[1,{}]}})"}));
  EXPECT_EQ(out.list->without_items,
            R"({"apiVersion":"v1","items" : [],"kind":"List","metadata":{"x":[true,null,-1.5e3]}})");
  EXPECT_EQ(std::string_view(out.list->end), " ");  // just past the closing brace
}

TEST(ItemScan, FindsTheItemsOfATopLevelArrayAndStopsAtTheDocumentsEnd) {
  const std::string text = "[{\"a\":1},\n{}]\n{\"kind\":\"Node\"}";
  const auto out = scan_items(text);
  ASSERT_TRUE(out.list.has_value());
  EXPECT_EQ(out.list->prefix, "");
  EXPECT_EQ(out.items, (std::vector<std::string>{"{\"a\":1}", "{}"}));
  EXPECT_EQ(out.list->without_items, "[]");
  EXPECT_EQ(std::string_view(out.list->end), "\n{\"kind\":\"Node\"}");
  const auto empty = scan_items(R"({"kind":"List","items":[]})");
  ASSERT_TRUE(empty.list.has_value());
  EXPECT_TRUE(empty.items.empty());
  EXPECT_EQ(empty.list->without_items, R"({"kind":"List","items":[]})");
}

TEST(ItemScan, FindsItemsWhateverTheirStringsHoldAcrossTheScansBlocks) {
  // Escaped quotes, runs of backslashes and brackets inside strings, at every offset around the
  // 64-byte blocks the scan takes at a time.
  for (std::size_t pad = 0; pad < 140; ++pad) {
    const std::string filler(pad, 'x');
    const std::vector<std::string> items = {
        "{\"a\":\"" + filler + "\\\"]}\\\\\"}",                 // {"a":"xx\"]}\\"}
        "{\"b\":[\"" + filler + "\\\\\\\\\",{\"c\":\"}{\"}]}",  // {"b":["xx\\\\",{"c":"}{"}]}
        "{\"" + filler + "\\\\\":\"\\\\\\\"[\"}",               // {"xx\\":"\\\"["}
    };
    std::string text = "{\"kind\":\"List\",\"items\":[";
    for (std::size_t i = 0; i < items.size(); ++i) text += (i == 0 ? "" : " ,\n") + items[i];
    text += "]}";
    const auto out = scan_items(text);
    ASSERT_TRUE(out.list.has_value()) << pad;
    EXPECT_EQ(out.items, items) << pad;
  }
}

TEST(ItemScan, GivesUpOnWhatOnlySimdjsonMayJudge) {
  const char* const refused[] = {
      R"({"kind":"List"})",                                 // no items
      R"({"kind":"ResourceSlice","spec":{"items":[{}]}})",  // items, but not at the top
      R"({"it\u0065ms":[{}],"kind":"List"})",               // an escaped key may spell items
      R"({"items":[{}],"items":[{}],"kind":"List"})",       // twice
      R"({"items":[{"a":1]],"kind":"List"})",               // a bracket closing the wrong kind
      R"({"items":[{"a":"1}],"kind":"List"})",              // an unterminated string
      R"({"items":[{"a":1 \ }],"kind":"List"})",            // a backslash outside a string
      R"({"items":[{},],"kind":"List"})",                   // a trailing comma
      R"({"items":[{} {}],"kind":"List"})",                 // no comma
      R"({"items":[{},"text"],"kind":"List"})",             // an item that is no object
      R"({"items":{},"kind":"List"})",                      // no array
      R"({"items":[{}],"kind":"List")",                     // the document does not end
      R"({"items":[{}],"kind" "List"})",                    // no colon
      R"({"items":[{}],"kind":})",                          // no value
      R"("items")",                                         // neither object nor array
      "",
      "  ",
  };
  for (const char* text : refused) EXPECT_FALSE(scan_items(text).list.has_value()) << text;
}

TEST(ItemScan, GivesUpOnNestingDeeperThanItFollows) {
  const std::string deep =
      R"({"items":[{"a":)" + std::string(600, '[') + std::string(600, ']') + R"(}],"kind":"List"})";
  EXPECT_FALSE(scan_items(deep).list.has_value());
  const std::string nested =
      R"({"items":[{"a":)" + std::string(500, '[') + std::string(500, ']') + R"(}],"kind":"List"})";
  const auto out = scan_items(nested);
  ASSERT_TRUE(out.list.has_value());
  ASSERT_EQ(out.items.size(), 1u);
  EXPECT_EQ(out.items[0].size(), nested.size() - std::string_view(R"({"items":[],"kind":"List"})").size());
}

}  // namespace
