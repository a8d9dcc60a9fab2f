// Tests of building model objects in C++: versions parsed, quantities parsed, maps sorted, bad input named.
#include <dra/model/build.hpp>

#include <gtest/gtest.h>

#include "../support/quantity.hpp"

#include <string>
#include <variant>

namespace {

namespace model = dra::model;
using dra::quantity;

using dra_test::q;

TEST(VersionValue, MadeFromItsTextIsParsed) {
  const model::version_value v{"550.54.15"};
  EXPECT_EQ(v.source, "550.54.15");
  ASSERT_TRUE(v.parsed);
  EXPECT_EQ(v.parsed->major(), 550u);
  EXPECT_EQ(v.parsed->minor(), 54u);
  EXPECT_EQ(v.parsed->patch(), 15u);
  const model::version_value invalid{"v1.2"};  // kept for validation to report, as ingest keeps it
  EXPECT_EQ(invalid.source, "v1.2");
  EXPECT_FALSE(invalid.parsed);
}

TEST(MakeVersion, ParsesOrNamesTheProblem) {
  auto v = model::make_version("1.2.3-rc.1");
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_TRUE(v->parsed);
  EXPECT_EQ(v->parsed->prerelease(), "rc.1");
  auto bad = model::make_version("1.2");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("\"1.2\": ", 0), 0u) << bad.error().message;
}

TEST(MakeSortedMap, SortsAndRejectsARepeatedKey) {
  auto map = model::make_sorted_map<int>({{"b", 2}, {"c", 3}, {"a", 1}});
  ASSERT_TRUE(map);
  EXPECT_EQ(*map, (model::sorted_map<int>{{"a", 1}, {"b", 2}, {"c", 3}}));
  auto twice = model::make_sorted_map<int>({{"b", 2}, {"a", 1}, {"b", 3}});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message, "duplicate key \"b\"");
}

TEST(DeviceBuilder, SortsMapsAndParsesValues) {
  auto device = model::device_builder("gpu-0")
                    .string("model", "A100")
                    .version("driverVersion", "550.54.15")
                    .integer("index", 0)
                    .boolean("healthy", true)
                    .capacity("memory", "80Gi")
                    .capacity("cores", "108")
                    .consumes("gpu-0-counters", {{"slices", "8"}, {"memory", "80Gi"}})
                    .build();
  ASSERT_TRUE(device) << device.error().to_string();
  EXPECT_EQ(device->name, "gpu-0");
  ASSERT_EQ(device->attributes.size(), 4u);
  EXPECT_EQ(device->attributes[0].name, "driverVersion");
  EXPECT_EQ(device->attributes[1].name, "healthy");
  EXPECT_EQ(device->attributes[2].name, "index");
  EXPECT_EQ(device->attributes[3].name, "model");
  const auto* version = model::find(device->attributes, "driverVersion");
  ASSERT_NE(version, nullptr);
  const auto& v = std::get<model::version_value>(version->value);
  ASSERT_TRUE(v.parsed);
  EXPECT_EQ(v.parsed->major(), 550u);
  EXPECT_EQ(std::get<model::text>(model::find(device->attributes, "model")->value), "A100");
  EXPECT_EQ(std::get<std::int64_t>(model::find(device->attributes, "index")->value), 0);
  EXPECT_EQ(std::get<bool>(model::find(device->attributes, "healthy")->value), true);
  ASSERT_EQ(device->capacity.size(), 2u);
  EXPECT_EQ(device->capacity[0].name, "cores");
  EXPECT_EQ(model::find(device->capacity, "memory")->value, q("80Gi"));
  ASSERT_EQ(device->consumes_counters.size(), 1u);
  EXPECT_EQ(device->consumes_counters[0].counter_set, "gpu-0-counters");
  EXPECT_EQ(device->consumes_counters[0].counters, (model::counter_map{{"memory", q("80Gi")}, {"slices", q("8")}}));
}

TEST(DeviceBuilder, NamesTheFirstBadValue) {
  auto bad_version = model::device_builder("gpu-0").version("driverVersion", "550.54").capacity("memory", "lots").build();
  ASSERT_FALSE(bad_version);
  EXPECT_EQ(bad_version.error().object, "Device/gpu-0");
  EXPECT_EQ(bad_version.error().path, "attributes.driverVersion.version");
  auto bad_quantity = model::device_builder("gpu-0").capacity("memory", "lots").build();
  ASSERT_FALSE(bad_quantity);
  EXPECT_EQ(bad_quantity.error().path, "capacity.memory.value");
  EXPECT_EQ(bad_quantity.error().message, quantity::parse("lots").error().message);
  auto bad_counter = model::device_builder("gpu-0").consumes("set", {{"memory", "1Gi"}, {"slices", "x"}}).build();
  ASSERT_FALSE(bad_counter);
  EXPECT_EQ(bad_counter.error().path, "consumesCounters[0].counters.slices.value");
  auto twice = model::device_builder("gpu-0").string("model", "a").integer("model", 1).build();
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().path, "attributes");
  EXPECT_EQ(twice.error().message, "duplicate key \"model\"");
}

TEST(SliceBuilder, BuildsAPoolOfOneSlice) {
  auto slice = model::slice_builder("node-1-gpus", "gpu.example.com")
                   .node_name("node-1")
                   .device(model::device_builder("gpu-1").string("model", "b"))
                   .device(model::device_builder("gpu-0").string("model", "a"))
                   .build();
  ASSERT_TRUE(slice) << slice.error().to_string();
  EXPECT_EQ(slice->meta.name, "node-1-gpus");
  EXPECT_EQ(slice->driver, "gpu.example.com");
  EXPECT_EQ(slice->pool, (model::resource_pool{"node-1-gpus", 1, 1}));
  EXPECT_EQ(slice->node_name, "node-1");
  ASSERT_EQ(slice->devices.size(), 2u);
  EXPECT_EQ(slice->devices[0].name, "gpu-1");  // devices keep their order, as in a slice
  // Counter sets go in a slice of their own, in the same pool.
  auto counters = model::slice_builder("node-1-counters", "gpu.example.com")
                      .pool("node-1", 1, 2)
                      .node_name("node-1")
                      .counter_set("gpu-0-counters", {{"slices", "8"}, {"memory", "80Gi"}})
                      .build();
  ASSERT_TRUE(counters) << counters.error().to_string();
  EXPECT_EQ(counters->pool, (model::resource_pool{"node-1", 1, 2}));
  ASSERT_EQ(counters->shared_counters.size(), 1u);
  EXPECT_EQ(counters->shared_counters[0].name, "gpu-0-counters");
  EXPECT_EQ(counters->shared_counters[0].counters, (model::counter_map{{"memory", q("80Gi")}, {"slices", q("8")}}));
}

TEST(SliceBuilder, NamesTheSliceAndTheDeviceField) {
  auto slice = model::slice_builder("node-1-gpus", "gpu.example.com")
                   .device(model::device_builder("gpu-0"))
                   .device(model::device_builder("gpu-1").version("driverVersion", "1.x"))
                   .build();
  ASSERT_FALSE(slice);
  EXPECT_EQ(slice.error().object, "ResourceSlice/node-1-gpus");
  EXPECT_EQ(slice.error().path, "spec.devices[1].attributes.driverVersion.version");
  auto counters = model::slice_builder("s", "d").counter_set("set", {{"memory", "1Q"}}).build();
  ASSERT_FALSE(counters);
  EXPECT_EQ(counters.error().to_string().rfind("ResourceSlice/s: spec.sharedCounters[0].counters.memory.value: ", 0), 0u)
      << counters.error().to_string();
}

TEST(ClaimBuilder, BuildsRequestsAndConstraints) {
  auto claim = model::claim_builder("default", "pair")
                   .request(model::request_builder("a", "gpu").count(2).selector("device.attributes[\"x\"].model == \"b\""))
                   .request(model::request_builder("b", "nic").all().capacity("bandwidth", "10G").capacity("a", "1"))
                   .match_attribute("gpu.example.com/numa")
                   .build();
  ASSERT_TRUE(claim) << claim.error().to_string();
  EXPECT_EQ(claim->meta.namespace_, "default");
  ASSERT_EQ(claim->spec.requests.size(), 2u);
  const auto& a = *claim->spec.requests[0].exactly;
  EXPECT_EQ(a.device_class_name, "gpu");
  EXPECT_EQ(a.mode, model::allocation_mode::exact_count);
  EXPECT_EQ(a.count, 2);
  ASSERT_EQ(a.selectors.size(), 1u);
  EXPECT_EQ(a.selectors[0].cel_expression, "device.attributes[\"x\"].model == \"b\"");
  const auto& b = *claim->spec.requests[1].exactly;
  EXPECT_EQ(b.mode, model::allocation_mode::all);
  ASSERT_TRUE(b.capacity);
  EXPECT_EQ(b.capacity->requests, (model::sorted_map<quantity>{{"a", q("1")}, {"bandwidth", q("10G")}}));
  ASSERT_EQ(claim->spec.constraints.size(), 1u);
  EXPECT_EQ(claim->spec.constraints[0].match_attribute, "gpu.example.com/numa");
  EXPECT_TRUE(claim->spec.constraints[0].requests.empty());

  auto bad = model::claim_builder("default", "c").request(model::request_builder("a", "gpu").capacity("memory", "1 Gi")).build();
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().object, "ResourceClaim/default/c");
  EXPECT_EQ(bad.error().path, "spec.devices.requests[0].exactly.capacity.requests.memory");
}

TEST(RequestBuilder, BuildsARequestOnItsOwn) {
  auto request = model::request_builder("nic", "net").count(2).capacity("bandwidth", "10G").capacity("a", "1").build();
  ASSERT_TRUE(request) << request.error().to_string();
  EXPECT_EQ(request->name, "nic");
  ASSERT_TRUE(request->exactly);
  EXPECT_EQ(request->exactly->device_class_name, "net");
  EXPECT_EQ(request->exactly->count, 2);
  ASSERT_TRUE(request->exactly->capacity);
  EXPECT_EQ(request->exactly->capacity->requests,
            (model::sorted_map<quantity>{{"a", q("1")}, {"bandwidth", q("10G")}}));

  auto twice = model::request_builder("nic", "net").capacity("a", "1").capacity("a", "2").build();
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().object, "DeviceRequest/nic");
  EXPECT_EQ(twice.error().path, "exactly.capacity.requests");
  EXPECT_EQ(twice.error().message, "duplicate key \"a\"");
}

TEST(ClaimBuilder, BuildsDerivedAttributes) {
  std::vector<model::request_builder> subrequests;
  subrequests.push_back(model::request_builder("big", "gpu").derived_attribute("numa", "2"));
  auto claim = model::claim_builder("default", "derived")
                   .request(model::request_builder("a", "gpu").derived_attribute("numa", "device.attributes[\"x\"].n"))
                   .first_available("b", std::move(subrequests))
                   .match_attribute("numa")
                   .build();
  ASSERT_TRUE(claim) << claim.error().to_string();
  const auto& a = claim->spec.requests[0].exactly->derived_attributes;
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].name, "numa");
  EXPECT_EQ(a[0].expression, "device.attributes[\"x\"].n");
  const auto& b = claim->spec.requests[1].first_available.at(0).derived_attributes;
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].expression, "2");
}

TEST(ClaimBuilder, BuildsPrioritizedAlternatives) {
  std::vector<model::request_builder> subrequests;
  subrequests.push_back(model::request_builder("big", "gpu").count(2).capacity("memory", "40Gi"));
  subrequests.push_back(model::request_builder("small", "gpu"));
  auto claim = model::claim_builder("default", "either").first_available("gpus", std::move(subrequests)).build();
  ASSERT_TRUE(claim) << claim.error().to_string();
  ASSERT_EQ(claim->spec.requests.size(), 1u);
  const auto& request = claim->spec.requests[0];
  EXPECT_EQ(request.name, "gpus");
  EXPECT_FALSE(request.exactly);
  ASSERT_EQ(request.first_available.size(), 2u);
  EXPECT_EQ(request.first_available[0].name, "big");
  EXPECT_EQ(request.first_available[0].count, 2);
  ASSERT_TRUE(request.first_available[0].capacity);
  EXPECT_EQ(request.first_available[0].capacity->requests, (model::sorted_map<quantity>{{"memory", q("40Gi")}}));
  EXPECT_EQ(request.first_available[1].name, "small");
  EXPECT_EQ(request.first_available[1].device_class_name, "gpu");

  std::vector<model::request_builder> broken;
  broken.push_back(model::request_builder("fine", "gpu"));
  broken.push_back(model::request_builder("odd", "gpu").capacity("memory", "1 Gi"));
  auto bad = model::claim_builder("default", "c").first_available("gpus", std::move(broken)).build();
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().object, "ResourceClaim/default/c");
  EXPECT_EQ(bad.error().path, "spec.devices.requests[0].firstAvailable[1].capacity.requests.memory");

  std::vector<model::request_builder> watching;
  watching.push_back(std::move(model::request_builder("monitor", "gpu").admin_access()));
  auto admin = model::claim_builder("default", "c").first_available("gpus", std::move(watching)).build();
  ASSERT_FALSE(admin);
  EXPECT_EQ(admin.error().path, "spec.devices.requests[0].firstAvailable[0].adminAccess");
}

TEST(ScenarioBuilder, KeepsTheOrderAndTheFirstError) {
  auto s = model::scenario_builder()
               .add(model::slice_builder("s", "d").build())
               .add(model::class_builder("gpu").selector("true").build())
               .add(model::claim_builder("default", "c").request(model::request_builder("r", "gpu")).build())
               .build();
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_EQ(s->slices.size(), 1u);
  ASSERT_EQ(s->classes.size(), 1u);
  ASSERT_EQ(s->claims.size(), 1u);
  EXPECT_EQ(s->slices[0].source.index, 0u);
  EXPECT_EQ(s->classes[0].source.index, 1u);
  EXPECT_EQ(s->claims[0].source.index, 2u);

  auto failed = model::scenario_builder()
                    .add(model::slice_builder("s", "d").device(model::device_builder("x").capacity("m", "?")).build())
                    .add(model::claim_builder("default", "c").request(model::request_builder("r", "gpu").capacity("m", "!")).build())
                    .build();
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().object, "ResourceSlice/s");
}

TEST(Labels, NameObjectsOneWay) {
  EXPECT_EQ(model::namespaced_name("default", "claim"), "default/claim");
  EXPECT_EQ(model::namespaced_name("", "slice"), "slice");
  EXPECT_EQ(model::object_label("ResourceClaim", "default", "claim"), "ResourceClaim/default/claim");
  EXPECT_EQ(model::object_label("ResourceSlice", "", "slice"), "ResourceSlice/slice");
  model::object_meta meta;
  meta.name = "c";
  meta.namespace_ = "ns";
  EXPECT_EQ(model::namespaced_name(meta), "ns/c");
  EXPECT_EQ(model::object_label("ResourceClaim", meta), "ResourceClaim/ns/c");
  // Read from input, a nameless object is named by where it stands.
  EXPECT_EQ(model::located_label("ResourceClaim", "ns", "c", "items[3]"), "ResourceClaim/ns/c");
  EXPECT_EQ(model::located_label("ResourceClaim", "ns", "", "items[3]"), "ResourceClaim items[3]");
  EXPECT_EQ(model::located_label("DeviceClass", "", "", model::source_position{}), "DeviceClass (the input)");
}

}  // namespace
