// Writes a JSON object as written with the fields the API server would default added where they are missing, each
// at the place Kubernetes writes it (the order of its Go struct's fields).
#pragma once

#include <dra/core/result.hpp>
#include <dra/json/overlay.hpp>
#include <dra/json/writer.hpp>

#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::json {

// A field that every object at `at` (keys from the top of the object; "*"
// stands for every item of an array) gets when it lacks `key`, and
// `applies` (when set) accepts the object. `value` is JSON text; `order`
// lists the object's keys in the order Kubernetes writes them, so the field
// goes right before the first field written after it (or last).
struct field_default {
  std::vector<std::string_view> at;
  std::string_view key;
  std::string_view value;
  std::span<const std::string_view> order;
  bool (*applies)(simdjson::dom::object) = nullptr;
};

namespace detail {

[[nodiscard]] inline bool path_matches(std::span<const std::string_view> at, std::span<const std::string_view> pattern) {
  return at.size() == pattern.size() &&
         std::equal(at.begin(), at.end(), pattern.begin(),
                    [](std::string_view key, std::string_view want) { return want == "*" || key == want; });
}

[[nodiscard]] inline std::size_t rank(std::span<const std::string_view> order, std::string_view key) {
  return static_cast<std::size_t>(std::ranges::find(order, key) - order.begin());
}

// Writes `e` (found at `at`) with `defaults` applied; returns whether it added any field. Arrays put "*" on `at`.
inline bool write_defaulted(writer& w, simdjson::dom::element e, std::vector<std::string_view>& at,
                            std::span<const field_default> defaults) {
  simdjson::dom::object object;
  simdjson::dom::array array;
  bool added = false;
  if (!e.get_object().get(object)) {
    std::vector<const field_default*> missing;
    for (const field_default& d : defaults)
      if (path_matches(at, d.at) && object.at_key(d.key).error() == simdjson::NO_SUCH_FIELD &&
          (d.applies == nullptr || d.applies(object)))
        missing.push_back(&d);
    std::ranges::stable_sort(missing, {}, [](const field_default* d) { return rank(d->order, d->key); });
    std::size_t next = 0;
    auto add_before = [&](std::size_t limit) {
      for (; next < missing.size() && rank(missing[next]->order, missing[next]->key) < limit; ++next)
        w.key(missing[next]->key).raw(missing[next]->value);
    };
    w.begin_object();
    for (auto field : object) {
      if (next < missing.size()) add_before(rank(missing[next]->order, field.key));
      at.push_back(field.key);
      added = write_defaulted(w.key(field.key), field.value, at, defaults) || added;
      at.pop_back();
    }
    add_before(static_cast<std::size_t>(-1));
    w.end_object();
    return added || !missing.empty();
  }
  if (!e.get_array().get(array)) {
    at.push_back("*");
    w.begin_array();
    for (auto item : array) added = write_defaulted(w, item, at, defaults) || added;
    w.end_array();
    at.pop_back();
    return added;
  }
  write_element(w, e);
  return false;
}

// Go's struct field order: DeviceRequest (v1beta1), ExactDeviceRequest and DeviceSubRequest share this order for
// the fields each has; DeviceToleration.
inline constexpr std::string_view request_order[] = {"name",        "deviceClassName", "selectors",
                                                     "allocationMode", "count",        "adminAccess",
                                                     "firstAvailable", "tolerations",  "capacity"};
inline constexpr std::string_view toleration_order[] = {"key", "operator", "value", "effect", "tolerationSeconds"};

[[nodiscard]] inline bool exact_count(simdjson::dom::object o) {
  std::string_view mode;
  const auto code = o["allocationMode"].get(mode);
  return code == simdjson::NO_SUCH_FIELD || (code == simdjson::SUCCESS && (mode.empty() || mode == "ExactCount"));
}
// A v1beta1 request without a device class has subrequests: the API server defaults nothing on it.
[[nodiscard]] inline bool has_class(simdjson::dom::object o) {
  std::string_view name;
  return o["deviceClassName"].get(name) == simdjson::SUCCESS && !name.empty();
}
[[nodiscard]] inline bool has_class_and_exact_count(simdjson::dom::object o) { return has_class(o) && exact_count(o); }

// The defaults of one request-like object at `at` and of its tolerations.
inline void request_defaults(std::vector<field_default>& out, std::vector<std::string_view> at, bool v1beta1_request) {
  out.push_back({at, "allocationMode", "\"ExactCount\"", request_order, v1beta1_request ? has_class : nullptr});
  out.push_back({at, "count", "1", request_order, v1beta1_request ? has_class_and_exact_count : exact_count});
  at.insert(at.end(), {"tolerations", "*"});
  out.push_back({std::move(at), "operator", "\"Equal\"", toleration_order, nullptr});
}

}  // namespace detail

// What the API server defaults in an object of `kind` and `api_version`:
// in a ResourceClaim's (and a ResourceClaimTemplate's spec.) spec.devices,
// every request and subrequest without allocationMode gets ExactCount, with
// ExactCount and no count gets count 1 (v1beta1: only a request naming a
// device class), and every toleration without operator gets Equal. Other
// kinds get nothing. A field present with any value counts as set.
[[nodiscard]] inline std::vector<field_default> api_server_defaults(std::string_view kind, std::string_view api_version) {
  std::vector<std::string_view> requests;
  if (kind == "ResourceClaim")
    requests = {"spec", "devices", "requests", "*"};
  else if (kind == "ResourceClaimTemplate")
    requests = {"spec", "spec", "devices", "requests", "*"};
  else
    return {};
  const bool v1beta1 = api_version == "resource.k8s.io/v1beta1";
  std::vector<field_default> out;
  auto exactly = requests;
  if (!v1beta1) exactly.push_back("exactly");
  detail::request_defaults(out, exactly, v1beta1);
  auto sub_requests = requests;
  sub_requests.insert(sub_requests.end(), {"firstAvailable", "*"});
  detail::request_defaults(out, sub_requests, false);
  return out;
}

// `object_json` with the API server's defaults (api_server_defaults, by its
// kind and apiVersion) added, as compact JSON text; nullopt when it lacks
// none of them.
[[nodiscard]] inline result<std::optional<std::string>> with_api_server_defaults(std::string_view object_json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::padded_string text(object_json);
  if (auto code = parser.parse(text).get(root); code != simdjson::SUCCESS)
    return dra::error{std::string("cannot read the object again: ") + simdjson::error_message(code)};
  std::string_view kind, api_version;
  if (root["kind"].get(kind) != simdjson::SUCCESS) return std::optional<std::string>();
  if (root["apiVersion"].get(api_version) != simdjson::SUCCESS) api_version = {};
  const auto defaults = api_server_defaults(kind, api_version);
  if (defaults.empty()) return std::optional<std::string>();
  writer w;
  std::vector<std::string_view> at;
  if (!detail::write_defaulted(w, root, at, defaults)) return std::optional<std::string>();
  return std::optional<std::string>(std::move(w).str());
}

}  // namespace dra::json
