// YAML in and out with libyaml: a YAML stream converted to JSON text for the JSON reader, event by event, and JSON objects written back as YAML.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>
#include <dra/json/detail/yaml_events.hpp>
#include <dra/json/detail/yaml_list_parts.hpp>
#include <dra/json/detail/yaml_scalars.hpp>

#include <simdjson.h>
#include <yaml.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstddef>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <variant>
#include <vector>

namespace dra::json {

// YAML input converted to JSON: `json` holds one JSON text per non-empty YAML document, one after
// another (separated by a newline), in input order; `first_lines[k]` (from 1) is the line the k-th
// of them starts on.
struct yaml_conversion {
  std::string json;
  std::vector<std::size_t> first_lines;
};

// Converts every document of a YAML stream (`---`-separated) to JSON as it is parsed, never holding
// a document's tree, as Kubernetes reads YAML: plain scalars that YAML 1.2's core schema resolves to
// null, a boolean, an integer or a float become JSON literals, every other scalar (quoted, block, or
// plain text) a JSON string; aliases repeat their anchor's value (merge keys `<<` stay ordinary
// keys). Empty documents (and documents holding only null) are skipped. Errors: YAML that does not
// parse (with its line and column), a document that is a scalar, a mapping key that is not a
// scalar, an alias of no anchor, aliases that would expand the input more than sixteenfold.
[[nodiscard]] result<yaml_conversion> yaml_to_json(std::string_view yaml);

// How a large YAML input is converted.
struct yaml_options {
  // Threads that convert a List's items (`kubectl get -o yaml` output), each a part of them at a
  // time; 1 converts on the calling thread alone. Any number gives the same JSON and the same
  // error (input that does not convert in parts is converted again whole on the calling thread).
  unsigned threads = 1;
  // Bytes of items a part holds; 0 picks eight parts a thread, of at least 256 KiB each.
  std::size_t part_bytes = 0;
};

// yaml_to_json(yaml), a List's items converted on several threads where `options` asks for them.
[[nodiscard]] result<yaml_conversion> yaml_to_json(std::string_view yaml, yaml_options options);

// The line (from 1) in `yaml` of the value at a JSON-style path of a loader error
// ("items[3].spec.devices[0].name", "metadata.labels[\"a.b/c\"]") inside the `document`-th (from 0)
// non-empty document: the deepest node the path reaches. Nothing when there is no such document.
// It parses the stream again, so that a conversion need keep no tree for the rare error.
[[nodiscard]] std::optional<std::size_t> yaml_line(std::string_view yaml, std::size_t document, std::string_view path);

// The YAML text of one JSON value (an object, usually), in block style, keys in their JSON
// order; strings that YAML would read as another type are quoted. For `--output scenario`
// of YAML input ("YAML in, YAML out").
[[nodiscard]] result<std::string> to_yaml(std::string_view json);

// The JSON texts of objects as a YAML stream: each one a document, `---` between them.
[[nodiscard]] result<std::string> to_yaml_documents(std::span<const std::string_view> json_objects);

namespace detail {

[[nodiscard]] inline bool is_core_schema_tag(std::string_view tag) noexcept {
  return tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool" ||
         tag == "tag:yaml.org,2002:null";
}

// The type a scalar event's value has: plain ones resolved by the core schema, tagged ones by their tag.
[[nodiscard]] inline yaml_scalar scalar_type(const yaml_event_t& event, std::string_view text) noexcept {
  const auto* tag = reinterpret_cast<const char*>(event.data.scalar.tag);
  const bool resolved = tag == nullptr ? event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE : is_core_schema_tag(tag);
  return resolved ? resolve_plain(text) : yaml_scalar::string;
}

inline void append_scalar(std::string& out, std::string_view text, yaml_scalar type) {
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

// The bytes aliases may repeat while one input converts (sixteen times its size, at least 64 MiB),
// shared by the converters of its parts.
struct alias_allowance {
  explicit alias_allowance(std::size_t input_bytes) noexcept
      : budget(std::max<std::size_t>(std::size_t{64} << 20, input_bytes * 16)) {}
  std::size_t budget;
  std::atomic<std::size_t> used{0};
};

// Writes a YAML stream's documents as JSON while libyaml parses it: one pass, and no more memory than
// the JSON text, the open collections and the anchored values.
class yaml_to_json_converter {
 public:
  yaml_to_json_converter(std::string_view yaml, alias_allowance& aliases) : events_(yaml), aliases_(aliases) {}

  [[nodiscard]] result<yaml_conversion> run() {
    for (;;) {
      if (!events_.next()) return events_.failure();
      switch (events_.type()) {
        case YAML_STREAM_END_EVENT:
          return std::move(out_);
        case YAML_DOCUMENT_START_EVENT:
          anchors_.clear();  // an alias names an anchor of its own document
          ++documents_;
          explicit_markers_ |= events_.event().data.document_start.implicit == 0;
          break;
        case YAML_DOCUMENT_END_EVENT:
          explicit_markers_ |= events_.event().data.document_end.implicit == 0;
          break;
        case YAML_STREAM_START_EVENT:
        case YAML_NO_EVENT:
          break;
        default:
          if (auto status = on_node_event(); !status) return std::move(status).error();
      }
    }
  }

  // Documents met, empty ones too.
  [[nodiscard]] std::size_t documents() const noexcept { return documents_; }
  // Whether a document started with `---` or ended with `...`.
  [[nodiscard]] bool explicit_markers() const noexcept { return explicit_markers_; }
  // Where in the JSON the items of the first document's `items` go, when its root is a block
  // mapping and `items` a sequence: just after that sequence's `[`.
  [[nodiscard]] std::optional<std::size_t> items_slot() const noexcept { return items_slot_; }

 private:
  struct open_collection {
    bool mapping;
    std::string anchor;  // empty for most: anchors are rare
    std::size_t start;        // where the collection's JSON starts in out_.json
    bool first = true;
    bool awaiting_key = true;
  };
  struct anchored_value {
    std::string json;
    std::optional<std::string> scalar;  // a scalar's text, for an alias used as a mapping key
  };

  [[nodiscard]] dra::error error_here(std::string_view what, errc code = errc::malformed_document) const {
    return dra::error{dra::concat("line ", std::to_string(events_.line()), ": ", what), "", "", code};
  }

  [[nodiscard]] dra::status on_node_event() {
    const yaml_event_type_t type = events_.type();
    if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
      close_collection();
      return {};
    }
    if (stack_.empty()) return on_document_root();
    open_collection& parent = stack_.back();
    if (parent.mapping && parent.awaiting_key) return on_key();
    if (!parent.mapping && !parent.first) out_.json += ',';  // a mapping's commas come before its keys
    parent.first = false;
    parent.awaiting_key = parent.mapping;
    return on_value();
  }

  [[nodiscard]] dra::status on_document_root() {
    const yaml_event_type_t type = events_.type();
    if (type == YAML_SCALAR_EVENT && scalar_type(events_.event(), events_.scalar()) == yaml_scalar::null &&
        events_.anchor().empty())
      return {};  // an empty document, as between two `---`
    if (type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT) {
      dra::error e = error_here("a scenario document must be a YAML mapping or sequence, not a scalar");
      if (documents_ > 1 || more_documents_follow()) e.object = dra::concat("document ", std::to_string(documents_));
      return e;
    }
    if (!out_.json.empty()) out_.json += '\n';
    out_.first_lines.push_back(events_.line());
    root_block_mapping_ =
        type == YAML_MAPPING_START_EVENT && events_.event().data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE;
    return on_value();
  }

  [[nodiscard]] dra::status on_key() {
    open_collection& parent = stack_.back();
    std::string_view key;
    if (events_.type() == YAML_SCALAR_EVENT) {
      key = events_.scalar();
      if (!events_.anchor().empty())
        anchors_[std::string(events_.anchor())] = anchored_of_scalar(key, scalar_type(events_.event(), key));
    } else if (events_.type() == YAML_ALIAS_EVENT) {
      const auto found = anchors_.find(std::string(events_.anchor()));
      if (found == anchors_.end()) return error_here(dra::concat("alias *", events_.anchor(), " names no anchor before it"));
      if (!found->second.scalar) return error_here("a mapping key must be a scalar");
      key = *found->second.scalar;
    } else {
      return error_here("a mapping key must be a scalar");
    }
    if (!parent.first) out_.json += ',';
    parent.first = false;
    parent.awaiting_key = false;
    if (stack_.size() == 1) root_key_is_items_ = key == "items";
    append_json_string(out_.json, key);
    out_.json += ':';
    return {};
  }

  [[nodiscard]] dra::status on_value() {
    switch (events_.type()) {
      case YAML_SCALAR_EVENT: {
        const std::string_view text = events_.scalar();
        const yaml_scalar type = scalar_type(events_.event(), text);
        if (!events_.anchor().empty()) anchors_[std::string(events_.anchor())] = anchored_of_scalar(text, type);
        append_scalar(out_.json, text, type);
        return {};
      }
      case YAML_ALIAS_EVENT: {
        const auto found = anchors_.find(std::string(events_.anchor()));
        if (found == anchors_.end()) return error_here(dra::concat("alias *", events_.anchor(), " names no anchor before it"));
        if (aliases_.used.fetch_add(found->second.json.size()) + found->second.json.size() > aliases_.budget)
          return error_here(dra::concat("aliases repeat more than ", std::to_string(aliases_.budget >> 20),
                                        " MiB of this input (sixteen times its size at most)"),
                            errc::limit_exceeded);
        out_.json += found->second.json;
        return {};
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const bool mapping = events_.type() == YAML_MAPPING_START_EVENT;
        if (!mapping && stack_.size() == 1 && root_block_mapping_ && root_key_is_items_ && documents_ == 1 &&
            !items_slot_)
          items_slot_ = out_.json.size() + 1;
        stack_.push_back({mapping, std::string(events_.anchor()), out_.json.size()});
        out_.json += mapping ? '{' : '[';
        return {};
      }
      default:
        return {};
    }
  }

  void close_collection() {
    if (stack_.empty()) return;
    open_collection closed = std::move(stack_.back());
    stack_.pop_back();
    out_.json += closed.mapping ? '}' : ']';
    if (!closed.anchor.empty())
      anchors_[std::move(closed.anchor)] = anchored_value{out_.json.substr(closed.start), std::nullopt};
  }

  [[nodiscard]] static anchored_value anchored_of_scalar(std::string_view text, yaml_scalar type) {
    anchored_value value{std::string(), std::string(text)};
    append_scalar(value.json, text, type);
    return value;
  }

  // After a document's root scalar: whether another document starts after this one.
  [[nodiscard]] bool more_documents_follow() {
    while (events_.next()) {
      if (events_.type() == YAML_DOCUMENT_START_EVENT) return true;
      if (events_.type() == YAML_STREAM_END_EVENT) return false;
    }
    return false;
  }

  yaml_event_stream events_;
  yaml_conversion out_;
  std::vector<open_collection> stack_;
  std::unordered_map<std::string, anchored_value> anchors_;
  alias_allowance& aliases_;
  std::size_t documents_ = 0;
  bool explicit_markers_ = false;
  bool root_block_mapping_ = false;
  bool root_key_is_items_ = false;
  std::optional<std::size_t> items_slot_;
};

// One step of a loader error's path: a mapping key or a sequence index.
using path_step = std::variant<std::string, std::size_t>;

// The steps of "items[3].metadata.labels[\"a.b/c\"]", up to the first one that does not read.
[[nodiscard]] inline std::vector<path_step> path_steps(std::string_view path) {
  std::vector<path_step> steps;
  while (!path.empty()) {
    if (path.front() == '.') path.remove_prefix(1);
    if (path.starts_with("[\"")) {
      // ["key"]: as reader::path() writes it (a quote inside a key is not escaped there)
      const std::size_t end = path.find("\"]", 2);
      if (end == std::string_view::npos) break;
      steps.emplace_back(std::string(path.substr(2, end - 2)));
      path.remove_prefix(end + 2);
    } else if (path.starts_with("[")) {
      const std::size_t end = path.find(']');
      std::size_t index = 0;
      if (end == std::string_view::npos) break;
      if (std::from_chars(path.data() + 1, path.data() + end, index).ec != std::errc()) break;
      steps.emplace_back(index);
      path.remove_prefix(end + 1);
    } else {
      const std::size_t end = path.find_first_of(".[");
      steps.emplace_back(std::string(path.substr(0, end)));
      path.remove_prefix(end == std::string_view::npos ? path.size() : end);
    }
  }
  return steps;
}

// Walks one document's events along a path and gives the line of the deepest node on it.
class yaml_path_walk {
 public:
  yaml_path_walk(yaml_event_stream& events, std::vector<path_step> steps) : events_(events), steps_(std::move(steps)) {}

  // The current event is the document's root node.
  [[nodiscard]] std::size_t run() {
    std::size_t line = events_.line();
    if (steps_.empty() || !opens_collection()) return line;
    stack_.push_back({events_.type() == YAML_MAPPING_START_EVENT, true});
    while (events_.next() && events_.type() != YAML_STREAM_END_EVENT) {
      const yaml_event_type_t type = events_.type();
      if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
        if (stack_.back().on_path) return line;  // the path's next step is not there
        stack_.pop_back();
        continue;
      }
      if (type != YAML_SCALAR_EVENT && type != YAML_ALIAS_EVENT && !opens_collection()) continue;
      level& parent = stack_.back();
      bool on_path = false;
      if (parent.mapping && parent.awaiting_key) {
        parent.key = type == YAML_SCALAR_EVENT ? std::string(events_.scalar()) : std::string();
        parent.awaiting_key = false;
      } else {
        const std::size_t depth = stack_.size() - 1;
        on_path = parent.on_path && depth < steps_.size() && leads_on(parent, steps_[depth]);
        parent.awaiting_key = parent.mapping;
        ++parent.items;
      }
      if (on_path) {
        line = events_.line();
        if (stack_.size() == steps_.size()) return line;
      }
      if (opens_collection()) stack_.push_back({type == YAML_MAPPING_START_EVENT, on_path});
    }
    return line;
  }

 private:
  struct level {
    bool mapping;
    bool on_path;
    bool awaiting_key = true;
    std::size_t items = 0;
    std::string key{};
  };

  // Whether the node `parent` is about to read (its value under the last key, or its next item) is `step`.
  [[nodiscard]] static bool leads_on(const level& parent, const path_step& step) {
    if (parent.mapping) return std::holds_alternative<std::string>(step) && std::get<std::string>(step) == parent.key;
    return std::holds_alternative<std::size_t>(step) && std::get<std::size_t>(step) == parent.items;
  }

  [[nodiscard]] bool opens_collection() const noexcept {
    return events_.type() == YAML_SEQUENCE_START_EVENT || events_.type() == YAML_MAPPING_START_EVENT;
  }

  yaml_event_stream& events_;
  std::vector<path_step> steps_;
  std::vector<level> stack_;
};

}  // namespace detail

inline result<yaml_conversion> yaml_to_json(std::string_view yaml) {
  detail::alias_allowance aliases(yaml.size());
  return detail::yaml_to_json_converter(yaml, aliases).run();
}

namespace detail {

// A List converted as its head and tail (with `items: []` between them) and its items' parts, each on
// its own, then joined; nothing when any of them does not convert to what it would be within the
// whole (then the whole is converted, which also gives the error exactly as it is there).
[[nodiscard]] inline std::optional<yaml_conversion> convert_list_in_parts(std::string_view yaml, yaml_options options) {
  const std::size_t threads = std::max(1u, options.threads);
  const std::size_t part_bytes =
      options.part_bytes != 0 ? options.part_bytes : std::max(yaml.size() / (threads * 8), std::size_t{256} << 10);
  const std::optional<list_items_parts> split = split_list_items(yaml, part_bytes);
  if (!split) return std::nullopt;
  alias_allowance aliases(yaml.size());

  const std::string rest = dra::concat(split->head, " []\n", split->tail);
  yaml_to_json_converter rest_converter(rest, aliases);
  auto converted_rest = rest_converter.run();
  // One document, whose root is a block mapping with the `items: []` written in: then the head ended
  // where a key of that mapping may start, as it does before the items in the whole.
  if (!converted_rest || rest_converter.documents() != 1 || !rest_converter.items_slot()) return std::nullopt;
  const std::size_t slot = *rest_converter.items_slot();

  // A part converts as it would in the whole when it has no document markers: one document, then,
  // a sequence since it starts with an item.
  std::vector<std::string> parts(split->parts.size());
  std::vector<std::exception_ptr> exceptions(parts.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  auto convert_parts = [&] {
    for (std::size_t k = next++; k < parts.size() && !failed; k = next++) {
      try {
        yaml_to_json_converter converter(split->parts[k], aliases);
        auto part = converter.run();
        if (part && !converter.explicit_markers() && part->json.starts_with('['))
          parts[k] = std::move(part->json);
        else
          failed = true;
      } catch (...) {
        exceptions[k] = std::current_exception();
        failed = true;
      }
    }
  };
  {
    std::vector<std::jthread> workers;
    for (std::size_t t = 1; t < std::min(threads, parts.size()); ++t) {
      try {
        workers.emplace_back(convert_parts);
      } catch (const std::system_error&) {  // no thread to be had: fewer threads convert
        break;
      }
    }
    convert_parts();
  }  // joins the workers
  for (const std::exception_ptr& exception : exceptions)
    if (exception) std::rethrow_exception(exception);
  if (failed) return std::nullopt;

  std::size_t bytes = converted_rest->json.size();
  for (const std::string& part : parts) bytes += part.size();
  yaml_conversion out{std::string(), std::move(converted_rest->first_lines)};
  out.json.reserve(bytes);
  out.json.append(converted_rest->json, 0, slot);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) out.json += ',';
    out.json.append(parts[k], 1, parts[k].size() - 2);  // within the part's `[` and `]`
    std::string().swap(parts[k]);
  }
  out.json.append(converted_rest->json, slot);
  return out;
}

}  // namespace detail

inline result<yaml_conversion> yaml_to_json(std::string_view yaml, yaml_options options) {
  if (options.threads > 1)
    if (auto converted = detail::convert_list_in_parts(yaml, options)) return std::move(*converted);
  return yaml_to_json(yaml);
}

inline std::optional<std::size_t> yaml_line(std::string_view yaml, std::size_t document, std::string_view path) {
  detail::yaml_event_stream events(yaml);
  std::size_t documents_seen = 0;
  bool at_root = false;
  while (events.next() && events.type() != YAML_STREAM_END_EVENT) {
    if (events.type() == YAML_DOCUMENT_START_EVENT) {
      at_root = true;
      continue;
    }
    if (!at_root || events.type() == YAML_DOCUMENT_END_EVENT) continue;
    at_root = false;
    const bool empty = events.type() == YAML_SCALAR_EVENT &&
                       detail::scalar_type(events.event(), events.scalar()) == detail::yaml_scalar::null &&
                       events.anchor().empty();
    if (empty) continue;
    if (documents_seen++ == document) return detail::yaml_path_walk(events, detail::path_steps(path)).run();
  }
  return std::nullopt;
}

namespace detail {

// libyaml's emitter writing into a string.
class yaml_writer {
 public:
  yaml_writer() noexcept {
    ready_ = yaml_emitter_initialize(&emitter_) != 0;
    if (!ready_) return;
    yaml_emitter_set_output(&emitter_, &yaml_writer::append, &text_);
    yaml_emitter_set_unicode(&emitter_, 1);
    yaml_emitter_set_width(&emitter_, -1);  // long strings on one line, as they were written
  }
  yaml_writer(const yaml_writer&) = delete;
  yaml_writer& operator=(const yaml_writer&) = delete;
  ~yaml_writer() {
    if (ready_) yaml_emitter_delete(&emitter_);
  }

  // Emits one event (libyaml takes it over); false once anything failed.
  bool emit(bool initialized, yaml_event_t& event) {
    if (!ok_ || !ready_ || !initialized) {
      if (initialized) yaml_event_delete(&event);
      ok_ = false;
      return false;
    }
    ok_ = yaml_emitter_emit(&emitter_, &event) != 0;
    return ok_;
  }
  bool scalar(std::string_view text, yaml_scalar_style_t style) {
    yaml_event_t event;
    auto* value = reinterpret_cast<yaml_char_t*>(const_cast<char*>(text.data()));
    return emit(yaml_scalar_event_initialize(&event, nullptr, nullptr, value, static_cast<int>(text.size()), 1, 1,
                                             style) != 0,
                event);
  }
  // A string, quoted where YAML would read it as something else.
  bool string(std::string_view text) {
    const bool control = std::ranges::any_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    return scalar(text, needs_quotes(text) || control ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
  }

  [[nodiscard]] result<std::string> finish() {
    if (!ok_)
      return dra::error{dra::concat("cannot write YAML: ", emitter_.problem != nullptr ? emitter_.problem : "out of memory")};
    return std::move(text_);
  }

  void value(simdjson::dom::element value);

 private:
  static int append(void* data, unsigned char* buffer, std::size_t size) {
    static_cast<std::string*>(data)->append(reinterpret_cast<const char*>(buffer), size);
    return 1;
  }

  yaml_emitter_t emitter_{};
  std::string text_;
  bool ready_ = false;
  bool ok_ = true;
};

inline void yaml_writer::value(simdjson::dom::element value) {
  yaml_event_t event;
  switch (value.type()) {
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object object = value.get_object().value_unsafe();
      const auto style = object.size() == 0 ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE;
      emit(yaml_mapping_start_event_initialize(&event, nullptr, nullptr, 1, style) != 0, event);
      for (auto field : object) {
        string(field.key);
        this->value(field.value);
      }
      emit(yaml_mapping_end_event_initialize(&event) != 0, event);
      return;
    }
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = value.get_array().value_unsafe();
      const auto style = array.size() == 0 ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE;
      emit(yaml_sequence_start_event_initialize(&event, nullptr, nullptr, 1, style) != 0, event);
      for (simdjson::dom::element element : array) this->value(element);
      emit(yaml_sequence_end_event_initialize(&event) != 0, event);
      return;
    }
    case simdjson::dom::element_type::STRING:
      string(value.get_string().value_unsafe());
      return;
    case simdjson::dom::element_type::INT64:
      scalar(std::to_string(value.get_int64().value_unsafe()), YAML_PLAIN_SCALAR_STYLE);
      return;
    case simdjson::dom::element_type::UINT64:
      scalar(std::to_string(value.get_uint64().value_unsafe()), YAML_PLAIN_SCALAR_STYLE);
      return;
    case simdjson::dom::element_type::DOUBLE:
      scalar(simdjson::to_string(value), YAML_PLAIN_SCALAR_STYLE);  // as simdjson writes it: a number YAML reads back
      return;
    case simdjson::dom::element_type::BOOL:
      scalar(value.get_bool().value_unsafe() ? "true" : "false", YAML_PLAIN_SCALAR_STYLE);
      return;
    case simdjson::dom::element_type::NULL_VALUE:
      scalar("null", YAML_PLAIN_SCALAR_STYLE);
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
  detail::yaml_writer out;
  yaml_event_t event;
  out.emit(yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING) != 0, event);
  out.emit(yaml_document_start_event_initialize(&event, nullptr, nullptr, nullptr, 1) != 0, event);
  out.value(root);
  out.emit(yaml_document_end_event_initialize(&event, 1) != 0, event);
  out.emit(yaml_stream_end_event_initialize(&event) != 0, event);
  return out.finish();
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
