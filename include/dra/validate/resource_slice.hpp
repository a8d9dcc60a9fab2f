// Validation of a ResourceSlice: names, node selection, devices, attributes, capacities and their request policies, counters, taints, binding conditions and KEP-5234 mixins.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_slice.hpp>
#include <dra/validate/common.hpp>
#include <dra/validate/detail/report.hpp>
#include <dra/validate/limits.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <variant>
#include <vector>

namespace dra::validate {

namespace detail {

// ---- attributes

inline constexpr std::string_view semver_message = "must be a string compatible with semver.org spec 2.0.0";

inline void check_string_value(reporter& r, const field_path& path, std::string_view value) {
  if (value.size() > limits::attribute_value_length) r.add(path, too_long(limits::attribute_value_length));
}

// A version built in C++ by setting only `source` has no parsed form, which CEL needs.
inline void check_version_value(reporter& r, const field_path& path, const model::version_value& value) {
  if (!value.parsed) {
    if (semver::parse(value.source))
      r.add(path, invalid_text(value.source, "the parsed version is missing (make it with dra::model::version_value(text) "
                                             "or dra::model::make_version, which parse the text)"));
    else
      r.add(path, invalid_text(value.source, semver_message));
  }
  if (value.source.size() > limits::attribute_value_length) r.add(path, too_long(limits::attribute_value_length));
}

// A list form set to an empty list counts as set, and is wrong.
template <class T>
bool check_list_not_empty(reporter& r, const field_path& path, const std::vector<T>& list) {
  if (!list.empty()) return true;
  r.add(path, invalid("[]", "must not be empty if specified"));
  return false;
}

// DeviceAttribute: exactly one field, strings and versions at most 64 bytes, versions valid semver.
inline void check_attribute(reporter& r, const field_path& path, const model::device_attribute& attribute) {
  if (attribute.fields_set == 0)
    r.add(path, invalid("\"\"", "exactly one value must be specified"));
  else if (attribute.fields_set > 1)
    r.add(path, invalid(std::to_string(attribute.fields_set) + " fields", "exactly one value must be specified"));
  if (attribute.fields_set == 0) return;  // the value is only the default then
  const model::attribute_value& v = attribute.value;
  if (const auto* s = std::get_if<model::text>(&v)) {
    check_string_value(r, child(path, "string"), *s);
  } else if (const auto* version = std::get_if<model::version_value>(&v)) {
    check_version_value(r, child(path, "version"), *version);
  } else if (const auto* ints = std::get_if<std::vector<std::int64_t>>(&v)) {
    check_list_not_empty(r, child(path, "ints"), *ints);
  } else if (const auto* bools = std::get_if<std::vector<bool>>(&v)) {
    check_list_not_empty(r, child(path, "bools"), *bools);
  } else if (const auto* strings = std::get_if<std::vector<model::text>>(&v)) {
    const field_path list = child(path, "strings");
    if (check_list_not_empty(r, list, *strings))
      for (std::size_t i = 0; i < strings->size(); ++i) check_string_value(r, index(list, i), (*strings)[i]);
  } else if (const auto* versions = std::get_if<std::vector<model::version_value>>(&v)) {
    const field_path list = child(path, "versions");
    if (check_list_not_empty(r, list, *versions))
      for (std::size_t i = 0; i < versions->size(); ++i) check_version_value(r, index(list, i), (*versions)[i]);
  }
}

[[nodiscard]] inline bool is_list_attribute(const model::device_attribute& a) noexcept {
  return model::is_list(model::kind_of(a.value));
}

// How many values an attribute holds: one for a scalar or an empty list, else the list's length.
[[nodiscard]] inline std::size_t value_count(const model::device_attribute& a) noexcept {
  const std::size_t n = std::visit(
      [](const auto& v) -> std::size_t {
        if constexpr (requires { v.size(); } && !std::is_convertible_v<decltype(v), std::string_view>)
          return v.size();
        else
          return 1;
      },
      a.value);
  return n == 0 ? 1 : n;
}

// The attribute values of a device with its mixins applied.
template <class View>
[[nodiscard]] std::size_t attribute_value_count(const View& view) {
  std::size_t total = 0;
  if (view.base().includes.empty()) {  // the common case: no merge needed
    for (const auto& entry : view.base().attributes) total += value_count(entry.value);
    return total;
  }
  for (const auto entry : view.attributes()) total += value_count(*entry.value);
  return total;
}

// Attribute and capacity names: "ID" or "domain/ID". Like upstream, a bad
// key is reported on the map's path with the key in the message.
inline void check_qualified_key(reporter& r, const field_path& map_path, std::string_view key) {
  r.add_name_problems(map_path, key, names::qualified_name(key));
}

inline void check_attributes(reporter& r, const field_path& path, const model::attribute_map& attributes) {
  check_sorted_keys(r, path, attributes);
  for (const auto& [name, attribute] : attributes) {
    check_qualified_key(r, path, name);
    check_attribute(r, child(path, name), attribute);
  }
}

// ---- capacities and request policies (KEP-5075)

// Whether `q` has a part below one unit. Values beyond 64-bit units are
// taken as whole (they are reported as not representable anyway).
[[nodiscard]] inline bool is_fractional(const quantity& q) noexcept {
  const std::int64_t whole = q.value();
  if (whole == std::numeric_limits<std::int64_t>::max() || whole == std::numeric_limits<std::int64_t>::min())
    return false;
  return !(quantity::from_int(whole) == q);
}

// Whether `q` is exactly a 64-bit number of thousandths.
[[nodiscard]] inline bool is_milli_representable(const quantity& q) noexcept {
  return quantity::from_milli(q.milli_value()) == q;
}

// Whether (value - min) is a whole number of steps, in thousandths or in
// whole units; the caller has checked that the operands are representable.
[[nodiscard]] inline bool is_step_multiple(const quantity& value, const quantity& min, const quantity& step,
                                           bool in_milli) {
  const std::int64_t v = in_milli ? value.milli_value() : value.value();
  const std::int64_t m = in_milli ? min.milli_value() : min.value();
  const std::int64_t s = in_milli ? step.milli_value() : step.value();
  if (s == 0) return true;  // reported as "must be greater than zero"
  using wide = dra::int128;  // v - m may not fit in 64 bits
  const wide difference = static_cast<wide>(v) - m;
  return difference % s == 0;
}

// The range's default, min, max and step that are set, with their field names.
struct range_bound {
  const quantity* value;
  std::string_view name;
};
[[nodiscard]] inline std::array<range_bound, 4> range_bounds(const quantity& def, const model::capacity_range& range) {
  return {range_bound{&def, "default"}, range_bound{&range.min, "min"},
          range_bound{range.max ? &*range.max : nullptr, "max"}, range_bound{range.step ? &*range.step : nullptr, "step"}};
}

// validRange's step: positive, one step within the capacity, default and
// max a whole number of steps above min. Arithmetic works in thousandths
// when any value is fractional (upstream's DRAFractionalCapacityRange), else
// in whole units, each only on values it can hold.
inline void check_range_step(reporter& r, const field_path& range_path, const quantity& capacity, const quantity& def,
                             const model::capacity_range& range, bool in_milli) {
  const quantity& step = *range.step;
  const field_path step_path = child(range_path, "step");
  if (step.sign() <= 0) {
    r.add(step_path, invalid_text(step.to_string(), "must be greater than zero"));
    return;
  }
  if (auto one_step = range.min.add(step); one_step && *one_step > capacity)
    r.add(step_path, invalid_text(step.to_string(), concat("one step ", one_step->to_string(),
                                                           " is larger than capacity value: ", capacity.to_string())));
  if (!in_milli) {
    // Whole units must be in [0, MaxInt64] for the arithmetic below.
    static const quantity int64_max = quantity::from_int(std::numeric_limits<std::int64_t>::max());
    bool unsafe = false;
    for (const range_bound& b : range_bounds(def, range)) {
      if (b.value == nullptr) continue;
      if (b.value->sign() < 0) {
        r.add(child(range_path, b.name), invalid_text(b.value->to_string(), "must be greater than or equal to 0"));
        unsafe = true;
      } else if (*b.value > int64_max) {
        r.add(child(range_path, b.name), invalid_text(b.value->to_string(), "must not be larger than 9223372036854775807"));
        unsafe = true;
      }
    }
    if (unsafe) return;
  }
  const std::string not_multiple =
      concat("value is not a multiple of a given step (", step.to_string(), ") from (", range.min.to_string(), ")");
  if (!is_step_multiple(def, range.min, step, in_milli)) r.add(step_path, invalid_text(def.to_string(), not_multiple));
  if (range.max && !is_step_multiple(*range.max, range.min, step, in_milli))
    r.add(step_path, invalid_text(range.max->to_string(), not_multiple));
}

// validRange (the default is required and checked by the caller's path rules).
inline void check_valid_range(reporter& r, const field_path& range_path, const quantity& capacity, const quantity& def,
                              const model::capacity_range& range) {
  const field_path min_path = child(range_path, "min");
  const field_path max_path = child(range_path, "max");
  const field_path default_path = child(range_path, "default");
  if (!range.has_min) {
    r.add(min_path, required("required when validRange is defined"));
    return;
  }
  if (range.min > capacity)
    r.add(min_path, invalid_text(range.min.to_string(), concat("min is larger than capacity value: ", capacity.to_string())));
  if (def < range.min)
    r.add(default_path, invalid_text(def.to_string(), concat("default is less than min: ", range.min.to_string())));
  if (range.max) {
    if (range.min > *range.max)
      r.add(max_path, invalid_text(range.min.to_string(), concat("min is larger than max: ", range.max->to_string())));
    if (*range.max > capacity)
      r.add(max_path, invalid_text(range.max->to_string(), concat("max is larger than capacity value: ", capacity.to_string())));
    if (def > *range.max)
      r.add(default_path, invalid_text(def.to_string(), concat("default is more than max: ", range.max->to_string())));
  } else if (def > capacity) {
    r.add(default_path, invalid_text(def.to_string(), concat("default is larger than capacity value: ", capacity.to_string())));
  }
  bool in_milli = is_fractional(def);
  for (const range_bound& b : range_bounds(def, range))
    if (b.value != nullptr && is_fractional(*b.value)) in_milli = true;
  if (in_milli) {
    bool unsafe = false;
    for (const range_bound& b : range_bounds(def, range))
      if (b.value != nullptr && !is_milli_representable(*b.value)) {
        r.add(child(range_path, b.name), invalid_text(b.value->to_string(), "value cannot be represented as a milli value"));
        unsafe = true;
      }
    if (unsafe) return;  // no arithmetic on values that do not fit
  }
  if (range.step) check_range_step(r, range_path, capacity, def, range, in_milli);
  // The reference requires min >= 0; upstream checks it only on its whole-unit step path.
  const bool checked_as_whole_units = range.step && range.step->sign() > 0 && !in_milli;
  if (range.min.sign() < 0 && !checked_as_whole_units)
    r.add(min_path, invalid_text(range.min.to_string(), "must be greater than or equal to 0"));
}

inline void check_request_policy(reporter& r, const field_path& path, const quantity& capacity,
                                 const model::capacity_request_policy& policy) {
  const field_path default_path = child(path, "default");
  if (!policy.valid_values.empty() && policy.valid_range) {
    r.add(path, forbidden("exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at "
                          "the same time"));
    return;
  }
  if (!policy.valid_values.empty()) {
    if (!policy.default_value) {
      r.add(default_path, required("required when validValues is defined"));
      return;
    }
    const field_path values = child(path, "validValues");
    const auto& options = policy.valid_values;
    if (options.size() > limits::valid_values_per_request_policy) {
      r.add(values, too_many(options.size(), limits::valid_values_per_request_policy));
      return;
    }
    bool found_default = false;
    for (std::size_t i = 0; i < options.size(); ++i) {
      const field_path at = index(values, i);
      if (i > 0 && options[i - 1] > options[i])
        r.add(at, invalid_text(options[i].to_string(), "values must be sorted in ascending order"));
      if (options[i] > capacity)
        r.add(at, invalid_text(options[i].to_string(),
                               concat("option is larger than capacity value: ", capacity.to_string())));
      for (std::size_t j = 0; j < i; ++j)
        if (options[j] == options[i]) {
          // Shown as the number, as upstream keys options by value (1Ki and 1024 are one).
          r.add(at, duplicate(is_fractional(options[i]) ? options[i].to_string() : std::to_string(options[i].value())));
          break;
        }
      if (options[i] == *policy.default_value) found_default = true;
    }
    if (!found_default)
      r.add(values, invalid_text(policy.default_value->to_string(),
                                 "default value is not valid according to the requestPolicy"));
    return;
  }
  if (policy.valid_range) {
    if (!policy.default_value) {
      r.add(default_path, required("required when validRange is defined"));
      return;
    }
    check_valid_range(r, child(path, "validRange"), capacity, *policy.default_value, *policy.valid_range);
    return;
  }
  if (policy.default_value && *policy.default_value > capacity)
    r.add(default_path, invalid_text(policy.default_value->to_string(),
                                     concat("default is larger than capacity value: ", capacity.to_string())));
}

// `shared`: the device (or, for a mixin, any device) may carry request
// policies; a plain device must not.
inline void check_capacities(reporter& r, const field_path& path, const model::capacity_map& capacities, bool shared) {
  check_sorted_keys(r, path, capacities);
  for (const auto& [name, capacity] : capacities) {
    check_qualified_key(r, path, name);
    if (!capacity.request_policy) continue;
    const field_path policy_path = child(child(path, name), "requestPolicy");
    if (shared)
      check_request_policy(r, policy_path, capacity.value, *capacity.request_policy);
    else
      r.add(policy_path, forbidden("allowMultipleAllocations must be true"));
  }
}

// ---- counters

inline void check_counter_names(reporter& r, const field_path& path, const model::counter_map& counters) {
  check_sorted_keys(r, path, counters);
  for (const auto& entry : counters) r.add_name_problems(path, entry.name, names::dns1123_label(entry.name));
}

// An `includes` list: at most `max` names, each naming a mixin of `available`.
template <class Mixin>
void check_includes(reporter& r, const field_path& path, const std::vector<model::text>& includes,
                    const std::vector<Mixin>* available, std::size_t max, std::string_view kind) {
  if (includes.size() > max) {
    r.add(path, too_many(includes.size(), max));
    return;
  }
  for (std::size_t i = 0; i < includes.size(); ++i) {
    bool found = false;
    if (available != nullptr)
      for (const Mixin& m : *available)
        if (m.name == includes[i]) {
          found = true;
          break;
        }
    if (!found)
      r.add(index(path, i), invalid_text(includes[i], concat("must be the name of a ", kind, " mixin in this ResourceSlice")));
  }
}

// ---- devices

inline void check_taint(reporter& r, const field_path& path, const model::device_taint& taint) {
  check_label_key(r, child(path, "key"), taint.key);
  if (!taint.value.empty()) r.add_name_problems(child(path, "value"), taint.value, names::label_value(taint.value));
  if (taint.effect.empty())
    r.add(child(path, "effect"), required());
  else if (!model::is_taint_effect(taint.effect))
    r.add(child(path, "effect"), not_supported(taint.effect, model::taint_effects));
}

inline void check_device_node_selection(reporter& r, const field_path& path, const model::device& d,
                                        bool per_device) {
  if (!per_device) {
    if (d.node_name || d.node_selector || d.all_nodes)
      r.add(path, invalid("null", "`nodeName`, `nodeSelector` and `allNodes` can only be set if "
                                  "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"));
    return;
  }
  std::vector<std::string_view> set;
  if (d.node_name) {
    if (d.node_name->empty()) {
      r.add(child(path, "nodeName"), invalid("\"\"", "must not be empty"));
    } else {
      set.emplace_back("`nodeName`");
      r.add_name_problems(child(path, "nodeName"), *d.node_name, names::dns1123_subdomain(*d.node_name));
    }
  }
  if (d.node_selector) {
    set.emplace_back("`nodeSelector`");
    check_node_selector(r, child(path, "nodeSelector"), *d.node_selector, true);
  }
  if (d.all_nodes) {
    if (*d.all_nodes)
      set.emplace_back("`allNodes`");
    else
      r.add(child(path, "allNodes"), invalid("false", "must be either unset or set to true"));
  }
  constexpr std::string_view rule =
      "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to "
      "true in the ResourceSlice spec";
  if (set.empty()) {
    r.add(path, required(rule));
  } else if (set.size() > 1) {
    std::string shown = "{";
    for (std::size_t i = 0; i < set.size(); ++i) shown += concat(i ? ", " : "", set[i]);
    shown += "}";
    r.add(path, invalid(shown, rule));
  }
}

inline void check_counter_consumptions(reporter& r, const field_path& path, const flatten::mixin_device_view& view,
                                       const model::resource_slice_mixins* mixins) {
  const auto& consumptions = view.base().consumes_counters;
  if (consumptions.size() > limits::counter_consumptions_per_device) {
    r.add(path, too_many(consumptions.size(), limits::counter_consumptions_per_device));
    return;
  }
  for (std::size_t i = 0; i < consumptions.size(); ++i) {
    const model::device_counter_consumption& c = consumptions[i];
    const field_path at = index(path, i);
    check_label_name(r, child(at, "counterSet"), c.counter_set);
    const field_path counters = child(at, "counters");
    const flatten::mixin_counter_consumption_view flat(c, mixins);
    const auto total = static_cast<std::size_t>(std::ranges::distance(flat.counters()));
    if (total == 0)
      r.add(counters, required());
    else if (total > limits::counters_per_counter_consumption)
      r.add(counters, too_many(total, limits::counters_per_counter_consumption));
    check_counter_names(r, counters, c.counters);
    check_includes(r, child(at, "includes"), c.includes, mixins ? &mixins->device_counter_consumption : nullptr,
                   limits::counter_consumption_includes, "device counter consumption");
    // KEP-5963: a short list of unique DNS labels.
    const field_path groups = child(at, "compatibilityGroups");
    if (c.compatibility_groups.size() > limits::compatibility_groups_per_counter_consumption)
      r.add(groups, too_many(c.compatibility_groups.size(), limits::compatibility_groups_per_counter_consumption));
    for (std::size_t g = 0; g < c.compatibility_groups.size(); ++g) {
      check_label_name(r, index(groups, g), c.compatibility_groups[g]);
      const auto earlier = c.compatibility_groups.begin() + static_cast<std::ptrdiff_t>(g);
      if (std::find(c.compatibility_groups.begin(), earlier, c.compatibility_groups[g]) != earlier)
        r.add(index(groups, g), duplicate(c.compatibility_groups[g]));
    }
    for (std::size_t j = 0; j < i; ++j)
      if (consumptions[j].counter_set == c.counter_set) {
        r.add(at, duplicate(c.counter_set));
        break;
      }
  }
}

// ---- node allocatable resources (KEP-5517)

// The node resources a device may account for: the ones a node's status.allocatable reports that are not extended
// resources (cpu, memory, ephemeral-storage, hugepages-<size>).
[[nodiscard]] inline bool is_node_allocatable_resource_name(std::string_view name) {
  if (name == "cpu" || name == "memory" || name == "ephemeral-storage") return true;
  if (!name.starts_with("hugepages-")) return false;
  const auto size = quantity::parse(name.substr(std::string_view("hugepages-").size()));
  return size && size->sign() > 0;
}

inline void check_non_negative(reporter& r, const field_path& path, const std::optional<quantity>& q) {
  if (q && q->sign() < 0) r.add(path, invalid_text(q->to_string(), "must be greater than or equal to 0"));
}

inline void check_node_allocatable_mapping(reporter& r, const field_path& path, const model::node_allocatable_mapping& m) {
  const field_path key_path = child(path, "capacityKey");
  if (m.capacity_key && m.device_multiplier)
    r.add(path, invalid("{`capacityKey`, `deviceMultiplier`}",
                        "exactly one of `capacityKey`, `deviceMultiplier` is required, but multiple fields are set"));
  else if (!m.capacity_key && !m.device_multiplier)
    r.add(path, required("exactly one of `capacityKey`, `deviceMultiplier` is required"));
  if (m.capacity_key) {
    r.add_name_problems(key_path, *m.capacity_key, names::qualified_name(*m.capacity_key));
    if (!m.capacity_multiplier) r.add(child(path, "capacityMultiplier"), required("`capacityKey` is set"));
  } else if (m.capacity_multiplier) {
    r.add(key_path, required("`capacityMultiplier` is set"));
  }
  check_non_negative(r, child(path, "capacityMultiplier"), m.capacity_multiplier);
  check_non_negative(r, child(path, "deviceMultiplier"), m.device_multiplier);
}

inline void check_node_allocatable_resources(reporter& r, const field_path& path, const model::device& d) {
  if (!d.node_allocatable_resources) return;
  check_sorted_keys(r, path, *d.node_allocatable_resources);
  for (const auto& [name, resource] : *d.node_allocatable_resources) {
    const field_path at = child(path, name);
    if (!is_node_allocatable_resource_name(name))
      r.add(path, invalid_text(name, "must be a node allocatable resource (cpu, memory, ephemeral-storage or "
                                     "hugepages-<size>), not an extended resource"));
    if (!resource.mapping && !resource.overhead) r.add(at, required("at least one of `mapping`, `overhead` is required"));
    if (resource.mapping) check_node_allocatable_mapping(r, child(at, "mapping"), *resource.mapping);
    if (const auto& overhead = resource.overhead) {
      const field_path overhead_path = child(at, "overhead");
      if (!overhead->per_pod && !overhead->per_container)
        r.add(overhead_path, required("at least one of `perPod`, `perContainer` is required"));
      check_non_negative(r, child(overhead_path, "perPod"), overhead->per_pod);
      check_non_negative(r, child(overhead_path, "perContainer"), overhead->per_container);
    }
  }
}

inline void check_device(reporter& r, const field_path& path, const model::device& d,
                         const model::resource_slice& slice) {
  const model::resource_slice_mixins* mixins = slice.mixins ? &*slice.mixins : nullptr;
  const flatten::mixin_device_view view(d, mixins);
  const bool shared = d.allow_multiple_allocations.value_or(false);
  check_label_name(r, child(path, "name"), d.name);

  // Counted with the device's mixins applied (KEP-5234), each name once.
  const std::size_t attributes_and_capacities = view.attribute_count() + view.capacity_count();
  if (attributes_and_capacities > limits::attributes_and_capacities_per_device)
    r.add(path, invalid(std::to_string(attributes_and_capacities),
                        concat("the total number of attributes and capacities must not exceed ",
                               std::to_string(limits::attributes_and_capacities_per_device))));
  // List-typed attributes count once per item (ResourceSliceMaxAttributeValuesPerDevice).
  if (const std::size_t values = attribute_value_count(view); values > limits::attribute_values_per_device)
    r.add(path, invalid(std::to_string(values), concat("the total number of attribute values must not exceed ",
                                                       std::to_string(limits::attribute_values_per_device))));
  check_attributes(r, child(path, "attributes"), d.attributes);
  check_capacities(r, child(path, "capacity"), d.capacity, shared);

  const field_path includes = child(path, "includes");
  check_includes(r, includes, d.includes, mixins ? &mixins->device : nullptr, limits::device_includes, "device");
  // A request policy that a mixin brings in needs a shareable device just as its own would.
  if (!shared && !d.includes.empty())
    for (const auto entry : view.capacities())
      if (entry.value->request_policy && model::find(d.capacity, entry.name) == nullptr)
        r.add(includes, forbidden(concat("capacity ", quoted(entry.name),
                                         " from a mixin has a requestPolicy: allowMultipleAllocations must be true")));

  const field_path taints = child(path, "taints");
  if (d.taints.size() > limits::taints_per_device)
    r.add(taints, too_many(d.taints.size(), limits::taints_per_device));
  else
    for (std::size_t i = 0; i < d.taints.size(); ++i) check_taint(r, index(taints, i), d.taints[i]);

  check_counter_consumptions(r, child(path, "consumesCounters"), view, mixins);
  check_device_node_selection(r, path, d, slice.per_device_node_selection.value_or(false));
  check_binding_conditions(r, path, d.binding_conditions, d.binding_failure_conditions);
  check_node_allocatable_resources(r, child(path, "nodeAllocatableResources"), d);
}

// ---- the slice

inline void check_slice_node_selection(reporter& r, const model::resource_slice& s) {
  std::vector<std::string_view> set;
  if (s.node_name) {
    if (s.node_name->empty()) {
      r.add("spec.nodeName", invalid("\"\"", "must be either unset or set to a non-empty string"));
    } else {
      set.emplace_back("`nodeName`");
      r.add_name_problems("spec.nodeName", *s.node_name, names::dns1123_subdomain(*s.node_name));
    }
  }
  if (s.node_selector) {
    set.emplace_back("`nodeSelector`");
    check_node_selector(r, "spec.nodeSelector", *s.node_selector, true);
  }
  if (s.all_nodes) {
    if (*s.all_nodes)
      set.emplace_back("`allNodes`");
    else
      r.add("spec.allNodes", invalid("false", "must be either unset or set to true"));
  }
  if (s.per_device_node_selection) {
    if (*s.per_device_node_selection)
      set.emplace_back("`perDeviceNodeSelection`");
    else
      r.add("spec.perDeviceNodeSelection", invalid("false", "must be either unset or set to true"));
  }
  constexpr std::string_view rule =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
  if (set.empty()) {
    r.add("spec", required(rule));
  } else if (set.size() > 1) {
    std::string shown = "{";
    for (std::size_t i = 0; i < set.size(); ++i) shown += concat(i ? ", " : "", set[i]);
    shown += "}";
    r.add("spec", invalid(shown, concat(rule, ", but multiple fields are set")));
  }
}

inline void check_counter_sets(reporter& r, const model::resource_slice& s) {
  const field_path path = "spec.sharedCounters";
  const model::resource_slice_mixins* mixins = s.mixins ? &*s.mixins : nullptr;
  if (s.shared_counters.size() > limits::counter_sets_per_slice) {
    r.add(path, too_many(s.shared_counters.size(), limits::counter_sets_per_slice));
    return;
  }
  for (std::size_t i = 0; i < s.shared_counters.size(); ++i) {
    const model::counter_set& set = s.shared_counters[i];
    const field_path at = index(path, i);
    check_label_name(r, child(at, "name"), set.name);
    const field_path counters = child(at, "counters");
    const flatten::mixin_counter_set_view flat(set, mixins);
    const auto total = static_cast<std::size_t>(std::ranges::distance(flat.counters()));
    if (total == 0)
      r.add(counters, required());
    else if (total > limits::counters_per_counter_set)
      r.add(counters, too_many(total, limits::counters_per_counter_set));
    check_counter_names(r, counters, set.counters);
    check_includes(r, child(at, "includes"), set.includes, mixins ? &mixins->counter_set : nullptr,
                   limits::counter_set_includes, "counter set");
    for (std::size_t j = 0; j < i; ++j)
      if (s.shared_counters[j].name == set.name) {
        r.add(at, duplicate(set.name));
        break;
      }
  }
}

// Mixin names are DNS labels, unique among the mixins of their kind.
template <class Mixin>
bool check_mixin_list(reporter& r, const field_path& path, const std::vector<Mixin>& list, std::size_t max) {
  if (list.size() > max) {
    r.add(path, too_many(list.size(), max));
    return false;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    check_label_name(r, child(index(path, i), "name"), list[i].name);
    for (std::size_t j = 0; j < i; ++j)
      if (list[j].name == list[i].name) {
        r.add(index(path, i), duplicate(list[i].name));
        break;
      }
  }
  return true;
}

inline void check_mixins(reporter& r, const model::resource_slice_mixins& m) {
  const field_path device_path = "spec.mixins.device";
  if (check_mixin_list(r, device_path, m.device, limits::device_mixins_per_slice))
    for (std::size_t i = 0; i < m.device.size(); ++i) {
      const field_path at = index(device_path, i);
      check_attributes(r, child(at, "attributes"), m.device[i].attributes);
      // Whether an including device may share is checked on the device.
      check_capacities(r, child(at, "capacity"), m.device[i].capacity, true);
    }
  const field_path consumption_path = "spec.mixins.deviceCounterConsumption";
  if (check_mixin_list(r, consumption_path, m.device_counter_consumption, limits::counter_consumption_mixins_per_slice))
    for (std::size_t i = 0; i < m.device_counter_consumption.size(); ++i) {
      const field_path counters = child(index(consumption_path, i), "counters");
      const auto& map = m.device_counter_consumption[i].counters;
      if (map.empty()) r.add(counters, required());
      if (map.size() > limits::counters_per_counter_consumption)
        r.add(counters, too_many(map.size(), limits::counters_per_counter_consumption));
      check_counter_names(r, counters, map);
    }
  const field_path set_path = "spec.mixins.counterSet";
  if (check_mixin_list(r, set_path, m.counter_set, limits::counter_set_mixins_per_slice))
    for (std::size_t i = 0; i < m.counter_set.size(); ++i) {
      const field_path counters = child(index(set_path, i), "counters");
      const auto& map = m.counter_set[i].counters;
      if (map.empty()) r.add(counters, required());
      if (map.size() > limits::counters_per_counter_set)
        r.add(counters, too_many(map.size(), limits::counters_per_counter_set));
      check_counter_names(r, counters, map);
    }
}

// The slice-wide totals of KEP-5234 and the API reference, over what is
// written (devices and mixins), not over flattened devices.
inline void check_slice_totals(reporter& r, const model::resource_slice& s) {
  std::size_t attributes_and_capacities = 0, consumed_counters = 0, counters = 0;
  for (const model::device& d : s.devices) {
    attributes_and_capacities += d.attributes.size() + d.capacity.size();
    for (const auto& c : d.consumes_counters) consumed_counters += c.counters.size();
  }
  for (const model::counter_set& set : s.shared_counters) counters += set.counters.size();
  if (s.mixins) {
    for (const auto& m : s.mixins->device) attributes_and_capacities += m.attributes.size() + m.capacity.size();
    for (const auto& m : s.mixins->device_counter_consumption) consumed_counters += m.counters.size();
    for (const auto& m : s.mixins->counter_set) counters += m.counters.size();
  }
  if (attributes_and_capacities > limits::attributes_and_capacities_per_slice)
    r.add("spec", invalid(std::to_string(attributes_and_capacities),
                          concat("the total number of attributes and capacities of devices and device mixins must "
                                 "not exceed ",
                                 std::to_string(limits::attributes_and_capacities_per_slice))));
  if (consumed_counters > limits::consumed_counters_per_slice)
    r.add("spec", invalid(std::to_string(consumed_counters),
                          concat("the total number of counters consumed by devices and device counter consumption "
                                 "mixins must not exceed ",
                                 std::to_string(limits::consumed_counters_per_slice))));
  if (counters > limits::counters_per_slice)
    r.add("spec", invalid(std::to_string(counters),
                          concat("the total number of counters in counter sets and counter set mixins must not exceed ",
                                 std::to_string(limits::counters_per_slice))));
}

// Taints, counter consumption and list-typed attributes lower the device limit.
[[nodiscard]] inline bool uses_advanced_device_features(const model::resource_slice& s) noexcept {
  for (const model::device& d : s.devices) {
    if (!d.taints.empty() || !d.consumes_counters.empty()) return true;
    for (const auto& a : d.attributes)
      if (is_list_attribute(a.value)) return true;
  }
  return false;
}

inline void check_slice(reporter& r, const model::resource_slice& s) {
  check_object_meta(r, s.meta, scope::cluster);
  check_driver_name(r, "spec.driver", s.driver);
  check_pool_name(r, "spec.pool.name", s.pool.name, limits::pool_name_length);
  if (s.pool.resource_slice_count <= 0)
    r.add("spec.pool.resourceSliceCount", invalid_number(s.pool.resource_slice_count, "must be greater than zero"));
  if (s.pool.generation < 0)
    r.add("spec.pool.generation", invalid_number(s.pool.generation, "must be greater than or equal to zero"));
  check_slice_node_selection(r, s);
  if (!s.devices.empty() && !s.shared_counters.empty())
    r.add("spec", invalid("\"\"", "only one of `sharedCounters` or `devices` is allowed"));

  const std::size_t max_devices = uses_advanced_device_features(s) ? limits::devices_per_slice_with_advanced_features
                                                                   : limits::devices_per_slice;
  if (s.devices.size() > max_devices) {
    // As upstream: past the limit, only the count is reported.
    r.add("spec.devices", too_many(s.devices.size(), max_devices));
  } else {
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
      const field_path at = index("spec.devices", i);
      check_device(r, at, s.devices[i], s);
      for (std::size_t j = 0; j < i; ++j)
        if (s.devices[j].name == s.devices[i].name) {
          r.add(at, duplicate(s.devices[i].name));
          break;
        }
    }
  }
  check_counter_sets(r, s);
  if (s.mixins) check_mixins(r, *s.mixins);
  check_slice_totals(r, s);
}

}  // namespace detail

// Appends every problem of `slice` to `errors`, each naming `object`
// ("ResourceSlice/<name>" when left empty).
inline void validate_resource_slice(const model::resource_slice& slice, error_list& errors, std::string object = {}) {
  if (object.empty()) object = detail::object_label("ResourceSlice", {}, slice.meta.name);
  detail::reporter r(errors, std::move(object));
  detail::check_slice(r, slice);
}

// Every problem of one ResourceSlice; empty when it is valid.
[[nodiscard]] inline error_list validate_resource_slice(const model::resource_slice& slice) {
  error_list errors;
  validate_resource_slice(slice, errors);
  return errors;
}

}  // namespace dra::validate
