// Scenarios built in test code: one builder that owns every string its model objects view, adds objects made with
// dra/model/build.hpp's builders to a model::scenario, and hands back references for a test to change them.
#pragma once

#include <dra/alloc/check.hpp>
#include <dra/alloc/concepts.hpp>
#include <dra/alloc/features.hpp>
#include <dra/cel/selector.hpp>
#include <dra/model/build.hpp>
#include <dra/sim/runner.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace dra_test {

// An allocation of one device to `request`, as a claim's status holds it; the texts must outlive it.
inline dra::model::allocation_result one_device_allocation(dra::model::text request, dra::model::text driver,
                                                           dra::model::text pool, dra::model::text device) {
  dra::model::device_request_allocation_result result;
  result.request = request;
  result.driver = driver;
  result.pool = pool;
  result.device = device;
  dra::model::allocation_result allocation;
  allocation.results.push_back(result);
  return allocation;
}

// What a model builder made, or (failing the test) a default object.
template <class T>
T built(dra::result<T> object) {
  if (object) return std::move(*object);
  ADD_FAILURE() << "test scenario: " << object.error().to_string();
  return T{};
}

// A scenario under construction. Every add returns a reference into `s` that stays valid while the test adds at
// most `capacity` objects of each kind (64 unless asked; room is reserved up front; going past it fails the test).
class test_scenario {
 public:
  dra::model::scenario s;

  explicit test_scenario(std::size_t capacity = 64) {
    s.classes.reserve(capacity);
    s.nodes.reserve(capacity);
    s.slices.reserve(capacity);
    s.claims.reserve(capacity);
    s.claim_templates.reserve(capacity);
    s.pods.reserve(capacity);
    s.taint_rules.reserve(capacity);
  }
  // Moving keeps the strings and the objects where they are; a copy's objects would view the original's strings.
  test_scenario(test_scenario&&) = default;
  test_scenario& operator=(test_scenario&&) = default;
  test_scenario(const test_scenario&) = delete;
  test_scenario& operator=(const test_scenario&) = delete;
  ~test_scenario() = default;

  // A copy of `text` that lives as long as the scenario.
  dra::model::text str(std::string text) { return strings_.emplace_back(std::move(text)); }

  // An object a model builder made; a build error fails the test and adds a default object instead.
  template <class T>
  T& add(dra::result<T> object) {
    return add(built(std::move(object)));
  }
  dra::model::device_class& add(dra::model::device_class c) { return push(s.classes, std::move(c)); }
  dra::model::node& add(dra::model::node n) { return push(s.nodes, std::move(n)); }
  dra::model::resource_slice& add(dra::model::resource_slice sl) { return push(s.slices, std::move(sl)); }
  dra::model::resource_claim& add(dra::model::resource_claim c) { return push(s.claims, std::move(c)); }
  dra::model::resource_claim_template& add(dra::model::resource_claim_template t) {
    return push(s.claim_templates, std::move(t));
  }
  dra::model::pod& add(dra::model::pod p) { return push(s.pods, std::move(p)); }
  dra::model::device_taint_rule& add(dra::model::device_taint_rule r) { return push(s.taint_rules, std::move(r)); }

  // A class that selects every device of `driver`.
  dra::model::device_class& device_class(std::string name, const std::string& driver) {
    return add(
        dra::model::class_builder(str(std::move(name))).selector(str("device.driver == \"" + driver + "\"")).build());
  }

  dra::model::node& node(std::string name, std::initializer_list<std::pair<std::string, std::string>> labels = {}) {
    dra::model::node n;
    n.meta.name = str(std::move(name));
    for (const auto& [key, value] : labels) n.meta.labels.push_back({str(key), str(value)});
    return add(std::move(n));
  }

  // A slice without devices, one of `slices_in_pool` of `pool`, published for `node`; when `node` is empty, for no
  // node yet (the test sets all_nodes or node_selector).
  dra::model::resource_slice& slice(std::string name, std::string driver, std::string pool, std::string node,
                                    std::int64_t slices_in_pool = 1) {
    dra::model::slice_builder slice(str(std::move(name)), str(std::move(driver)));
    slice.pool(str(std::move(pool)), 1, slices_in_pool);
    if (!node.empty()) slice.node_name(str(std::move(node)));
    return add(slice.build());
  }
  // A device without attributes at the end of `slice`.
  dra::model::device& device(dra::model::resource_slice& slice, std::string name) {
    slice.devices.push_back(built(dra::model::device_builder(str(std::move(name))).build()));
    return slice.devices.back();
  }

  // A claim (namespace empty for none) asking for `count` devices of `device_class` in one request.
  dra::model::resource_claim& claim(std::string namespace_, std::string name, std::string request,
                                    std::string device_class, std::int64_t count = 1) {
    return add(
        one_request_claim(std::move(namespace_), std::move(name), std::move(request), std::move(device_class), count));
  }
  // A template whose claims ask as claim() does.
  dra::model::resource_claim_template& claim_template(std::string namespace_, std::string name, std::string request,
                                                      std::string device_class, std::int64_t count = 1) {
    auto claim = built(
        one_request_claim(std::move(namespace_), std::move(name), std::move(request), std::move(device_class), count));
    return add(dra::model::resource_claim_template{claim.meta, {}, std::move(claim.spec)});
  }

  // A pod without claims; uses_claim and uses_template give it some.
  dra::model::pod& pod(std::string namespace_, std::string name) {
    dra::model::pod p;
    p.meta.namespace_ = str(std::move(namespace_));
    p.meta.name = str(std::move(name));
    return add(std::move(p));
  }
  void uses_claim(dra::model::pod& p, std::string entry, std::string claim) {
    p.resource_claims.push_back({str(std::move(entry)), str(std::move(claim)), std::nullopt});
  }
  void uses_template(dra::model::pod& p, std::string entry, std::string claim_template) {
    p.resource_claims.push_back({str(std::move(entry)), std::nullopt, str(std::move(claim_template))});
  }

  // A DeviceTaintRule named rule-<key> putting the taint key (with `effect`) on the devices `selector` picks.
  dra::model::device_taint_rule& taint_rule(dra::model::device_taint_selector selector, std::string key,
                                            std::string effect) {
    dra::model::device_taint_rule r;
    r.meta.name = str("rule-" + key);
    r.device_selector = selector;
    r.taint.key = str(std::move(key));
    r.taint.effect = str(std::move(effect));
    return add(std::move(r));
  }

  // The scenario's classes, slices and nodes in order, as the allocator and its parts take them.
  [[nodiscard]] std::vector<const dra::model::device_class*> class_list() const { return objects(s.classes); }
  [[nodiscard]] std::vector<const dra::model::resource_slice*> slice_list() const { return objects(s.slices); }
  [[nodiscard]] std::vector<const dra::model::node*> node_list() const { return objects(s.nodes); }

  // A run of the scenario, checked for what every run must keep: no device handed out beyond what it holds, and an
  // outcome for each subject. The report views the scenario.
  template <dra::alloc::allocation_policy Policy = dra::alloc::first_fit>
  [[nodiscard]] dra::sim::run_report run(dra::alloc::features features = dra::alloc::features::all(),
                                         Policy policy = {}) const {
    const dra::cel::selector_engine engine;
    auto report = dra::sim::run_scenario(s, engine, features, std::move(policy));
    EXPECT_EQ(dra::alloc::find_overcommit(s, report.outcomes), "");
    EXPECT_EQ(report.outcomes.size(), report.subjects.size());
    return report;
  }

 private:
  template <class T>
  T& push(std::vector<dra::model::located<T>>& to, T object) {
    if (to.size() == to.capacity()) ADD_FAILURE() << "test scenario: more than " << to.capacity() << " objects of a kind";
    to.push_back({std::move(object), {}});
    return to.back().object;
  }
  template <class T>
  static std::vector<const T*> objects(const std::vector<dra::model::located<T>>& from) {
    std::vector<const T*> out;
    out.reserve(from.size());
    std::ranges::transform(from, std::back_inserter(out), [](const auto& entry) { return &entry.object; });
    return out;
  }
  dra::result<dra::model::resource_claim> one_request_claim(std::string namespace_, std::string name,
                                                            std::string request, std::string device_class,
                                                            std::int64_t count) {
    return dra::model::claim_builder(str(std::move(namespace_)), str(std::move(name)))
        .request(dra::model::request_builder(str(std::move(request)), str(std::move(device_class))).count(count))
        .build();
  }

  std::deque<std::string> strings_;
};

}  // namespace dra_test
