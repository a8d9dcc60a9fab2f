// Plain types shared by every Kubernetes object in the model: metadata, node and label selectors, tolerations.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::model {

// Strings in the model borrow: they point into the JSON buffer owned by the
// loaded document (json/), or into string literals when built by hand.
using text = std::string_view;

// A small string-keyed map kept sorted by key (as Kubernetes marshals maps),
// so that lookups can bisect and iteration is deterministic.
template <class V>
struct keyed {
  text name;
  V value;
  friend bool operator==(const keyed&, const keyed&) = default;
};
template <class V>
using sorted_map = std::vector<keyed<V>>;

// Puts a map built by hand into key order (ingest already does). Every
// lookup relies on it.
template <class V>
void sort_by_key(sorted_map<V>& map) {
  std::stable_sort(map.begin(), map.end(), [](const keyed<V>& a, const keyed<V>& b) { return a.name < b.name; });
}

// Finds `name` in a sorted_map; nullptr when absent.
template <class V>
[[nodiscard]] const V* find(const sorted_map<V>& map, text name) noexcept {
  // Outside the key range: a cheap miss, common when looking through mixins.
  if (map.empty() || name < map.front().name || map.back().name < name) return nullptr;
  std::size_t lo = 0, hi = map.size();
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    if (map[mid].name < name)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < map.size() && map[lo].name == name ? &map[lo].value : nullptr;
}

// An optional value kept on the heap, for fields that are rarely set but
// large: an empty one costs a pointer instead of the value's full size in
// every element of a big vector (a device's capacities). Has
// std::optional's interface as far as the model uses it, and value semantics.
template <class T>
class optional_box {
 public:
  optional_box() noexcept = default;
  optional_box(std::nullopt_t) noexcept {}  // NOLINT(google-explicit-constructor)
  optional_box(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT(google-explicit-constructor)
  optional_box(const optional_box& other) : value_(other ? std::make_unique<T>(*other) : nullptr) {}
  optional_box(optional_box&&) noexcept = default;
  optional_box& operator=(const optional_box& other) {
    if (this != &other) value_ = other ? std::make_unique<T>(*other) : nullptr;
    return *this;
  }
  optional_box& operator=(optional_box&&) noexcept = default;
  optional_box& operator=(std::nullopt_t) noexcept {
    value_.reset();
    return *this;
  }
  ~optional_box() = default;

  template <class... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() noexcept { value_.reset(); }

  [[nodiscard]] bool has_value() const noexcept { return value_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }
  [[nodiscard]] const T& operator*() const noexcept { return *value_; }
  [[nodiscard]] T& operator*() noexcept { return *value_; }
  [[nodiscard]] const T* operator->() const noexcept { return value_.get(); }
  [[nodiscard]] T* operator->() noexcept { return value_.get(); }

  friend bool operator==(const optional_box& a, const optional_box& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || *a == *b;
  }

 private:
  std::unique_ptr<T> value_;
};

struct object_meta {
  text name;
  text namespace_;
  text uid;
  text creation_timestamp;  // RFC 3339 as written ("" when absent): the scheduling queue's tie-break
  text controller_uid;      // the uid of the ownerReference marked controller ("" when none): whose object this is
  bool deleting = false;    // deletionTimestamp set: the object is going away
  sorted_map<text> labels;
  sorted_map<text> annotations;
  friend bool operator==(const object_meta&, const object_meta&) = default;
};

// How output and errors name objects: "namespace/name", or "name" without a
// namespace (klog.KObj; claims in the output document)...
[[nodiscard]] inline std::string namespaced_name(text namespace_, text name) {
  std::string out;
  out.reserve(namespace_.size() + 1 + name.size());
  if (!namespace_.empty()) out.append(namespace_).push_back('/');
  out.append(name);
  return out;
}
[[nodiscard]] inline std::string namespaced_name(const object_meta& meta) { return namespaced_name(meta.namespace_, meta.name); }

// ...and with the kind in front, "Kind/namespace/name" or "Kind/name" (dra::error::object).
[[nodiscard]] inline std::string object_label(text kind, text namespace_, text name) {
  std::string out(kind);
  out.push_back('/');
  return out.append(namespaced_name(namespace_, name));
}
[[nodiscard]] inline std::string object_label(text kind, const object_meta& meta) {
  return object_label(kind, meta.namespace_, meta.name);
}

// core/v1 NodeSelectorOperator. `unsupported` keeps an operator this
// version does not know (its text is in operator_name), so that validation
// reports it with the object's other problems and matching fails on it.
enum class node_selector_operator : std::uint8_t { in, not_in, exists, does_not_exist, gt, lt, unsupported };

// The operator a requirement spells; `unsupported` for any other text (the caller keeps it in operator_name).
[[nodiscard]] constexpr node_selector_operator parse_node_selector_operator(std::string_view op) noexcept {
  using o = node_selector_operator;
  constexpr std::pair<std::string_view, o> operators[] = {{"In", o::in},         {"NotIn", o::not_in},
                                                          {"Exists", o::exists}, {"DoesNotExist", o::does_not_exist},
                                                          {"Gt", o::gt},         {"Lt", o::lt}};
  for (auto [text, value] : operators)
    if (op == text) return value;
  return o::unsupported;
}

struct node_selector_requirement {
  text key;
  node_selector_operator op = node_selector_operator::in;
  std::vector<text> values;
  text operator_name = {};  // the operator as written, when unsupported
  friend bool operator==(const node_selector_requirement&, const node_selector_requirement&) = default;
};

struct node_selector_term {
  std::vector<node_selector_requirement> match_expressions;
  std::vector<node_selector_requirement> match_fields;
  friend bool operator==(const node_selector_term&, const node_selector_term&) = default;
};

// core/v1 NodeSelector: the terms are ORed, the requirements of a term ANDed.
struct node_selector {
  std::vector<node_selector_term> terms;
  friend bool operator==(const node_selector&, const node_selector&) = default;
};

// metav1.LabelSelector: matchLabels and matchExpressions ANDed. Its requirements have a node selector
// requirement's shape; Gt and Lt are not label selector operators (validation refuses them).
struct label_selector {
  sorted_map<text> match_labels;
  std::vector<node_selector_requirement> match_expressions;
  friend bool operator==(const label_selector&, const label_selector&) = default;
};

// The effects a DeviceTaint may have (a toleration names one or none), in the order upstream's validation lists them.
inline constexpr std::array<std::string_view, 3> taint_effects = {"NoExecute", "NoSchedule", "None"};

[[nodiscard]] constexpr bool is_taint_effect(std::string_view effect) noexcept {
  return std::find(taint_effects.begin(), taint_effects.end(), effect) != taint_effects.end();
}

// resource.k8s.io/v1 DeviceToleration. `unsupported` keeps an operator this
// version does not know (its text is in operator_name): validation reports
// it, and such a toleration tolerates nothing, as upstream's matching does.
enum class toleration_operator : std::uint8_t { equal, exists, unsupported };

// The operator a toleration spells: empty is Equal, the API server's default.
[[nodiscard]] constexpr toleration_operator parse_toleration_operator(std::string_view op) noexcept {
  if (op == "Exists") return toleration_operator::exists;
  if (op == "Equal" || op.empty()) return toleration_operator::equal;
  return toleration_operator::unsupported;
}

struct device_toleration {
  text key;
  toleration_operator op = toleration_operator::equal;  // the API server's default
  text value;
  text effect;  // empty: tolerates every effect
  std::optional<std::int64_t> toleration_seconds;
  text operator_name = {};  // the operator as written, when unsupported
  friend bool operator==(const device_toleration&, const device_toleration&) = default;
};

}  // namespace dra::model
