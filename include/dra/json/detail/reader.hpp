// The machinery under JSON ingest: typed reads of simdjson On-Demand values with JSON paths in every error.
#pragma once

#include <dra/core/function_ref.hpp>
#include <dra/core/quantity.hpp>
#include <dra/core/result.hpp>
#include <dra/core/semver.hpp>
#include <dra/core/text.hpp>
#include <dra/model/common.hpp>
#include <dra/model/resource_slice.hpp>

#include <simdjson.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <deque>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dra::json {

// A field that a resource.k8s.io object has and its kind does not know: ingest ignores it, as
// Kubernetes clients do; `dra validate` reports it, as the API server's strict field validation does.
struct unknown_field {
  std::size_t object_index = 0;  // the object's source_position.index
  std::string object;            // "ResourceSlice/name", or "ResourceSlice items[3]" without a name
  std::string path;              // from the object's root: "spec.devices[0].basic"
  friend bool operator==(const unknown_field&, const unknown_field&) = default;
};

}  // namespace dra::json

namespace dra::json::detail {

namespace od = simdjson::ondemand;

// Owns the few strings that cannot be views into the input: those with
// escape sequences, unescaped once. Addresses stay stable as it grows.
using string_arena = std::deque<std::string>;

[[nodiscard]] inline std::string_view type_name(od::json_type type) noexcept {
  switch (type) {
    case od::json_type::array:
      return "an array";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "unknown";
}

// Where a JSON string's text that starts at `start` ends (its closing quote), and whether it
// holds a backslash. The text is in simdjson's padded input, whose strings simdjson checked, so
// 16 bytes read at any byte up to the closing quote stay inside the buffer: keys and short
// values take one step instead of one per byte.
struct string_end {
  const char* quote;
  bool escaped;
};
[[nodiscard]] inline string_end find_string_end(const char* start) noexcept {
  const char* p = start;
#if defined(__SSE2__)
  for (;; p += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto quotes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'))));
    const auto backslashes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))));
    if (backslashes != 0 && (quotes == 0 || std::countr_zero(backslashes) < std::countr_zero(quotes))) {
      p += std::countr_zero(backslashes);
      break;  // an escape sequence: the loop below steps over escaped characters
    }
    if (quotes != 0) return {p + std::countr_zero(quotes), false};
  }
#endif
  bool escaped = false;
  while (*p != '"') {
    if (*p == '\\') {
      escaped = true;
      ++p;
    }
    ++p;
  }
  return {p, escaped};
}

// `name == literal` for the readers' field dispatch, always inlined: inside their large
// functions GCC kept std::string_view's comparison out of line, a call and then a call to
// memcmp for every field name read.
template <std::size_t N>
[[nodiscard, gnu::always_inline]] constexpr bool is(std::string_view name, const char (&literal)[N]) noexcept {
  return name.size() == N - 1 && std::char_traits<char>::compare(name.data(), literal, N - 1) == 0;
}

// a.compare(b), settled by the first bytes where they differ, as neighbouring keys of a map
// mostly do (attribute names), without the out-of-line comparison and its memcmp call.
[[nodiscard]] inline int key_order(std::string_view a, std::string_view b) noexcept {
  if (!a.empty() && !b.empty() && a.front() != b.front())
    return static_cast<unsigned char>(a.front()) < static_cast<unsigned char>(b.front()) ? -1 : 1;
  return a.compare(b);
}

[[nodiscard]] constexpr bool json_whitespace(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A span of input without the JSON whitespace at its end: raw tokens and simdjson's raw spans run
// up to the next structural character.
[[nodiscard]] constexpr std::string_view without_trailing_whitespace(std::string_view text) noexcept {
  while (!text.empty() && json_whitespace(text.back())) text.remove_suffix(1);
  return text;
}

// Whether a token is a JSON number (RFC 8259). simdjson reads a token up to the next structural
// character or space, so one that starts as a number may run on ("1a", "1" and NUL bytes, "01").
[[nodiscard]] constexpr bool is_json_number(std::string_view token) noexcept {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
    return i > from;
  };
  if (i < token.size() && token[i] == '-') ++i;
  if (i < token.size() && token[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < token.size() && token[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == token.size();
}

// Whether a map key can follow a dot in a path, or needs ["..."].
[[nodiscard]] constexpr bool plain_key(std::string_view key) noexcept {
  if (key.empty()) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

// Reads typed values and remembers where it is, so that every error names
// the object and the JSON path.
class reader {
 public:
  explicit reader(string_arena& arena) : arena_(arena) {}

  std::string object_name;    // "ResourceSlice/name", for errors
  std::string document_name;  // "document 2", for errors outside an object; "" for the only document

  [[nodiscard]] dra::error fail(std::string message, errc code = errc::invalid_field) const {
    return dra::error{std::move(message), path(), object_name.empty() ? document_name : object_name, code};
  }
  [[nodiscard]] dra::error fail(simdjson::error_code code) const {
    return fail(concat("invalid JSON: ", simdjson::error_message(code)), errc::malformed_document);
  }

  // Strict objects (resource.k8s.io kinds) record each field their kind does not have.
  bool strict = false;
  std::size_t object_depth = 0;  // the path depth where the current object starts
  bool v1beta1_shape = false;    // a v1/v1beta2 object has a field only v1beta1 has
  std::vector<unknown_field> unknown_fields;

  // Called where a field's name is none its object has, with that field's step taken. Costs
  // nothing for the fields that are known.
  [[nodiscard]] dra::status unknown() {
    if (strict) unknown_fields.push_back({0, {}, path_from(object_depth)});
    return {};
  }
  // The same for a field of v1beta1's shape in a v1 or v1beta2 object (`basic`, a request's
  // ExactDeviceRequest fields): unknown there, and worth a warning.
  [[nodiscard]] dra::status v1beta1_field() {
    v1beta1_shape = true;
    return unknown();
  }
  [[nodiscard]] std::size_t depth() const noexcept { return depth_; }

  // RAII steps into a field or an element; the path shrinks back after.
  // Steps are recorded, not rendered: the path text is built only for an error.
  class step {
   public:
    explicit step(reader& r) : reader_(r) {}
    step(const step&) = delete;
    step& operator=(const step&) = delete;
    ~step() { --reader_.depth_; }

   private:
    reader& reader_;
  };
  [[nodiscard]] step field(std::string_view name) { return push({name, 0, segment_kind::field}); }
  [[nodiscard]] step key(std::string_view name) { return push({name, 0, segment_kind::key}); }
  [[nodiscard]] step index(std::size_t i) { return push({{}, i, segment_kind::index}); }
  // "items[3].spec.devices[2].attributes[\"a.b/c\"]"
  [[nodiscard]] std::string path() const { return path_from(0); }
  // The path from segment `first` on.
  [[nodiscard]] std::string path_from(std::size_t first) const {
    std::string out;
    for (std::size_t k = first; k < std::min(depth_, segments_.size()); ++k) {
      const segment& s = segments_[k];
      switch (s.kind) {
        case segment_kind::key:
          // A map key is written as a field when it can be one; deciding here, not at every
          // step, keeps the character scan off the path of input without errors.
          if (!plain_key(s.name)) {
            out += concat("[", quoted(s.name), "]");
            break;
          }
          [[fallthrough]];
        case segment_kind::field:
          if (!out.empty()) out += '.';
          out += s.name;
          break;
        case segment_kind::index:
          out += concat("[", std::to_string(s.index), "]");
          break;
      }
    }
    return out;
  }

  [[nodiscard]] dra::error wrong_type(od::value& v, std::string_view wanted) {
    od::json_type type{};
    if (v.type().get(type) != simdjson::SUCCESS) return fail(concat("must be ", wanted));
    return fail(concat("must be ", wanted, ", not ", type_name(type)));
  }

  // A string's text: a view into the input, or into the arena when it had escapes.
  [[nodiscard]] result<std::string_view> string_of(od::raw_json_string raw) {
    const char* start = raw.raw();
    const string_end end = find_string_end(start);
    std::string_view literal(start, static_cast<std::size_t>(end.quote - start));
    if (!end.escaped) return literal;
    return unescape(literal);
  }

  [[nodiscard]] result<std::string_view> string(od::value& v) {
    od::raw_json_string raw;
    if (v.get_raw_json_string().get(raw) != simdjson::SUCCESS) return wrong_type(v, "a string");
    return string_of(raw);
  }
  [[nodiscard]] result<std::int64_t> integer(od::value& v) {
    std::int64_t out = 0;
    if (v.get_int64().get(out) != simdjson::SUCCESS) {
      od::json_type type{};
      if (v.type().get(type) == simdjson::SUCCESS && type == od::json_type::number) {
        const std::string_view token = without_trailing_whitespace(v.raw_json_token());
        // Not "out of range" for text that is no number at all.
        if (!is_json_number(token)) return fail(simdjson::NUMBER_ERROR);
        if (token.find_first_of(".eE") == std::string_view::npos)
          return fail("is out of the range of a 64-bit integer");
        return fail("must be an integer, not a fractional number");
      }
      return wrong_type(v, "an integer");
    }
    return out;
  }
  // An int32 field of the Kubernetes API (a pod's priority, a preference's weight).
  [[nodiscard]] result<std::int32_t> integer32(od::value& v) {
    auto wide = integer(v);
    if (!wide) return std::move(wide).error();
    if (*wide < std::numeric_limits<std::int32_t>::min() || *wide > std::numeric_limits<std::int32_t>::max())
      return fail("is out of the range of a 32-bit integer");
    return static_cast<std::int32_t>(*wide);
  }
  [[nodiscard]] result<bool> boolean(od::value& v) {
    bool out = false;
    if (v.get_bool().get(out) != simdjson::SUCCESS) return wrong_type(v, "a boolean");
    return out;
  }
  [[nodiscard]] result<quantity> quantity_value(od::value& v) {
    // Kubernetes accepts a quantity as a JSON string, and also as a number.
    std::string_view text;
    od::raw_json_string raw;
    od::json_type type{};
    if (v.get_raw_json_string().get(raw) == simdjson::SUCCESS) {
      auto s = string_of(raw);
      if (!s) return std::move(s).error();
      text = *s;
    } else if (auto code = v.type().get(type)) {
      return fail(code);
    } else if (type == od::json_type::number) {
      text = without_trailing_whitespace(v.raw_json_token());
      if (!is_json_number(text)) return fail(simdjson::NUMBER_ERROR);
    } else {
      return wrong_type(v, "a string");
    }
    auto q = quantity::parse(text);
    if (!q) return fail(std::move(q).error().message);
    return *q;
  }
  [[nodiscard]] result<std::vector<std::string_view>> strings(od::value& v) {
    std::vector<std::string_view> out;
    auto status = each_element(v, [&](od::value& element) -> dra::status {
      auto s = string(element);
      if (!s) return std::move(s).error();
      out.push_back(*s);
      return {};
    });
    if (!status) return std::move(status).error();
    return out;
  }

  // Calls `on_field(key, value)` for every field of an object. A field
  // seen twice is an error (Go's decoder would silently keep the last).
  // JSON null reads as an empty object, array or map, as Go's decoder reads it into a struct,
  // slice or map (Kubernetes itself writes null for an empty list without omitempty).
  // The callbacks are function_refs, not template parameters: one compiled walk serves the eighty-odd field readers
  // (as templates, each reader compiled a copy of the walk of its own).
  using field_callback = function_ref<dra::status(std::string_view, od::value&)>;
  [[nodiscard]] dra::status each_field(od::value& v, field_callback on_field) {
    if (is_null(v)) return {};
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) return wrong_type(v, "an object");
    return each_field_of(object, on_field);
  }
  [[nodiscard]] dra::status each_field_of(od::object& object, field_callback on_field, bool check_duplicates = true) {
    // Field names seen so far, to reject duplicates without a heap allocation for ordinary
    // objects and without quadratic work for huge ones. The first ones are kept in plain arrays
    // left uninitialized (zeroing an array of string_views per object cost a fifth of reading an
    // attribute); a 64-bit filter over (length, last byte) skips the search for almost every name.
    constexpr std::size_t inline_names = 24;
    const char* recent_data[inline_names];
    std::size_t recent_size[inline_names];
    std::size_t seen = 0;
    std::uint64_t filter = 0;
    std::vector<std::string_view> many;
    for (auto field_result : object) {
      if (auto code = field_result.error()) return fail(code);
      od::field& field = field_result.value_unsafe();
      auto name = string_of(field.key());
      if (!name) return std::move(name).error();
      if (check_duplicates) {
        if (seen < inline_names) {
          const std::uint64_t bit =
              std::uint64_t{1} << ((name->size() * 7 + (name->empty() ? 0u : static_cast<unsigned char>(name->back()))) & 63u);
          if ((filter & bit) != 0)
            for (std::size_t k = 0; k < seen; ++k)
              if (std::string_view(recent_data[k], recent_size[k]) == *name)
                return fail(concat("duplicate field ", quoted(*name)));
          filter |= bit;
          recent_data[seen] = name->data();
          recent_size[seen] = name->size();
          ++seen;
        } else {
          many.push_back(*name);
        }
      }
      dra::status status = on_field(*name, field.value());
      if (!status) return status;
    }
    if (!many.empty()) {
      for (std::size_t k = 0; k < seen; ++k) many.emplace_back(recent_data[k], recent_size[k]);
      std::sort(many.begin(), many.end());
      if (auto twice = std::adjacent_find(many.begin(), many.end()); twice != many.end())
        return fail(concat("duplicate field ", quoted(*twice)));
    }
    return {};
  }

  // Calls `on_element(value)` for every element of an array, with the index in the path.
  [[nodiscard]] dra::status each_element(od::value& v, function_ref<dra::status(od::value&)> on_element) {
    if (is_null(v)) return {};
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) return wrong_type(v, "an array");
    std::size_t i = 0;
    for (auto element_result : array) {
      auto at = index(i++);
      od::value element;
      if (auto code = std::move(element_result).get(element)) return fail(code);
      dra::status status = on_element(element);
      if (!status) return status;
    }
    return {};
  }

  // An array read into `out` with `read_element(value, element&)`. Elements are gathered in a
  // reused scratch vector and moved once into an exactly sized `out`: no growth steps, whose
  // abandoned buffers would be most of the memory a large slice touches.
  template <class T, class ReadElement>
  [[nodiscard]] dra::status list(od::value& v, std::vector<T>& out, ReadElement&& read_element) {
    std::vector<T> elements = take_scratch<T>();
    auto status = each_element(v, [&](od::value& element) { return read_element(element, elements.emplace_back()); });
    move_exactly(elements, out);
    return status;
  }

  // A JSON object used as a map: entries sorted by key, duplicates rejected. `read_value(value,
  // entry&)` reads each entry in place, so large values are not moved twice.
  template <class V, class ReadValue>
  [[nodiscard]] dra::status map(od::value& v, model::sorted_map<V>& out, ReadValue&& read_value) {
    if (is_null(v)) {
      out.clear();
      return {};
    }
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) return wrong_type(v, "an object");
    model::sorted_map<V> entries = take_scratch<model::keyed<V>>();
    auto status = each_field_of(
        object,
        [&](std::string_view name, od::value& value) -> dra::status {
          auto at = key(name);
          model::keyed<V>& entry = entries.emplace_back();
          entry.name = name;
          return read_value(value, entry.value);
        },
        /*check_duplicates=*/false);  // found below, after sorting
    move_exactly(entries, out);
    if (!status) return status;
    // Kubernetes writes maps sorted by key: one comparison of each neighbour finds both the order
    // and the first duplicate; only unsorted input is sorted (stable_sort allocates a buffer).
    const model::text* twice = nullptr;
    for (std::size_t k = 1; k < out.size(); ++k) {
      const int order = key_order(out[k - 1].name, out[k].name);
      if (order > 0) {
        std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
        auto same = std::adjacent_find(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name == b.name; });
        twice = same != out.end() ? &same->name : nullptr;
        break;
      }
      if (order == 0 && twice == nullptr) twice = &out[k].name;
    }
    if (twice != nullptr) return fail(concat("duplicate field ", quoted(*twice)));
    return {};
  }

  // The JSON text of any value, as written in the input.
  [[nodiscard]] result<std::string_view> raw_json(od::value& v) {
    od::json_type type{};
    if (auto code = v.type().get(type)) return fail(code);
    std::string_view raw;
    simdjson::error_code code = simdjson::SUCCESS;
    if (type == od::json_type::object) {
      od::object object;
      code = v.get_object().get(object);
      if (!code) code = object.raw_json().get(raw);
    } else if (type == od::json_type::array) {
      od::array array;
      code = v.get_array().get(array);
      if (!code) code = array.raw_json().get(raw);
    } else {
      raw = v.raw_json_token();
    }
    if (code) return fail(code);
    return without_trailing_whitespace(raw);
  }

  [[nodiscard]] static bool is_null(od::value& v) noexcept {
    bool null = false;
    return v.is_null().get(null) == simdjson::SUCCESS && null;
  }

  // A version attribute's value, its text parsed once per reader: the devices of a cluster
  // repeat a few versions, and a parsed copy on each device was a heap block and a tenth of
  // reading a 100 MB corpus. `text` lives as long as the document (input or arena).
  [[nodiscard]] model::version_value version(std::string_view text) {
    auto [known, fresh] = versions_.try_emplace(text);
    if (fresh)
      if (auto parsed = semver::parse(text)) known->second = std::make_shared<const semver>(std::move(*parsed));
    return model::version_value(text, known->second);
  }

 private:
  [[nodiscard]] result<std::string_view> unescape(std::string_view literal) {
    // simdjson unescapes (including \u surrogate pairs); a tiny document
    // holding just this string is parsed for it. Rare: most names have no escapes.
    simdjson::padded_string quoted_literal(concat("\"", literal, "\""));
    od::parser parser;
    od::document document;
    std::string_view text;
    if (parser.iterate(quoted_literal).get(document) != simdjson::SUCCESS ||
        document.get_string().get(text) != simdjson::SUCCESS)
      return fail("is not a valid JSON string");
    arena_.emplace_back(text);
    return std::string_view(arena_.back());
  }

  // Scratch vectors come from a stack per element type (lists nest: a device's counter
  // consumptions inside a slice's devices) and go back empty with their capacity.
  template <class T>
  [[nodiscard]] std::vector<T> take_scratch() {
    auto& stack = std::get<std::vector<std::vector<T>>>(scratch_);
    if (stack.empty()) return {};
    std::vector<T> taken = std::move(stack.back());
    stack.pop_back();
    return taken;
  }
  template <class T>
  void move_exactly(std::vector<T>& scratch, std::vector<T>& out) {
    out.clear();
    out.reserve(scratch.size());
    std::move(scratch.begin(), scratch.end(), std::back_inserter(out));
    scratch.clear();
    std::get<std::vector<std::vector<T>>>(scratch_).push_back(std::move(scratch));
  }

  enum class segment_kind : std::uint8_t { field, key, index };
  struct segment {
    std::string_view name;
    std::size_t index;
    segment_kind kind;
  };

  // Ingest walks a fixed schema, so paths are shallow; deeper steps (none today) would be left out of messages.
  step push(segment s) {
    if (depth_ < segments_.size()) segments_[depth_] = s;
    ++depth_;
    return step(*this);
  }

  string_arena& arena_;
  std::unordered_map<std::string_view, std::shared_ptr<const semver>> versions_;  // see version()
  // Reusable scratch vectors for map() and list(), per element type.
  template <class... T>
  using scratch_stacks = std::tuple<std::vector<std::vector<T>>...>;
  scratch_stacks<model::keyed<model::text>, model::keyed<quantity>, model::keyed<model::device_attribute>,
                 model::keyed<model::device_capacity>, model::keyed<model::node_allocatable_resource>, model::device,
                 model::counter_set>
      scratch_;
  std::array<segment, 48> segments_{};
  std::size_t depth_ = 0;
};

}  // namespace dra::json::detail
