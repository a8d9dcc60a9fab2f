// Rewrites a JSON object as written with some fields set to new values (an object's status after allocation, a pod's
// node), keeping every other field, its order and its value.
#pragma once

#include <dra/core/result.hpp>
#include <dra/json/writer.hpp>

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::json {

// A value to put at `path` (keys from the top of the object, e.g.
// {"status", "allocation"}), written by `write`.
struct field_override {
  std::vector<std::string_view> path;
  std::function<void(writer&)> write;
};

// Writes one JSON value through `w`, as Go's encoding/json would write it (its escaping; numbers as written when
// integral, the shortest round trip otherwise).
inline void write_element(writer& w, simdjson::dom::element e) {
  using type = simdjson::dom::element_type;
  switch (e.type()) {
    case type::OBJECT: {
      // Held in a variable: a range over get_object().value_unsafe() would outlive its temporary.
      const simdjson::dom::object object = e.get_object().value_unsafe();
      w.begin_object();
      for (auto field : object) {
        w.key(field.key);
        write_element(w, field.value);
      }
      w.end_object();
      return;
    }
    case type::ARRAY: {
      const simdjson::dom::array array = e.get_array().value_unsafe();
      w.begin_array();
      for (auto item : array) write_element(w, item);
      w.end_array();
      return;
    }
    case type::STRING:
      w.string(e.get_string().value_unsafe());
      return;
    case type::INT64:
      w.integer(e.get_int64().value_unsafe());
      return;
    case type::UINT64:
      w.raw(std::to_string(e.get_uint64().value_unsafe()));
      return;
    case type::DOUBLE: {
      char buffer[32];
      auto end = std::to_chars(buffer, buffer + sizeof buffer, e.get_double().value_unsafe()).ptr;
      w.raw(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
      return;
    }
    case type::BOOL:
      w.boolean(e.get_bool().value_unsafe());
      return;
    case type::NULL_VALUE:
      w.null();
      return;
  }
}

namespace detail {

// Whether `path` continues `prefix` by at least one more key.
[[nodiscard]] inline bool extends(std::span<const std::string_view> path, std::span<const std::string_view> prefix) {
  return path.size() > prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

// Writes the object at `at` (nullptr: it did not exist) with the overrides below `at` applied; fields that the
// overrides name but the object lacks follow the existing ones, in the overrides' order.
inline void write_overlaid(writer& w, const simdjson::dom::object* object, std::vector<std::string_view>& at,
                           std::span<const field_override> overrides) {
  std::vector<bool> done(overrides.size(), false);
  auto write_key = [&](std::string_view key, const simdjson::dom::element* value) {
    at.push_back(key);
    bool replaced = false, nested = false;
    for (std::size_t i = 0; i < overrides.size(); ++i) {
      if (overrides[i].path.size() == at.size() && std::equal(at.begin(), at.end(), overrides[i].path.begin())) {
        if (!replaced) overrides[i].write(w.key(key));
        replaced = true;
        done[i] = true;
      } else if (extends(overrides[i].path, at)) {
        nested = true;
      }
    }
    if (!replaced && nested) {
      simdjson::dom::object inner;
      const bool is_object = value != nullptr && !value->get_object().get(inner);
      w.key(key);
      write_overlaid(w, is_object ? &inner : nullptr, at, overrides);
      for (std::size_t i = 0; i < overrides.size(); ++i)
        if (extends(overrides[i].path, at)) done[i] = true;
    } else if (!replaced) {
      write_element(w.key(key), *value);
    }
    at.pop_back();
  };
  w.begin_object();
  if (object != nullptr)
    for (auto field : *object) write_key(field.key, &field.value);
  for (std::size_t i = 0; i < overrides.size(); ++i)
    if (!done[i] && extends(overrides[i].path, at)) write_key(overrides[i].path[at.size()], nullptr);
  w.end_object();
}

}  // namespace detail

// Writes the JSON object `object_json` through `w` with every override's
// value at its path: it replaces what is there, or is added after the
// object's own fields (with the objects on its way made when missing).
// A path through a value that is not an object replaces that value.
[[nodiscard]] inline dra::status write_overlaid(writer& w, std::string_view object_json,
                                                std::span<const field_override> overrides) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const simdjson::padded_string text(object_json);
  if (auto code = parser.parse(text).get(root); code != simdjson::SUCCESS)
    return dra::error{std::string("cannot read the object again: ") + simdjson::error_message(code)};
  simdjson::dom::object object;
  if (root.get_object().get(object) != simdjson::SUCCESS) return dra::error{"not a JSON object"};
  std::vector<std::string_view> at;
  detail::write_overlaid(w, &object, at, overrides);
  return {};
}

}  // namespace dra::json
