// Tests of inputs of several documents: concatenated JSON (Lists, typed lists, arrays, objects), YAML streams and YAML Lists, and JSON written back as YAML.
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <optional>

#include <string>
#include <vector>

namespace {

using dra_test::load_fixture;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(Documents, ReadsConcatenatedListsTypedListsArraysAndObjectsInInputOrder) {
  auto doc = load_fixture("documents/concatenated.json");
  const dra::model::scenario& s = doc.scenario();
  EXPECT_EQ(doc.format(), dra::json::input_format::json);
  EXPECT_EQ(doc.document_count(), 6u);
  ASSERT_EQ(s.slices.size(), 1u);
  ASSERT_EQ(s.nodes.size(), 1u);
  ASSERT_EQ(s.classes.size(), 1u);
  ASSERT_EQ(s.pods.size(), 1u);
  ASSERT_EQ(s.claims.size(), 1u);
  EXPECT_EQ(s.slices[0].object.meta.name, "node-a-gpus");
  EXPECT_EQ(s.slices[0].object.devices.at(0).name, "gpu-0");
  EXPECT_EQ(s.slices[0].source.index, 0u);
  EXPECT_EQ(s.slices[0].source.path, "document 1 items[0]");
  EXPECT_EQ(s.nodes[0].source.index, 1u);
  EXPECT_EQ(s.nodes[0].source.path, "document 2 items[0]");
  EXPECT_EQ(s.nodes[0].source.json, R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a"}})");
  EXPECT_EQ(s.classes[0].source.index, 2u);
  EXPECT_EQ(s.classes[0].source.path, "document 3");
  EXPECT_EQ(s.classes[0].source.json,
            R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.example.com"},"spec":{}})");
  EXPECT_EQ(s.pods[0].source.index, 3u);
  EXPECT_EQ(s.pods[0].source.path, "document 4 [0]");
  EXPECT_EQ(s.claims[0].source.index, 4u);
  EXPECT_EQ(s.claims[0].source.path, "document 6");
  EXPECT_EQ(s.claims[0].object.spec.requests.at(0).exactly->device_class_name, "gpu.example.com");
  EXPECT_TRUE(s.claims[0].source.json.starts_with("{\n  \"apiVersion\""));
  EXPECT_TRUE(s.claims[0].source.json.ends_with("}}]}}\n}"));
  EXPECT_TRUE(s.warnings.empty());
}

TEST(Documents, ReadsDocumentsOfMismatchedBracketsAndWithoutSpaceBetween) {
  // The input's last bracket does not close the first document: it is split before reading.
  auto doc = dra::json::load(R"({"kind":"Node","metadata":{"name":"a"}}[{"kind":"Node","metadata":{"name":"b"}}])");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  ASSERT_EQ(doc->scenario().nodes.size(), 2u);
  EXPECT_EQ(doc->scenario().nodes[0].source.path, "document 1");
  EXPECT_EQ(doc->scenario().nodes[0].source.json, R"({"kind":"Node","metadata":{"name":"a"}})");
  EXPECT_EQ(doc->scenario().nodes[1].source.path, "document 2 [0]");
  EXPECT_EQ(doc->scenario().nodes[1].source.index, 1u);
  EXPECT_EQ(doc->document_count(), 2u);
}

TEST(Documents, OneDocumentKeepsItsPaths) {
  auto doc = dra::json::load(R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"a"}}]})");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->document_count(), 1u);
  EXPECT_EQ(doc->scenario().nodes.at(0).source.path, "items[0]");
}

TEST(Documents, ReadsYamlDocumentsIntoTheSameModelAsJson) {
  auto doc = load_fixture("documents/manifests.yaml");
  const dra::model::scenario& s = doc.scenario();
  EXPECT_EQ(doc.format(), dra::json::input_format::yaml);
  EXPECT_EQ(doc.document_count(), 4u);  // the empty document is skipped
  ASSERT_EQ(s.classes.size(), 1u);
  EXPECT_EQ(s.classes[0].object.selectors.at(0).cel_expression, "device.driver == \"gpu.example.com\"");
  EXPECT_EQ(s.classes[0].source.path, "document 1");
  ASSERT_EQ(s.claim_templates.size(), 1u);
  EXPECT_EQ(s.claim_templates[0].object.spec.requests.at(0).exactly->count, 2);
  ASSERT_EQ(s.slices.size(), 1u);
  const dra::model::resource_slice& slice = s.slices[0].object;
  EXPECT_EQ(s.slices[0].source.index, 2u);
  EXPECT_EQ(s.slices[0].source.path, "document 3");
  ASSERT_EQ(slice.meta.labels.size(), 2u);
  EXPECT_EQ(slice.meta.labels[0].name, "on");  // quoted: a string key and value
  EXPECT_EQ(slice.meta.labels[0].value, "yes");
  EXPECT_EQ(slice.meta.labels[1].value, "1.10");
  EXPECT_EQ(slice.pool.generation, 1);
  const dra::model::device& gpu = slice.devices.at(0);
  auto attribute = [&](std::string_view name) { return dra::model::find(gpu.attributes, name)->value; };
  EXPECT_EQ(std::get<std::int64_t>(attribute("index")), 31);  // 0x1f
  EXPECT_EQ(std::get<std::int64_t>(attribute("numa")), 7);    // 007
  EXPECT_EQ(std::get<bool>(attribute("healthy")), true);
  EXPECT_EQ(std::get<dra::model::text>(attribute("model")), "A100");
  EXPECT_EQ(std::get<dra::model::version_value>(attribute("firmware")).source, "1.2.3");
  EXPECT_EQ(dra::model::find(gpu.capacity, "memory")->value, *dra::quantity::parse("40Gi"));
  EXPECT_EQ(dra::model::find(gpu.capacity, "cores")->value, *dra::quantity::parse("1500m"));
  ASSERT_EQ(s.taint_rules.size(), 1u);
  EXPECT_EQ(s.taint_rules[0].object.taint.value, "true");
  EXPECT_EQ(s.taint_rules[0].object.taint.effect, "NoSchedule");
  EXPECT_EQ(s.taint_rules[0].source.json,
            R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"maintenance"},)"
            R"("spec":{"deviceSelector":{"driver":"gpu.example.com","pool":"node-a"},)"
            R"("taint":{"key":"example.com/maintenance","value":"true","effect":"NoSchedule"}}})");
}

TEST(Documents, ReadsAYamlList) {
  auto doc = load_fixture("documents/list.yaml");
  const dra::model::scenario& s = doc.scenario();
  EXPECT_EQ(doc.document_count(), 1u);
  ASSERT_EQ(s.nodes.size(), 1u);
  EXPECT_EQ(s.nodes[0].source.path, "items[0]");
  EXPECT_EQ(s.nodes[0].object.meta.labels.at(0).value, "z1");
  ASSERT_EQ(s.pods.size(), 1u);
  const dra::model::pod& pod = s.pods[0].object;
  EXPECT_EQ(s.pods[0].source.index, 1u);
  EXPECT_FALSE(pod.node_name.has_value());  // nodeName: null
  EXPECT_EQ(pod.resource_claims.at(0).resource_claim_template_name, std::optional<dra::model::text>("two-gpus"));
  EXPECT_EQ(pod.resource_claim_statuses.at(0).resource_claim_name, std::optional<dra::model::text>("trainer-gpus-abcde"));
}

TEST(Documents, AYamlFileAndItsJsonReadAlike) {
  auto yaml = load_fixture("documents/list.yaml");
  auto json = dra::json::load(yaml.text());
  ASSERT_TRUE(json.has_value());
  EXPECT_TRUE(json->scenario() == yaml.scenario());
}

TEST(Documents, ConcatenatedDocumentsReadAlikeOnAnyNumberOfThreads) {
  const std::string text = read_text(dra_test::fixture_path("documents/concatenated.json")) +
                           read_text(dra_test::fixture_path("kubectl-cluster.json"));
  auto one = dra::json::load(text);
  ASSERT_TRUE(one.has_value()) << one.error().to_string();
  EXPECT_EQ(one->document_count(), 7u);
  for (unsigned threads : {2u, 3u}) {
    auto many = dra::json::load(text, dra::json::load_options{.threads = threads, .min_parallel_bytes = 0});
    ASSERT_TRUE(many.has_value()) << many.error().to_string();
    EXPECT_TRUE(many->scenario() == one->scenario()) << threads;
  }
}

TEST(Documents, AListFollowedByUnreadableTextFailsAlikeOnAnyNumberOfThreads) {
  // The List reads well on its own; the text after it is checked as part of the whole input
  // (a byte that is no UTF-8, a string that never ends), however many threads read the List.
  const std::string list = R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}]})";
  for (const std::string after : {"\n[{\"a\"\xcf 1}]", "\n{\"a\":\"b}", "\n{\"kind\":\"Node\"} 5"}) {
    auto one = dra::json::load(list + after);
    ASSERT_FALSE(one.has_value()) << after;
    for (unsigned threads : {2u, 3u}) {
      auto many = dra::json::load(list + after, dra::json::load_options{.threads = threads, .min_parallel_bytes = 0});
      ASSERT_FALSE(many.has_value()) << after;
      EXPECT_EQ(many.error(), one.error()) << after << " on " << threads << " threads";
    }
  }
}

TEST(Yaml, ConvertsPlainScalarsByTheCoreSchemaAndQuotedOnesToStrings) {
  auto converted = dra::json::yaml_to_json(
      "a: 1\nb: '1'\nc: true\nd: yes\ne: ~\nf: 1.5e3\ng: .5\nh: 0o17\ni: +3\nj: -0\nk: .inf\nl: \"x\\ty\"\nm: |\n  line\n"
      "n: [1, two]\no: {}\np:\n");
  ASSERT_TRUE(converted.has_value()) << converted.error().to_string();
  EXPECT_EQ(converted->json,
            R"({"a":1,"b":"1","c":true,"d":"yes","e":null,"f":1.5e3,"g":0.5,"h":15,"i":3,"j":-0,"k":".inf","l":"x\ty",)"
            R"("m":"line\n","n":[1,"two"],"o":{},"p":null})");
  ASSERT_EQ(converted->first_lines.size(), 1u);
  EXPECT_EQ(converted->first_lines[0], 1u);
}

TEST(Yaml, FindsTheLineOfAPath) {
  const std::string_view yaml =
      "kind: List\nitems:\n- kind: Node\n  metadata:\n    labels:\n      a.b/c: x\n- kind: Pod\n  spec:\n"
      "    x: [1, 2, {y: z}]\n";
  EXPECT_EQ(dra::json::yaml_line(yaml, 0, "items[0].metadata.labels[\"a.b/c\"]"), 6u);
  EXPECT_EQ(dra::json::yaml_line(yaml, 0, "items[0].metadata.missing"), 5u);  // the deepest node reached
  EXPECT_EQ(dra::json::yaml_line(yaml, 0, "items[1].spec.x[2].y"), 9u);
  EXPECT_EQ(dra::json::yaml_line(yaml, 0, "items[1].kind"), 7u);
  EXPECT_EQ(dra::json::yaml_line(yaml, 0, ""), 1u);
  EXPECT_EQ(dra::json::yaml_line(yaml, 1, "kind"), std::nullopt);
  // Documents are counted as the conversion counts them: empty ones are not.
  const std::string_view stream = "---\n---\nkind: A\n---\n~\n---\nkind: B\nspec:\n  z: 1\n";
  EXPECT_EQ(dra::json::yaml_line(stream, 1, "spec.z"), 9u);
  EXPECT_EQ(dra::json::yaml_line(stream, 0, "kind"), 3u);
}

// A loader error in YAML input names the line of the field, found by parsing the input again.
TEST(Yaml, AnErrorInYamlInputNamesItsLine) {
  auto doc = dra::json::load("kind: Node\nmetadata:\n  name: a\n---\nkind: Node\nmetadata:\n  name: b\n  labels: 5\n");
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().path, "metadata.labels");
  EXPECT_TRUE(doc.error().message.ends_with(" (line 8)")) << doc.error().message;
}

TEST(Yaml, AliasesRepeatTheirAnchorsValue) {
  auto converted = dra::json::yaml_to_json("base: &b {x: 1, y: [2, &s three]}\nd: *b\ne: *s\n*s : 4\n");
  ASSERT_TRUE(converted.has_value()) << converted.error().to_string();
  EXPECT_EQ(converted->json, R"({"base":{"x":1,"y":[2,"three"]},"d":{"x":1,"y":[2,"three"]},"e":"three","three":4})");
}

TEST(Yaml, RefusesWhatNoScenarioCanBe) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"a: *nope\n", "line 1: alias *nope names no anchor before it"},
      {"? [a]\n: 1\n", "line 1: a mapping key must be a scalar"},
      {"just text\n", "line 1: a scenario document must be a YAML mapping or sequence, not a scalar"},
      {"kind: Node\n---\njust text\n",
       "document 2: line 3: a scenario document must be a YAML mapping or sequence, not a scalar"},
      {"a:\n  - b\n   c: d\n", "invalid YAML at line 3, column 5: mapping values are not allowed in this context"},
      {"a: [b\n", "invalid YAML at line 2, column 1: did not find expected ',' or ']' (while parsing a flow sequence at line 1)"},
  };
  for (const auto& [yaml, message] : cases) {
    auto converted = dra::json::yaml_to_json(yaml);
    ASSERT_FALSE(converted.has_value()) << yaml;
    EXPECT_EQ(converted.error().to_string(), message) << yaml;
    EXPECT_EQ(converted.error().code, dra::errc::malformed_document) << yaml;
  }
}

// Aliases of aliases grow a document exponentially ("billion laughs"): refused once they would repeat sixteen
// times the input (64 MiB at least), before memory runs out.
TEST(Yaml, RefusesAliasesThatExpandWithoutBound) {
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 9; ++level) {
    const std::string previous = "*a" + std::to_string(level - 1);
    yaml += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int k = 0; k < 10; ++k) yaml += (k > 0 ? ", " : "") + previous;
    yaml += "]\n";
  }
  auto converted = dra::json::yaml_to_json(yaml);
  ASSERT_FALSE(converted.has_value());
  EXPECT_EQ(converted.error().code, dra::errc::limit_exceeded);
  EXPECT_EQ(converted.error().message, "line 8: aliases repeat more than 64 MiB of this input (sixteen times its size at most)");
}

TEST(Yaml, WritesJsonObjectsAsYamlThatReadsBackTheSame) {
  const std::string_view objects[] = {
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n","labels":{"on":"yes","v":"1.10","n":"null","e":""}},)"
      R"("spec":{"list":[1,2.5,true,null,{}],"empty":[],"text":"a: b\nc"}})",
      R"({"kind":"ConfigMap","metadata":{"name":"cm"}})"};
  auto yaml = dra::json::to_yaml_documents(objects);
  ASSERT_TRUE(yaml.has_value()) << yaml.error().to_string();
  EXPECT_EQ(*yaml,
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"n\"\n  labels:\n    \"on\": \"yes\"\n    v: \"1.10\"\n"
            "    \"n\": \"null\"\n    e: \"\"\nspec:\n  list:\n  - 1\n  - 2.5\n  - true\n  - null\n  - {}\n  empty: []\n"
            "  text: \"a: b\\nc\"\n---\nkind: ConfigMap\nmetadata:\n  name: cm\n");
  auto back = dra::json::yaml_to_json(*yaml);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->json, std::string(objects[0]) + "\n" + std::string(objects[1]));
}

// Streams on which a YAML parser once looped forever (yaml-cpp 0.7, jbeder/yaml-cpp#1040: a document starting with a
// ',' outside [ ] or { }) are refused where the YAML breaks.
TEST(Yaml, RefusesACommaOutsideFlowCollections) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {",", "invalid YAML at line 1, column 1: did not find expected node content (while parsing a block node at line 1)"},
      {"[a],", "invalid YAML at line 1, column 4: did not find expected <document start>"},
      {"{a: 1}, b", "invalid YAML at line 1, column 7: did not find expected <document start>"},
      {"kind: Node\n---\n,\n",
       "invalid YAML at line 3, column 1: did not find expected node content (while parsing a block node at line 3)"},
      {"kind: Node\n...\n,\n", "invalid YAML at line 3, column 1: did not find expected <document start>"},
      // the fuzz_ingest finding
      {"   , \": r       \\ \": 5}]",
       "invalid YAML at line 1, column 4: did not find expected node content (while parsing a block node at line 1)"},
  };
  for (const auto& [yaml, message] : cases) {
    auto converted = dra::json::yaml_to_json(yaml);
    ASSERT_FALSE(converted.has_value()) << yaml;
    EXPECT_EQ(converted.error().message, message) << yaml;
  }
  auto doc = dra::json::load("   , \": r       \\ \": 5}]");
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().message,
            "invalid YAML at line 1, column 4: did not find expected node content (while parsing a block node at line 1)");
}

TEST(Yaml, ReadsStreamsWithEmptyDocumentsAndMarkers) {
  auto converted = dra::json::yaml_to_json("---\n---\na: 1\n...\n%YAML 1.2\n---\n- [b, {c: d}]\n...\n---\nnull\n");
  ASSERT_TRUE(converted.has_value()) << converted.error().to_string();
  EXPECT_EQ(converted->json, "{\"a\":1}\n[[\"b\",{\"c\":\"d\"}]]");
  EXPECT_EQ(converted->first_lines, (std::vector<std::size_t>{3, 7}));
}

TEST(Yaml, RefusesJsonThatIsNotJson) {
  auto yaml = dra::json::to_yaml("{\"a\":");
  ASSERT_FALSE(yaml.has_value());
  EXPECT_EQ(yaml.error().message.substr(0, 13), "invalid JSON:");
}

}  // namespace
