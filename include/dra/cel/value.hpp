// CEL runtime values: primitives, borrowed or shared strings, lists, maps, optionals, errors and host maps.
#pragma once

#include <dra/core/ip.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/semver.hpp>
#include <dra/core/text.hpp>

#include <cmath>
#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dra::cel {

class value;

struct null_value {
  friend bool operator==(null_value, null_value) { return true; }
};

// Text that is either borrowed (from the expression or from a device, which
// outlive an evaluation) or shared (computed during evaluation).
struct text_value {
  std::string_view view;
  std::shared_ptr<const std::string> owner{};

  static text_value borrowed(std::string_view s) { return {s, nullptr}; }
  static text_value owned(std::string s) {
    auto p = std::make_shared<const std::string>(std::move(s));
    return {std::string_view(*p), p};
  }
};
struct string_value : text_value {};
struct bytes_value : text_value {};

struct list_value {
  std::shared_ptr<const std::vector<value>> items;
  [[nodiscard]] std::size_t size() const noexcept;
};

// Map entries keep insertion order (lookups are linear: maps in selectors are small).
struct map_value {
  std::shared_ptr<const std::vector<std::pair<value, value>>> entries;
  [[nodiscard]] std::size_t size() const noexcept;
};

// A map provided by the host without building it: the DRA `device`
// binding's attributes and capacities. `scope` selects an inner map
// (a domain) without allocating an object per lookup.
class host_map {
 public:
  virtual ~host_map() = default;
  // Sets `out` and returns true when `key` can be looked up (selected, indexed, tested with has()).
  virtual bool find(std::string_view scope, const value& key, value& out) const = 0;
  // Whether `key` is one of the map's keys (the `in` operator). Differs from find() for a map
  // that answers every lookup, as upstream's device attribute and capacity maps do.
  virtual bool contains(std::string_view scope, const value& key) const;
  virtual std::size_t size(std::string_view scope) const = 0;
  virtual std::vector<value> keys(std::string_view scope) const = 0;
};
struct host_map_value {
  const host_map* map = nullptr;
  std::string_view scope{};
};

// A runtime type value: CEL's runtime types are not parameterised ("list", "map").
struct type_value {
  std::string_view name;  // always a string with static storage duration or owned by the environment
};

struct optional_value {
  std::shared_ptr<const value> inner;  // null: optional.none()
};

struct error_value {
  std::shared_ptr<const std::string> message;
};

struct quantity_value {
  dra::quantity q;
};
// A version borrowed from a device attribute or owned (computed by semver()).
struct semver_value {
  const dra::semver* ptr = nullptr;
  std::shared_ptr<const dra::semver> owner{};
  [[nodiscard]] const dra::semver& get() const noexcept { return *ptr; }
};

struct duration_value {
  std::int64_t nanos = 0;
  friend bool operator==(duration_value, duration_value) = default;
};
struct timestamp_value {
  std::int64_t seconds = 0;  // since the Unix epoch, UTC
  std::int32_t nanos = 0;
  friend bool operator==(timestamp_value, timestamp_value) = default;
};

// Kubernetes' IP and CIDR library values.
struct ip_value {
  ip_address address;
};
struct cidr_value {
  ip_prefix prefix;
};
// Kubernetes' URL library value: the parts url() parsed out (Go's url.Parse).
struct url_parts {
  std::string scheme, host, path, raw_query;
  friend bool operator==(const url_parts&, const url_parts&) = default;
};
struct url_value {
  std::shared_ptr<const url_parts> parts;
};
// Kubernetes' named formats (format.dns1123Label() …), by index into the format library's table.
struct named_format_value {
  std::uint8_t index = 0;
};

enum class value_kind : std::uint8_t {
  null,
  boolean,
  int64,
  uint64,
  double_,
  string,
  bytes,
  list,
  map,
  host_map,
  type,
  optional,
  error,
  quantity,
  semver,
  duration,
  timestamp,
  ip,
  cidr,
  named_format,
  url,
};

class value {
 public:
  using storage = std::variant<null_value, bool, std::int64_t, std::uint64_t, double, string_value, bytes_value,
                               list_value, map_value, host_map_value, type_value, optional_value, error_value,
                               quantity_value, semver_value, duration_value, timestamp_value, ip_value, cidr_value, named_format_value, url_value>;

  value() = default;
  value(null_value) {}                                     // NOLINT(google-explicit-constructor)
  value(bool b) : v_(b) {}                                 // NOLINT(google-explicit-constructor)
  value(std::int64_t i) : v_(i) {}                         // NOLINT(google-explicit-constructor)
  value(std::uint64_t u) : v_(u) {}                        // NOLINT(google-explicit-constructor)
  value(double d) : v_(d) {}                               // NOLINT(google-explicit-constructor)
  value(string_value s) : v_(std::move(s)) {}              // NOLINT(google-explicit-constructor)
  value(bytes_value b) : v_(std::move(b)) {}               // NOLINT(google-explicit-constructor)
  value(list_value l) : v_(std::move(l)) {}                // NOLINT(google-explicit-constructor)
  value(map_value m) : v_(std::move(m)) {}                 // NOLINT(google-explicit-constructor)
  value(host_map_value m) : v_(m) {}                       // NOLINT(google-explicit-constructor)
  value(type_value t) : v_(t) {}                           // NOLINT(google-explicit-constructor)
  value(optional_value o) : v_(std::move(o)) {}            // NOLINT(google-explicit-constructor)
  value(error_value e) : v_(std::move(e)) {}               // NOLINT(google-explicit-constructor)
  value(quantity_value q) : v_(q) {}                       // NOLINT(google-explicit-constructor)
  value(semver_value s) : v_(std::move(s)) {}              // NOLINT(google-explicit-constructor)
  value(duration_value d) : v_(d) {}                       // NOLINT(google-explicit-constructor)
  value(timestamp_value t) : v_(t) {}                      // NOLINT(google-explicit-constructor)
  value(ip_value a) : v_(a) {}                             // NOLINT(google-explicit-constructor)
  value(cidr_value p) : v_(p) {}                           // NOLINT(google-explicit-constructor)
  value(named_format_value f) : v_(f) {}                   // NOLINT(google-explicit-constructor)
  value(url_value u) : v_(std::move(u)) {}                 // NOLINT(google-explicit-constructor)

  static value string(std::string s) { return string_value{text_value::owned(std::move(s))}; }
  static value borrowed_string(std::string_view s) { return string_value{text_value::borrowed(s)}; }
  static value bytes(std::string s) { return bytes_value{text_value::owned(std::move(s))}; }
  static value list(std::vector<value> items) {
    return list_value{std::make_shared<const std::vector<value>>(std::move(items))};
  }
  static value map(std::vector<std::pair<value, value>> entries) {
    return map_value{std::make_shared<const std::vector<std::pair<value, value>>>(std::move(entries))};
  }
  static value error(std::string message) { return error_value{std::make_shared<const std::string>(std::move(message))}; }
  static value none() { return optional_value{}; }
  static value some(value inner) { return optional_value{std::make_shared<const value>(std::move(inner))}; }

  [[nodiscard]] value_kind kind() const noexcept { return static_cast<value_kind>(v_.index()); }
  [[nodiscard]] bool is(value_kind k) const noexcept { return kind() == k; }
  [[nodiscard]] bool is_error() const noexcept { return kind() == value_kind::error; }

  template <class T>
  [[nodiscard]] const T& as() const {
    return *std::get_if<T>(&v_);
  }
  template <class T>
  [[nodiscard]] const T* get_if() const noexcept {
    return std::get_if<T>(&v_);
  }
  [[nodiscard]] const storage& raw() const noexcept { return v_; }

  [[nodiscard]] bool as_bool() const { return as<bool>(); }
  [[nodiscard]] std::int64_t as_int() const { return as<std::int64_t>(); }
  [[nodiscard]] std::uint64_t as_uint() const { return as<std::uint64_t>(); }
  [[nodiscard]] double as_double() const { return as<double>(); }
  [[nodiscard]] std::string_view as_text() const {  // string or bytes
    if (const auto* s = get_if<string_value>()) return s->view;
    return as<bytes_value>().view;
  }
  [[nodiscard]] const std::string& error_message() const { return *as<error_value>().message; }

 private:
  storage v_{};
};

inline std::size_t list_value::size() const noexcept { return items->size(); }
inline std::size_t map_value::size() const noexcept { return entries->size(); }

// The runtime type name of a value, as `type(x)` reports it.
[[nodiscard]] inline std::string_view type_name(const value& v) noexcept {
  switch (v.kind()) {
    case value_kind::null: return "null_type";
    case value_kind::boolean: return "bool";
    case value_kind::int64: return "int";
    case value_kind::uint64: return "uint";
    case value_kind::double_: return "double";
    case value_kind::string: return "string";
    case value_kind::bytes: return "bytes";
    case value_kind::list: return "list";
    case value_kind::map:
    case value_kind::host_map: return "map";
    case value_kind::type: return "type";
    case value_kind::optional: return "optional_type";
    case value_kind::error: return "*error*";
    case value_kind::quantity: return "kubernetes.Quantity";
    case value_kind::semver: return "kubernetes.Semver";
    case value_kind::duration: return "google.protobuf.Duration";
    case value_kind::timestamp: return "google.protobuf.Timestamp";
    case value_kind::ip: return "net.IP";
    case value_kind::cidr: return "net.CIDR";
    case value_kind::named_format: return "kubernetes.NamedFormat";
    case value_kind::url: return "kubernetes.URL";
  }
  return "?";
}

namespace detail {

[[nodiscard]] inline bool is_numeric(const value& v) noexcept {
  const auto k = v.kind();
  return k == value_kind::int64 || k == value_kind::uint64 || k == value_kind::double_;
}

// Compares numbers of any of CEL's three numeric types exactly (no rounding
// of large integers through double). Unordered (NaN) gives nullopt.
[[nodiscard]] inline std::optional<std::strong_ordering> compare_numbers(const value& a, const value& b) noexcept {
  auto cmp_int_uint = [](std::int64_t i, std::uint64_t u) {
    if (i < 0) return std::strong_ordering::less;
    return static_cast<std::uint64_t>(i) <=> u;
  };
  // cel-go compares an integer with a double by converting the integer to double (lossy above 2^53).
  auto cmp_double_int = [](double d, std::int64_t i) -> std::optional<std::strong_ordering> {
    const auto x = static_cast<double>(i);
    if (d < x) return std::strong_ordering::less;
    if (d > x) return std::strong_ordering::greater;
    if (d == x) return std::strong_ordering::equal;
    return std::nullopt;
  };
  auto cmp_double_uint = [](double d, std::uint64_t u) -> std::optional<std::strong_ordering> {
    const auto x = static_cast<double>(u);
    if (d < x) return std::strong_ordering::less;
    if (d > x) return std::strong_ordering::greater;
    if (d == x) return std::strong_ordering::equal;
    return std::nullopt;
  };
  auto flip = [](std::optional<std::strong_ordering> o) -> std::optional<std::strong_ordering> {
    if (!o) return o;
    return 0 <=> *o;
  };
  switch (a.kind()) {
    case value_kind::int64:
      switch (b.kind()) {
        case value_kind::int64: return a.as_int() <=> b.as_int();
        case value_kind::uint64: return cmp_int_uint(a.as_int(), b.as_uint());
        default: return flip(cmp_double_int(b.as_double(), a.as_int()));
      }
    case value_kind::uint64:
      switch (b.kind()) {
        case value_kind::int64: return 0 <=> cmp_int_uint(b.as_int(), a.as_uint());
        case value_kind::uint64: return a.as_uint() <=> b.as_uint();
        default: return flip(cmp_double_uint(b.as_double(), a.as_uint()));
      }
    default:
      switch (b.kind()) {
        case value_kind::int64: return cmp_double_int(a.as_double(), b.as_int());
        case value_kind::uint64: return cmp_double_uint(a.as_double(), b.as_uint());
        default: {
          const double x = a.as_double(), y = b.as_double();
          if (x < y) return std::strong_ordering::less;
          if (x > y) return std::strong_ordering::greater;
          if (x == y) return std::strong_ordering::equal;
          return std::nullopt;
        }
      }
  }
}

}  // namespace detail

// CEL equality at run time: numbers compare across types, values of
// different types are unequal, lists and maps compare element-wise.
// Returns an error value when an element comparison meets an error.
[[nodiscard]] inline bool equals(const value& a, const value& b);

[[nodiscard]] inline bool map_find(const value& map, const value& key, value& out);

inline bool equals(const value& a, const value& b) {
  if (detail::is_numeric(a) && detail::is_numeric(b)) {
    const auto c = detail::compare_numbers(a, b);
    return c && *c == 0;
  }
  const auto ka = a.kind(), kb = b.kind();
  const bool a_map = ka == value_kind::map || ka == value_kind::host_map;
  const bool b_map = kb == value_kind::map || kb == value_kind::host_map;
  if (a_map && b_map) {
    auto keys_of = [](const value& m) {
      std::vector<value> keys;
      if (const auto* mv = m.get_if<map_value>()) {
        for (const auto& [k, v] : *mv->entries) keys.push_back(k);
      } else {
        const auto& h = m.as<host_map_value>();
        keys = h.map->keys(h.scope);
      }
      return keys;
    };
    const auto ak = keys_of(a);
    if (ak.size() != keys_of(b).size()) return false;
    for (const auto& k : ak) {
      value av, bv;
      if (!map_find(a, k, av) || !map_find(b, k, bv) || !equals(av, bv)) return false;
    }
    return true;
  }
  if (ka != kb) return false;
  switch (ka) {
    case value_kind::null: return true;
    case value_kind::boolean: return a.as_bool() == b.as_bool();
    case value_kind::string:
    case value_kind::bytes: return a.as_text() == b.as_text();
    case value_kind::list: {
      const auto& x = *a.as<list_value>().items;
      const auto& y = *b.as<list_value>().items;
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!equals(x[i], y[i])) return false;
      return true;
    }
    case value_kind::type: return a.as<type_value>().name == b.as<type_value>().name;
    case value_kind::optional: {
      const auto& x = a.as<optional_value>().inner;
      const auto& y = b.as<optional_value>().inner;
      if (!x || !y) return !x && !y;
      return equals(*x, *y);
    }
    case value_kind::quantity: return a.as<quantity_value>().q == b.as<quantity_value>().q;
    case value_kind::semver: return a.as<semver_value>().get() == b.as<semver_value>().get();
    case value_kind::duration: return a.as<duration_value>() == b.as<duration_value>();
    case value_kind::timestamp: return a.as<timestamp_value>() == b.as<timestamp_value>();
    case value_kind::ip: return a.as<ip_value>().address == b.as<ip_value>().address;
    case value_kind::cidr: return a.as<cidr_value>().prefix == b.as<cidr_value>().prefix;
    case value_kind::named_format: return a.as<named_format_value>().index == b.as<named_format_value>().index;
    case value_kind::url: return *a.as<url_value>().parts == *b.as<url_value>().parts;
    default: return false;
  }
}

inline bool host_map::contains(std::string_view scope, const value& key) const {
  value ignored;
  return find(scope, key, ignored);
}

// Looks a key up in a map value (literal or host): numeric keys match across
// int, uint and double as CEL requires.
inline bool map_find(const value& map, const value& key, value& out) {
  if (const auto* h = map.get_if<host_map_value>()) return h->map->find(h->scope, key, out);
  for (const auto& [k, v] : *map.as<map_value>().entries) {
    if (k.kind() == key.kind() || (detail::is_numeric(k) && detail::is_numeric(key))) {
      if (equals(k, key)) {
        out = v;
        return true;
      }
    }
  }
  return false;
}

}  // namespace dra::cel
