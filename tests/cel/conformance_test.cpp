// Runs the CEL conformance suite (../shared/conformance/cel) in the DRA environment and, for cases with
// variables or a container, in a test environment built on the same checker.
#include "../support/source_dir.hpp"
#include <dra/cel/program.hpp>

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>

namespace {

using namespace dra::cel;

std::string base64_decode(std::string_view in) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  int bits = 0, buffer = 0;
  for (char c : in) {
    const int v = val(c);
    if (v < 0) continue;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

// Converts the cel.expr.Value JSON form to a value; type values keep their names in `type_names`.
value from_json(simdjson::dom::element e, std::vector<std::unique_ptr<std::string>>& type_names) {
  simdjson::dom::object o = e.get_object();
  for (auto [key, v] : o) {
    if (key == "int64Value") return value(static_cast<std::int64_t>(std::stoll(std::string(v.get_string().value()))));
    if (key == "uint64Value") return value(static_cast<std::uint64_t>(std::stoull(std::string(v.get_string().value()))));
    if (key == "doubleValue") {
      if (v.is_string()) {
        std::string_view s = v.get_string().value();
        if (s == "NaN") return value(std::nan(""));
        return value(s == "Infinity" ? HUGE_VAL : -HUGE_VAL);
      }
      if (v.is_int64()) return value(static_cast<double>(v.get_int64().value()));
      if (v.is_uint64()) return value(static_cast<double>(v.get_uint64().value()));
      return value(v.get_double().value());
    }
    if (key == "stringValue") return value::string(std::string(v.get_string().value()));
    if (key == "bytesValue") return value::bytes(base64_decode(v.get_string().value()));
    if (key == "boolValue") return value(v.get_bool().value());
    if (key == "nullValue") return value(null_value{});
    if (key == "typeValue") {
      type_names.push_back(std::make_unique<std::string>(v.get_string().value()));
      return type_value{*type_names.back()};
    }
    if (key == "listValue") {
      std::vector<value> items;
      simdjson::dom::element values;
      if (v["values"].get(values) == simdjson::SUCCESS)
        for (auto item : values.get_array()) items.push_back(from_json(item, type_names));
      return value::list(std::move(items));
    }
    if (key == "mapValue") {
      std::vector<std::pair<value, value>> entries;
      simdjson::dom::element list;
      if (v["entries"].get(list) == simdjson::SUCCESS)
        for (auto entry : list.get_array())
          entries.emplace_back(from_json(entry["key"], type_names), from_json(entry["value"], type_names));
      return value::map(std::move(entries));
    }
  }
  return value::error("unsupported expected value");
}

// Same value and same kinds (equals() alone would let 1 == 1.0 pass).
bool same(const value& a, const value& b) {
  if (a.kind() != b.kind()) return false;
  if (a.is(value_kind::double_) && std::isnan(a.as_double())) return std::isnan(b.as_double());
  if (a.is(value_kind::list)) {
    const auto& x = *a.as<list_value>().items;
    const auto& y = *b.as<list_value>().items;
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same(x[i], y[i])) return false;
    return true;
  }
  if (a.is(value_kind::map)) {
    if (a.as<map_value>().size() != b.as<map_value>().size()) return false;
    for (const auto& [k, v] : *a.as<map_value>().entries) {
      value other;
      if (!map_find(b, k, other) || !same(v, other)) return false;
    }
    return true;
  }
  return equals(a, b);
}

// Upstream's recorded messages place errors two columns right of the expression's own columns
// (the expression was measured inside a two-character prefix): moves them back.
std::string upstream_message(std::string_view recorded) {
  std::string out(recorded.substr(0, recorded.find('\n')));
  constexpr std::string_view marker = "<input>:1:";
  if (const auto at = out.find(marker); at != std::string::npos) {
    const auto digits = at + marker.size();
    const auto end = out.find(':', digits);
    out.replace(digits, end - digits, std::to_string(std::stoi(out.substr(digits, end - digits)) - 2));
  }
  return out;
}

const std::set<std::string, std::less<>> required_sections = {
    "basic",  "comparisons", "conversions", "fields",    "fp_math",      "integer_math",
    "lists",  "logic",       "macros",      "macros2",   "parse",        "plumbing",
    "string", "string_ext",  "namespace",   "optionals", "bindings_ext", "timestamps"};

TEST(CelConformance, RequiredSectionsPassInFull) {
  const std::filesystem::path file = std::filesystem::path(dra_test::source_dir()) / "tests/cel/data/cel-spec-cases.json";
  ASSERT_TRUE(std::filesystem::is_regular_file(file)) << file;
  // simdjson rejects integers beyond 64 bits; the suite writes two large doubles that way. Make them doubles.
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (std::size_t at = text.find("\"doubleValue\": "); at != std::string::npos; at = text.find("\"doubleValue\": ", at + 1)) {
    std::size_t p = at + 15;
    if (p < text.size() && text[p] == '-') ++p;
    std::size_t digits_end = p;
    while (digits_end < text.size() && std::isdigit(static_cast<unsigned char>(text[digits_end]))) ++digits_end;
    if (digits_end - p >= 19 && digits_end < text.size() && text[digits_end] != '.' && text[digits_end] != 'e')
      text.insert(digits_end, ".0");
  }
  simdjson::dom::parser parser;
  simdjson::dom::element cases = parser.parse(simdjson::padded_string(text));
  auto dra_env = make_dra_environment();

  std::map<std::string, std::pair<int, int>> per_section;  // passed, total
  std::vector<std::string> failures;
  std::vector<std::string> message_failures;
  for (auto c : cases.get_array()) {
    const std::string path(c["path"].get_string().value());
    const std::string section = path.substr(0, path.find('/'));
    const std::string expr(c["expr"].get_string().value());
    std::vector<std::unique_ptr<std::string>> type_names;
    auto& [passed, total] = per_section[section];
    ++total;
    std::string why;
    simdjson::dom::element dra_env_info;
    const bool has_dra_env = c["draEnv"].get(dra_env_info) == simdjson::SUCCESS;
    std::shared_ptr<const environment> env = dra_env;
    activation vars;
    bool type_check = true;
    if (has_dra_env) {
      const bool compiles = dra_env_info["compiles"].get_bool().value();
      auto program = compile(env, expr);
      if (!compiles) {
        const std::string recorded(dra_env_info["error"].get_string().value());
        if (program) {
          why = "compiles but must not: " + recorded;
        } else {
          ++passed;
          // Same message as upstream. Except for cel.block's cel.iterVar variables, nested in two
          // macros: cel-go reports every error and shows the leftmost first, dra stops at the first.
          const std::string want = upstream_message(recorded);
          if (program.error().message != want && expr.find("cel.iterVar(") == std::string::npos)
            message_failures.push_back(path + ": " + expr + " -> " + program.error().message + ", upstream: " + want);
        }
        if (!why.empty()) failures.push_back(path + ": " + expr + " -> " + why);
        continue;
      }
      if (!program) {
        failures.push_back(path + ": " + expr + " -> does not compile: " + program.error().message);
        continue;
      }
    }
    auto test_env = std::make_shared<environment>();
    if (!has_dra_env) {
      add_dra_library(test_env->functions);
      test_env->variables.reserve(64);
      std::string_view container;
      if (c["container"].get(container) == simdjson::SUCCESS) test_env->container = std::string(container);
      type_check = !c["disableCheck"].get_bool().value();
      for (auto [name, v] : c["bindings"].get_object()) {
        test_env->variables.push_back({std::string(name), type::dyn()});
        vars.bind(test_env->variables.back().name, from_json(v, type_names));
      }
      env = test_env;
    }
    // Bindings name their variables by views into test_env->variables: keep the vector stable from here on.
    auto program = compile(env, expr, type_check);
    if (!program) {
      failures.push_back(path + ": " + expr + " -> does not compile: " + program.error().message);
      continue;
    }
    const value got = program.value().evaluate(vars);
    simdjson::dom::element expected;
    if (c["expect"]["value"].get(expected) == simdjson::SUCCESS) {
      const value want = from_json(expected, type_names);
      if (got.is_error())
        why = "error: " + got.error_message();
      else if (!same(got, want))
        why = "got " + lib::display(got) + " (" + std::string(type_name(got)) + "), want " + lib::display(want);
    } else if (!got.is_error()) {
      why = "want an error, got " + lib::display(got);
    }
    if (why.empty())
      ++passed;
    else
      failures.push_back(path + ": " + expr + " -> " + why);
  }
  int required_failures = 0;
  for (const auto& f : failures) {
    const std::string section = f.substr(0, f.find('/'));
    if (required_sections.contains(section)) {
      ++required_failures;
      ADD_FAILURE() << f;
    } else if (std::getenv("DRA_CEL_VERBOSE") != nullptr) {
      std::cout << "  (optional section) " << f << "\n";
    }
  }
  for (const auto& [section, counts] : per_section)
    std::cout << (required_sections.contains(section) ? "[required] " : "[optional] ") << section << ": "
              << counts.first << "/" << counts.second << "\n";
  EXPECT_EQ(required_failures, 0);
  for (const auto& f : message_failures) ADD_FAILURE() << "compile error message differs: " << f;
}

}  // namespace
