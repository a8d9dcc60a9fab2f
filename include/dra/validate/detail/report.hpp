// The collector that validation functions report into, and Kubernetes-style field error messages.
#pragma once

#include <dra/core/names.hpp>
#include <dra/core/result.hpp>
#include <dra/core/text.hpp>
#include <dra/model/common.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace dra::validate::detail {


// A field path such as "spec.devices[2].attributes.model", kept as
// segments on the stack while the checks descend and written out only when
// a problem is reported, so that validating a valid object spends nothing
// on paths. A value type: a child path copies its parent's segments, so it
// never dangles. Segment names must outlive the path (they are model
// strings or literals).
class field_path {
 public:
  field_path() = default;
  // Copies only the segments in use: paths are copied at every level of descent.
  field_path(const field_path& other) : size_(other.size_), truncated_(other.truncated_) {
    std::copy_n(other.segments_.begin(), size_, segments_.begin());
  }
  field_path& operator=(const field_path& other) {
    size_ = other.size_;
    truncated_ = other.truncated_;
    std::copy_n(other.segments_.begin(), size_, segments_.begin());
    return *this;
  }
  field_path(std::string_view root) { push(root, 0, false); }  // NOLINT(google-explicit-constructor): "spec.devices"
  field_path(const char* root) : field_path(std::string_view(root)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] field_path child(std::string_view name) const {
    field_path out = *this;
    out.push(name, 0, false);
    return out;
  }
  [[nodiscard]] field_path index(std::size_t i) const {
    field_path out = *this;
    out.push({}, i, true);
    return out;
  }

  [[nodiscard]] std::string str() const {
    std::string out;
    for (std::size_t i = 0; i < size_; ++i) {
      const segment& s = segments_[i];
      if (s.is_index) {
        out += '[';
        out += std::to_string(s.position);
        out += ']';
      } else {
        if (!out.empty()) out += '.';
        out += s.name;
      }
    }
    if (truncated_) out += "...";
    return out;
  }

 private:
  struct segment {
    std::string_view name;
    std::size_t position;
    bool is_index;
  };
  // Deep enough for the deepest field (a device node selector's requirement value).
  static constexpr std::size_t max_depth = 14;

  void push(std::string_view name, std::size_t position, bool is_index) {
    if (size_ == max_depth) {
      truncated_ = true;
      return;
    }
    segments_[size_++] = segment{name, position, is_index};
  }

  std::array<segment, max_depth> segments_;  // only [0, size_) is ever read
  std::uint8_t size_ = 0;
  bool truncated_ = false;
};

[[nodiscard]] inline field_path child(const field_path& parent, std::string_view name) { return parent.child(name); }
[[nodiscard]] inline field_path index(const field_path& parent, std::size_t i) { return parent.index(i); }

// The messages of k8s.io/apimachinery's field.Error types, so that output
// reads like the API server's.
[[nodiscard]] inline std::string required(std::string_view detail = {}) {
  return detail.empty() ? std::string("Required value") : concat("Required value: ", detail);
}
[[nodiscard]] inline std::string invalid(std::string_view shown_value, std::string_view detail) {
  return concat("Invalid value: ", shown_value, ": ", detail);
}
[[nodiscard]] inline std::string invalid_text(std::string_view value, std::string_view detail) {
  return invalid(quoted(value), detail);
}
[[nodiscard]] inline std::string invalid_number(std::int64_t value, std::string_view detail) {
  return invalid(std::to_string(value), detail);
}
[[nodiscard]] inline std::string too_many(std::size_t actual, std::size_t max) {
  return concat("Too many: ", std::to_string(actual), ": must have at most ", std::to_string(max), " items");
}
[[nodiscard]] inline std::string too_long(std::size_t max) {
  return concat("Too long: may not be more than ", std::to_string(max), " bytes");
}
[[nodiscard]] inline std::string duplicate(std::string_view value) { return concat("Duplicate value: ", quoted(value)); }
[[nodiscard]] inline std::string forbidden(std::string_view detail) { return concat("Forbidden: ", detail); }
[[nodiscard]] inline std::string not_supported(std::string_view value, std::span<const std::string_view> supported) {
  std::string out = concat("Unsupported value: ", quoted(value), ": supported values: ");
  bool first = true;
  for (std::string_view s : supported) {
    if (!first) out += ", ";
    first = false;
    out += quoted(s);
  }
  return out;
}
[[nodiscard]] inline std::string not_supported(std::string_view value, std::initializer_list<std::string_view> supported) {
  return not_supported(value, std::span<const std::string_view>(supported.begin(), supported.size()));
}

// Collects the errors of one object; every error carries the object's name.
class reporter {
 public:
  reporter(error_list& errors, std::string object) : errors_(errors), object_(std::move(object)) {}

  void add(const field_path& path, std::string message, errc code = errc::invalid_object) {
    errors_.push_back(dra::error{std::move(message), path.str(), object_, code});
  }
  // Each problem a names:: check found, as "Invalid value: "<value>": <problem>".
  void add_name_problems(const field_path& path, std::string_view value, const names::problems& problems) {
    for (const std::string& problem : problems) add(path, invalid_text(value, problem));
  }
  [[nodiscard]] const std::string& object() const noexcept { return object_; }

 private:
  error_list& errors_;
  std::string object_;
};

// "Kind/name" or "Kind/namespace/name", as the rest of dra names objects.
using model::object_label;

// Reports a DNS-subdomain object name and an optional DNS-label namespace.
inline void check_metadata(reporter& r, std::string_view name, std::string_view namespace_) {
  if (name.empty())
    r.add("metadata.name", required("name or generateName is required"));
  else
    r.add_name_problems("metadata.name", name, names::dns1123_subdomain(name));
  if (!namespace_.empty()) r.add_name_problems("metadata.namespace", namespace_, names::dns1123_label(namespace_));
}

// A name that must be a DNS label and is required.
inline void check_label_name(reporter& r, const field_path& path, std::string_view value) {
  if (value.empty())
    r.add(path, required());
  else
    r.add_name_problems(path, value, names::dns1123_label(value));
}

// metav1validation.ValidateLabelName: a qualified name such as "example.com/key".
inline void check_label_key(reporter& r, const field_path& path, std::string_view value) {
  if (value.empty()) {
    r.add(path, invalid_text(value, "name part must be non-empty"));
    return;
  }
  r.add_name_problems(path, value, names::label_key(value));
}

// A driver name (also used for opaque configuration). An empty one is
// also reported as not a DNS subdomain, as upstream's check does.
inline void check_driver_name(reporter& r, const field_path& path, std::string_view value) {
  if (value.empty()) {
    r.add(path, required());
    r.add_name_problems(path, value, names::dns1123_subdomain(value));
    return;
  }
  r.add_name_problems(path, value, names::driver_name(value));
}

// A pool name: at most 253 characters, DNS subdomains separated by slashes.
inline void check_pool_name(reporter& r, const field_path& path, std::string_view value, std::size_t max_length) {
  if (value.empty()) {
    r.add(path, required());
    return;
  }
  if (value.size() > max_length) r.add(path, too_long(max_length));
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = value.find('/', start);
    std::string_view part = value.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    r.add_name_problems(path, part, names::dns1123_subdomain(part));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
}

}  // namespace dra::validate::detail
