// The DRA `device` variable over a device view: attributes and capacities looked up in place, never copied to maps.
#pragma once

#include <dra/cel/value.hpp>
#include <dra/flatten/concepts.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>
#include <vector>

namespace dra::cel {

namespace detail {

// "domain/id" of a qualified attribute name; unqualified names belong to the driver's domain (as upstream parses them).
struct qualified {
  std::string_view domain, id;
};
[[nodiscard]] inline qualified split_name(std::string_view name, std::string_view driver) noexcept {
  const auto slash = name.find('/');
  if (slash == std::string_view::npos) return {driver, name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}

[[nodiscard]] inline value attribute_value(const model::device_attribute& a) {
  return std::visit(
      [](const auto& v) -> value {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, bool>) {
          return value(v);
        } else if constexpr (std::is_same_v<T, model::text>) {
          return value::borrowed_string(v);
        } else if constexpr (std::is_same_v<T, model::version_value>) {
          if (!v.parsed) return value::error(dra::concat("invalid semantic version ", dra::quoted(v.source)));
          return semver_value{&*v.parsed, nullptr};
        } else {
          std::vector<value> items;
          items.reserve(v.size());
          for (const auto& e : v) {
            if constexpr (std::is_same_v<T, std::vector<model::text>>) {
              items.push_back(value::borrowed_string(e));
            } else if constexpr (std::is_same_v<T, std::vector<model::version_value>>) {
              if (!e.parsed) return value::error(dra::concat("invalid semantic version ", dra::quoted(e.source)));
              items.emplace_back(semver_value{&*e.parsed, nullptr});
            } else {
              items.emplace_back(static_cast<std::conditional_t<std::is_same_v<T, std::vector<bool>>, bool, std::int64_t>>(e));
            }
          }
          return value::list(std::move(items));
        }
      },
      a.value);
}

}  // namespace detail

// Binds one device for one evaluation: `device.driver`, `device.allowMultipleAllocations`,
// `device.attributes[domain][id]` and `device.capacity[domain][id]`. An unknown domain is an
// empty map when selected, indexed or tested with has() (as upstream's map-with-default), but
// `domain in device.attributes` says whether the device has a name in that domain, and size()
// and iteration see only those domains; a missing id is "no such key". The binding refers
// to the device and the driver name: both must outlive it and every value taken from it.
template <flatten::device_view View>
class device_binding {
 public:
  device_binding(const View& device, std::string_view driver, bool allow_multiple_allocations)
      : device_(device), driver_(driver), allow_multiple_(allow_multiple_allocations) {}
  device_binding(const device_binding&) = delete;
  device_binding& operator=(const device_binding&) = delete;

  [[nodiscard]] value as_value() const noexcept { return host_map_value{&object_, {}}; }

 private:
  enum class which { attributes, capacity };

  struct object_map final : host_map {
    const device_binding* b;
    explicit object_map(const device_binding* owner) : b(owner) {}
    bool find(std::string_view, const value& key, value& out) const override {
      const auto* k = key.get_if<string_value>();
      if (k == nullptr) return false;
      if (k->view == "driver") out = value::borrowed_string(b->driver_);
      else if (k->view == "allowMultipleAllocations") out = value(b->allow_multiple_);
      else if (k->view == "attributes") out = host_map_value{&b->attributes_, {}};
      else if (k->view == "capacity") out = host_map_value{&b->capacity_, {}};
      else return false;
      return true;
    }
    std::size_t size(std::string_view) const override { return 4; }
    std::vector<value> keys(std::string_view) const override {
      return {value::borrowed_string("driver"), value::borrowed_string("allowMultipleAllocations"),
              value::borrowed_string("attributes"), value::borrowed_string("capacity")};
    }
  };

  // scope empty: the outer map (domain -> inner map); otherwise the inner map of that domain.
  struct qualified_map final : host_map {
    const device_binding* b;
    which kind;
    qualified_map(const device_binding* owner, which k) : b(owner), kind(k) {}

    template <class F>
    void for_each_name(F&& f) const {
      if (kind == which::attributes)
        for (const auto e : b->device_.attributes()) f(e.name);
      else
        for (const auto e : b->device_.capacities()) f(e.name);
    }

    bool find(std::string_view scope, const value& key, value& out) const override {
      const auto* k = key.get_if<string_value>();
      if (k == nullptr) return false;
      if (scope.empty()) {
        // Scope views must outlive the key: take them from the driver name or the device's own names.
        std::string_view stable = k->view == b->driver_ ? b->driver_ : std::string_view{};
        if (stable.empty())
          for_each_name([&](std::string_view name) {
            const auto q = detail::split_name(name, b->driver_);
            if (stable.empty() && q.domain == k->view) stable = q.domain;
          });
        out = host_map_value{this, stable.empty() ? empty_scope() : stable};
        return true;
      }
      if (scope.data() == empty_scope().data()) return false;
      const std::string_view id = k->view;
      if (scope == b->driver_)
        if (lookup(id, out)) return true;
      std::array<char, 512> buffer;
      if (scope.size() + 1 + id.size() > buffer.size()) return false;
      std::memcpy(buffer.data(), scope.data(), scope.size());
      buffer[scope.size()] = '/';
      std::memcpy(buffer.data() + scope.size() + 1, id.data(), id.size());
      return lookup(std::string_view(buffer.data(), scope.size() + 1 + id.size()), out);
    }

    // `in`: the outer map holds the domains the device has names in; an inner map its ids.
    bool contains(std::string_view scope, const value& key) const override {
      if (!scope.empty()) {
        value ignored;
        return find(scope, key, ignored);
      }
      const auto* k = key.get_if<string_value>();
      if (k == nullptr) return false;
      bool found = false;
      for_each_name([&](std::string_view name) { found = found || detail::split_name(name, b->driver_).domain == k->view; });
      return found;
    }

    bool lookup(std::string_view name, value& out) const {
      if (kind == which::attributes) {
        const auto* a = b->device_.attribute(name);
        if (a == nullptr) return false;
        out = detail::attribute_value(*a);
        return true;
      }
      const auto* c = b->device_.capacity(name);
      if (c == nullptr) return false;
      out = quantity_value{c->value};
      return true;
    }

    std::size_t size(std::string_view scope) const override { return keys(scope).size(); }
    std::vector<value> keys(std::string_view scope) const override {
      std::vector<value> out;
      if (scope.data() == empty_scope().data()) return out;
      auto add = [&](std::string_view s) {
        for (const auto& v : out)
          if (v.as_text() == s) return;
        out.push_back(value::borrowed_string(s));
      };
      for_each_name([&](std::string_view name) {
        const auto q = detail::split_name(name, b->driver_);
        if (scope.empty())
          add(q.domain);
        else if (q.domain == scope)
          add(q.id);
      });
      return out;
    }

    static std::string_view empty_scope() noexcept {
      static constexpr char marker[] = "<no such domain>";
      return std::string_view(marker);
    }
  };

  const View& device_;
  std::string_view driver_;
  bool allow_multiple_;
  object_map object_{this};
  qualified_map attributes_{this, which::attributes};
  qualified_map capacity_{this, which::capacity};
};

}  // namespace dra::cel
