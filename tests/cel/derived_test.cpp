// Derived attributes (KEP-6080) in the CEL room: which expressions compile, and what a result becomes as an attribute.
#include <dra/cel/selector.hpp>
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace {

constexpr std::string_view derived_slice_json = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
  "spec": {
    "driver": "gpu.example.com", "nodeName": "n1",
    "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
    "devices": [
      {"name": "gpu-0",
       "attributes": {"topology": {"string": "socket1-numa3"}, "index": {"int": 4}, "healthy": {"bool": true},
                      "driverVersion": {"version": "1.2.3"}, "numa": {"ints": [0, 1]}}},
      {"name": "gpu-1", "attributes": {"driverVersion": {"version": "01.2.3"}}}
    ]
  }
})";

class Derived : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = dra::json::load(derived_slice_json);
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    doc_ = std::make_unique<dra::json::document>(std::move(loaded).value());
  }
  const dra::model::resource_slice& slice() const { return doc_->scenario().slices.at(0).object; }
  dra::result<dra::cel::derived_value> derive(std::string_view expression, std::size_t device = 0) const {
    auto program = engine_.compile_derived(expression);
    if (!program) return std::move(program).error();
    return engine_.derive(program.value(), dra::flatten::mixin_device_view(slice().devices.at(device), nullptr),
                          slice().driver);
  }
  // The attribute's value; texts in it view the derived value, which the fixture keeps until the test ends.
  template <class T>
  T value_of(std::string_view expression) const {
    auto v = derive(expression);
    if (!v) {
      ADD_FAILURE() << expression << ": " << v.error().message;
      return T{};
    }
    const auto* held = std::get_if<T>(&kept_.emplace_back(std::move(v).value()).attribute().value);
    if (held == nullptr) {
      ADD_FAILURE() << expression << " has another type";
      return T{};
    }
    return *held;
  }
  std::unique_ptr<dra::json::document> doc_;
  dra::cel::selector_engine engine_;
  mutable std::deque<dra::cel::derived_value> kept_;  // a deque: what value_of returned stays where it is
};

TEST_F(Derived, ScalarsBecomeAttributesOfTheirKind) {
  EXPECT_EQ(value_of<dra::model::text>(R"(device.attributes["gpu.example.com"].topology.split("-")[1])"), "numa3");
  EXPECT_EQ(value_of<std::int64_t>(R"(device.attributes["gpu.example.com"].index / 2)"), 2);
  EXPECT_EQ(value_of<bool>(R"(!device.attributes["gpu.example.com"].healthy)"), false);
  const auto version = value_of<dra::model::version_value>(R"(device.attributes["gpu.example.com"].driverVersion)");
  EXPECT_EQ(version.source, "1.2.3");
  EXPECT_TRUE(version.parsed);
  EXPECT_EQ(value_of<dra::model::text>(R"(device.driver)"), "gpu.example.com");
}

TEST_F(Derived, ListsBecomeListAttributes) {
  EXPECT_EQ(value_of<std::vector<std::int64_t>>(R"(device.attributes["gpu.example.com"].numa.map(n, n + 10))"),
            (std::vector<std::int64_t>{10, 11}));
  EXPECT_EQ(value_of<std::vector<dra::model::text>>(R"(device.attributes["gpu.example.com"].topology.split("-"))"),
            (std::vector<dra::model::text>{"socket1", "numa3"}));
  EXPECT_EQ(value_of<std::vector<bool>>("[true, false]"), (std::vector<bool>{true, false}));
  const auto versions = value_of<std::vector<dra::model::version_value>>(R"([semver("1.0.0"), semver("2.0.0")])");
  ASSERT_EQ(versions.size(), 2u);
  EXPECT_EQ(versions[1].source, "2.0.0");
}

TEST_F(Derived, TheValueOwnsItsTextAfterAMove) {
  auto v = derive(R"(device.attributes["gpu.example.com"].topology + "-x")");
  ASSERT_TRUE(v) << v.error().message;
  dra::cel::derived_value moved = std::move(v).value();
  std::vector<dra::cel::derived_value> kept;
  kept.push_back(std::move(moved));
  for (int i = 0; i < 16; ++i) kept.push_back(std::move(derive("\"filler\"").value()));
  EXPECT_EQ(std::get<dra::model::text>(kept[0].attribute().value), "socket1-numa3-x");
}

TEST_F(Derived, CompileAcceptsScalarsListsAndDynOnly) {
  for (std::string_view ok : {"1", "'a'", "true", "semver('1.0.0')", "[1, 2]", "['a']", "[semver('1.0.0')]",
                              "device.attributes['gpu.example.com'].index", "[device.attributes['x'].y]"})
    EXPECT_TRUE(engine_.compile_derived(ok)) << ok;
  for (std::string_view bad : {"1.5", "1u", "{'a': 1}", "quantity('1Gi')", "[1.5]", "[[1]]", "b'x'"}) {
    auto compiled = engine_.compile_derived(bad);
    ASSERT_FALSE(compiled) << bad;
    EXPECT_EQ(compiled.error().code, dra::errc::cel_compile) << bad;
    EXPECT_NE(compiled.error().message.find("must evaluate to a string, int, bool or semver, or a list of one of them"),
              std::string::npos)
        << compiled.error().message;
  }
  // A boolean selector's rule does not apply, and the caches are apart: one text may be both.
  EXPECT_FALSE(engine_.compile("1"));
  EXPECT_TRUE(engine_.compile_derived("1"));
  EXPECT_TRUE(engine_.compile("true"));
  EXPECT_TRUE(engine_.compile_derived("true"));
}

TEST_F(Derived, RuntimeErrors) {
  auto message = [&](std::string_view expression, std::size_t device = 0) {
    auto v = derive(expression, device);
    return v ? std::string("(no error)") : v.error().message;
  };
  EXPECT_NE(message(R"(device.attributes["gpu.example.com"].missing)").find("no such key"), std::string::npos)
      << message(R"(device.attributes["gpu.example.com"].missing)");
  EXPECT_EQ(message("dyn(1.5)"),
            "CEL result of type double cannot be a derived attribute (string, int, bool, semver, or a list of one of "
            "them)");
  EXPECT_EQ(message("dyn([{'a': 1}])"),
            "CEL result element of type map cannot be a derived attribute (string, int, bool, semver, or a list of one "
            "of them)");
  EXPECT_EQ(message("[dyn(1), dyn('a')]"), "CEL result is a list that mixes int and string elements");
  EXPECT_EQ(message("dyn([])"), "CEL result is an empty list, which has no type a derived attribute could have");
  // An attribute upstream cannot convert fails every expression on the device, as it fails selectors.
  EXPECT_NE(message("1", 1).find("attribute driverVersion"), std::string::npos) << message("1", 1);
  auto failed = derive("dyn(1.5)");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, dra::errc::cel_runtime);
}

}  // namespace
