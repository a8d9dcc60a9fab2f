// Golden tests for the example objects of two design documents, converted by hand to JSON fixtures:
// KEP-4815 (partitionable devices, current revision) and the KEP-5075 (consumable capacity) design notes.
// Each fixture is read field by field and checked to validate clean; where the documents' own spelling
// is not valid against resource.k8s.io/v1, a test shows that the as-written form is rejected.
#include "fixtures.hpp"

#include <dra/json/ingest.hpp>
#include <dra/validate/scenario.hpp>

#include <gtest/gtest.h>

#include "../support/files.hpp"

#include "../support/quantity.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace {

using dra::model::text;

using dra_test::fixture_path;
using dra_test::load_fixture;

// How many slices, classes and claims a fixture holds.
::testing::AssertionResult holds(const dra::model::scenario& s, std::size_t slices, std::size_t classes,
                                 std::size_t claims) {
  if (s.slices.size() == slices && s.classes.size() == classes && s.claims.size() == claims)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << s.slices.size() << " slices, " << s.classes.size() << " classes, "
                                       << s.claims.size() << " claims";
}

std::string fixture_text(std::string_view name) { return dra_test::read_file(fixture_path(name)); }

// The fixture with every occurrence of `from` replaced by `to` (at least one must exist).
std::string with_replaced(std::string_view name, std::string_view from, std::string_view to) {
  std::string s = fixture_text(name);
  std::size_t count = 0;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()), ++count)
    s.replace(at, from.size(), to);
  EXPECT_GT(count, 0u) << "no " << from << " in " << name;
  return s;
}

std::string dump(const dra::error_list& errors) {
  std::string out;
  for (const auto& e : errors) out += "  " + e.to_string() + "\n";
  return out.empty() ? "  (no errors)\n" : out;
}

dra::error_list errors_of_text(const std::string& json) {
  auto doc = dra::json::load(json);
  if (!doc) {
    ADD_FAILURE() << "does not load: " << doc.error().to_string();
    return {};
  }
  return dra::validate::validate(*doc);
}

bool has_error(const dra::error_list& errors, std::string_view object, std::string_view path,
               std::string_view message) {
  for (const auto& e : errors)
    if (e.object == object && e.path == path && e.message.find(message) != std::string::npos) return true;
  return false;
}

using dra_test::q;

// The value under `name` of a sorted map; nullopt when absent.
template <class V>
std::optional<V> at(const dra::model::sorted_map<V>& map, std::string_view name) {
  const V* value = dra::model::find(map, name);
  if (value == nullptr) return std::nullopt;
  return *value;
}

std::optional<dra::quantity> capacity_of(const dra::model::device& d, std::string_view name) {
  const dra::model::device_capacity* c = dra::model::find(d.capacity, name);
  if (c == nullptr) return std::nullopt;
  return c->value;
}

std::vector<text> names_of(const std::vector<dra::model::device>& devices) {
  std::vector<text> out;
  for (const auto& d : devices) out.push_back(d.name);
  return out;
}

std::vector<text> keys_of(const dra::model::counter_map& counters) {
  std::vector<text> out;
  for (const auto& entry : counters) out.push_back(entry.name);
  return out;
}

// Valid but for the claims' namespace, which the KEP examples leave out (the API server requires one).
void expect_valid(const dra::json::document& doc, std::string_view name) {
  dra::error_list errors;
  for (auto& e : dra::validate::validate(doc))
    if (!(e.object.starts_with("ResourceClaim/") && e.path == "metadata.namespace" && e.message == "Required value"))
      errors.push_back(std::move(e));
  EXPECT_TRUE(errors.empty()) << name << "\n" << dump(errors);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// KEP-4815, current revision (seeds/001).
//
// The ResourceClaim of "MIG partitions" (before the TPU section) is tests/json/data/kep-4815-mig-claim.json
// already (ReadsKepExamples); the current text is the same apart from the doubled `spec:` it still has.
// ---------------------------------------------------------------------------------------------------------

// "Defining device partitions in terms of consumed capacity": one counter slice, one slice of five devices.
// Changed: the counter slice has no node selection in the KEP, and resource.k8s.io/v1 requires exactly one of
// nodeName/nodeSelector/allNodes/perDeviceNodeSelection on every slice, so it gets the `nodeName: my-node` of its
// pool's device slice (CounterSlicesNeedNodeSelection shows the as-written slice rejected).
TEST(SeedExamples, Kep4815GpuPartitions) {
  auto doc = load_fixture("kep-4815-current-gpu-partitions.json");
  const auto& s = doc.scenario();
  ASSERT_EQ(s.slices.size(), 2u);
  EXPECT_TRUE(s.classes.empty());
  EXPECT_TRUE(s.claims.empty());

  const auto& counters = s.slices[0].object;
  EXPECT_EQ(counters.meta.name, "counter-slice");
  EXPECT_EQ(counters.driver, "resource-driver.example.com");
  EXPECT_EQ(counters.pool.name, "my-pool");
  EXPECT_EQ(counters.pool.generation, 1);
  EXPECT_EQ(counters.pool.resource_slice_count, 2);
  EXPECT_EQ(counters.node_name, "my-node");
  EXPECT_TRUE(counters.devices.empty());
  ASSERT_EQ(counters.shared_counters.size(), 1u);
  EXPECT_EQ(counters.shared_counters[0].name, "gpu-0-counter-set");
  EXPECT_EQ(keys_of(counters.shared_counters[0].counters), (std::vector<text>{"memory"}));
  EXPECT_EQ(at(counters.shared_counters[0].counters, "memory"), q("40Gi"));

  const auto& devices = s.slices[1].object;
  EXPECT_EQ(devices.meta.name, "device-slice");
  EXPECT_EQ(devices.pool, counters.pool);
  EXPECT_EQ(devices.node_name, "my-node");
  EXPECT_TRUE(devices.shared_counters.empty());
  ASSERT_EQ(devices.devices.size(), 5u);
  EXPECT_EQ(names_of(devices.devices), (std::vector<text>{"gpu-0", "gpu-0-partition-0", "gpu-0-partition-1",
                                                          "gpu-0-partition-2", "gpu-0-partition-3"}));
  const auto& whole = devices.devices[0];
  EXPECT_EQ(capacity_of(whole, "memory"), q("40Gi"));
  ASSERT_EQ(whole.consumes_counters.size(), 1u);
  EXPECT_EQ(whole.consumes_counters[0].counter_set, "gpu-0-counter-set");
  EXPECT_EQ(at(whole.consumes_counters[0].counters, "memory"), q("40Gi"));
  // The four partitions draw 10Gi each: together exactly what the counter set holds, as much as the whole GPU.
  dra::quantity drawn = q("0");
  for (std::size_t i = 1; i < 5; ++i) {
    const auto& partition = devices.devices[i];
    EXPECT_EQ(capacity_of(partition, "memory"), q("10Gi")) << partition.name;
    ASSERT_EQ(partition.consumes_counters.size(), 1u) << partition.name;
    EXPECT_EQ(partition.consumes_counters[0].counter_set, "gpu-0-counter-set");
    const auto memory = at(partition.consumes_counters[0].counters, "memory");
    ASSERT_TRUE(memory.has_value()) << partition.name;
    EXPECT_EQ(*memory, q("10Gi"));
    auto sum = drawn.add(*memory);
    ASSERT_TRUE(sum.has_value());
    drawn = *sum;
  }
  EXPECT_EQ(drawn, q("40Gi"));
  for (const auto& d : devices.devices) {
    EXPECT_FALSE(d.allow_multiple_allocations.has_value()) << d.name;
    EXPECT_FALSE(d.node_name.has_value()) << d.name;  // node selection is the slice's
  }
  expect_valid(doc, "kep-4815-current-gpu-partitions.json");
}

// "Putting it all together for the MIG use-case": the A100 counter set and three MIG devices. The KEP shows
// fragments only, so they are wrapped in two slices of pool dgx-a100-1 (driver gpu.nvidia.com, nodeName
// dgx-a100-1) and the elided `attributes: ...` are left out. Changed because v1 rejects the KEP spelling
// (MigSpellingIsRejected): counter names are DNS labels (memorySlice0 -> memory-slice-0), capacity names are
// C identifiers (copy-engines -> copyEngines, jpeg-engines -> jpegEngines, ofa-engines -> ofaEngines), device
// names are DNS labels (gpu-0-mig-1g.5gb-0 -> gpu-0-mig-1g-5gb-0).
TEST(SeedExamples, Kep4815MigCounterSet) {
  auto doc = load_fixture("kep-4815-current-mig-a100.json");
  const auto& s = doc.scenario();
  ASSERT_EQ(s.slices.size(), 2u);
  const auto& counter_slice = s.slices[0].object;
  EXPECT_EQ(counter_slice.driver, "gpu.nvidia.com");
  ASSERT_EQ(counter_slice.shared_counters.size(), 1u);
  const auto& set = counter_slice.shared_counters[0];
  EXPECT_EQ(set.name, "gpu-0-counter-set");
  ASSERT_EQ(set.counters.size(), 15u);
  EXPECT_EQ(at(set.counters, "copy-engines"), q("7"));
  EXPECT_EQ(at(set.counters, "decoders"), q("5"));
  EXPECT_EQ(at(set.counters, "encoders"), q("0"));
  EXPECT_EQ(at(set.counters, "jpeg-engines"), q("1"));
  EXPECT_EQ(at(set.counters, "memory"), q("40Gi"));
  EXPECT_EQ(at(set.counters, "multiprocessors"), q("98"));
  EXPECT_EQ(at(set.counters, "ofa-engines"), q("1"));
  for (const char* slice_name : {"memory-slice-0", "memory-slice-1", "memory-slice-2", "memory-slice-3",
                                 "memory-slice-4", "memory-slice-5", "memory-slice-6", "memory-slice-7"})
    EXPECT_EQ(at(set.counters, slice_name), q("1")) << slice_name;

  const auto& slice = s.slices[1].object;
  EXPECT_EQ(slice.pool, counter_slice.pool);
  ASSERT_EQ(slice.devices.size(), 3u);
  EXPECT_EQ(names_of(slice.devices),
            (std::vector<text>{"gpu-0-mig-1g-5gb-0", "gpu-0-mig-1g-5gb-1", "gpu-0-mig-2g-10gb-0-1"}));
  for (const auto& d : slice.devices) {
    EXPECT_TRUE(d.attributes.empty()) << d.name;
    ASSERT_EQ(d.consumes_counters.size(), 1u) << d.name;
    EXPECT_EQ(d.consumes_counters[0].counter_set, "gpu-0-counter-set");
  }
  const auto& small0 = slice.devices[0];
  EXPECT_EQ(small0.capacity.size(), 8u);
  EXPECT_EQ(capacity_of(small0, "copyEngines"), q("1"));
  EXPECT_EQ(capacity_of(small0, "memory"), q("4864Mi"));
  EXPECT_EQ(capacity_of(small0, "memorySlice0"), q("1"));
  EXPECT_EQ(capacity_of(small0, "multiprocessors"), q("14"));
  EXPECT_EQ(capacity_of(small0, "memorySlice1"), std::nullopt);
  EXPECT_EQ(keys_of(small0.consumes_counters[0].counters),
            (std::vector<text>{"copy-engines", "decoders", "encoders", "jpeg-engines", "memory", "memory-slice-0",
                               "multiprocessors", "ofa-engines"}));
  EXPECT_EQ(at(small0.consumes_counters[0].counters, "memory"), q("4864Mi"));

  const auto& small1 = slice.devices[1];
  EXPECT_EQ(capacity_of(small1, "memorySlice1"), q("1"));
  EXPECT_EQ(capacity_of(small1, "memorySlice0"), std::nullopt);
  EXPECT_EQ(at(small1.consumes_counters[0].counters, "memory-slice-1"), q("1"));
  EXPECT_EQ(at(small1.consumes_counters[0].counters, "memory-slice-0"), std::nullopt);

  const auto& big = slice.devices[2];
  EXPECT_EQ(big.capacity.size(), 9u);
  EXPECT_EQ(capacity_of(big, "copyEngines"), q("2"));
  EXPECT_EQ(capacity_of(big, "decoders"), q("1"));
  EXPECT_EQ(capacity_of(big, "memory"), q("9856Mi"));
  EXPECT_EQ(capacity_of(big, "multiprocessors"), q("28"));
  const auto& big_counters = big.consumes_counters[0].counters;
  EXPECT_EQ(big_counters.size(), 9u);
  EXPECT_EQ(at(big_counters, "memory"), q("9856Mi"));
  EXPECT_EQ(at(big_counters, "multiprocessors"), q("28"));
  // The KEP's point: the 2g.10gb device takes memory slices 0 and 1, each of which one 1g.5gb device takes
  // too, and the counter set has one of each.
  EXPECT_EQ(at(big_counters, "memory-slice-0"), at(set.counters, "memory-slice-0"));
  EXPECT_EQ(at(big_counters, "memory-slice-1"), at(set.counters, "memory-slice-1"));
  expect_valid(doc, "kep-4815-current-mig-a100.json");
}

// "Defining multi-host devices" (the two slices), a DeviceClass, the 4x4 ResourceClaim of the motivation
// section and the 2x4 ResourceClaim of "Using DRA for the multi-host use-case" (the Deployment that shares the
// latter has no claim or template of its own and is not part of the fixture). Changed: operator `IN` -> `In`;
// capacity `tpus: "16"` -> `tpus: {value: "16"}`; the counterSet references `tpu-couner-set` and `tpu-pool`
// -> `tpu-counter-set` (the only set); both slices were named `device-slice` -> tpu-counter-slice and
// tpu-device-slice; the counter slice gets `allNodes: true` (its counters span four nodes; v1 needs a node
// selection); the 4x4 claim drops its doubled `spec:` and its unterminated YAML quote. The DeviceClass
// tpu.google.com is not in the KEP and was added so that the claims' class exists. The claims' selectors are
// kept as written, although they look up capacity domains (`google-tpu`, `tpu.google.com`) that are not the
// driver's (`tpu.dra.example.com`): they compile, so validation accepts them, but allocating them against
// these slices ends in a CEL runtime error (no such key), as it would upstream.
TEST(SeedExamples, Kep4815MultiHostTpu) {
  auto doc = load_fixture("kep-4815-current-tpu-multihost.json");
  const auto& s = doc.scenario();
  ASSERT_TRUE(holds(s, 2, 1, 2));

  const auto& counters = s.slices[0].object;
  EXPECT_EQ(counters.meta.name, "tpu-counter-slice");
  EXPECT_EQ(counters.all_nodes, true);
  ASSERT_EQ(counters.shared_counters.size(), 1u);
  EXPECT_EQ(counters.shared_counters[0].name, "tpu-counter-set");
  EXPECT_EQ(keys_of(counters.shared_counters[0].counters),
            (std::vector<text>{"tpus-node-1", "tpus-node-2", "tpus-node-5", "tpus-node-6"}));
  for (const auto& [name, value] : counters.shared_counters[0].counters) EXPECT_EQ(value, q("4")) << name;

  const auto& slice = s.slices[1].object;
  EXPECT_EQ(slice.meta.name, "tpu-device-slice");
  EXPECT_EQ(slice.driver, "tpu.dra.example.com");
  EXPECT_EQ(slice.per_device_node_selection, true);
  EXPECT_FALSE(slice.node_name.has_value());
  EXPECT_FALSE(slice.all_nodes.has_value());
  ASSERT_EQ(slice.devices.size(), 7u);
  EXPECT_EQ(names_of(slice.devices), (std::vector<text>{"tpu-4x4-1", "tpu-2x4-1", "tpu-2x4-2", "tpu-2x2-1", "tpu-2x2-2",
                                                        "tpu-2x2-3", "tpu-2x2-4"}));
  const std::vector<const char*> tpus = {"16", "8", "8", "4", "4", "4", "4"};
  const std::vector<std::size_t> counters_drawn = {4, 2, 2, 1, 1, 1, 1};
  for (std::size_t i = 0; i < slice.devices.size(); ++i) {
    const auto& d = slice.devices[i];
    EXPECT_EQ(capacity_of(d, "tpus"), q(tpus[i])) << d.name;
    ASSERT_EQ(d.consumes_counters.size(), 1u) << d.name;
    EXPECT_EQ(d.consumes_counters[0].counter_set, "tpu-counter-set") << d.name;
    EXPECT_EQ(d.consumes_counters[0].counters.size(), counters_drawn[i]) << d.name;
    for (const auto& [name, value] : d.consumes_counters[0].counters) EXPECT_EQ(value, q("4")) << d.name << " " << name;
    // A device's node selection: a selector for the multi-host ones, a node name for the 2x2 ones.
    EXPECT_EQ(d.node_selector.has_value(), i < 3) << d.name;
    EXPECT_EQ(d.node_name.has_value(), i >= 3) << d.name;
  }
  const auto& term = slice.devices[0].node_selector->terms;
  ASSERT_EQ(term.size(), 1u);
  ASSERT_EQ(term[0].match_expressions.size(), 1u);
  EXPECT_EQ(term[0].match_expressions[0].key, "kubernetes.io/hostname");
  EXPECT_EQ(term[0].match_expressions[0].op, dra::model::node_selector_operator::in);
  EXPECT_EQ(term[0].match_expressions[0].values, (std::vector<text>{"node-1", "node-2", "node-5", "node-6"}));
  EXPECT_EQ(slice.devices[2].node_selector->terms[0].match_expressions[0].values,
            (std::vector<text>{"node-5", "node-6"}));
  EXPECT_EQ(keys_of(slice.devices[2].consumes_counters[0].counters), (std::vector<text>{"tpus-node-5", "tpus-node-6"}));
  EXPECT_EQ(slice.devices[5].node_name, "node-5");
  EXPECT_EQ(keys_of(slice.devices[5].consumes_counters[0].counters), (std::vector<text>{"tpus-node-5"}));

  EXPECT_EQ(s.classes[0].object.meta.name, "tpu.google.com");
  ASSERT_EQ(s.classes[0].object.selectors.size(), 1u);

  const auto& four_by_four = s.claims[0].object;
  EXPECT_EQ(four_by_four.meta.name, "tpu-device");
  ASSERT_EQ(four_by_four.spec.requests.size(), 1u);
  EXPECT_EQ(four_by_four.spec.requests[0].name, "4x4-tpu");
  ASSERT_TRUE(four_by_four.spec.requests[0].exactly.has_value());
  const auto& exactly = *four_by_four.spec.requests[0].exactly;
  EXPECT_EQ(exactly.device_class_name, "tpu.google.com");
  EXPECT_EQ(exactly.mode, dra::model::allocation_mode::exact_count);
  EXPECT_EQ(exactly.count, 1);
  ASSERT_EQ(exactly.selectors.size(), 1u);
  EXPECT_EQ(exactly.selectors[0].cel_expression, R"(device.capacity['google-tpu'].tpus == quantity("16"))");
  EXPECT_TRUE(four_by_four.spec.constraints.empty());

  const auto& consumer = s.claims[1].object;
  EXPECT_EQ(consumer.meta.name, "tpu-consumer-resource-claim");
  ASSERT_EQ(consumer.spec.requests.size(), 1u);
  EXPECT_EQ(consumer.spec.requests[0].name, "tpu-request");
  ASSERT_TRUE(consumer.spec.requests[0].exactly.has_value());
  EXPECT_EQ(consumer.spec.requests[0].exactly->device_class_name, "tpu.google.com");
  EXPECT_EQ(consumer.spec.requests[0].exactly->selectors[0].cel_expression,
            R"(device.capacity["tpu.google.com"].tpus == quantity("8"))");
  EXPECT_FALSE(consumer.spec.requests[0].exactly->capacity.has_value());
  // Upstream's API validation accepts both selectors: Kubernetes estimates `==` between two quantities at 1 (its
  // estimated maxCost for the claim's selector is 6). Only the namespaces the KEP leaves out are reported.
  dra::error_list errors;
  for (auto& e : dra::validate::validate(doc))
    if (e.path != "metadata.namespace") errors.push_back(std::move(e));
  EXPECT_TRUE(errors.empty()) << dump(errors);
}

// What the KEP-4815 fixtures changed, shown necessary: the as-written spellings are rejected by validation.
TEST(SeedExamples, Kep4815CounterSlicesNeedNodeSelection) {
  // Only the counter slice has its nodeName right before its sharedCounters.
  const auto errors =
      errors_of_text(with_replaced("kep-4815-current-gpu-partitions.json",
                                   "\"nodeName\": \"my-node\",\n        \"sharedCounters\"", "\"sharedCounters\""));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/counter-slice", "spec", "exactly one of `nodeName`")) << dump(errors);
}

TEST(SeedExamples, Kep4815MigSpellingIsRejected) {
  const char* name = "kep-4815-current-mig-a100.json";
  auto errors = errors_of_text(with_replaced(name, "memory-slice-0", "memorySlice0"));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/gpu-0-counters", "spec.sharedCounters[0].counters", "memorySlice0"))
      << dump(errors);
  errors = errors_of_text(with_replaced(name, "copyEngines", "copy-engines"));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/gpu-0-mig-devices", "spec.devices[0].capacity", "copy-engines"))
      << dump(errors);
  errors = errors_of_text(with_replaced(name, "gpu-0-mig-1g-5gb-0", "gpu-0-mig-1g.5gb-0"));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/gpu-0-mig-devices", "spec.devices[0].name", "gpu-0-mig-1g.5gb-0"))
      << dump(errors);
}

TEST(SeedExamples, Kep4815TpuTyposAreRejected) {
  const char* name = "kep-4815-current-tpu-multihost.json";
  // `IN` is not a NodeSelectorOperator: the document loads and validation reports it, as the API server does.
  dra::error_list errors = errors_of_text(with_replaced(name, R"("operator": "In")", R"("operator": "IN")"));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/tpu-device-slice",
                        "spec.devices[0].nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator",
                        R"(Invalid value: "IN": not a valid selector operator)"))
      << dump(errors);
  // A counter set of another name: the pool is complete, so the reference is checked.
  errors = errors_of_text(with_replaced(name, R"("counterSet": "tpu-counter-set", "counters": {"tpus-node-5": )",
                                        R"("counterSet": "tpu-pool", "counters": {"tpus-node-5": )"));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/tpu-device-slice", "spec.devices[5].consumesCounters[0].counterSet",
                        "no counter set of this name in pool tpu.dra.example.com/my-pool"))
      << dump(errors);
}

// ---------------------------------------------------------------------------------------------------------
// KEP-5075 design notes (seeds/003), stories 1 to 6. The notes predate resource.k8s.io/v1 and show
// fragments; what every fixture changed:
//  - apiVersion resource.k8s.io/v1 and a metadata name added to every object, and to each slice a pool
//    (named after the node, one slice) and `nodeName: node-1`, which v1 requires;
//  - `basic: {shared: "true"}` -> `allowMultipleAllocations: true` on the device itself (v1 has no `basic`);
//  - request fields moved under `exactly:`; `resources: {requests: ...}` -> `exactly.capacity.requests`;
//  - DeviceClass selectors moved from metadata (bad indentation) to spec, and in CEL `device.shared == "true"`
//    -> `device.allowMultipleAllocations == true`.
// ---------------------------------------------------------------------------------------------------------

// Stories 1-3: a slice of two shared NICs, the class that selects them, and four claims (one device with
// opaque CNI config; two devices; two distinct devices; one by name). Changed besides the above: story 2's
// `distinctAttribute: name` -> `simple-cni.dra.networking.x-k8s.io/name` (v1 wants a fully qualified name,
// DistinctAttributeMustBeQualified); story 1's CNI parameters (broken indentation in the notes) are read as
// one object with `ranges: [[{subnet: 10.10.1.0/24}]]`.
TEST(SeedExamples, Kep5075SharedNetworkDevices) {
  auto doc = load_fixture("kep-5075-shared-network.json");
  const auto& s = doc.scenario();
  ASSERT_TRUE(holds(s, 1, 1, 4));

  const auto& slice = s.slices[0].object;
  EXPECT_EQ(slice.driver, "simple-cni.dra.networking.x-k8s.io");
  EXPECT_EQ(slice.node_name, "node-1");
  ASSERT_EQ(slice.devices.size(), 2u);
  EXPECT_EQ(names_of(slice.devices), (std::vector<text>{"eth1", "eth2"}));
  for (const auto& d : slice.devices) {
    EXPECT_EQ(d.allow_multiple_allocations, true) << d.name;
    EXPECT_TRUE(d.capacity.empty()) << d.name;
    ASSERT_EQ(d.attributes.size(), 1u) << d.name;
    const auto* attribute = dra::model::find(d.attributes, "name");
    ASSERT_NE(attribute, nullptr);
    ASSERT_TRUE(std::holds_alternative<text>(attribute->value));
    EXPECT_EQ(std::get<text>(attribute->value), d.name);
  }

  const auto& device_class = s.classes[0].object;
  EXPECT_EQ(device_class.meta.name, "simple-shared.networking.x-k8s.io");
  ASSERT_EQ(device_class.selectors.size(), 1u);
  EXPECT_EQ(device_class.selectors[0].cel_expression,
            "device.driver == \"simple-cni.dra.networking.x-k8s.io\" &&\ndevice.allowMultipleAllocations == true");

  // Story 1: one shared device, with the CNI configuration for the request.
  const auto& story1 = s.claims[0].object;
  EXPECT_EQ(story1.meta.name, "macvlan");
  ASSERT_EQ(story1.spec.requests.size(), 1u);
  EXPECT_EQ(story1.spec.requests[0].name, "macvlan");
  ASSERT_TRUE(story1.spec.requests[0].exactly.has_value());
  EXPECT_EQ(story1.spec.requests[0].exactly->device_class_name, "simple-shared.networking.x-k8s.io");
  EXPECT_EQ(story1.spec.requests[0].exactly->count, 1);
  EXPECT_FALSE(story1.spec.requests[0].exactly->capacity.has_value());
  ASSERT_EQ(story1.spec.config.size(), 1u);
  EXPECT_EQ(story1.spec.config[0].requests, (std::vector<text>{"macvlan"}));
  EXPECT_EQ(story1.spec.config[0].opaque.driver, "simple-cni.dra.networking.x-k8s.io");
  const text parameters = story1.spec.config[0].opaque.parameters_json;
  EXPECT_TRUE(parameters.starts_with("{") && parameters.ends_with("}")) << parameters;
  EXPECT_NE(parameters.find(R"("kind": "CNI")"), text::npos) << parameters;
  EXPECT_NE(parameters.find(R"("ifName": "net1")"), text::npos) << parameters;
  EXPECT_NE(parameters.find(R"("ranges": [[{"subnet": "10.10.1.0/24"}]])"), text::npos) << parameters;

  // Story 2: two devices by count.
  const auto& story2 = s.claims[1].object;
  EXPECT_EQ(story2.meta.name, "macvlan-two");
  ASSERT_EQ(story2.spec.requests.size(), 1u);
  ASSERT_TRUE(story2.spec.requests[0].exactly.has_value());
  EXPECT_EQ(story2.spec.requests[0].exactly->mode, dra::model::allocation_mode::exact_count);
  EXPECT_EQ(story2.spec.requests[0].exactly->mode_name, "ExactCount");
  EXPECT_EQ(story2.spec.requests[0].exactly->count, 2);

  // Story 2, second form: two requests of one device each, on distinct devices.
  const auto& distinct = s.claims[2].object;
  EXPECT_EQ(distinct.meta.name, "macvlan-distinct");
  ASSERT_EQ(distinct.spec.requests.size(), 2u);
  EXPECT_EQ(distinct.spec.requests[0].name, "macvlan-1");
  EXPECT_EQ(distinct.spec.requests[1].name, "macvlan-2");
  for (const auto& r : distinct.spec.requests) {
    ASSERT_TRUE(r.exactly.has_value()) << r.name;
    EXPECT_EQ(r.exactly->count, 1) << r.name;
    EXPECT_EQ(r.exactly->mode_name, "ExactCount") << r.name;
  }
  ASSERT_EQ(distinct.spec.constraints.size(), 1u);
  EXPECT_EQ(distinct.spec.constraints[0].requests, (std::vector<text>{"macvlan-1", "macvlan-2"}));
  EXPECT_EQ(distinct.spec.constraints[0].distinct_attribute, "simple-cni.dra.networking.x-k8s.io/name");
  EXPECT_FALSE(distinct.spec.constraints[0].match_attribute.has_value());

  // Story 3: one device by its name attribute.
  const auto& story3 = s.claims[3].object;
  EXPECT_EQ(story3.meta.name, "net1-by-name");
  ASSERT_EQ(story3.spec.requests.size(), 1u);
  EXPECT_EQ(story3.spec.requests[0].name, "net1");
  ASSERT_TRUE(story3.spec.requests[0].exactly.has_value());
  ASSERT_EQ(story3.spec.requests[0].exactly->selectors.size(), 1u);
  EXPECT_EQ(story3.spec.requests[0].exactly->selectors[0].cel_expression,
            R"(device.attributes["simple-cni.dra.networking.x-k8s.io"].name == "eth1")");
  expect_valid(doc, "kep-5075-shared-network.json");
}

TEST(SeedExamples, Kep5075DistinctAttributeMustBeQualified) {
  const auto errors = errors_of_text(with_replaced("kep-5075-shared-network.json",
                                                   R"("distinctAttribute": "simple-cni.dra.networking.x-k8s.io/name")",
                                                   R"("distinctAttribute": "name")"));
  EXPECT_TRUE(
      has_error(errors, "ResourceClaim/macvlan-distinct", "spec.devices.constraints[0].distinctAttribute", "name"))
      << dump(errors);
}

// Story 4: guaranteed (consumed) bandwidth. Changed: `capacity.bandwidth.consumable: {minimum: 1Mi}` with
// `value: 10Gi` -> `bandwidth: {value: 10Gi, requestPolicy: {default: 1Mi, validRange: {min: 1Mi}}}` (the notes
// say the minimum is the default amount consumed); the class's
// `device.capacities[...].bandwidth.consumable == "true"` has no v1 counterpart (whether a capacity is consumed
// is not visible to CEL) and became `"bandwidth" in device.capacity["guaranteed-cni.dra.networking.x-k8s.io"]`.
TEST(SeedExamples, Kep5075GuaranteedBandwidth) {
  auto doc = load_fixture("kep-5075-guaranteed-bandwidth.json");
  const auto& s = doc.scenario();
  ASSERT_TRUE(holds(s, 1, 1, 1));
  const auto& slice = s.slices[0].object;
  EXPECT_EQ(slice.driver, "guaranteed-cni.dra.networking.x-k8s.io");
  ASSERT_EQ(slice.devices.size(), 1u);
  const auto& eth1 = slice.devices[0];
  EXPECT_EQ(eth1.name, "eth1");
  EXPECT_EQ(eth1.allow_multiple_allocations, true);
  ASSERT_EQ(eth1.capacity.size(), 1u);
  const auto* bandwidth = dra::model::find(eth1.capacity, "bandwidth");
  ASSERT_NE(bandwidth, nullptr);
  EXPECT_EQ(bandwidth->value, q("10Gi"));
  ASSERT_TRUE(bandwidth->request_policy.has_value());
  EXPECT_EQ(bandwidth->request_policy->default_value, q("1Mi"));
  EXPECT_TRUE(bandwidth->request_policy->valid_values.empty());
  ASSERT_TRUE(bandwidth->request_policy->valid_range.has_value());
  EXPECT_EQ(bandwidth->request_policy->valid_range->min, q("1Mi"));
  EXPECT_FALSE(bandwidth->request_policy->valid_range->max.has_value());
  EXPECT_FALSE(bandwidth->request_policy->valid_range->step.has_value());

  EXPECT_EQ(s.classes[0].object.meta.name, "bandwidth-guaranteed-cni.networking.x-k8s.io");
  EXPECT_NE(s.classes[0].object.selectors[0].cel_expression.find(
                R"("bandwidth" in device.capacity["guaranteed-cni.dra.networking.x-k8s.io"])"),
            text::npos);

  const auto& claim = s.claims[0].object;
  EXPECT_EQ(claim.meta.name, "net1-guaranteed-1gi");
  ASSERT_EQ(claim.spec.requests.size(), 1u);
  ASSERT_TRUE(claim.spec.requests[0].exactly.has_value());
  const auto& exactly = *claim.spec.requests[0].exactly;
  EXPECT_EQ(exactly.device_class_name, "bandwidth-guaranteed-cni.networking.x-k8s.io");
  ASSERT_TRUE(exactly.capacity.has_value());
  ASSERT_EQ(exactly.capacity->requests.size(), 1u);
  EXPECT_EQ(at(exactly.capacity->requests, "bandwidth"), q("1Gi"));
  expect_valid(doc, "kep-5075-guaranteed-bandwidth.json");
}

// Story 5: a minimum bandwidth on a device whose bandwidth is not consumed. Changed: the claim's
// `memory: "1Gi"` -> `bandwidth: "1Gi"` (the device has no memory; the story is about bandwidth). Not
// representable: v1 has no non-consumed capacity on a device with allowMultipleAllocations; a capacity without
// requestPolicy is consumed by the amount requested, so this claim takes 1Gi of the 10Gi.
TEST(SeedExamples, Kep5075MinimumBandwidth) {
  auto doc = load_fixture("kep-5075-minimum-bandwidth.json");
  const auto& s = doc.scenario();
  ASSERT_TRUE(holds(s, 1, 1, 1));
  const auto& eth1 = s.slices[0].object.devices.at(0);
  EXPECT_EQ(s.slices[0].object.driver, "extended-cni.dra.networking.x-k8s.io");
  EXPECT_EQ(eth1.allow_multiple_allocations, true);
  ASSERT_EQ(eth1.capacity.size(), 1u);
  EXPECT_EQ(capacity_of(eth1, "bandwidth"), q("10Gi"));
  EXPECT_FALSE(eth1.capacity[0].value.request_policy.has_value());
  EXPECT_EQ(s.classes[0].object.meta.name, "extended-cni.networking.x-k8s.io");
  const auto& exactly = s.claims[0].object.spec.requests.at(0).exactly;
  ASSERT_TRUE(exactly.has_value());
  EXPECT_EQ(exactly->device_class_name, "extended-cni.networking.x-k8s.io");
  ASSERT_TRUE(exactly->capacity.has_value());
  EXPECT_EQ(exactly->capacity->requests.size(), 1u);
  EXPECT_EQ(at(exactly->capacity->requests, "bandwidth"), q("1Gi"));
  EXPECT_EQ(at(exactly->capacity->requests, "memory"), std::nullopt);
  expect_valid(doc, "kep-5075-minimum-bandwidth.json");
}

// Story 6: a limit on sharing through a `count` capacity. Changed: the device-level
// `count: {consumable: {default: 1, sets: [1], value: 1000}}` -> capacity
// `count: {value: 1000, requestPolicy: {default: 1, validValues: [1]}}`; the claim's class
// `extended-cni.networking.x-k8s.io` (copied from story 5) -> `complex-cni.networking.x-k8s.io`, the story's own;
// its `memory: "1Gi"` -> `bandwidth: "1Gi"` as in story 5 (with the same caveat: the bandwidth is consumed).
TEST(SeedExamples, Kep5075SharingLimit) {
  auto doc = load_fixture("kep-5075-sharing-limit.json");
  const auto& s = doc.scenario();
  ASSERT_TRUE(holds(s, 1, 1, 1));
  const auto& eth1 = s.slices[0].object.devices.at(0);
  EXPECT_EQ(s.slices[0].object.driver, "complex-cni.dra.networking.x-k8s.io");
  EXPECT_EQ(eth1.allow_multiple_allocations, true);
  ASSERT_EQ(eth1.capacity.size(), 2u);
  const auto* bandwidth = dra::model::find(eth1.capacity, "bandwidth");
  ASSERT_NE(bandwidth, nullptr);
  EXPECT_EQ(bandwidth->value, q("10Gi"));
  EXPECT_FALSE(bandwidth->request_policy.has_value());
  const auto* count = dra::model::find(eth1.capacity, "count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->value, q("1000"));
  ASSERT_TRUE(count->request_policy.has_value());
  EXPECT_EQ(count->request_policy->default_value, q("1"));
  EXPECT_EQ(count->request_policy->valid_values, (std::vector<dra::quantity>{q("1")}));
  EXPECT_FALSE(count->request_policy->valid_range.has_value());

  EXPECT_EQ(s.classes[0].object.meta.name, "complex-cni.networking.x-k8s.io");
  const auto& claim = s.claims[0].object;
  EXPECT_EQ(claim.meta.name, "net1-limited-sharing");
  const auto& exactly = claim.spec.requests.at(0).exactly;
  ASSERT_TRUE(exactly.has_value());
  EXPECT_EQ(exactly->device_class_name, s.classes[0].object.meta.name);
  ASSERT_TRUE(exactly->capacity.has_value());
  ASSERT_EQ(exactly->capacity->requests.size(), 2u);
  EXPECT_EQ(exactly->capacity->requests[0].name, "bandwidth");  // sorted
  EXPECT_EQ(at(exactly->capacity->requests, "bandwidth"), q("1Gi"));
  EXPECT_EQ(at(exactly->capacity->requests, "count"), q("1"));
  expect_valid(doc, "kep-5075-sharing-limit.json");
}

// The notes' story 6 `sets: [1]` read as validValues must contain the default: a policy whose default is not
// among its values would be rejected, so the fixture's conversion is the only consistent one.
TEST(SeedExamples, Kep5075ValidValuesMustHoldTheDefault) {
  const auto errors = errors_of_text(
      with_replaced("kep-5075-sharing-limit.json", R"("validValues": ["1"])", R"("validValues": ["2"])"));
  EXPECT_TRUE(has_error(errors, "ResourceSlice/node-1-complex-cni",
                        "spec.devices[0].capacity.count.requestPolicy.validValues",
                        "default value is not valid according to the requestPolicy"))
      << dump(errors);
}
