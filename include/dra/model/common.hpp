// Plain types shared by every Kubernetes object in the model: metadata, node selectors, tolerations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
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

struct object_meta {
  text name;
  text namespace_;
  text uid;
  sorted_map<text> labels;
  friend bool operator==(const object_meta&, const object_meta&) = default;
};

// core/v1 NodeSelectorOperator.
enum class node_selector_operator : std::uint8_t { in, not_in, exists, does_not_exist, gt, lt };

struct node_selector_requirement {
  text key;
  node_selector_operator op = node_selector_operator::in;
  std::vector<text> values;
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

// resource.k8s.io/v1 DeviceToleration.
enum class toleration_operator : std::uint8_t { equal, exists };

struct device_toleration {
  text key;
  toleration_operator op = toleration_operator::equal;  // the API server's default
  text value;
  text effect;  // empty: tolerates every effect
  std::optional<std::int64_t> toleration_seconds;
  friend bool operator==(const device_toleration&, const device_toleration&) = default;
};

}  // namespace dra::model
