// Building model objects in C++: builders that parse versions and quantities and sort maps as they go, and report bad input as dra::error.
//
// Model strings borrow (model::text): the texts given to a builder must
// outlive the objects it builds (string literals always do). build() moves the
// object out: a builder builds once.
//
//   auto slice = model::slice_builder("node-1-gpus", "gpu.example.com")
//                    .node_name("node-1")
//                    .device(model::device_builder("gpu-0").string("model", "A100").version("driver", "550.54.15")
//                                .capacity("memory", "80Gi"))
//                    .build();  // result<resource_slice>
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/core/semver.hpp>
#include <dra/core/text.hpp>
#include <dra/model/common.hpp>
#include <dra/model/priority_admission.hpp>
#include <dra/model/device_class.hpp>
#include <dra/model/resource_claim.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/model/scenario.hpp>
#include <dra/model/workload.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dra::model {

// A version attribute's value, parsed; an error when the text is not a semantic version.
[[nodiscard]] inline result<version_value> make_version(text source) {
  auto parsed = semver::parse(source);
  if (!parsed) return dra::error{.message = dra::concat(dra::quoted(source), ": ", parsed.error().message)};
  return version_value(source, std::make_shared<const semver>(std::move(*parsed)));
}

// A sorted_map from entries in any order; an error naming the key given twice.
template <class V>
[[nodiscard]] result<sorted_map<V>> make_sorted_map(sorted_map<V> entries) {
  sort_by_key(entries);
  const auto twice = std::adjacent_find(entries.begin(), entries.end(),
                                        [](const keyed<V>& a, const keyed<V>& b) { return a.name == b.name; });
  if (twice != entries.end())
    return dra::error{.message = dra::concat("duplicate key ", dra::quoted(twice->name))};
  return entries;
}

namespace detail {

// The first problem a builder met: later calls keep building, build() reports it.
class first_error {
 public:
  void note(dra::error e, std::string_view path) {
    if (!error_) error_ = std::move(e).within(path);
  }
  [[nodiscard]] const std::optional<dra::error>& get() const noexcept { return error_; }
  // The error with the object it belongs to; `path_prefix` goes in front of its path.
  [[nodiscard]] dra::error take(std::string object, std::string_view path_prefix = {}) {
    dra::error e = std::move(*error_).within(path_prefix);
    if (e.object.empty()) e.object = std::move(object);
    return e;
  }

 private:
  std::optional<dra::error> error_;
};

// Counters given as {"name", "quantity"} pairs, parsed (the builders sort them).
[[nodiscard]] inline result<counter_map> parse_counters(std::initializer_list<std::pair<text, text>> counters) {
  counter_map out;
  out.reserve(counters.size());
  for (const auto& [name, amount] : counters) {
    auto q = quantity::parse(amount);
    if (!q) return std::move(q).error().within(dra::concat(name, ".value"));
    out.push_back({name, *q});
  }
  return out;
}

// A map's entries sorted, a key given twice reported at `path`.
template <class V>
void sort_into(sorted_map<V>& map, first_error& errors, std::string_view path) {
  auto sorted = make_sorted_map(std::move(map));
  if (!sorted) {
    errors.note(std::move(sorted).error(), path);
    return;
  }
  map = std::move(*sorted);
}

}  // namespace detail

// A device: attributes by kind, capacities and counters from their quantity texts.
class device_builder {
 public:
  explicit device_builder(text name) { device_.name = name; }

  device_builder& integer(text name, std::int64_t value) { return attribute(name, value); }
  device_builder& boolean(text name, bool value) { return attribute(name, value); }
  device_builder& string(text name, text value) { return attribute(name, value); }
  // A semantic version ("550.54.15"); anything else is an error.
  device_builder& version(text name, text value) {
    auto v = make_version(value);
    if (!v) {
      errors_.note(std::move(v).error(), dra::concat("attributes.", name, ".version"));
      return *this;
    }
    return attribute(name, std::move(*v));
  }
  // Any attribute value, for the list forms: attribute("cores", std::vector<std::int64_t>{0, 1}).
  device_builder& attribute(text name, attribute_value value) {
    device_.attributes.push_back({name, {std::move(value)}});
    return *this;
  }

  // A capacity such as "80Gi"; anything that is not a quantity is an error.
  device_builder& capacity(text name, text amount) {
    auto q = quantity::parse(amount);
    if (!q) {
      errors_.note(std::move(q).error(), dra::concat("capacity.", name, ".value"));
      return *this;
    }
    return capacity(name, device_capacity{*q, {}});
  }
  device_builder& capacity(text name, device_capacity value) {
    device_.capacity.push_back({name, std::move(value)});
    return *this;
  }

  // What the device draws from a counter set of its slice: {{"memory", "10Gi"}, …}.
  device_builder& consumes(text counter_set, std::initializer_list<std::pair<text, text>> counters) {
    auto map = detail::parse_counters(counters);
    if (!map) {
      errors_.note(std::move(map).error(), consumption_path());
      return *this;
    }
    return consumes(counter_set, std::move(*map));
  }
  // The same with counters already parsed (sorted here; a counter given twice is an error).
  device_builder& consumes(text counter_set, counter_map counters) {
    detail::sort_into(counters, errors_, consumption_path());
    device_.consumes_counters.push_back({counter_set, std::move(counters), {}, {}});
    return *this;
  }

  device_builder& taint(device_taint t) {
    device_.taints.push_back(std::move(t));
    return *this;
  }
  // KEP-5075: the device may be allocated to several claims at once.
  device_builder& allow_multiple_allocations(bool allow = true) {
    device_.allow_multiple_allocations = allow;
    return *this;
  }

  // The device with its maps sorted, or the first problem met ("Device/gpu-0").
  [[nodiscard]] result<device> build() {
    finish();
    if (errors_.get()) return errors_.take(dra::concat("Device/", device_.name));
    return std::move(device_);
  }

 private:
  friend class slice_builder;

  [[nodiscard]] std::string consumption_path() const {
    return dra::concat("consumesCounters[", std::to_string(device_.consumes_counters.size()), "].counters");
  }

  void finish() {
    detail::sort_into(device_.attributes, errors_, "attributes");
    detail::sort_into(device_.capacity, errors_, "capacity");
  }

  device device_;
  detail::first_error errors_;
};

// A ResourceSlice: one complete pool of one slice by default, for one node or all nodes.
class slice_builder {
 public:
  slice_builder(text name, text driver) {
    slice_.meta.name = name;
    slice_.driver = driver;
    slice_.pool = {name, 1, 1};
  }

  // The pool this slice belongs to (its name defaults to the slice's; generation 1, one slice).
  slice_builder& pool(text name, std::int64_t generation = 1, std::int64_t slice_count = 1) {
    slice_.pool = {name, generation, slice_count};
    return *this;
  }
  slice_builder& node_name(text node) {
    slice_.node_name = node;
    return *this;
  }
  slice_builder& all_nodes() {
    slice_.all_nodes = true;
    return *this;
  }
  slice_builder& node_selector(model::node_selector selector) {
    slice_.node_selector = std::move(selector);
    return *this;
  }

  slice_builder& device(device_builder d) {
    d.finish();
    const std::string path = dra::concat("spec.devices[", std::to_string(slice_.devices.size()), "]");
    if (d.errors_.get()) errors_.note(d.errors_.take({}), path);
    slice_.devices.push_back(std::move(d.device_));
    return *this;
  }
  // A device device_builder::build() made.
  slice_builder& device(model::device d) {
    slice_.devices.push_back(std::move(d));
    return *this;
  }
  // A shared counter set: {{"memory", "80Gi"}, …}.
  slice_builder& counter_set(text name, std::initializer_list<std::pair<text, text>> counters) {
    auto map = detail::parse_counters(counters);
    if (!map) errors_.note(std::move(map).error(), counter_set_path());
    return counter_set(name, map ? std::move(*map) : counter_map{});
  }
  // The same with counters already parsed (sorted here; a counter given twice is an error).
  slice_builder& counter_set(text name, counter_map counters) {
    detail::sort_into(counters, errors_, counter_set_path());
    slice_.shared_counters.push_back({name, std::move(counters), {}});
    return *this;
  }

  // The slice, or the first problem met, naming the slice and the field.
  [[nodiscard]] result<resource_slice> build() {
    if (errors_.get()) return errors_.take(object_label("ResourceSlice", slice_.meta));
    return std::move(slice_);
  }

 private:
  [[nodiscard]] std::string counter_set_path() const {
    return dra::concat("spec.sharedCounters[", std::to_string(slice_.shared_counters.size()), "].counters");
  }

  resource_slice slice_;
  detail::first_error errors_;
};

// A DeviceClass with CEL selectors.
class class_builder {
 public:
  explicit class_builder(text name) { class_.meta.name = name; }
  class_builder& selector(text cel_expression) {
    class_.selectors.push_back({cel_expression, true});
    return *this;
  }
  [[nodiscard]] result<device_class> build() { return std::move(class_); }

 private:
  device_class class_;
};

// A request of a claim: a count of devices (or all) of a class, with CEL selectors, capacity asks and derived
// attributes.
class request_builder {
 public:
  request_builder(text name, text device_class) {
    request_.name = name;
    request_.exactly.emplace().device_class_name = device_class;
  }
  request_builder& count(std::int64_t n) {
    spec().mode = allocation_mode::exact_count;
    spec().count = n;
    return *this;
  }
  request_builder& all() {
    spec().mode = allocation_mode::all;
    spec().mode_name = "All";
    spec().count = 0;
    return *this;
  }
  request_builder& selector(text cel_expression) {
    spec().selectors.push_back({cel_expression, true});
    return *this;
  }
  // KEP-5075: how much of a shared device's capacity the request consumes ("10Gi").
  request_builder& capacity(text name, text amount) {
    auto q = quantity::parse(amount);
    if (!q) {
      errors_.note(std::move(q).error(), dra::concat("exactly.capacity.requests.", name));
      return *this;
    }
    return capacity(name, *q);
  }
  request_builder& capacity(text name, quantity amount) {
    if (!spec().capacity) spec().capacity.emplace();
    spec().capacity->requests.push_back({name, amount});
    return *this;
  }
  // KEP-6080: an attribute the request computes for each candidate device, which the claim's constraints compare.
  request_builder& derived_attribute(text name, text cel_expression) {
    spec().derived_attributes.push_back({name, cel_expression});
    return *this;
  }
  request_builder& toleration(device_toleration t) {
    spec().tolerations.push_back(std::move(t));
    return *this;
  }
  request_builder& admin_access(bool on = true) {
    request_.exactly->admin_access = on;
    return *this;
  }

  // The request on its own, for a claim put together another way: its capacity asks sorted, or the first problem
  // met ("DeviceRequest/gpu"). claim_builder::request takes the builder instead.
  [[nodiscard]] result<device_request> build() {
    finish();
    if (errors_.get()) return errors_.take("DeviceRequest/" + std::string(request_.name));
    return std::move(request_);
  }

 private:
  friend class claim_builder;
  exact_device_request& spec() { return *request_.exactly; }
  void finish() {
    if (spec().capacity) detail::sort_into(spec().capacity->requests, errors_, "exactly.capacity.requests");
  }

  device_request request_;
  detail::first_error errors_;
};

// A ResourceClaim: requests and constraints.
class claim_builder {
 public:
  claim_builder(text namespace_, text name) {
    claim_.meta.namespace_ = namespace_;
    claim_.meta.name = name;
  }

  claim_builder& request(request_builder r) {
    const std::string path =
        dra::concat("spec.devices.requests[", std::to_string(claim_.spec.requests.size()), "]");
    r.finish();
    if (r.errors_.get()) errors_.note(r.errors_.take({}), path);
    claim_.spec.requests.push_back(std::move(r.request_));
    return *this;
  }
  // A request with prioritized alternatives (firstAvailable, KEP-4816): the first subrequest, in order, that can be
  // satisfied is used. Each subrequest is built as a request (its name is the subrequest's); admin access is not
  // allowed in a subrequest.
  claim_builder& first_available(text name, std::vector<request_builder> subrequests) {
    const std::string path =
        dra::concat("spec.devices.requests[", std::to_string(claim_.spec.requests.size()), "]");
    device_request request;
    request.name = name;
    for (std::size_t i = 0; i < subrequests.size(); ++i) {
      request_builder& r = subrequests[i];
      exact_device_request& spec = *r.request_.exactly;
      if (spec.capacity) detail::sort_into(spec.capacity->requests, r.errors_, "capacity.requests");
      if (spec.admin_access) r.errors_.note(dra::error{"admin access is not allowed in a subrequest"}, "adminAccess");
      if (r.errors_.get()) {
        dra::error e = r.errors_.take({});
        if (e.path.starts_with("exactly.")) e.path.erase(0, 8);  // a subrequest's fields are its own
        errors_.note(std::move(e), dra::concat(path, ".firstAvailable[", std::to_string(i), "]"));
      }
      device_sub_request sub;
      static_cast<device_request_spec&>(sub) = std::move(spec);
      sub.name = r.request_.name;
      request.first_available.push_back(std::move(sub));
    }
    claim_.spec.requests.push_back(std::move(request));
    return *this;
  }
  // The devices of `requests` (all requests when empty) must share the attribute's value.
  claim_builder& match_attribute(text attribute, std::vector<text> requests = {}) {
    claim_.spec.constraints.push_back({std::move(requests), attribute, std::nullopt});
    return *this;
  }
  // The devices of `requests` (all requests when empty) must have different values of the attribute.
  claim_builder& distinct_attribute(text attribute, std::vector<text> requests = {}) {
    claim_.spec.constraints.push_back({std::move(requests), std::nullopt, attribute});
    return *this;
  }

  [[nodiscard]] result<resource_claim> build() {
    if (errors_.get()) return errors_.take(object_label("ResourceClaim", claim_.meta));
    return std::move(claim_);
  }

 private:
  resource_claim claim_;
  detail::first_error errors_;
};

// A scenario from objects in order (their positions count up as in an input
// document); the first object that failed to build is the scenario's error.
class scenario_builder {
 public:
  template <class T>
  scenario_builder& add(result<T> object) {
    if (!object) {
      if (!error_) error_ = std::move(object).error();
      return *this;
    }
    return add(std::move(*object));
  }
  scenario_builder& add(resource_slice s) { return push(scenario_.slices, std::move(s)); }
  scenario_builder& add(device_class c) { return push(scenario_.classes, std::move(c)); }
  scenario_builder& add(resource_claim c) { return push(scenario_.claims, std::move(c)); }
  scenario_builder& add(device_taint_rule r) { return push(scenario_.taint_rules, std::move(r)); }
  scenario_builder& add(node n) { return push(scenario_.nodes, std::move(n)); }
  scenario_builder& add(pod p) { return push(scenario_.pods, std::move(p)); }
  scenario_builder& add(pod_group g) { return push(scenario_.pod_groups, std::move(g)); }
  scenario_builder& add(workload w) { return push(scenario_.workloads, std::move(w)); }
  scenario_builder& add(priority_class c) { return push(scenario_.priority_classes, std::move(c)); }
  scenario_builder& add(pod_disruption_budget b) { return push(scenario_.disruption_budgets, std::move(b)); }

  // The scenario, its pods admitted (admit_priorities): a pod naming a PriorityClass that does not exist is an error.
  [[nodiscard]] result<scenario> build() {
    if (error_) return std::move(*error_);
    if (auto problems = admit_priorities(scenario_); !problems.empty()) return std::move(problems.front());
    return std::move(scenario_);
  }

 private:
  template <class T>
  scenario_builder& push(std::vector<located<T>>& to, T object) {
    to.push_back({std::move(object), source_position{count_++, {}, {}}});
    return *this;
  }

  scenario scenario_;
  std::size_t count_ = 0;
  std::optional<dra::error> error_;
};

}  // namespace dra::model
