// CEL types as the checker sees them: primitives, parameterised lists, maps, optionals and type values, dyn.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

enum class type_kind : std::uint8_t {
  dyn,
  null_type,
  boolean,
  int64,
  uint64,
  double_,
  string,
  bytes,
  list,
  map,
  type,      // the type of a type value: params[0] is the type denoted (absent: unknown)
  optional,  // optional_type(params[0])
  timestamp,
  duration,
  opaque,      // a named library type without parameters (kubernetes.Quantity, kubernetes.Semver)
  object,      // a declared object type (kubernetes.DRADevice); fields are looked up in the environment
  type_param,  // a type parameter of an overload (A, B, K, V)
  error,
};

// A CEL type. Value type; parameters are held by value (types are small trees).
struct type {
  type_kind kind = type_kind::dyn;
  std::string name{};          // opaque, object and type_param names
  std::vector<type> params{};  // list: elem; map: key, value; optional: elem; type: denoted

  static type dyn() { return {}; }
  static type primitive(type_kind k) { return {k}; }
  static type null() { return {type_kind::null_type}; }
  static type boolean() { return {type_kind::boolean}; }
  static type int64() { return {type_kind::int64}; }
  static type uint64() { return {type_kind::uint64}; }
  static type double_() { return {type_kind::double_}; }
  static type string() { return {type_kind::string}; }
  static type bytes() { return {type_kind::bytes}; }
  static type timestamp() { return {type_kind::timestamp}; }
  static type duration() { return {type_kind::duration}; }
  static type error() { return {type_kind::error}; }
  static type list(type elem) { return {type_kind::list, {}, {std::move(elem)}}; }
  static type map(type key, type value) { return {type_kind::map, {}, {std::move(key), std::move(value)}}; }
  static type optional(type elem) { return {type_kind::optional, {}, {std::move(elem)}}; }
  static type type_of(type denoted) { return {type_kind::type, {}, {std::move(denoted)}}; }
  static type opaque(std::string name) { return {type_kind::opaque, std::move(name), {}}; }
  static type object(std::string name) { return {type_kind::object, std::move(name), {}}; }
  static type param(std::string name) { return {type_kind::type_param, std::move(name), {}}; }

  [[nodiscard]] bool is_dyn() const noexcept { return kind == type_kind::dyn; }

  // cel-go's spelling: "int", "list(string)", "map(string, dyn)", "optional_type(int)", "type(int)".
  [[nodiscard]] std::string to_string() const {
    switch (kind) {
      case type_kind::dyn: return "dyn";
      case type_kind::null_type: return "null";
      case type_kind::boolean: return "bool";
      case type_kind::int64: return "int";
      case type_kind::uint64: return "uint";
      case type_kind::double_: return "double";
      case type_kind::string: return "string";
      case type_kind::bytes: return "bytes";
      case type_kind::timestamp: return "google.protobuf.Timestamp";
      case type_kind::duration: return "google.protobuf.Duration";
      case type_kind::error: return "*error*";
      case type_kind::list: return "list(" + params[0].to_string() + ")";
      case type_kind::map: return "map(" + params[0].to_string() + ", " + params[1].to_string() + ")";
      case type_kind::optional: return "optional_type(" + params[0].to_string() + ")";
      case type_kind::type: return params.empty() ? std::string("type") : "type(" + params[0].to_string() + ")";
      case type_kind::opaque:
      case type_kind::object:
      case type_kind::type_param: return name;
    }
    return "?";
  }

  friend bool operator==(const type&, const type&) = default;
};

}  // namespace dra::cel
