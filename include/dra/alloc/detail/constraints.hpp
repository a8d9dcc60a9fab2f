// What claim constraints and counter sets ask of the devices taken together: attribute values as sets
// (matchAttribute, distinctAttribute, list types) and compatibility groups (KEP-5963).
#pragma once

#include <dra/flatten/mixin_view.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace dra::alloc::detail {
// A device attribute as a set of values of one type (list-type attributes, KEP-5491).
struct attribute_set {
  enum class kind : std::uint8_t { none, ints, bools, strings, versions } type = kind::none;
  std::vector<std::int64_t> ints;
  std::vector<bool> bools;
  std::vector<std::string_view> strings;  // strings and versions

  [[nodiscard]] static attribute_set of(const model::device_attribute* a) {
    attribute_set s;
    if (a == nullptr) return s;
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::int64_t>) {
            s.type = kind::ints, s.ints = {v};
          } else if constexpr (std::is_same_v<T, bool>) {
            s.type = kind::bools, s.bools = {v};
          } else if constexpr (std::is_same_v<T, model::text>) {
            s.type = kind::strings, s.strings = {v};
          } else if constexpr (std::is_same_v<T, model::version_value>) {
            s.type = kind::versions, s.strings = {v.source};
          } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
            if (!v.empty()) s.type = kind::ints, s.ints = v;
          } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
            if (!v.empty()) s.type = kind::bools, s.bools = v;
          } else if constexpr (std::is_same_v<T, std::vector<model::text>>) {
            if (!v.empty()) s.type = kind::strings, s.strings.assign(v.begin(), v.end());
          } else {
            if (!v.empty()) {
              s.type = kind::versions;
              for (const auto& x : v) s.strings.push_back(x.source);
            }
          }
        },
        a->value);
    if (a->fields_set == 0) s.type = kind::none;
    return s;
  }
  [[nodiscard]] bool known() const noexcept { return type != kind::none; }

  template <class T>
  static std::vector<T> common(const std::vector<T>& a, const std::vector<T>& b) {
    std::vector<T> out;
    for (const auto& x : a)
      if (std::find(b.begin(), b.end(), x) != b.end() && std::find(out.begin(), out.end(), x) == out.end())
        out.push_back(x);
    return out;
  }
  [[nodiscard]] bool intersects(const attribute_set& o) const {
    if (type != o.type || type == kind::none) return false;
    switch (type) {
      case kind::ints:
        return !common(ints, o.ints).empty();
      case kind::bools:
        return !common(bools, o.bools).empty();
      default:
        return !common(strings, o.strings).empty();
    }
  }
  // The values both sets have (a set of the same type; `*this` when the types differ).
  [[nodiscard]] attribute_set common_with(const attribute_set& o) const {
    if (type != o.type || type == kind::none) return *this;
    attribute_set out;
    out.type = type;
    switch (type) {
      case kind::ints:
        out.ints = common(ints, o.ints);
        break;
      case kind::bools:
        out.bools = common(bools, o.bools);
        break;
      default:
        out.strings = common(strings, o.strings);
        break;
    }
    return out;
  }
};

// The kind of a single-valued attribute; none for a list or an attribute that set no field.
[[nodiscard]] inline std::optional<model::attribute_kind> scalar_kind(const model::device_attribute& a) noexcept {
  const model::attribute_kind k = model::kind_of(a.value);
  if (a.fields_set == 0 || model::is_list(k)) return std::nullopt;
  return k;
}
[[nodiscard]] inline bool scalar_equal(const model::device_attribute& a, const model::device_attribute& b) noexcept {
  const auto k = scalar_kind(a);
  if (!k || k != scalar_kind(b)) return false;
  // Versions compare as written (upstream compares the strings).
  if (*k == model::attribute_kind::version)
    return std::get<model::version_value>(a.value).source == std::get<model::version_value>(b.value).source;
  return a.value == b.value;
}

// A set of attribute values as keys that compare equal exactly when the allocator's constraints call the values equal.
[[nodiscard]] inline std::vector<std::string> value_keys(const attribute_set& s) {
  std::vector<std::string> keys;
  switch (s.type) {
    case attribute_set::kind::ints:
      for (auto v : s.ints) keys.push_back("i" + std::to_string(v));
      break;
    case attribute_set::kind::bools:
      for (bool v : s.bools) keys.push_back(v ? "b1" : "b0");
      break;
    case attribute_set::kind::strings:
      for (auto v : s.strings) keys.push_back("s" + std::string(v));
      break;
    case attribute_set::kind::versions:
      for (auto v : s.strings) keys.push_back("v" + std::string(v));
      break;
    case attribute_set::kind::none:
      break;
  }
  return keys;
}

// The keys of candidate `ix`'s attribute for a constraint: none when no constraint can take the device (missing,
// or an empty list); without list types, a list (which equals nothing, not even itself) gets a key of its own.
[[nodiscard]] inline std::vector<std::string> constraint_keys(const model::device_attribute* a, bool list_types,
                                                              std::uint32_t ix) {
  if (a == nullptr) return {};
  if (!list_types && !scalar_kind(*a)) return {"#" + std::to_string(ix)};
  return value_keys(attribute_set::of(a));
}

// A claim constraint with upstream's add/remove protocol: every successful add
// is undone by exactly one remove, in reverse order (the search backtracks
// depth first), so both kinds keep a stack of what each add changed.
struct constraint_state {
  bool is_match = true;
  std::vector<std::string_view> requests;  // empty: every request of the claim
  std::string_view attribute;
  bool list_types = false;
  // Some request of the claim defines a derived attribute of this name (KEP-6080): the search then takes no
  // shortcut for the claim (see search::claim_derives_).
  bool names_derived = false;
  // matchAttribute
  std::size_t count = 0;
  const model::device_attribute* first = nullptr;
  attribute_set intersection;  // list types: what every device taken so far has in common
  // The intersection before each add after the first, restored on remove
  // (kubernetes#140300: without it, backtracking kept a narrowed set).
  std::vector<attribute_set> narrowed_from;
  // distinctAttribute: the attribute of every device taken, whatever its
  // request (kubernetes#140438: one entry per request compared a device only
  // with the last one of its own request).
  std::vector<const model::device_attribute*> taken;

  [[nodiscard]] bool applies(std::string_view request, std::string_view sub) const {
    if (requests.empty()) return true;
    for (auto r : requests) {
      if (r == request) return true;
      if (!sub.empty() && r.size() == request.size() + 1 + sub.size() && r.substr(0, request.size()) == request &&
          r[request.size()] == '/' && r.substr(request.size() + 1) == sub)
        return true;
    }
    return false;
  }

  // Adds a device taken for a request the constraint applies to (the caller checks applies() once, before it looks
  // the attribute up). `a` is the attribute the device has for that request (null: none); it must outlive the
  // constraint's use of it.
  bool add(const model::device_attribute* a) {
    if (a == nullptr) return false;
    if (is_match) return add_match(*a);
    if (!distinct_from_all(*a)) return false;
    taken.push_back(a);
    return true;
  }
  void remove(std::string_view request, std::string_view sub) {
    if (!applies(request, sub)) return;
    if (!is_match) {
      taken.pop_back();
      return;
    }
    --count;
    if (list_types && count > 0) {
      intersection = std::move(narrowed_from.back());
      narrowed_from.pop_back();
    }
  }

 private:
  bool add_match(const model::device_attribute& a) {
    if (count == 0) {
      if (list_types) {
        attribute_set s = attribute_set::of(&a);
        if (!s.known()) return false;
        intersection = std::move(s);
      } else {
        first = &a;
      }
      count = 1;
      return true;
    }
    if (list_types) {
      attribute_set s = attribute_set::of(&a);
      if (!s.known() || !intersection.intersects(s)) return false;
      attribute_set narrowed = intersection.common_with(s);
      narrowed_from.push_back(std::move(intersection));
      intersection = std::move(narrowed);
    } else if (!scalar_equal(a, *first)) {
      return false;
    }
    ++count;
    return true;
  }
  [[nodiscard]] bool distinct_from_all(const model::device_attribute& a) const {
    if (list_types) {
      attribute_set s = attribute_set::of(&a);
      if (!s.known()) return false;
      for (const auto* e : taken) {
        attribute_set existing = attribute_set::of(e);
        if (existing.known() && s.intersects(existing)) return false;
      }
      return true;
    }
    for (const auto* e : taken) {
      if (!scalar_kind(a)) return false;
      if (scalar_equal(a, *e)) return false;
    }
    return true;
  }
};

// What the devices drawing from one counter set have in common (KEP-5963
// compatibility groups): a device may join an empty set; one that declares
// groups joins when it shares one with every member; one that declares none
// joins only members that declare none either.
struct group_intersection {
  bool has_members = false;
  bool all_empty = false;                // every member declared no groups
  std::vector<std::string_view> groups;  // declared by every member (when !all_empty)

  [[nodiscard]] bool admits(std::span<const model::text> declared) const {
    if (!has_members) return true;
    if (declared.empty()) return all_empty;
    if (all_empty) return false;
    return std::any_of(declared.begin(), declared.end(),
                       [&](std::string_view g) { return std::find(groups.begin(), groups.end(), g) != groups.end(); });
  }
  void add(std::span<const model::text> declared) {
    if (!has_members) {
      has_members = true;
      all_empty = declared.empty();
      groups.assign(declared.begin(), declared.end());
    } else if (!all_empty && !declared.empty()) {
      std::erase_if(
          groups, [&](std::string_view g) { return std::find(declared.begin(), declared.end(), g) == declared.end(); });
    }
  }
};

[[nodiscard]] inline bool declares_compatibility_groups(const model::resource_slice& slice) {
  for (const auto& d : slice.devices)
    for (const auto& c : d.consumes_counters)
      if (!c.compatibility_groups.empty()) return true;
  return false;
}

}  // namespace dra::alloc::detail
