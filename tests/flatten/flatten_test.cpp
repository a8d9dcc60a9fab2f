// Tests of the flattened views: KEP-5234 precedence, counter sets and consumptions, missing mixins, and a property test
// against materialized devices.
#include <dra/flatten/mixin_view.hpp>
#include <dra/flatten/plain_view.hpp>

#include <gtest/gtest.h>

#include "../support/quantity.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <ranges>
#include <string>
#include <vector>

namespace {

using dra::flatten::mixin_counter_consumption_view;
using dra::flatten::mixin_counter_set_view;
using dra::flatten::mixin_device_view;
using dra::model::device;
using dra::model::device_attribute;
using dra::model::device_capacity;

static_assert(dra::flatten::device_view<mixin_device_view>);
static_assert(dra::flatten::device_view<dra::flatten::plain_device_view>);
static_assert(std::ranges::forward_range<decltype(std::declval<mixin_device_view>().attributes())>);
static_assert(std::ranges::view<decltype(std::declval<mixin_device_view>().attributes())>);
static_assert(std::ranges::forward_range<decltype(std::declval<mixin_device_view>().counter_consumptions())>);
static_assert(sizeof(mixin_device_view) <= 96, "views are cheap to copy");

using dra_test::q;
device_attribute str(dra::model::text s) { return device_attribute{s}; }
std::string_view str_of(const device_attribute* a) { return a ? std::get<dra::model::text>(a->value) : "<none>"; }

struct fixture {
  dra::model::resource_slice_mixins mixins;
  device dev;
  fixture() {
    auto& first = mixins.device.emplace_back();
    first.name = "first";
    first.attributes = {{"model", str("from-first")}, {"only-first", str("1")}, {"shared", str("from-first")}};
    first.capacity = {{"memory", device_capacity{q("1Gi"), {}}}};
    auto& second = mixins.device.emplace_back();
    second.name = "second";
    second.attributes = {{"model", str("from-second")}, {"only-second", str("2")}};
    second.capacity = {{"cores", device_capacity{q("8"), {}}}, {"memory", device_capacity{q("2Gi"), {}}}};
    dev.name = "dev";
    dev.includes = {"first", "second"};
    dev.attributes = {{"shared", str("from-device")}};
  }
};

TEST(Flatten, LaterIncludesOverrideEarlierOnesAndTheDeviceOverridesAll) {
  fixture f;
  mixin_device_view view(f.dev, &f.mixins);
  EXPECT_EQ(str_of(view.attribute("model")), "from-second");
  EXPECT_EQ(str_of(view.attribute("shared")), "from-device");
  EXPECT_EQ(str_of(view.attribute("only-first")), "1");
  EXPECT_EQ(str_of(view.attribute("only-second")), "2");
  EXPECT_EQ(view.attribute("absent"), nullptr);
  EXPECT_EQ(view.capacity("memory")->value, q("2Gi"));
  EXPECT_EQ(view.capacity("cores")->value, q("8"));
  EXPECT_EQ(view.unresolved_includes(), 0u);
}

TEST(Flatten, IterationYieldsEachKeyOnceInKeyOrderWithTheWinningValue) {
  fixture f;
  mixin_device_view view(f.dev, &f.mixins);
  std::vector<std::pair<std::string_view, std::string_view>> seen;
  for (auto e : view.attributes()) seen.emplace_back(e.name, str_of(e.value));
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"model", "from-second"}, {"only-first", "1"}, {"only-second", "2"}, {"shared", "from-device"}};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(view.attribute_count(), 4u);
  EXPECT_EQ(view.capacity_count(), 2u);
}

TEST(Flatten, SwappingTheIncludeOrderSwapsTheWinner) {
  fixture f;
  f.dev.includes = {"second", "first"};
  mixin_device_view view(f.dev, &f.mixins);
  EXPECT_EQ(str_of(view.attribute("model")), "from-first");
  EXPECT_EQ(view.capacity("memory")->value, q("1Gi"));
}

TEST(Flatten, MissingAndEmptyMixinsAreSkippedAndCounted) {
  fixture f;
  f.dev.includes = {"nope", "first"};
  mixin_device_view view(f.dev, &f.mixins);
  EXPECT_EQ(view.unresolved_includes(), 1u);
  EXPECT_EQ(str_of(view.attribute("model")), "from-first");

  device lonely = f.dev;
  mixin_device_view without_mixins(lonely, nullptr);
  EXPECT_EQ(without_mixins.unresolved_includes(), 2u);
  EXPECT_EQ(without_mixins.attribute_count(), 1u);

  dra::model::resource_slice_mixins empty;
  empty.device.emplace_back().name = "first";  // a mixin with nothing in it
  mixin_device_view with_empty(f.dev, &empty);
  EXPECT_EQ(with_empty.unresolved_includes(), 1u);  // "nope"
  EXPECT_EQ(with_empty.attribute_count(), 1u);
  EXPECT_EQ(str_of(with_empty.attribute("shared")), "from-device");
}

TEST(Flatten, CounterSetsAndConsumptionsApplyTheirMixins) {
  dra::model::resource_slice_mixins mixins;
  mixins.counter_set.push_back({"a100", {{"memory", q("40Gi")}, {"multiprocessors", q("98")}}});
  mixins.counter_set.push_back({"extra", {{"memory", q("80Gi")}}});
  mixins.device_counter_consumption.push_back({"mig-1g", {{"memory", q("4864Mi")}, {"multiprocessors", q("14")}}});

  dra::model::counter_set set{"gpu-0", {{"memory-slice-0", q("1")}, {"multiprocessors", q("100")}}, {"a100", "extra"}};
  mixin_counter_set_view set_view(set, &mixins);
  EXPECT_EQ(set_view.name(), "gpu-0");
  EXPECT_EQ(*set_view.counter("memory"), q("80Gi"));
  EXPECT_EQ(*set_view.counter("multiprocessors"), q("100"));
  EXPECT_EQ(*set_view.counter("memory-slice-0"), q("1"));
  EXPECT_EQ(std::ranges::distance(set_view.counters()), 3);
  const dra::model::counter_set flat = dra::flatten::materialize(set_view);
  EXPECT_TRUE(flat.includes.empty());
  ASSERT_EQ(flat.counters.size(), 3u);
  EXPECT_EQ(flat.counters[0].name, "memory");
  EXPECT_EQ(flat.counters[0].value, q("80Gi"));

  dra::model::device dev;
  dev.name = "gpu-0-mig-1g-0";
  dev.consumes_counters.push_back({"gpu-0", {{"memory-slice-0", q("1")}}, {"mig-1g"}, {}});
  mixin_device_view view(dev, &mixins);
  auto consumptions = view.counter_consumptions();
  ASSERT_EQ(std::ranges::distance(consumptions), 1);
  mixin_counter_consumption_view consumption = *consumptions.begin();
  EXPECT_EQ(consumption.counter_set(), "gpu-0");
  EXPECT_EQ(*consumption.counter("memory"), q("4864Mi"));
  EXPECT_EQ(*consumption.counter("memory-slice-0"), q("1"));
  EXPECT_EQ(consumption.counter("jpeg"), nullptr);
}

TEST(Flatten, MaterializeGivesAPlainDeviceWithoutIncludes) {
  fixture f;
  mixin_device_view view(f.dev, &f.mixins);
  device flat = dra::flatten::materialize(view);
  EXPECT_TRUE(flat.includes.empty());
  EXPECT_EQ(flat.name, "dev");
  ASSERT_EQ(flat.attributes.size(), 4u);
  EXPECT_EQ(str_of(dra::model::find(flat.attributes, "model")), "from-second");
  dra::flatten::plain_device_view plain(flat);
  for (auto e : view.attributes()) EXPECT_EQ(plain.attribute(e.name), &*dra::model::find(flat.attributes, e.name));
}

TEST(Flatten, SliceViewsCoverEveryDeviceAndCounterSet) {
  dra::model::resource_slice slice;
  slice.devices.resize(3);
  slice.devices[1].name = "b";
  slice.shared_counters.push_back({"cs", {{"x", q("1")}}, {}});
  auto devices = dra::flatten::device_views(slice);
  EXPECT_EQ(std::ranges::distance(devices), 3);
  EXPECT_EQ((*std::ranges::next(devices.begin())).name(), "b");
  auto sets = dra::flatten::counter_set_views(slice);
  EXPECT_EQ((*sets.begin()).name(), "cs");
}

// Random slices with mixins: every lookup and the iteration through the view
// agree with the materialized device, and with a naive reference merge.
TEST(Flatten, PropertyViewsAgreeWithMaterializedDevices) {
  std::mt19937 random(20261122);
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  static const std::vector<std::string> key_pool = [] {
    std::vector<std::string> keys;
    for (int i = 0; i < 24; ++i) keys.push_back("k" + std::to_string(i));
    std::ranges::sort(keys);  // maps are sorted by key
    return keys;
  }();
  static const std::vector<std::string> value_pool = [] {
    std::vector<std::string> values;
    for (int i = 0; i < 400; ++i) values.push_back("v" + std::to_string(i));
    return values;
  }();
  int value_index = 0;
  auto random_attributes = [&]() {
    dra::model::attribute_map m;
    for (const std::string& key : key_pool)
      if (pick(4) == 0) m.push_back({key, str(value_pool[static_cast<std::size_t>(value_index++ % 400)])});
    return m;
  };
  for (int trial = 0; trial < 200; ++trial) {
    dra::model::resource_slice_mixins mixins;
    const int mixin_count = pick(10);
    static const std::vector<std::string> mixin_names = {"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"};
    for (int m = 0; m < mixin_count; ++m) {
      auto& mixin = mixins.device.emplace_back();
      mixin.name = mixin_names[static_cast<std::size_t>(m)];
      mixin.attributes = random_attributes();
    }
    device dev;
    dev.name = "d";
    dev.attributes = random_attributes();
    const int include_count = mixin_count == 0 ? 0 : pick(9);
    for (int i = 0; i < include_count; ++i)
      dev.includes.push_back(mixin_names[static_cast<std::size_t>(pick(mixin_count))]);

    mixin_device_view view(dev, &mixins);
    device flat = dra::flatten::materialize(view);
    // Reference: apply includes in order, each overriding, then the device's own.
    std::map<std::string_view, const device_attribute*> reference;
    for (dra::model::text name : dev.includes)
      for (const auto& mixin : mixins.device)
        if (mixin.name == name)
          for (const auto& [key, value] : mixin.attributes) reference[key] = &value;
    for (const auto& [key, value] : dev.attributes) reference[key] = &value;

    ASSERT_EQ(flat.attributes.size(), reference.size()) << "trial " << trial;
    std::size_t i = 0;
    for (const auto& [key, value] : reference) {
      EXPECT_EQ(flat.attributes[i].name, key) << "trial " << trial;
      EXPECT_EQ(flat.attributes[i].value, *value) << "trial " << trial;
      ++i;
    }
    for (const std::string& key : key_pool) {
      const device_attribute* through_view = view.attribute(key);
      auto expected = reference.find(key);
      if (expected == reference.end()) {
        EXPECT_EQ(through_view, nullptr) << key;
      } else {
        EXPECT_EQ(through_view, expected->second) << "trial " << trial << " key " << key;
      }
    }
    EXPECT_EQ(view.attribute_count(), reference.size());
  }
}

}  // namespace
