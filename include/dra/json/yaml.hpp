// YAML in and out with yaml-cpp: YAML documents converted to JSON text for the JSON reader, and JSON objects written back as YAML.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <simdjson.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdint>
#include <exception>
#include <optional>
#include <sstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::json {

// YAML input converted to JSON: `json` holds one JSON text per non-empty YAML document, one
// after another (separated by a newline), in input order; `nodes[k]` and `first_lines[k]` (from 1)
// belong to the k-th of them, kept to find the YAML line of an error.
struct yaml_conversion {
  std::string json;
  std::vector<YAML::Node> nodes;
  std::vector<std::size_t> first_lines;
};

// Converts every document of a YAML stream (`---`-separated) to JSON, as Kubernetes reads YAML:
// plain scalars that YAML 1.2's core schema resolves to null, a boolean, an integer or a float
// become JSON literals, every other scalar (quoted, block, or plain text) a JSON string. Empty
// documents are skipped. Errors: YAML that does not parse (with its line and column), a
// document that is neither a mapping nor a sequence, a mapping key that is not a scalar.
[[nodiscard]] result<yaml_conversion> yaml_to_json(std::string_view yaml);

// The YAML text of one JSON value (an object, usually), in block style, keys in their JSON
// order; strings that YAML would read as another type are quoted. For `--output scenario`
// of YAML input ("YAML in, YAML out").
[[nodiscard]] result<std::string> to_yaml(std::string_view json);

// The JSON texts of objects as a YAML stream: each one a document, `---` between them.
[[nodiscard]] result<std::string> to_yaml_documents(std::span<const std::string_view> json_objects);

// The line (from 1) in a YAML document of the value at a JSON-style path of a loader error
// ("items[3].spec.devices[0].name", "metadata.labels[\"a.b/c\"]"): the deepest node the path
// reaches. Nothing when the document holds no line marks.
[[nodiscard]] std::optional<std::size_t> yaml_line(const YAML::Node& document, std::string_view path);

namespace detail {

enum class yaml_scalar : std::uint8_t { null, boolean, integer, floating, string };

[[nodiscard]] constexpr bool all_of_digits(std::string_view s, bool hex = false) noexcept {
  if (s.empty()) return false;
  for (char c : s) {
    const bool digit = c >= '0' && c <= '9';
    const bool hex_digit = hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
    if (!digit && !hex_digit) return false;
  }
  return true;
}

// The type YAML 1.2's core schema gives a plain scalar.
[[nodiscard]] constexpr yaml_scalar resolve_plain(std::string_view s) noexcept {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return yaml_scalar::null;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE")
    return yaml_scalar::boolean;
  if (s.starts_with("0x") && all_of_digits(s.substr(2), /*hex=*/true)) return yaml_scalar::integer;
  if (s.starts_with("0o") && all_of_digits(s.substr(2))) return yaml_scalar::integer;
  std::string_view unsigned_part = s;
  if (s.front() == '-' || s.front() == '+') unsigned_part.remove_prefix(1);
  if (all_of_digits(unsigned_part)) return yaml_scalar::integer;
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF" || s == ".nan" || s == ".NaN" ||
      s == ".NAN")
    return yaml_scalar::floating;
  // [0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)? with a digit before or after the point
  const std::size_t exponent = unsigned_part.find_first_of("eE");
  std::string_view mantissa = unsigned_part.substr(0, exponent);
  if (exponent != std::string_view::npos) {
    std::string_view power = unsigned_part.substr(exponent + 1);
    if (!power.empty() && (power.front() == '-' || power.front() == '+')) power.remove_prefix(1);
    if (!all_of_digits(power)) return yaml_scalar::string;
  }
  const std::size_t point = mantissa.find('.');
  std::string_view whole = mantissa.substr(0, point);
  std::string_view fraction = point == std::string_view::npos ? std::string_view() : mantissa.substr(point + 1);
  if (whole.empty() && fraction.empty()) return yaml_scalar::string;
  if ((!whole.empty() && !all_of_digits(whole)) || (!fraction.empty() && !all_of_digits(fraction)))
    return yaml_scalar::string;
  return yaml_scalar::floating;
}

inline void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// A JSON number for a scalar the core schema reads as a number; nothing for one JSON cannot
// write (.inf, .nan, an integer beyond 64 bits in hexadecimal or octal): it stays a string.
[[nodiscard]] inline std::optional<std::string> json_number(std::string_view s, yaml_scalar type) {
  if (type == yaml_scalar::integer && (s.starts_with("0x") || s.starts_with("0o"))) {
    std::uint64_t value = 0;
    const std::string_view digits = s.substr(2);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, s[1] == 'x' ? 16 : 8);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return std::to_string(value);
  }
  if (s.find_first_of("nN") != std::string_view::npos) return std::nullopt;  // .inf, .nan
  std::string out;
  if (s.front() == '-') out += '-';
  if (s.front() == '-' || s.front() == '+') s.remove_prefix(1);
  // JSON wants no leading zeros, a digit before a point and one after it.
  std::size_t zeros = 0;
  while (zeros + 1 < s.size() && s[zeros] == '0' && s[zeros + 1] >= '0' && s[zeros + 1] <= '9') ++zeros;
  s.remove_prefix(zeros);
  if (s.front() == '.') out += '0';
  for (std::size_t k = 0; k < s.size(); ++k) {
    out += s[k];
    if (s[k] == '.' && (k + 1 == s.size() || s[k + 1] < '0' || s[k + 1] > '9')) out += '0';
  }
  return out;
}

[[nodiscard]] inline std::size_t line_of(const YAML::Node& node) { return static_cast<std::size_t>(node.Mark().line) + 1; }

// Appends a YAML scalar as JSON: plain ones resolved by the core schema, tagged ones by their tag.
inline void append_scalar(std::string& out, const YAML::Node& node) {
  const std::string& text = node.Scalar();
  const std::string& tag = node.Tag();
  yaml_scalar type = yaml_scalar::string;
  if (tag == "?") {
    type = resolve_plain(text);
  } else if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool" ||
             tag == "tag:yaml.org,2002:null") {
    type = resolve_plain(text);
  }
  switch (type) {
    case yaml_scalar::null:
      out += "null";
      return;
    case yaml_scalar::boolean:
      out += (text.front() == 't' || text.front() == 'T') ? "true" : "false";
      return;
    case yaml_scalar::integer:
    case yaml_scalar::floating:
      if (auto number = json_number(text, type)) {
        out += *number;
        return;
      }
      break;
    case yaml_scalar::string:
      break;
  }
  append_json_string(out, text);
}

// Appends a YAML node as JSON. Iterative over an explicit stack: hostile nesting cannot overflow
// the call stack.
[[nodiscard]] inline dra::status append_node(std::string& out, const YAML::Node& root) {
  struct frame {
    YAML::const_iterator next, end;
    bool map;
    bool first = true;
  };
  std::vector<frame> stack;
  auto open = [&](const YAML::Node& node) -> dra::status {
    switch (node.Type()) {
      case YAML::NodeType::Map:
        out += '{';
        stack.push_back({node.begin(), node.end(), true});
        return {};
      case YAML::NodeType::Sequence:
        out += '[';
        stack.push_back({node.begin(), node.end(), false});
        return {};
      case YAML::NodeType::Scalar:
        append_scalar(out, node);
        return {};
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        out += "null";
        return {};
    }
    return {};
  };
  if (auto status = open(root); !status) return status;
  while (!stack.empty()) {
    frame& top = stack.back();
    if (top.next == top.end) {
      out += top.map ? '}' : ']';
      stack.pop_back();
      continue;
    }
    if (!top.first) out += ',';
    top.first = false;
    const auto entry = *top.next;
    ++top.next;
    if (top.map) {
      if (!entry.first.IsScalar())
        return dra::error{
            dra::concat("line ", std::to_string(line_of(entry.first)), ": a mapping key must be a scalar"), "",
            "", errc::malformed_document};
      append_json_string(out, entry.first.Scalar());
      out += ':';
      if (auto status = open(entry.second); !status) return status;
    } else {
      if (auto status = open(entry); !status) return status;
    }
  }
  return {};
}

// Refuses a YAML stream on which yaml-cpp 0.7's LoadAll never returns. Root cause
// (jbeder/yaml-cpp#1040, fixed upstream by #1319 after 0.8): when a document starts with a token
// that cannot start a node — a `,` outside any flow collection, as in `,`, `[a],` or `a: 1\n---\n,` —
// the parser reports an empty document without consuming the token, so every later call sees the
// same token again: LoadAll loops forever, appending an empty document each time (gigabytes within
// seconds). This pass runs yaml-cpp's own parser without building nodes and stops when a document
// starts where the previous one started: the parser's state is then unchanged, so no input that
// LoadAll finishes is refused. yaml-cpp's own errors (ParserException) pass through as they are.
class yaml_progress_check final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (previous_start_ && previous_start_->pos == mark.pos)
      throw YAML::ParserException(mark, "a node cannot start here (a ',' outside [ ] or { }?)");
    previous_start_ = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  std::optional<YAML::Mark> previous_start_;
};

// Parses `text` once without building nodes; throws where LoadAll would fail or never return.
inline void check_yaml_terminates(const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  yaml_progress_check check;
  while (parser.HandleNextDocument(check)) {
  }
}

}  // namespace detail

inline result<yaml_conversion> yaml_to_json(std::string_view yaml) {
  yaml_conversion out;
  std::vector<YAML::Node> documents;
  try {
    const std::string text(yaml);
    detail::check_yaml_terminates(text);
    documents = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null())
      return dra::error{dra::concat("invalid YAML: ", e.msg), "", "", errc::malformed_document};
    return dra::error{dra::concat("invalid YAML at line ", std::to_string(e.mark.line + 1), ", column ",
                                          std::to_string(e.mark.column + 1), ": ", e.msg),
                      "", "", errc::malformed_document};
  }
  std::size_t number = 0;
  for (YAML::Node& node : documents) {
    ++number;
    if (node.IsNull()) continue;  // an empty document, as between two `---`
    if (!node.IsMap() && !node.IsSequence())
      return dra::error{dra::concat("line ", std::to_string(detail::line_of(node)),
                                            ": a scenario document must be a YAML mapping or sequence, not a scalar"),
                        "", documents.size() > 1 ? dra::concat("document ", std::to_string(number)) : "",
                        errc::malformed_document};
    if (!out.json.empty()) out.json += '\n';
    if (auto status = detail::append_node(out.json, node); !status) return std::move(status).error();
    out.first_lines.push_back(detail::line_of(node));
    out.nodes.push_back(std::move(node));
  }
  return out;
}

inline std::optional<std::size_t> yaml_line(const YAML::Node& document, std::string_view path) {
  YAML::Node node = document;  // Node copies are handles to the same node
  std::optional<std::size_t> line;
  if (!node.Mark().is_null()) line = detail::line_of(node);
  while (!path.empty() && node) {
    std::string key;
    bool is_index = false;
    std::size_t index = 0;
    if (path.front() == '.') path.remove_prefix(1);
    if (path.starts_with("[\"")) {
      // ["key"]: as reader::path() writes it (a quote inside a key is not escaped there)
      const std::size_t end = path.find("\"]", 2);
      if (end == std::string_view::npos) break;
      key = std::string(path.substr(2, end - 2));
      path.remove_prefix(end + 2);
    } else if (path.front() == '[') {
      const std::size_t end = path.find(']');
      if (end == std::string_view::npos) break;
      auto [ptr, ec] = std::from_chars(path.data() + 1, path.data() + end, index);
      if (ec != std::errc()) break;
      is_index = true;
      path.remove_prefix(end + 1);
    } else {
      const std::size_t end = path.find_first_of(".[");
      key = std::string(path.substr(0, end));
      path.remove_prefix(end == std::string_view::npos ? path.size() : end);
    }
    YAML::Node child;
    if (is_index && node.IsSequence() && index < node.size())
      child = node[index];
    else if (!is_index && node.IsMap())
      for (const auto& entry : node)
        if (entry.first.IsScalar() && entry.first.Scalar() == key) {
          child = entry.second;
          break;
        }
    if (!child) break;
    node.reset(child);
    if (!node.Mark().is_null()) line = detail::line_of(node);
  }
  return line;
}

namespace detail {

// Whether a string must be quoted to be read back as a string: by the core schema, and by YAML 1.1
// readers (Kubernetes' own YAML library among them), which also read yes, no, on, off as booleans.
[[nodiscard]] constexpr bool needs_quotes(std::string_view text) noexcept {
  if (resolve_plain(text) != yaml_scalar::string) return true;
  for (std::string_view word : {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"})
    if (text == word) return true;
  return false;
}

inline void emit_json(YAML::Emitter& out, simdjson::dom::element value) {
  switch (value.type()) {
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object object = value.get_object().value_unsafe();
      if (object.size() == 0) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      out << YAML::BeginMap;
      for (auto field : object) {
        out << YAML::Key;
        if (needs_quotes(field.key)) out << YAML::DoubleQuoted;
        out << std::string(field.key) << YAML::Value;
        emit_json(out, field.value);
      }
      out << YAML::EndMap;
      return;
    }
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = value.get_array().value_unsafe();
      if (array.size() == 0) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      out << YAML::BeginSeq;
      for (simdjson::dom::element element : array) emit_json(out, element);
      out << YAML::EndSeq;
      return;
    }
    case simdjson::dom::element_type::STRING: {
      const std::string_view text = value.get_string().value_unsafe();
      if (needs_quotes(text)) out << YAML::DoubleQuoted;
      out << std::string(text);
      return;
    }
    case simdjson::dom::element_type::INT64:
      out << value.get_int64().value_unsafe();
      return;
    case simdjson::dom::element_type::UINT64:
      out << value.get_uint64().value_unsafe();
      return;
    case simdjson::dom::element_type::DOUBLE:
      out << simdjson::to_string(value);  // as simdjson writes it: a number YAML reads back
      return;
    case simdjson::dom::element_type::BOOL:
      out << (value.get_bool().value_unsafe() ? "true" : "false");
      return;
    case simdjson::dom::element_type::NULL_VALUE:
      out << YAML::Null;
      return;
  }
}

}  // namespace detail

inline result<std::string> to_yaml(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto code = parser.parse(json).get(root))
    return dra::error{dra::concat("invalid JSON: ", simdjson::error_message(code)), "", "",
                      errc::malformed_document};
  YAML::Emitter out;
  detail::emit_json(out, root);
  if (!out.good()) return dra::error{dra::concat("cannot write YAML: ", out.GetLastError())};
  std::string text(out.c_str(), out.size());
  text += '\n';
  return text;
}

inline result<std::string> to_yaml_documents(std::span<const std::string_view> json_objects) {
  std::string out;
  for (std::size_t k = 0; k < json_objects.size(); ++k) {
    auto document = to_yaml(json_objects[k]);
    if (!document) {
      dra::error e = std::move(document).error();
      e.object = dra::concat("object ", std::to_string(k + 1));
      return e;
    }
    if (k > 0) out += "---\n";
    out += *document;
  }
  return out;
}

}  // namespace dra::json
