// A stand-in selector engine for allocator tests while the CEL room is not available: it understands only the few
// selector shapes of the upstream test table (device.driver, allowMultipleAllocations, attribute and capacity
// comparisons joined by &&). It is test scaffolding, not a CEL implementation.
#pragma once

#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/flatten/mixin_view.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace dra_test {

class pattern_engine {
 public:
  struct term {
    enum class kind { driver_is, multi_is, attribute_is_string, attribute_is_true, capacity_at_least } what;
    std::string domain, name, text;
    bool flag = false;
    dra::quantity amount{};
  };
  struct program {
    std::vector<term> terms;  // ANDed
  };

  [[nodiscard]] dra::result<program> compile(std::string_view expression) const {
    program p;
    while (true) {
      std::size_t split = expression.find("&&");
      auto piece = trim(expression.substr(0, split));
      auto t = parse_term(piece);
      if (!t) return t.error();
      p.terms.push_back(std::move(t).value());
      if (split == std::string_view::npos) break;
      expression.remove_prefix(split + 2);
    }
    return p;
  }

  [[nodiscard]] dra::result<bool> matches(const program& p, const dra::flatten::mixin_device_view& device,
                                          std::string_view driver) const {
    for (const auto e : device.attributes())
      if (e.value->fields_set == 0) return dra::error{"unsupported attribute value"};
    for (const auto& t : p.terms) {
      bool ok = false;
      switch (t.what) {
        case term::kind::driver_is:
          ok = driver == t.text;
          break;
        case term::kind::multi_is:
          ok = device.base().allow_multiple_allocations.value_or(false) == t.flag;
          break;
        case term::kind::attribute_is_string:
        case term::kind::attribute_is_true: {
          const auto* a = t.domain == driver ? device.attribute(t.name) : nullptr;
          if (a == nullptr) a = device.attribute(t.domain + "/" + t.name);
          if (a == nullptr) return dra::error{"no such key: " + t.name};
          if (t.what == term::kind::attribute_is_true) {
            const bool* b = std::get_if<bool>(&a->value);
            if (b == nullptr) return dra::error{"no such overload"};
            ok = *b;
          } else {
            const auto* s = std::get_if<dra::model::text>(&a->value);
            if (s == nullptr) return dra::error{"no such overload"};
            ok = *s == t.text;
          }
          break;
        }
        case term::kind::capacity_at_least: {
          const auto* c = t.domain == driver ? device.capacity(t.name) : nullptr;
          if (c == nullptr) c = device.capacity(t.domain + "/" + t.name);
          if (c == nullptr) return dra::error{"no such key: " + t.name};
          ok = c->value >= t.amount;
          break;
        }
      }
      if (!ok) return false;
    }
    return true;
  }

 private:
  static std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
  }
  static bool take(std::string_view& s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
  }
  static std::string quoted(std::string_view& s) {
    std::string out;
    if (!take(s, "\"")) return out;
    std::size_t end = s.find('"');
    out = std::string(s.substr(0, end));
    s.remove_prefix(end == std::string_view::npos ? s.size() : end + 1);
    return out;
  }
  static dra::result<term> parse_term(std::string_view s) {
    term t{};
    if (take(s, "device.driver == ")) {
      t.what = term::kind::driver_is;
      t.text = quoted(s);
      return t;
    }
    if (take(s, "device.allowMultipleAllocations == ")) {
      t.what = term::kind::multi_is;
      t.flag = s == "true";
      return t;
    }
    bool attribute = take(s, "device.attributes[");
    if (attribute || take(s, "device.capacity[")) {
      t.domain = quoted(s);
      take(s, "]");
      if (take(s, "[")) {
        t.name = quoted(s);
        take(s, "]");
      } else if (take(s, ".")) {
        std::size_t end = s.find_first_of(" .");
        t.name = std::string(s.substr(0, end));
        s.remove_prefix(end == std::string_view::npos ? s.size() : end);
      }
      if (attribute) {
        if (s.empty()) {
          t.what = term::kind::attribute_is_true;
          return t;
        }
        if (take(s, " == ")) {
          t.what = term::kind::attribute_is_string;
          t.text = quoted(s);
          return t;
        }
      } else if (take(s, ".compareTo(quantity(")) {
        t.what = term::kind::capacity_at_least;
        auto q = dra::quantity::parse(quoted(s));
        if (!q) return q.error();
        t.amount = *q;
        return t;
      }
    }
    return dra::error{"ERROR: <input>:1:1: undeclared reference to '" + std::string(s) + "' (stand-in engine)"};
  }
};

}  // namespace dra_test
