// Tests of JSON ingest: every field of every kind lands in the model, v1beta1 converts, defaults apply.
#include "../support/source_dir.hpp"
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include "../support/quantity.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace {

using namespace std::string_view_literals;

using dra_test::load_fixture;

template <class T>
const T& attribute(const dra::model::device& d, std::string_view name) {
  const dra::model::device_attribute* a = dra::model::find(d.attributes, name);
  EXPECT_NE(a, nullptr) << name;
  static const T fallback{};
  if (a == nullptr || !std::holds_alternative<T>(a->value)) {
    ADD_FAILURE() << name << " has another type";
    return fallback;
  }
  return std::get<T>(a->value);
}

using dra_test::q;

TEST(Ingest, ReadsEveryResourceSliceField) {
  auto doc = load_fixture("full-slice.json");
  const auto& s = doc.scenario();
  ASSERT_EQ(s.slices.size(), 1u);
  const dra::model::resource_slice& slice = s.slices[0].object;
  EXPECT_EQ(slice.meta.name, "node-1-nics");
  EXPECT_EQ(slice.meta.uid, "0e3c");
  ASSERT_EQ(slice.meta.labels.size(), 2u);
  EXPECT_EQ(slice.meta.labels[0].name, "app.kubernetes.io/name");  // sorted
  EXPECT_EQ(slice.driver, "nic.example.com");
  EXPECT_EQ(slice.pool.name, "node-1");
  EXPECT_EQ(slice.pool.generation, 3);
  EXPECT_EQ(slice.pool.resource_slice_count, 1);
  EXPECT_EQ(slice.per_device_node_selection, true);
  EXPECT_FALSE(slice.node_name.has_value());
  ASSERT_EQ(slice.devices.size(), 3u);

  const dra::model::device& nic0 = slice.devices[0];
  EXPECT_EQ(nic0.name, "nic-0");
  EXPECT_EQ(attribute<dra::model::text>(nic0, "model"), "CX-7");
  EXPECT_EQ(attribute<std::int64_t>(nic0, "numa"), 1);
  EXPECT_EQ(attribute<bool>(nic0, "rdma"), true);
  const auto& firmware = attribute<dra::model::version_value>(nic0, "firmware");
  EXPECT_EQ(firmware.source, "28.39.1002");
  ASSERT_TRUE(firmware.parsed);
  EXPECT_EQ(firmware.parsed->minor(), 39u);
  EXPECT_EQ(attribute<std::vector<std::int64_t>>(nic0, "lanes"), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(attribute<std::vector<bool>>(nic0, "flags"), (std::vector<bool>{true, false}));
  EXPECT_EQ(attribute<std::vector<dra::model::text>>(nic0, "ports"), (std::vector<dra::model::text>{"p0", "p1"}));
  const auto& compat = attribute<std::vector<dra::model::version_value>>(nic0, "compat");
  ASSERT_EQ(compat.size(), 2u);
  EXPECT_EQ(compat[1].parsed->prerelease(), "rc.1");
  EXPECT_EQ(attribute<dra::model::text>(nic0, "kubernetes.io/pcieRoot"), "pci0000:3a");
  for (const auto& a : nic0.attributes) EXPECT_EQ(a.value.fields_set, 1) << a.name;

  ASSERT_EQ(nic0.capacity.size(), 3u);
  const dra::model::device_capacity* bandwidth = dra::model::find(nic0.capacity, "bandwidth");
  ASSERT_NE(bandwidth, nullptr);
  EXPECT_EQ(bandwidth->value, q("100G"));
  ASSERT_TRUE(bandwidth->request_policy.has_value());
  EXPECT_EQ(bandwidth->request_policy->default_value, q("10G"));
  ASSERT_TRUE(bandwidth->request_policy->valid_range.has_value());
  EXPECT_EQ(bandwidth->request_policy->valid_range->min, q("1G"));
  EXPECT_EQ(bandwidth->request_policy->valid_range->max, q("100G"));
  EXPECT_EQ(bandwidth->request_policy->valid_range->step, q("1G"));
  const dra::model::device_capacity* queues = dra::model::find(nic0.capacity, "queues");
  ASSERT_NE(queues, nullptr);
  EXPECT_EQ(queues->request_policy->valid_values, (std::vector<dra::quantity>{q("8"), q("16"), q("32")}));
  EXPECT_EQ(dra::model::find(nic0.capacity, "vfs")->value, q("16"));  // a JSON number is a quantity too

  EXPECT_EQ(nic0.node_name, "node-1");
  ASSERT_EQ(nic0.taints.size(), 1u);
  EXPECT_EQ(nic0.taints[0].key, "maintenance");
  EXPECT_EQ(nic0.taints[0].effect, "NoSchedule");
  EXPECT_EQ(nic0.taints[0].time_added, "2026-01-01T00:00:00Z");
  EXPECT_EQ(nic0.binds_to_node, true);
  EXPECT_EQ(nic0.binding_conditions, (std::vector<dra::model::text>{"dra.example.com/is-prepared"}));
  EXPECT_EQ(nic0.binding_failure_conditions, (std::vector<dra::model::text>{"dra.example.com/preparation-failed"}));
  EXPECT_EQ(nic0.allow_multiple_allocations, true);

  const dra::model::device& nic1 = slice.devices[1];
  ASSERT_TRUE(nic1.node_selector.has_value());
  ASSERT_EQ(nic1.node_selector->terms.size(), 2u);
  const auto& term = nic1.node_selector->terms[0];
  ASSERT_EQ(term.match_expressions.size(), 2u);
  EXPECT_EQ(term.match_expressions[0].key, "zone");
  EXPECT_EQ(term.match_expressions[0].op, dra::model::node_selector_operator::in);
  EXPECT_EQ(term.match_expressions[0].values, (std::vector<dra::model::text>{"a", "b"}));
  EXPECT_EQ(term.match_expressions[1].op, dra::model::node_selector_operator::exists);
  EXPECT_EQ(term.match_fields[0].op, dra::model::node_selector_operator::not_in);
  const auto& second = nic1.node_selector->terms[1].match_expressions;
  EXPECT_EQ(second[0].op, dra::model::node_selector_operator::gt);
  EXPECT_EQ(second[1].op, dra::model::node_selector_operator::does_not_exist);
  EXPECT_EQ(second[2].op, dra::model::node_selector_operator::lt);
  ASSERT_EQ(nic1.consumes_counters.size(), 1u);
  EXPECT_EQ(nic1.consumes_counters[0].counter_set, "nic-counters");
  EXPECT_EQ(*dra::model::find(nic1.consumes_counters[0].counters, "bandwidth"), q("50G"));
  EXPECT_EQ(slice.devices[2].all_nodes, true);
}

TEST(Ingest, StringsPointIntoTheDocumentBuffer) {
  auto doc = load_fixture("full-slice.json");
  std::string_view text = doc.text();
  std::string_view driver = doc.scenario().slices[0].object.driver;
  EXPECT_GE(driver.data(), text.data());
  EXPECT_LE(driver.data() + driver.size(), text.data() + text.size());
  // Moving the document keeps the views valid.
  dra::json::document moved = std::move(doc);
  EXPECT_EQ(moved.scenario().slices[0].object.driver, "nic.example.com");
}

TEST(Ingest, UnescapesStringsWithEscapes) {
  auto doc = dra::json::load(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n\u00e9-\"1\"\\x"}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_EQ(doc->scenario().nodes[0].object.meta.name, "n\xc3\xa9-\"1\"\\x");
}

TEST(Ingest, FindsWhereStringsAndKeysEndAtEveryLengthWithAnEscapeAnywhere) {
  // Strings are scanned 16 bytes at a time: lengths up to past two blocks, each without an
  // escape and with an escaped quote or backslash at every position.
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string plain;
    for (std::size_t k = 0; k < length; ++k) plain += static_cast<char>('a' + k % 26);
    std::vector<std::pair<std::string, std::string>> cases = {{plain, plain}};  // JSON text, value
    for (std::size_t at = 0; at <= length; ++at)
      for (std::string_view escape : {R"(\")"sv, R"(\\)"sv})
        cases.emplace_back(plain.substr(0, at) + std::string(escape) + plain.substr(at),
                           plain.substr(0, at) + escape.back() + plain.substr(at));
    for (const auto& [json, value] : cases) {
      auto doc = dra::json::load(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + json +
                                 R"(","labels":{")" + json + R"(":"x"}}})");
      ASSERT_TRUE(doc.has_value()) << json << ": " << doc.error().to_string();
      const dra::model::object_meta& meta = doc->scenario().nodes[0].object.meta;
      EXPECT_EQ(meta.name, value) << json;
      ASSERT_EQ(meta.labels.size(), 1u) << json;
      EXPECT_EQ(meta.labels[0].name, value) << json;
      EXPECT_EQ(meta.labels[0].value, "x") << json;
    }
  }
}

TEST(Ingest, OrdersMapKeysByUnsignedBytesAsKubernetesDoes) {
  // A UTF-8 key ("\xc3\xa9", é) sorts after every ASCII key, as Go compares strings: kept in that
  // order when it comes so, sorted into it otherwise, and found twice when repeated.
  for (const char* labels :
       {R"({"z":"1","\u00e9":"2"})", R"({"\u00e9":"2","z":"1"})", R"({"\u00e9":"2","a":"0","z":"1"})"}) {
    auto doc = dra::json::load(std::string(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n","labels":)") +
                               labels + "}}");
    ASSERT_TRUE(doc.has_value()) << labels << ": " << doc.error().to_string();
    const auto& meta = doc->scenario().nodes[0].object.meta;
    ASSERT_GE(meta.labels.size(), 2u) << labels;
    EXPECT_EQ(meta.labels[meta.labels.size() - 2].name, "z") << labels;
    EXPECT_EQ(meta.labels.back().name, "\xc3\xa9") << labels;
  }
  auto twice = dra::json::load(
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n","labels":{"z":"1","\u00e9":"2","\u00e9":"3"}}})");
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().message, "duplicate field \"\xc3\xa9\"") << twice.error().to_string();
}

TEST(Ingest, ParsesEachVersionTextOnceAndSharesIt) {
  // Devices repeat their driver's version: one parsed form serves them all, and an invalid
  // text keeps no parsed form (validation reports it) without spoiling a valid one after it.
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
    "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},"nodeName":"n","devices":[
      {"name":"a","attributes":{"driver":{"version":"550.54.15"},"bad":{"version":"v1"}}},
      {"name":"b","attributes":{"driver":{"version":"550.54.15"},"bad":{"version":"v1"},
                                "all":{"versions":["550.54.15","1.2.3-rc.1","v1"]}}}]}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& devices = doc->scenario().slices.at(0).object.devices;
  ASSERT_EQ(devices.size(), 2u);
  const auto& a = attribute<dra::model::version_value>(devices[0], "driver");
  const auto& b = attribute<dra::model::version_value>(devices[1], "driver");
  ASSERT_TRUE(a.parsed);
  EXPECT_EQ(a.parsed->major(), 550u);
  EXPECT_EQ(a.parsed->patch(), 15u);
  EXPECT_EQ(a.parsed.get(), b.parsed.get());
  EXPECT_EQ(attribute<dra::model::version_value>(devices[0], "bad").parsed, nullptr);
  EXPECT_EQ(attribute<dra::model::version_value>(devices[1], "bad").parsed, nullptr);
  const auto& all = attribute<std::vector<dra::model::version_value>>(devices[1], "all");
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].parsed.get(), a.parsed.get());
  ASSERT_TRUE(all[1].parsed);
  EXPECT_EQ(all[1].parsed->prerelease(), "rc.1");
  EXPECT_EQ(all[2].source, "v1");
  EXPECT_EQ(all[2].parsed, nullptr);
}

TEST(Ingest, ConvertsV1beta1ToTheV1Shape) {
  auto beta = load_fixture("v1beta1.json");
  auto v1 = load_fixture("v1-equivalent.json");
  ASSERT_EQ(beta.scenario().slices.size(), 1u);
  ASSERT_EQ(beta.scenario().claims.size(), 1u);
  EXPECT_EQ(beta.scenario().slices[0].object, v1.scenario().slices[0].object);
  EXPECT_EQ(beta.scenario().claims[0].object, v1.scenario().claims[0].object);
  const auto& request = beta.scenario().claims[0].object.spec.requests[0];
  ASSERT_TRUE(request.exactly.has_value());
  EXPECT_EQ(request.exactly->count, 2);
  EXPECT_EQ(request.exactly->admin_access, false);
  EXPECT_EQ(request.exactly->tolerations[0].op, dra::model::toleration_operator::exists);
  const auto& alternatives = beta.scenario().claims[0].object.spec.requests[1];
  EXPECT_FALSE(alternatives.exactly.has_value());
  ASSERT_EQ(alternatives.first_available.size(), 2u);
  EXPECT_EQ(alternatives.first_available[1].mode, dra::model::allocation_mode::all);
}

TEST(Ingest, ReadsDerivedAttributesOfRequestsAndSubrequests) {
  // KEP-6080: `derivedAttributes` in `exactly` and in each `firstAvailable` entry; v1beta1 has them on the request.
  auto v1 = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
    "spec":{"devices":{"requests":[
      {"name":"gpu","exactly":{"deviceClassName":"gpu","derivedAttributes":[
        {"name":"numa","expression":"device.attributes['gpu'].numa"},
        {"name":"example.com/socket","expression":"1"}]}},
      {"name":"nic","firstAvailable":[{"name":"fast","deviceClassName":"nic",
        "derivedAttributes":[{"name":"numa","expression":"2"}]}]}]}}})");
  ASSERT_TRUE(v1) << v1.error().to_string();
  EXPECT_TRUE(v1->unknown_fields().empty());
  const auto& requests = v1->scenario().claims.at(0).object.spec.requests;
  ASSERT_TRUE(requests[0].exactly);
  const auto& derived = requests[0].exactly->derived_attributes;
  ASSERT_EQ(derived.size(), 2u);
  EXPECT_EQ(derived[0].name, "numa");
  EXPECT_EQ(derived[0].expression, "device.attributes['gpu'].numa");
  EXPECT_EQ(derived[1].name, "example.com/socket");
  ASSERT_EQ(requests[1].first_available.at(0).derived_attributes.size(), 1u);
  EXPECT_EQ(requests[1].first_available[0].derived_attributes[0].expression, "2");

  auto beta = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","metadata":{"name":"c"},
    "spec":{"devices":{"requests":[{"name":"gpu","deviceClassName":"gpu",
      "derivedAttributes":[{"name":"numa","expression":"3"}]}]}}})");
  ASSERT_TRUE(beta) << beta.error().to_string();
  const auto& beta_request = beta->scenario().claims.at(0).object.spec.requests.at(0);
  ASSERT_TRUE(beta_request.exactly);
  ASSERT_EQ(beta_request.exactly->derived_attributes.size(), 1u);
  EXPECT_EQ(beta_request.exactly->derived_attributes[0].name, "numa");

  // A field a derived attribute does not have is reported like any unknown field.
  auto extra = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
    "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu",
      "derivedAttributes":[{"name":"numa","expression":"1","type":"int"}]}}]}}})");
  ASSERT_TRUE(extra) << extra.error().to_string();
  ASSERT_EQ(extra->unknown_fields().size(), 1u);
  EXPECT_EQ(extra->unknown_fields()[0].path, "spec.devices.requests[0].exactly.derivedAttributes[0].type");
}

TEST(Ingest, AppliesTheApiServerDefaults) {
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
    "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"x",
      "tolerations":[{"key":"k","value":"v"}]}}]}}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& exactly = *doc->scenario().claims[0].object.spec.requests[0].exactly;
  EXPECT_EQ(exactly.mode, dra::model::allocation_mode::exact_count);
  EXPECT_EQ(exactly.count, 1);
  EXPECT_EQ(exactly.tolerations[0].op, dra::model::toleration_operator::equal);
}

TEST(Ingest, KeepsAnUnknownAllocationModeForAllocationToReport) {
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
    "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"x","allocationMode":"future-mode"}}]}}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& exactly = *doc->scenario().claims[0].object.spec.requests[0].exactly;
  EXPECT_EQ(exactly.mode, dra::model::allocation_mode::unsupported);
  EXPECT_EQ(exactly.mode_name, "future-mode");
}

TEST(Ingest, ReadsKepExamples) {
  auto claim_doc = load_fixture("kep-4815-mig-claim.json");
  const auto& claim = claim_doc.scenario().claims[0].object;
  ASSERT_EQ(claim.spec.requests.size(), 4u);
  EXPECT_EQ(claim.spec.requests[3].name, "mig-3g-20gb");
  EXPECT_EQ(claim.spec.requests[3].exactly->selectors[0].cel_expression,
            "device.attributes['gpu.nvidia.com'].profile == '3g.20gb'");
  ASSERT_EQ(claim.spec.constraints.size(), 1u);
  EXPECT_TRUE(claim.spec.constraints[0].requests.empty());
  EXPECT_EQ(claim.spec.constraints[0].match_attribute, "gpu.nvidia.com/parentUUID");

  auto mixin_doc = load_fixture("kep-5234-mixins.json");
  const auto& slice = mixin_doc.scenario().slices[0].object;
  ASSERT_TRUE(slice.mixins.has_value());
  ASSERT_EQ(slice.mixins->device.size(), 2u);
  EXPECT_EQ(slice.mixins->device[0].name, "a100-common");
  EXPECT_EQ(slice.mixins->device[0].attributes.size(), 2u);
  EXPECT_EQ(slice.mixins->device[0].capacity.size(), 1u);
  EXPECT_EQ(slice.mixins->device[1].capacity[0].value.value, q("4864Mi"));
  ASSERT_EQ(slice.mixins->device_counter_consumption.size(), 1u);
  EXPECT_EQ(slice.mixins->device_counter_consumption[0].counters.size(), 2u);
  ASSERT_EQ(slice.mixins->counter_set.size(), 1u);
  EXPECT_EQ(*dra::model::find(slice.mixins->counter_set[0].counters, "multiprocessors"), q("98"));
  const auto& device = slice.devices[0];
  EXPECT_EQ(device.includes, (std::vector<dra::model::text>{"a100-common", "mig-1g-5gb"}));
  EXPECT_EQ(device.consumes_counters[0].includes, (std::vector<dra::model::text>{"mig-1g-5gb-counters"}));
}

TEST(Ingest, AcceptsAListAnArrayOrOneObjectAndKeepsInputOrder) {
  const char* node = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}})";
  const char* pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"d"},
    "spec":{"nodeName":"n1","resourceClaims":[{"name":"c","resourceClaimName":"claim"},{"name":"t","resourceClaimTemplateName":"tmpl"}]}})";
  auto single = dra::json::load(node);
  ASSERT_TRUE(single.has_value());
  EXPECT_EQ(single->scenario().nodes.size(), 1u);
  EXPECT_EQ(single->scenario().nodes[0].source.path, "");

  auto array = dra::json::load(std::string("[") + node + "," + pod + "]");
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  EXPECT_EQ(array->scenario().pods[0].source.index, 1u);
  EXPECT_EQ(array->scenario().pods[0].source.path, "[1]");
  const auto& p = array->scenario().pods[0].object;
  EXPECT_EQ(p.node_name, "n1");
  ASSERT_EQ(p.resource_claims.size(), 2u);
  EXPECT_EQ(p.resource_claims[0].resource_claim_name, "claim");
  EXPECT_EQ(p.resource_claims[1].resource_claim_template_name, "tmpl");

  auto list = dra::json::load(std::string(R"({"kind":"List","apiVersion":"v1","items":[)") + pod + "," + node +
                              R"(,{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}]})");
  ASSERT_TRUE(list.has_value()) << list.error().to_string();
  EXPECT_EQ(list->scenario().nodes[0].source.path, "items[1]");
  ASSERT_EQ(list->scenario().warnings.size(), 1u);
  EXPECT_NE(list->scenario().warnings[0].find("ConfigMap"), std::string::npos);
}

TEST(Ingest, ReadsClassesWithConfig) {
  auto doc = dra::json::load(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},
    "spec":{"selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}],
            "config":[{"opaque":{"driver":"gpu.example.com","parameters":{"a": [1, {"b": null}]}}}],
            "extendedResourceName":"example.com/gpu"}})");
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  const auto& c = doc->scenario().classes[0].object;
  EXPECT_EQ(c.selectors[0].cel_expression, "device.driver == \"gpu.example.com\"");
  EXPECT_EQ(c.config[0].opaque.driver, "gpu.example.com");
  EXPECT_EQ(c.config[0].opaque.parameters_json, R"({"a": [1, {"b": null}]})");
  EXPECT_EQ(c.extended_resource_name, "example.com/gpu");
}

TEST(Ingest, LoadsEveryUpstreamConformanceScenario) {
  const std::filesystem::path dir = std::filesystem::path(dra_test::source_dir()) / "tests" / "alloc" / "data" / "upstream";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.ends_with(".expected.json") || !name.ends_with(".json") || name.starts_with("_")) continue;
    auto doc = dra::json::load_file(entry.path().string());
    ASSERT_TRUE(doc.has_value()) << name << ": " << doc.error().to_string();
    EXPECT_FALSE(doc->scenario().pods.empty()) << name;
    ++loaded;
  }
  EXPECT_EQ(loaded, 223);
}

}  // namespace

namespace {

// KEP-4815's multi-host TPU example (its typos fixed: operator In, capacity
// values, one counter set name, distinct slice names, node selection on the
// counter slice).
TEST(Ingest, ReadsTheKep4815MultiHostTpuExample) {
  auto doc = load_fixture("kep-4815-tpu.json");
  const auto& slices = doc.scenario().slices;
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[0].object.all_nodes, true);
  ASSERT_EQ(slices[0].object.shared_counters.size(), 1u);
  EXPECT_EQ(slices[0].object.shared_counters[0].counters.size(), 4u);
  const auto& devices = slices[1].object;
  EXPECT_EQ(devices.per_device_node_selection, true);
  ASSERT_EQ(devices.devices.size(), 7u);
  const auto& big = devices.devices[0];
  ASSERT_TRUE(big.node_selector.has_value());
  EXPECT_EQ(big.node_selector->terms[0].match_expressions[0].values.size(), 4u);
  EXPECT_EQ(dra::model::find(big.capacity, "tpus")->value, q("16"));
  EXPECT_EQ(big.consumes_counters[0].counters.size(), 4u);
  EXPECT_EQ(devices.devices[3].node_name, "node-1");
  EXPECT_FALSE(devices.devices[3].node_selector.has_value());
}

}  // namespace

namespace {

TEST(Ingest, TakesOverAPaddedBufferWithoutCopyingIt) {
  const std::string text = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a"}})";
  simdjson::padded_string padded(text);
  const char* buffer = padded.data();
  dra::json::loader loader;
  auto doc = loader.load_padded(std::move(padded));
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_EQ(doc->text().data(), buffer);  // the same bytes, not a copy
  const std::string_view name = doc->scenario().nodes[0].object.meta.name;
  EXPECT_EQ(name, "node-a");
  EXPECT_TRUE(name.data() >= doc->text().data() && name.data() < doc->text().data() + doc->text().size());
  auto copied = loader.load(text);
  ASSERT_TRUE(copied.has_value());
  EXPECT_EQ(copied->scenario().nodes[0].object.meta, doc->scenario().nodes[0].object.meta);
}

TEST(Ingest, NamesTheFileInErrorsOfTheInputAsAWhole) {
  const std::string path = ::testing::TempDir() + "dra-truncated.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << R"({"apiVersion":"v1","kind":"List","items":[)";
  }
  auto doc = dra::json::load_file(path);
  std::remove(path.c_str());
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().object, path);
  EXPECT_NE(doc.error().message.find("invalid JSON"), std::string::npos) << doc.error().to_string();
}

// A mapped file (load_options::map_files, what the dra command uses) gives the document a copy
// gives, whatever the file's size is next to a page boundary: simdjson reads up to
// SIMDJSON_PADDING bytes past the end, which must land in readable memory.
TEST(Ingest, MapsAFileIntoTheSameDocumentAsACopyAtEverySizeNearAPage) {
  const std::string list =
      R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n\u0031",)"
      R"("labels":{"zone":"a"}}},{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},)"
      R"("spec":{"driver":"d.example.com","pool":{"name":"p","generation":1,"resourceSliceCount":1},"nodeName":"n1",)"
      R"("devices":[{"name":"gpu-0","attributes":{"model":{"string":"a100"}},"capacity":{"memory":{"value":"40Gi"}}}]}}]})";
  const std::string yaml = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n";
  const std::string path = ::testing::TempDir() + "dra-mapped.json";
  for (const std::string& content : {list, yaml}) {
    for (std::size_t size : {std::size_t{4096} - 64, std::size_t{4096} - 63, std::size_t{4096} - 1, std::size_t{4096},
                             std::size_t{4097}, std::size_t{8192}}) {
      SCOPED_TRACE(size);
      std::string text = content;
      text.resize(size, ' ');  // trailing spaces end every document alike
      {
        std::ofstream out(path, std::ios::binary);
        out << text;
      }
      for (unsigned threads : {1u, 2u}) {
        const dra::json::load_options copy{.threads = threads, .min_parallel_bytes = 0};
        dra::json::load_options map = copy;
        map.map_files = true;
        auto copied = dra::json::load_file(path, copy);
        auto mapped = dra::json::load_file(path, map);
        ASSERT_TRUE(copied.has_value()) << copied.error().to_string();
        ASSERT_TRUE(mapped.has_value()) << mapped.error().to_string();
        // Moved, as a caller would: the mapping moves with the document.
        const dra::json::document kept = std::move(mapped).value();
        EXPECT_TRUE(kept.scenario() == copied->scenario());
        EXPECT_EQ(kept.text(), copied->text());
        ASSERT_EQ(kept.scenario().nodes.size(), 1u);
        EXPECT_EQ(kept.scenario().nodes[0].object.meta.name, "n1");
      }
    }
  }
  std::remove(path.c_str());
}

// The mapping itself: the file's bytes in place, then readable zero bytes for simdjson's padding, also when the
// file ends exactly on a page (the comparison above would pass if map_files quietly fell back to a copy).
TEST(Ingest, MapsTheFileItselfWithReadablePaddingAfterIt) {
  const std::string path = ::testing::TempDir() + "dra-mapped-bytes.json";
  for (std::size_t size : {std::size_t{1}, std::size_t{4096} - 1, std::size_t{4096}, std::size_t{12288}}) {
    SCOPED_TRACE(size);
    const std::string text(size, 'x');
    {
      std::ofstream out(path, std::ios::binary);
      out << text;
    }
    auto mapped = dra::json::detail::input_buffer::map_file(path, size);
#if defined(__unix__) || defined(__APPLE__)
    ASSERT_TRUE(mapped.has_value());
    EXPECT_TRUE(mapped->mapped());
    ASSERT_EQ(mapped->size(), size);
    EXPECT_EQ(std::string_view(mapped->data(), mapped->size()), text);
    for (std::size_t i = 0; i < simdjson::SIMDJSON_PADDING; ++i) EXPECT_EQ(mapped->data()[size + i], '\0') << i;
    EXPECT_FALSE(dra::json::detail::input_buffer::map_file(path, size + 1).has_value());  // the file changed size
#endif
  }
  std::remove(path.c_str());
}

// An empty file is an empty input, mapped or not.
TEST(Ingest, ReportsAnEmptyMappedFileAsAnEmptyInput) {
  const std::string path = ::testing::TempDir() + "dra-empty.json";
  { std::ofstream out(path, std::ios::binary); }
  auto doc = dra::json::load_file(path, dra::json::load_options{.map_files = true});
  std::remove(path.c_str());
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().code, dra::errc::malformed_document);
  EXPECT_EQ(doc.error().object, path);
}

}  // namespace
