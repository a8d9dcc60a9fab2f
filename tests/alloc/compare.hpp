// Compares two scenario output documents as JSON values the way the conformance README asks: quantities by value,
// shareIDs by presence, device results unordered where the case says so.
#pragma once

#include <dra/core/quantity.hpp>

#include <simdjson.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace dra_test {

namespace dom = simdjson::dom;

// Empty when equal; otherwise where they first differ.
inline std::string json_diff(dom::element a, dom::element b, const std::string& path, std::string_view key = {}) {
  if (key == "shareID") return (a.type() == b.type()) ? "" : path + ": shareID presence differs";
  if (a.type() != b.type()) return path + ": types differ";
  switch (a.type()) {
    case dom::element_type::OBJECT: {
      dom::object oa = a, ob = b;
      if (oa.size() != ob.size()) return path + ": object sizes differ";
      for (auto field : oa) {
        dom::element other;
        if (ob.at_key(field.key).get(other)) return path + ": missing key " + std::string(field.key);
        auto d = json_diff(field.value, other, path + "." + std::string(field.key), field.key);
        if (!d.empty()) return d;
      }
      return "";
    }
    case dom::element_type::ARRAY: {
      dom::array xa = a, xb = b;
      if (xa.size() != xb.size()) return path + ": array sizes differ";
      std::size_t i = 0;
      auto ib = xb.begin();
      for (auto ea : xa) {
        auto d = json_diff(ea, *ib, path + "[" + std::to_string(i++) + "]");
        if (!d.empty()) return d;
        ++ib;
      }
      return "";
    }
    case dom::element_type::STRING: {
      std::string_view sa = a, sb = b;
      if (sa == sb) return "";
      auto qa = dra::quantity::parse(sa), qb = dra::quantity::parse(sb);
      if (qa && qb && *qa == *qb) return "";
      return path + ": \"" + std::string(sa) + "\" vs \"" + std::string(sb) + "\"";
    }
    default:
      return simdjson::minify(a) == simdjson::minify(b) ? "" : path + ": values differ";
  }
}

// Device results compared as a multiset.
inline std::string unordered_diff(dom::array a, dom::array b, const std::string& path) {
  if (a.size() != b.size()) return path + ": array sizes differ";
  std::vector<bool> used(b.size(), false);
  for (auto ea : a) {
    bool found = false;
    std::size_t j = 0;
    for (auto eb : b) {
      if (!used[j] && json_diff(ea, eb, path).empty()) {
        used[j] = found = true;
        break;
      }
      ++j;
    }
    if (!found) return path + ": " + simdjson::minify(ea) + " has no counterpart";
  }
  return "";
}

}  // namespace dra_test
