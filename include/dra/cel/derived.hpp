// Derived attributes (KEP-6080): which result types an expression may have, and a CEL result turned into a device
// attribute that owns its text.
#pragma once

#include <dra/cel/types.hpp>
#include <dra/cel/value.hpp>
#include <dra/core/result.hpp>
#include <dra/core/text.hpp>
#include <dra/model/resource_slice.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

// What a derived attribute's expression evaluated to for one device, as the attribute constraints compare. Strings
// and versions view text this object owns, so it must outlive every use of attribute(); moving it keeps the text
// where it is (a vector's move hands its buffer over).
class derived_value {
 public:
  derived_value() = default;
  derived_value(derived_value&&) noexcept = default;
  derived_value& operator=(derived_value&&) noexcept = default;
  derived_value(const derived_value&) = delete;  // a copy's attribute would view the original's text
  derived_value& operator=(const derived_value&) = delete;
  ~derived_value() = default;

  [[nodiscard]] const model::device_attribute& attribute() const noexcept { return attribute_; }

  // The attribute for a CEL result: a string, int, bool or semver, or a list of one of these (all elements of the
  // same kind); anything else is the error the allocator reports for the device.
  [[nodiscard]] static result<derived_value> from(const value& v);

 private:
  std::vector<std::string> texts_;  // reserved before the first string is added: views into it stay valid
  model::device_attribute attribute_;
};

// Whether a derived attribute's expression may have this static type: a scalar kind, a list of one, or a type only
// known when it runs (dyn, as every attribute lookup is). Empty when it may; else what it must be.
[[nodiscard]] inline std::optional<std::string> derived_type_problem(const type& t) {
  auto scalar = [](const type& s) {
    return s.is_dyn() || s.kind == type_kind::boolean || s.kind == type_kind::int64 || s.kind == type_kind::string ||
           (s.kind == type_kind::opaque && s.name == "kubernetes.Semver");
  };
  if (scalar(t)) return std::nullopt;
  if (t.kind == type_kind::list && !t.params.empty() && scalar(t.params[0])) return std::nullopt;
  return dra::concat("must evaluate to a string, int, bool or semver, or a list of one of them, not ",
                             t.to_string());
}

namespace detail {
// The variant alternative a scalar CEL result becomes, or none.
enum class derived_kind : std::uint8_t { none, integer, boolean, string, version };
[[nodiscard]] inline derived_kind derived_kind_of(const value& v) noexcept {
  switch (v.kind()) {
    case value_kind::int64:
      return derived_kind::integer;
    case value_kind::boolean:
      return derived_kind::boolean;
    case value_kind::string:
      return derived_kind::string;
    case value_kind::semver:
      return derived_kind::version;
    default:
      return derived_kind::none;
  }
}
}  // namespace detail

inline result<derived_value> derived_value::from(const value& v) {
  derived_value out;
  auto unsupported = [](const value& bad, std::string_view where) {
    return error{dra::concat("CEL result", where, " of type ", type_name(bad),
                                     " cannot be a derived attribute (string, int, bool, semver, or a list of one of "
                                     "them)"),
                 "", "", errc::cel_runtime};
  };
  const detail::derived_kind scalar = detail::derived_kind_of(v);
  if (scalar != detail::derived_kind::none) {
    out.texts_.reserve(1);
    switch (scalar) {
      case detail::derived_kind::integer:
        out.attribute_.value = v.as_int();
        break;
      case detail::derived_kind::boolean:
        out.attribute_.value = v.as_bool();
        break;
      case detail::derived_kind::string:
        out.attribute_.value = model::text(out.texts_.emplace_back(v.as_text()));
        break;
      case detail::derived_kind::version:
        out.attribute_.value = model::version_value(out.texts_.emplace_back(v.as<semver_value>().get().to_string()));
        break;
      case detail::derived_kind::none:
        break;
    }
    return out;
  }
  const auto* list = v.get_if<list_value>();
  if (list == nullptr) return unsupported(v, "");
  const std::vector<value>& items = *list->items;
  // An empty list has no element type to compare with other devices' values.
  if (items.empty())
    return error{"CEL result is an empty list, which has no type a derived attribute could have", "", "",
                 errc::cel_runtime};
  const detail::derived_kind kind = detail::derived_kind_of(items.front());
  if (kind == detail::derived_kind::none) return unsupported(items.front(), " element");
  for (const value& item : items)
    if (detail::derived_kind_of(item) != kind)
      return error{dra::concat("CEL result is a list that mixes ", type_name(items.front()), " and ",
                                       type_name(item), " elements"),
                   "", "", errc::cel_runtime};
  out.texts_.reserve(items.size());
  switch (kind) {
    case detail::derived_kind::integer: {
      std::vector<std::int64_t> ints;
      for (const value& item : items) ints.push_back(item.as_int());
      out.attribute_.value = std::move(ints);
      break;
    }
    case detail::derived_kind::boolean: {
      std::vector<bool> bools;
      for (const value& item : items) bools.push_back(item.as_bool());
      out.attribute_.value = std::move(bools);
      break;
    }
    case detail::derived_kind::string: {
      std::vector<model::text> strings;
      for (const value& item : items) strings.emplace_back(out.texts_.emplace_back(item.as_text()));
      out.attribute_.value = std::move(strings);
      break;
    }
    case detail::derived_kind::version: {
      std::vector<model::version_value> versions;
      for (const value& item : items)
        versions.emplace_back(out.texts_.emplace_back(item.as<semver_value>().get().to_string()));
      out.attribute_.value = std::move(versions);
      break;
    }
    case detail::derived_kind::none:
      break;
  }
  return out;
}

}  // namespace dra::cel
