// Test support: compares two JSON texts as values, quantities by value, and says where they differ.
#pragma once

#include <dra/core/quantity.hpp>

#include <simdjson.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace dra_test {

namespace detail {

inline bool same_string(std::string_view a, std::string_view b, bool compare_as_quantities) {
  if (a == b) return true;
  if (!compare_as_quantities) return false;
  auto qa = dra::quantity::parse(a);
  auto qb = dra::quantity::parse(b);
  return qa && qb && *qa == *qb;
}

inline bool equal(simdjson::dom::element a, simdjson::dom::element b, const std::string& path, std::string& diff,
                  bool quantities) {
  using simdjson::dom::element_type;
  auto fail = [&](std::string why) {
    diff = path + ": " + why;
    return false;
  };
  const bool a_number = a.is_number();
  if (a_number && b.is_number()) {
    if (double(a.get_double()) != double(b.get_double())) return fail("numbers differ");
    return true;
  }
  if (a.type() != b.type()) return fail("types differ");
  switch (a.type()) {
    case element_type::STRING:
      if (!same_string(a.get_string().value(), b.get_string().value(), quantities))
        return fail("\"" + std::string(a.get_string().value()) + "\" != \"" + std::string(b.get_string().value()) +
                    "\"");
      return true;
    case element_type::BOOL:
      if (bool(a.get_bool()) != bool(b.get_bool())) return fail("booleans differ");
      return true;
    case element_type::NULL_VALUE:
      return true;
    case element_type::ARRAY: {
      auto xa = a.get_array().value();
      auto xb = b.get_array().value();
      if (xa.size() != xb.size())
        return fail("array sizes " + std::to_string(xa.size()) + " and " + std::to_string(xb.size()));
      std::size_t i = 0;
      auto ib = xb.begin();
      for (auto ea : xa) {
        if (!equal(ea, *ib, path + "[" + std::to_string(i) + "]", diff, quantities)) return false;
        ++ib;
        ++i;
      }
      return true;
    }
    case element_type::OBJECT: {
      auto oa = a.get_object().value();
      auto ob = b.get_object().value();
      if (oa.size() != ob.size()) {
        std::string keys_a, keys_b;
        for (auto [k, v] : oa) keys_a += std::string(k) + " ";
        for (auto [k, v] : ob) keys_b += std::string(k) + " ";
        return fail("object keys differ: {" + keys_a + "} vs {" + keys_b + "}");
      }
      for (auto [key, value] : oa) {
        auto other = ob[key];
        if (other.error()) return fail("missing key " + std::string(key));
        if (!equal(value, other.value(), path + "." + std::string(key), diff, quantities)) return false;
      }
      return true;
    }
    default:
      return fail("unexpected type");
  }
}

}  // namespace detail

// True when `a` and `b` are the same JSON value. With `quantities`, strings
// that parse as equal quantities count as equal ("1Gi" and "1024Mi").
inline bool json_equal(std::string_view a, std::string_view b, std::string& diff, bool quantities = true) {
  simdjson::dom::parser pa, pb;
  simdjson::padded_string sa(a), sb(b);
  simdjson::dom::element ea, eb;
  if (pa.parse(sa).get(ea)) {
    diff = "first text is not JSON";
    return false;
  }
  if (pb.parse(sb).get(eb)) {
    diff = "second text is not JSON";
    return false;
  }
  return detail::equal(ea, eb, "$", diff, quantities);
}

}  // namespace dra_test
