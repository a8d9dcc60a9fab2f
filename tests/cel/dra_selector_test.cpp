// DRA selectors as Kubernetes evaluates them: the `device` binding over plain and mixin-backed devices, runtime
// errors, compile errors, the cost limit.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using dra::cel::selector_engine;

// One slice of driver "gpu.example.com" with a plain device and one built from a mixin.
constexpr std::string_view slice_json = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
  "spec": {
    "driver": "gpu.example.com", "nodeName": "n1",
    "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
    "mixins": {"device": [{"name": "a100", "attributes": {"model": {"string": "A100"}, "gpu.example.com/memoryType": {"string": "HBM2"}},
                           "capacity": {"memory": {"value": "40Gi"}}}]},
    "devices": [
      {"name": "gpu-0",
       "attributes": {"model": {"string": "H100"}, "index": {"int": 0}, "healthy": {"bool": true},
                      "driverVersion": {"version": "1.2.3-rc.1"}, "other.example.com/zone": {"string": "z1"},
                      "numa": {"ints": [0, 1]}, "tags": {"strings": ["fast", "big"]}},
       "capacity": {"memory": {"value": "80Gi"}, "cores": {"value": "132"}}},
      {"name": "gpu-1", "includes": ["a100"], "attributes": {"index": {"int": 1}}}
    ]
  }
})";

class Selectors : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = dra::json::load(slice_json);
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    doc_ = std::make_unique<dra::json::document>(std::move(loaded).value());
  }
  const dra::model::resource_slice& slice() const { return doc_->scenario().slices.at(0).object; }
  dra::flatten::mixin_device_view device(std::size_t i) const {
    return dra::flatten::mixin_device_view(slice().devices.at(i), slice().mixins ? &*slice().mixins : nullptr);
  }
  // Evaluates `expression` on device i: "true", "false", or "error: …".
  std::string eval(std::string_view expression, std::size_t i = 0) const {
    auto program = engine_.compile(expression);
    if (!program) return "compile error: " + program.error().message;
    auto m = engine_.matches(program.value(), device(i), slice().driver);
    if (!m) return "error: " + m.error().message;
    return m.value() ? "true" : "false";
  }
  std::unique_ptr<dra::json::document> doc_;
  selector_engine engine_;
};

TEST_F(Selectors, DriverAndAttributesOfTheDriversOwnDomain) {
  EXPECT_EQ(eval(R"(device.driver == "gpu.example.com")"), "true");
  EXPECT_EQ(eval(R"(device.driver == "other")"), "false");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].model == "H100")"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].index == 0)"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].healthy)"), "true");
  EXPECT_EQ(eval(R"(device.attributes["other.example.com"].zone == "z1")"), "true");
  EXPECT_EQ(eval(R"(device.allowMultipleAllocations)"), "false");
}

TEST_F(Selectors, UnknownDomainIsAnEmptyMapAndMissingIdsAreErrors) {
  EXPECT_EQ(eval(R"(has(device.attributes["nowhere.example.com"].model))"), "false");
  EXPECT_EQ(eval(R"(size(device.attributes["nowhere.example.com"]) == 0)"), "true");
  EXPECT_EQ(eval(R"(has(device.attributes["gpu.example.com"].model))"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].missing == "x")"), "error: no such key: missing");
  // The deciding value wins over the error, in either order.
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].missing == "x" || true)"), "true");
  EXPECT_EQ(eval(R"(false && device.attributes["gpu.example.com"].missing == "x")"), "false");
}

// Upstream's attribute and capacity maps answer every domain on lookup, but `in`, size() and
// iteration see only the domains the device has names in.
TEST_F(Selectors, InTellsWhetherTheDeviceHasADomain) {
  EXPECT_EQ(eval(R"("gpu.example.com" in device.attributes)"), "true");
  EXPECT_EQ(eval(R"("other.example.com" in device.attributes)"), "true");
  EXPECT_EQ(eval(R"("nowhere.example.com" in device.attributes)"), "false");
  EXPECT_EQ(eval(R"("gpu.example.com" in device.capacity)"), "true");
  EXPECT_EQ(eval(R"("other.example.com" in device.capacity)"), "false");
  EXPECT_EQ(eval(R"("nowhere.example.com" in device.capacity)"), "false");
  EXPECT_EQ(eval(R"(!("nowhere.example.com" in device.attributes) && size(device.attributes["nowhere.example.com"]) == 0)"), "true");
  EXPECT_EQ(eval(R"(has(device.attributes.nowhere) && device.attributes[?"nowhere"].hasValue())"), "true");
  EXPECT_EQ(eval(R"(size(device.attributes) == 2 && size(device.capacity) == 1)"), "true");
  EXPECT_EQ(eval(R"(device.attributes.all(d, d in device.attributes) && device.attributes.exists(d, d == "other.example.com"))"), "true");
  // Inner maps: `in` is plain presence.
  EXPECT_EQ(eval(R"("model" in device.attributes["gpu.example.com"] && !("nope" in device.attributes["gpu.example.com"]))"), "true");
  EXPECT_EQ(eval(R"("memory" in device.capacity["gpu.example.com"] && !("memory" in device.capacity["nowhere.example.com"]))"), "true");
  // A mixin-backed device: its domains come from its own and its mixins' names.
  EXPECT_EQ(eval(R"("gpu.example.com" in device.attributes && "gpu.example.com" in device.capacity)", 1), "true");
  EXPECT_EQ(eval(R"("other.example.com" in device.attributes)", 1), "false");
}

TEST_F(Selectors, WrongTypesAreRuntimeErrors) {
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].model > 5)"), "error: no such overload: _>_(string, int)");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].model)"),
            "error: CEL result of type string could not be converted to bool");
}

TEST_F(Selectors, QuantitiesAndVersions) {
  EXPECT_EQ(eval(R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) > 0)"), "true");
  EXPECT_EQ(eval(R"(device.capacity["gpu.example.com"].memory.isLessThan(quantity("100Gi")))"), "true");
  EXPECT_EQ(eval(R"(device.capacity["gpu.example.com"].cores.asInteger() == 132)"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.2.2")))"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].driverVersion.isLessThan(semver("1.2.3")))"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].driverVersion.major() == 1)"), "true");
}

TEST_F(Selectors, ListAttributesWithMacrosInAndIncludes) {
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].numa.exists(n, n == 1))"), "true");
  EXPECT_EQ(eval(R"("fast" in device.attributes["gpu.example.com"].tags)"), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].tags.includes("slow"))"), "false");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].model.includes("H100"))"), "true");
  EXPECT_EQ(eval(R"(cel.bind(g, device.attributes["gpu.example.com"], g.model == "H100" && g.index == 0))"), "true");
}

TEST_F(Selectors, MixinBackedDeviceSeesItsIncludes) {
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].model == "A100")", 1), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].memoryType == "HBM2")", 1), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].index == 1)", 1), "true");
  EXPECT_EQ(eval(R"(device.capacity["gpu.example.com"].memory == quantity("40Gi"))", 1), "true");
  EXPECT_EQ(eval(R"(device.attributes["gpu.example.com"].all(k, k in ["model", "memoryType", "index"]))", 1), "true");
}

TEST_F(Selectors, CompileErrorsAsKubernetesReportsThem) {
  EXPECT_EQ(eval("device.nosuchfield == 1"), "compile error: compilation failed: ERROR: <input>:1:7: undefined field 'nosuchfield'");
  EXPECT_EQ(eval("device.driver"), "compile error: must evaluate to bool or the unknown type, not string");
  EXPECT_EQ(eval("device.driver == 1"),
            "compile error: compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(string, int)'");
  EXPECT_EQ(eval("device.driver.matches('[')").rfind("compile error: compilation failed: ERROR: <input>:1:23: invalid matches argument", 0), 0u);
  EXPECT_EQ(eval("device.driver == "), "compile error: compilation failed: ERROR: <input>:1:18: Syntax error: mismatched input '<EOF>'");
  EXPECT_EQ(eval("foo(1)"), "compile error: compilation failed: ERROR: <input>:1:4: undeclared reference to 'foo' (in container '')");
}

TEST_F(Selectors, CostLimitStopsRunawayExpressions) {
  const std::string expensive = "lists.range(1000).all(i, lists.range(1000).all(j, i * j >= 0))";
  EXPECT_EQ(eval(expensive), "error: operation cancelled: actual cost limit exceeded");
  EXPECT_EQ(eval("lists.range(100).all(i, i >= 0)"), "true");
}

TEST_F(Selectors, CompiledOnceAndCached) {
  auto a = engine_.compile("device.driver == 'x'");
  auto b = engine_.compile("device.driver == 'x'");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a.value().compiled.get(), b.value().compiled.get());
  auto bad1 = engine_.compile("device.");
  auto bad2 = engine_.compile("device.");
  ASSERT_FALSE(bad1);
  ASSERT_FALSE(bad2);
  EXPECT_EQ(bad1.error().message, bad2.error().message);
}

TEST_F(Selectors, FeatureGatedDeclarations) {
  selector_engine without({.consumable_capacity = false, .list_type_attributes = false});
  EXPECT_FALSE(without.compile("device.allowMultipleAllocations"));
  EXPECT_FALSE(without.compile("device.attributes['x'].y.includes(1)"));
  EXPECT_TRUE(without.compile("device.driver == 'x'"));
}

}  // namespace
