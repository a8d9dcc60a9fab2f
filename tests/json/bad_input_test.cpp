// Tests that broken input gives a clear error naming the object and the JSON path, never a crash.
#include "../support/source_dir.hpp"
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <iostream>
#include <string>

namespace {

struct bad_case {
  std::string name;
  std::string json;
  std::string object;   // expected error().object
  std::string path;     // expected error().path
  std::string message;  // expected to occur in error().message
};

std::string slice_with_device(const std::string& device) {
  return R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}},
    {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s1"},
     "spec":{"driver":"d","pool":{"name":"p","generation":1,"resourceSliceCount":1},"nodeName":"n",
             "devices":[{"name":"ok"},)" +
         device + "]}}]}";
}

std::string claim_with_request(const std::string& exactly) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"ns"},
    "spec":{"devices":{"requests":[{"name":"r","exactly":)" +
         exactly + "}]}}}";
}

std::string slice_with_generation(const std::string& generation) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
    "spec":{"pool":{"name":"p","generation":)" +
         generation + R"(,"resourceSliceCount":1}}})";
}

const bad_case cases[] = {
    {"malformed quantity", slice_with_device(R"({"name":"x","capacity":{"memory":{"value":"12Q"}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].capacity.memory.value",
     "\"12Q\" is not a quantity: quantities must match the regular expression"},
    {"quantity with a bad suffix", slice_with_device(R"({"name":"x","capacity":{"memory":{"value":"12iK"}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].capacity.memory.value",
     "\"12iK\" is not a quantity: unable to parse quantity's suffix"},
    {"quantity of wrong type", slice_with_device(R"({"name":"x","capacity":{"memory":{"value":true}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].capacity.memory.value", "must be a string, not a boolean"},
    {"capacity without value", slice_with_device(R"({"name":"x","capacity":{"memory":{}}})"), "ResourceSlice/s1",
     "items[1].spec.devices[1].capacity.memory", "missing required field \"value\""},
    {"counter without a value",
     slice_with_device(R"({"name":"x","consumesCounters":[{"counterSet":"s","counters":{"c":{"v":"1"}}}]})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].consumesCounters[0].counters.c", "missing required field \"value\""},
    {"name of wrong type", slice_with_device(R"({"name":7})"), "ResourceSlice/s1", "items[1].spec.devices[1].name",
     "must be a string, not a number"},
    {"devices not an array", R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
      "spec":{"devices":{}}})",
     "ResourceSlice/s", "spec.devices", "must be an array, not an object"},
    {"spec not an object", R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
      "spec":[]})",
     "ResourceSlice/s", "spec", "must be an object, not an array"},
    {"attribute int of wrong type", slice_with_device(R"({"name":"x","attributes":{"numa":{"int":"1"}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].attributes.numa.int", "must be an integer, not a string"},
    {"qualified attribute name in path", slice_with_device(R"({"name":"x","attributes":{"a.b/c":{"bool":1}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].attributes[\"a.b/c\"].bool", "must be a boolean, not a number"},
    {"huge integer", R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
      "spec":{"pool":{"name":"p","generation":99999999999999999999999}}})",
     "ResourceSlice/s", "spec.pool.generation", "out of the range of a 64-bit integer"},
    {"fractional count", claim_with_request(R"({"deviceClassName":"x","count":1.5})"), "ResourceClaim/ns/c",
     "spec.devices.requests[0].exactly.count", "must be an integer"},
    // simdjson's token of a number runs to the next structural character or space: such text is
    // malformed JSON, not an integer out of range nor a quantity.
    {"integer run into a letter", slice_with_generation("1a"), "ResourceSlice/s", "spec.pool.generation",
     "invalid JSON: Problem while parsing a number"},
    {"integer run into NUL bytes", slice_with_generation(std::string("1\0\0", 3)), "ResourceSlice/s",
     "spec.pool.generation", "invalid JSON: Problem while parsing a number"},
    {"integer with a leading zero", slice_with_generation("01"), "ResourceSlice/s", "spec.pool.generation",
     "invalid JSON: Problem while parsing a number"},
    {"minus alone", slice_with_generation("-"), "ResourceSlice/s", "spec.pool.generation",
     "invalid JSON: Problem while parsing a number"},
    {"fraction run into a letter", slice_with_generation("1.5x"), "ResourceSlice/s", "spec.pool.generation",
     "invalid JSON: Problem while parsing a number"},
    {"unquoted quantity", slice_with_device(R"({"name":"x","capacity":{"memory":{"value":1Gi}}})"), "ResourceSlice/s1",
     "items[1].spec.devices[1].capacity.memory.value", "invalid JSON: Problem while parsing a number"},
    {"duplicate map key", slice_with_device(R"({"name":"x","attributes":{"a":{"int":1},"a":{"int":2}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].attributes", "duplicate field \"a\""},
    // The first duplicate in key order, as after sorting, whether or not the map came sorted.
    {"duplicate keys of an unsorted map",
     slice_with_device(R"({"name":"x","attributes":{"c":{"int":0},"c":{"int":1},"b":{"int":2},"b":{"int":3}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].attributes", "duplicate field \"b\""},
    {"duplicate keys of a sorted map",
     slice_with_device(R"({"name":"x","capacity":{"a":{"value":"1"},"c":{"value":"1"},"c":{"value":"2"},"d":{"value":"1"},"d":{"value":"2"}}})"),
     "ResourceSlice/s1", "items[1].spec.devices[1].capacity", "duplicate field \"c\""},
    {"duplicate field", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a","name":"b"}})", "", "metadata",
     "duplicate field \"name\""},
    {"missing kind", R"({"apiVersion":"v1","metadata":{"name":"a"}})", "", "", "missing required field \"kind\""},
    {"missing kind in a list", R"({"kind":"List","items":[{"metadata":{}}]})", "", "items[0]",
     "missing required field \"kind\""},
    {"item not an object", R"([{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}}, 5])", "", "[1]",
     "must be an object"},
    {"unsupported apiVersion",
     R"({"apiVersion":"resource.k8s.io/v1alpha3","kind":"DeviceClass","metadata":{"name":"g"}})", "DeviceClass/g", "",
     "apiVersion \"resource.k8s.io/v1alpha3\" is not supported"},
    {"junk inside an object of an ignored kind",
     R"([{"apiVersion":"v1","kind":"ConfigMap" junk "metadata":{}}, {"apiVersion":"v1","kind":"Node"}])", "", "[0]",
     "invalid JSON"},
    {"scalar document", R"("just a string")", "", "",
     "line 1: a scenario document must be a YAML mapping or sequence, not a scalar"},
    {"JSON scalar document", R"([] 5)", "document 2", "", "a scenario must be a JSON object or array"},
    {"JSON then YAML", "{\"kind\":\"List\",\"items\":[]}\nkind: Pod\nmetadata: {}\n", "document 2", "",
     "a scenario must be a JSON object or array"},
    {"second document broken", R"([]{"kind":"Node","metadata":{"name":"a"}} {"kind":)", "document 3", "",
     "invalid JSON"},
    {"error in a later document", R"({"kind":"List","items":[]}
      {"kind":"PodList","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":5}}]})",
     "Pod/p", "items[0].spec.nodeName", "must be a string, not a number"},
    {"broken YAML", "kind: List\nitems:\n- kind: Node\n  metadata: {name: a\n", "", "",
     "invalid YAML at line 5, column 1"},
    {"YAML scalar document", "kind: Node\n---\njust text\n", "document 2", "", "line 3: a scenario document must be"},
    {"YAML error names the line",
     "kind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n  spec:\n    nodeName: 5\n", "Pod/p",
     "items[0].spec.nodeName", "must be a string, not a number (line 8)"},
    {"YAML key not a scalar", "kind: Node\n? [a, b]\n: c\n", "", "", "line 2: a mapping key must be a scalar"},
    {"truncated", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a")", "", "", "invalid JSON"},
    {"truncated in a string", R"([{"apiVersion":"v1","kind":"No)", "", "", "invalid JSON"},
    {"empty input", "", "", "", "the input is empty: it holds no document"},
    {"only empty YAML documents", "---\n# nothing\n---\n", "", "", "every YAML document is empty"},
    {"invalid UTF-8", "[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"\xff\xfe\"}}]", "", "",
     "invalid JSON"},
    {"deep nesting", std::string(5000, '[') + std::string(5000, ']'), "", "[0]", "must be an object"},
};

// A loader that reads the items of any List or array on `threads` threads.
dra::json::loader threaded(unsigned threads) {
  return dra::json::loader(dra::json::load_options{.threads = threads, .min_parallel_bytes = 0});
}

TEST(IngestErrors, NameTheObjectThePathAndTheProblem) {
  for (const bad_case& c : cases) {
    auto doc = dra::json::load(c.json);
    ASSERT_FALSE(doc.has_value()) << c.name << ": loaded unexpectedly";
    const dra::error& e = doc.error();
    EXPECT_EQ(e.object, c.object) << c.name << ": " << e.to_string();
    if (e.object != c.object || e.message.find(c.message) == std::string::npos) std::cerr << c.name << " => " << e.to_string() << "\n";
    EXPECT_EQ(e.path, c.path) << c.name << ": " << e.to_string();
    EXPECT_NE(e.message.find(c.message), std::string::npos) << c.name << ": " << e.to_string();
    for (unsigned threads : {2u, 3u}) {  // the same error when items are read on several threads
      auto threaded_doc = threaded(threads).load(c.json);
      ASSERT_FALSE(threaded_doc.has_value()) << c.name << " on " << threads << " threads";
      EXPECT_EQ(threaded_doc.error(), e) << c.name << " on " << threads << " threads";
    }
  }
}

TEST(IngestErrors, EveryTruncationOfAValidDocumentFailsCleanly) {
  const std::string valid = slice_with_device(R"({"name":"x","capacity":{"memory":{"value":"1Gi"}},
      "attributes":{"v":{"version":"1.2.3"},"s":{"string":"a\"b"}}})");
  ASSERT_TRUE(dra::json::load(valid).has_value());
  for (std::size_t length = 0; length + 1 < valid.size(); ++length) {
    auto doc = dra::json::load(std::string_view(valid).substr(0, length));
    // A prefix is never a complete document here (the closing brackets are missing).
    EXPECT_FALSE(doc.has_value()) << "prefix of length " << length << " loaded";
    EXPECT_FALSE(threaded(2).load(std::string_view(valid).substr(0, length)).has_value()) << length;
  }
}

TEST(IngestErrors, SkipsDeeplyNestedUnknownFieldsWithoutRecursion) {
  const std::string deep = std::string(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"},"x":)") +
                           std::string(100000, '[') + std::string(100000, ']') + "}";
  auto doc = dra::json::load(deep);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_EQ(doc->scenario().nodes[0].object.meta.name, "a");
}

TEST(IngestErrors, ReadsFilesAndReportsMissingOnes) {
  auto missing = dra::json::load_file("/nonexistent/dra/scenario.json");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "cannot open \"/nonexistent/dra/scenario.json\": No such file or directory");

  auto directory = dra::json::load_file(dra_test::json_test_data());
  ASSERT_FALSE(directory.has_value());
  EXPECT_EQ(directory.error().message, "cannot read \"" + dra_test::json_test_data() + "\": it is a directory");
}

// Field names are checked for duplicates with a small filter in front of the search and a sort
// past the first names: neither may miss a duplicate or report one that is not there.
TEST(IngestErrors, FindsDuplicateFieldsAmongManyAndOnlyRealOnes) {
  auto node_with_metadata = [](const std::string& fields) {
    return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n",)" + fields + "}}";
  };
  std::string many;
  for (int i = 0; i < 40; ++i) many += (i ? "," : "") + ("\"f" + std::to_string(i) + "\":1");
  // Same length and last byte (the filter collides), different names: no error.
  auto collide = dra::json::load(node_with_metadata(R"("ab":1,"cb":2,"xb":3)"));
  EXPECT_TRUE(collide.has_value()) << collide.error().to_string();
  auto distinct = dra::json::load(node_with_metadata(many));
  EXPECT_TRUE(distinct.has_value()) << distinct.error().to_string();

  for (const std::string& fields : {std::string(R"("ab":1,"cb":2,"ab":3)"), many + R"(,"f3":2)", many + R"(,"f39":2)",
                                    R"("late":0,)" + many + R"(,"late":2)"}) {
    auto doc = dra::json::load(node_with_metadata(fields));
    ASSERT_FALSE(doc.has_value()) << fields;
    EXPECT_NE(doc.error().message.find("duplicate field"), std::string::npos) << doc.error().to_string();
    EXPECT_EQ(doc.error().path, "metadata");
  }
}

}  // namespace
