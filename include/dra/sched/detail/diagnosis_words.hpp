// Words for explanations: counter and attribute names as people read them, lists joined in prose.
#pragma once

#include <dra/core/text.hpp>
#include <dra/model/resource_slice.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dra::sched::detail {

// "a", "a and b", "a, b and c"; more than `limit` names end in "and N more".
[[nodiscard]] inline std::string prose_list(const std::vector<std::string>& names, std::size_t limit = 6) {
  std::string out;
  const std::size_t shown = std::min(names.size(), limit);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += (i + 1 == shown && shown == names.size()) ? " and " : ", ";
    out += names[i];
  }
  if (shown < names.size()) out += dra::concat(" and ", std::to_string(names.size() - shown), " more");
  return out;
}

// "a; b; c": sentences side by side.
[[nodiscard]] inline std::string joined(const std::vector<std::string>& sentences) {
  std::string out;
  for (const auto& s : sentences) out += (out.empty() ? "" : "; ") + s;
  return out;
}

inline void add_unique(std::vector<std::string>& into, std::string value) {
  if (std::find(into.begin(), into.end(), value) == into.end()) into.push_back(std::move(value));
}

// Counters numbered like "memory-slice-3" read as one group, "memory slices".
[[nodiscard]] inline std::string counter_group(std::string_view counter) {
  std::size_t end = counter.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(counter[end - 1])) != 0) --end;
  if (end == counter.size() || end < 2 || counter[end - 1] != '-') return std::string(counter);
  std::string group(counter.substr(0, end - 1));
  std::replace(group.begin(), group.end(), '-', ' ');
  return group + "s";
}

// Every value of an attribute as text (one for scalars, each element for lists); empty when unset.
[[nodiscard]] inline std::vector<std::string> attribute_values(const model::device_attribute* a) {
  std::vector<std::string> out;
  if (a == nullptr || a->fields_set == 0) return out;
  auto one = [](const auto& v) -> std::string {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, std::int64_t>)
      return "i:" + std::to_string(v);
    else if constexpr (std::is_same_v<T, bool>)
      return v ? "b:true" : "b:false";
    else if constexpr (std::is_same_v<T, model::version_value>)
      return "v:" + std::string(v.source);
    else
      return "s:" + std::string(v);
  };
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<std::int64_t>> || std::is_same_v<T, std::vector<model::text>> ||
                      std::is_same_v<T, std::vector<model::version_value>>) {
          for (const auto& x : v) out.push_back(one(x));
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          for (bool x : v) out.push_back(one(x));
        } else {
          out.push_back(one(v));
        }
      },
      a->value);
  return out;
}

// An attribute value without its type tag, as people write it.
[[nodiscard]] inline std::string_view shown_value(std::string_view tagged) {
  return tagged.size() > 2 ? tagged.substr(2) : tagged;
}

[[nodiscard]] inline std::string devices_word(std::size_t n) { return n == 1 ? "device" : "devices"; }

}  // namespace dra::sched::detail
