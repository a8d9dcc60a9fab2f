// Helpers for the validation tests: JSON builders for slices, claims and classes, and error matchers.
#pragma once

#include <dra/json/ingest.hpp>
#include <dra/validate/scenario.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace validate_test {

// Loads `json` (failing the test if it does not load) and validates it:
// each object on its own, or, with `pools`, also across the slices of each pool.
inline dra::error_list errors_of(const std::string& json, bool pools = false) {
  auto doc = dra::json::load(json);
  if (!doc) {
    ADD_FAILURE() << "does not load: " << doc.error().to_string() << "\n" << json;
    return {};
  }
  return pools ? dra::validate::validate(*doc) : dra::validate::validate_objects(doc->scenario());
}

inline std::string dump(const dra::error_list& errors) {
  std::string out;
  for (const auto& e : errors) out += "  " + e.to_string() + "\n";
  return out.empty() ? "  (no errors)\n" : out;
}

// Whether some error has exactly `path` and a message containing `message`.
inline bool has_error(const dra::error_list& errors, std::string_view path, std::string_view message) {
  for (const auto& e : errors)
    if (e.path == path && e.message.find(message) != std::string::npos) return true;
  return false;
}

#define EXPECT_VALID(json)                                   \
  do {                                                       \
    const auto errors_ = ::validate_test::errors_of(json);   \
    EXPECT_TRUE(errors_.empty()) << ::validate_test::dump(errors_); \
  } while (0)

#define EXPECT_PROBLEM(json, path, message)                                                      \
  do {                                                                                           \
    const auto errors_ = ::validate_test::errors_of(json);                                       \
    EXPECT_TRUE(::validate_test::has_error(errors_, path, message))                              \
        << "expected " << (path) << ": ..." << (message) << "...\ngot:\n" << ::validate_test::dump(errors_); \
  } while (0)

// A ResourceSlice of pool p with `spec` (JSON members without braces)
// added; the driver defaults to gpu.example.com, node selection to nodeName.
inline std::string slice(const std::string& spec, std::string_view name = "slice-1") {
  std::string s = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")";
  s += name;
  s += R"("},"spec":{"pool":{"name":"p","generation":1,"resourceSliceCount":1})";
  if (spec.find("\"driver\"") == std::string::npos) s += R"(,"driver":"gpu.example.com")";
  if (spec.find("\"nodeName\"") == std::string::npos && spec.find("\"nodeSelector\"") == std::string::npos &&
      spec.find("\"allNodes\"") == std::string::npos && spec.find("\"perDeviceNodeSelection\"") == std::string::npos)
    s += R"(,"nodeName":"node-1")";
  if (!spec.empty()) s += "," + spec;
  s += "}}";
  return s;
}

// A slice with these devices (each a JSON object).
inline std::string slice_with_devices(const std::string& devices) { return slice(R"("devices":[)" + devices + "]"); }

// A device named `name` with extra members.
inline std::string device(std::string_view name, const std::string& members = {}) {
  std::string d = R"({"name":")";
  d += name;
  d += "\"";
  if (!members.empty()) d += "," + members;
  d += "}";
  return d;
}

// `n` devices dev-0 … dev-(n-1), each with `members`.
inline std::string devices(int n, const std::string& members = {}) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i) out += ",";
    out += device("dev-" + std::to_string(i), members);
  }
  return out;
}

// A JSON map of `n` entries key-prefix0 … with `value` each, e.g. attributes or counters.
inline std::string map_of(int n, std::string_view prefix, const std::string& value, int first = 0) {
  std::string out = "{";
  for (int i = first; i < first + n; ++i) {
    if (i != first) out += ",";
    out += "\"" + std::string(prefix) + std::to_string(i) + "\":" + value;
  }
  return out + "}";
}

// A JSON map of `n` counters c<first>… of value 1.
inline std::string counters(int n, int first = 0) { return map_of(n, "c", R"({"value":"1"})", first); }

// A JSON list of `n` copies of `item(i)`.
template <class Item>
std::string list_of(int n, Item item) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    if (i) out += ",";
    out += item(i);
  }
  return out + "]";
}

inline std::string claim(const std::string& devices_members, std::string_view name = "claim-1") {
  std::string c = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":")";
  c += name;
  c += R"(","namespace":"default"},"spec":{"devices":{)" + devices_members + "}}}";
  return c;
}

inline std::string exact_request(std::string_view name, const std::string& extra = {}) {
  std::string r = R"({"name":")";
  r += name;
  r += R"(","exactly":{"deviceClassName":"gpu.example.com")";
  if (!extra.empty()) r += "," + extra;
  return r + "}}";
}

inline std::string device_class(const std::string& spec, std::string_view name = "gpu.example.com") {
  std::string c = R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":")";
  c += name;
  return c + R"("},"spec":{)" + spec + "}}";
}

}  // namespace validate_test
