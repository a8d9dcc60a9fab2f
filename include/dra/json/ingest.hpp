// Ingest of Kubernetes objects (JSON or YAML documents: Lists, typed lists, arrays, single objects, one after another) into a dra::model::scenario with simdjson On-Demand.
#pragma once

#include <dra/json/detail/input_buffer.hpp>
#include <dra/json/detail/item_scan.hpp>
#include <dra/json/detail/objects.hpp>
#include <dra/json/detail/reader.hpp>
#include <dra/json/yaml.hpp>
#include <dra/model/priority_admission.hpp>
#include <dra/model/scenario.hpp>

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace dra::json {

// The format an input was written in (`--output scenario` answers in the same one).
enum class input_format : std::uint8_t { json, yaml };

// A loaded scenario and the buffer its strings point into. Moving a
// document keeps every view valid (the buffer does not move).
class document {
 public:
  [[nodiscard]] const model::scenario& scenario() const noexcept { return scenario_; }
  [[nodiscard]] model::scenario& scenario() noexcept { return scenario_; }
  // The JSON text the objects were read from: the input itself, or for YAML input its
  // documents converted to JSON, one after another.
  [[nodiscard]] std::string_view text() const noexcept { return {buffer_.data(), buffer_.size()}; }
  [[nodiscard]] input_format format() const noexcept { return format_; }
  // How many documents the input held (a List counts as one).
  [[nodiscard]] std::size_t document_count() const noexcept { return documents_; }
  // The fields of resource.k8s.io objects that their kind does not have, in input order:
  // ignored by ingest, reported by `dra validate`.
  [[nodiscard]] const std::vector<unknown_field>& unknown_fields() const noexcept { return unknown_fields_; }

 private:
  friend class loader;
  detail::input_buffer buffer_;
  // Unescaped strings: one arena per thread that read the document.
  std::vector<std::unique_ptr<detail::string_arena>> arenas_;
  model::scenario scenario_;
  input_format format_ = input_format::json;
  std::size_t documents_ = 0;
  std::vector<unknown_field> unknown_fields_;
};

namespace detail {

// Where the objects of one input document go: their position paths start with `location`
// ("" when the input holds one document, "document 2 " otherwise), their indexes at `first_index`.
struct document_place {
  std::string location;
  std::size_t first_index = 0;
  std::string name;  // "document 2", naming errors outside objects; "" for the only document
};

// Reads item `i` of a List or array. `from_start` runs from the item's first byte on; `raw_end`
// gives where the item ends once it has been read.
inline dra::status read_item(reader& r, od::object& object, model::scenario& out, std::string_view prefix,
                             const document_place& place, std::size_t i, std::string_view from_start,
                             function_ref<const char*()> raw_end) {
  auto status =
      read_object(r, object, out,
                  model::source_position{place.first_index + i,
                                         concat(place.location, prefix, "[", std::to_string(i), "]"), from_start},
                  raw_end);
  r.object_name.clear();
  return status;
}

inline dra::status read_items(reader& r, od::document& root, od::array& items, model::scenario& out,
                              std::string_view prefix, const document_place& place, std::string_view text) {
  std::size_t i = 0;
  auto here = [&]() -> const char* {
    const char* at = nullptr;
    if (root.current_location().get(at) != simdjson::SUCCESS) return nullptr;
    return at;
  };
  for (auto element_result : items) {
    auto at = r.index(i);
    const char* start = here();
    if (start == nullptr) return r.fail("invalid JSON: truncated array");
    // Past the object's last byte: the next structural character (',' or ']'), or the end of the text.
    auto raw_end = [&]() -> const char* {
      const char* end = here();
      return end != nullptr ? end : text.data() + text.size();
    };
    od::object object;
    if (auto code = std::move(element_result).get_object().get(object)) {
      if (code == simdjson::INCORRECT_TYPE) return r.fail("must be an object");
      return r.fail(code);
    }
    const std::string_view from_start(start, static_cast<std::size_t>(text.data() + text.size() - start));
    if (auto status = read_item(r, object, out, prefix, place, i, from_start, raw_end); !status) return status;
    ++i;
  }
  return {};
}

// Chunks of consecutive items, handed from the thread that finds them to the threads that read
// them. One atomic holds how many are published and whether more will come, so that a reader
// waiting for the next chunk is woken by either.
class chunk_queue {
 public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  void publish(std::size_t count) noexcept { set(count); }
  // No more chunks than `count` will come.
  void end(std::size_t count) noexcept { set(count | ended_bit); }
  // The next chunk to read, once it is published; `none` when no more will come.
  [[nodiscard]] std::size_t claim() noexcept {
    const std::size_t k = claimed_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      const std::size_t seen = state_.load(std::memory_order_acquire);
      if (k < (seen & ~ended_bit)) return k;
      if ((seen & ended_bit) != 0) return none;
      state_.wait(seen, std::memory_order_acquire);
    }
  }

 private:
  static constexpr std::size_t ended_bit = ~(static_cast<std::size_t>(-1) >> 1);
  void set(std::size_t state) noexcept {
    state_.store(state, std::memory_order_release);
    state_.notify_all();
  }
  std::atomic<std::size_t> state_{0};
  std::atomic<std::size_t> claimed_{0};
};

// What one thread read: its items' objects in input order, the strings it unescaped, and
// its first error (or an exception, such as bad_alloc, to rethrow on the loading thread).
struct item_chunk {
  std::vector<std::string_view> texts;
  std::size_t first_index = 0;
  model::scenario scenario;
  std::unique_ptr<string_arena> arena;  // made by the thread that reads the chunk
  dra::status status;
  std::vector<unknown_field> unknown;
  std::exception_ptr exception;
};

// Reads each item of a chunk as a document of its own. Items are parsed where they stand in
// the input buffer: `buffer_end` is where its padding ends, so simdjson may read past an item.
inline void read_item_chunk(od::parser& parser, item_chunk& chunk, std::string_view prefix, const document_place& place,
                            const char* buffer_end) noexcept {
  try {
    chunk.arena = std::make_unique<string_arena>();
    reader r(*chunk.arena);
    r.document_name = place.name;
    auto read_all = [&]() -> dra::status {
      for (std::size_t k = 0; k < chunk.texts.size(); ++k) {
        const std::string_view item = chunk.texts[k];
        const std::size_t i = chunk.first_index + k;
        auto at = r.index(i);
        od::document item_document;
        od::object object;
        if (auto code = parser.iterate(item.data(), item.size(), static_cast<std::size_t>(buffer_end - item.data()))
                            .get(item_document))
          return r.fail(code);
        if (auto code = item_document.get_object().get(object)) return r.fail(code);
        auto status =
            read_item(r, object, chunk.scenario, prefix, place, i, item, [&] { return item.data() + item.size(); });
        if (!status) return status;
      }
      return {};
    };
    if (prefix.empty()) {
      chunk.status = read_all();
    } else {
      auto in = r.field(prefix);
      chunk.status = read_all();
    }
    chunk.unknown = std::move(r.unknown_fields);
  } catch (...) {
    chunk.exception = std::current_exception();
  }
}

// Puts items, as they are found, into chunks of about `chunk_bytes` of input each, and publishes
// every chunk once it is full, so that readers start on it while the items after it are found.
class chunk_filler {
 public:
  chunk_filler(std::vector<item_chunk>& chunks, std::size_t chunk_bytes, chunk_queue& queue) noexcept
      : chunks_(chunks), chunk_bytes_(chunk_bytes), queue_(queue) {}
  // An item's text, from its `{` to its `}`.
  void add(std::string_view item) {
    if (chunks_[k_].texts.empty()) chunks_[k_].first_index = index_;
    chunks_[k_].texts.push_back(item);
    ++index_;
    bytes_ += item.size();
    if (bytes_ >= chunk_bytes_ && k_ + 1 < chunks_.size()) {
      queue_.publish(++k_);
      bytes_ = 0;
    }
  }
  // No more items: the last chunk is published.
  void end() noexcept { queue_.end(chunks_[k_].texts.empty() ? k_ : k_ + 1); }
  // The walk failed: the readers stop after the chunks they have.
  void abandon() noexcept { queue_.end(k_); }

 private:
  std::vector<item_chunk>& chunks_;
  std::size_t chunk_bytes_;
  chunk_queue& queue_;
  std::size_t k_ = 0;
  std::size_t index_ = 0;
  std::size_t bytes_ = 0;
};

// Walks the items of a List or array (simdjson's index of the whole input is built already),
// handing out the exact text of each. False when an item is not an object or the walk meets an
// error: the sequential reader then reports it exactly as it always does. Ends the queue either
// way.
[[nodiscard]] inline bool hand_out_items(od::array& items, chunk_filler& filler) {
  for (auto element : items) {
    od::object object;
    std::string_view raw;
    if (std::move(element).get_object().get(object) != simdjson::SUCCESS ||
        object.raw_json().get(raw) != simdjson::SUCCESS) {
      filler.abandon();
      return false;
    }
    filler.add(without_trailing_whitespace(raw));
  }
  filler.end();
  return true;
}

template <class T>
void append(std::vector<T>& to, std::vector<T>&& from) {
  if (to.empty()) {
    to = std::move(from);
    return;
  }
  // Grown geometrically: a list read in many chunks is appended to once per chunk, and growing to the exact size
  // each time would move every object already read again (and fault in fresh pages) per chunk.
  if (to.capacity() < to.size() + from.size()) to.reserve(std::max(to.size() + from.size(), 2 * to.capacity()));
  std::move(from.begin(), from.end(), std::back_inserter(to));
}

// Calls `f` on each vector of located objects of a scenario.
template <class F>
void for_each_kind(model::scenario& s, F&& f) {
  f(s.slices);
  f(s.classes);
  f(s.claims);
  f(s.claim_templates);
  f(s.taint_rules);
  f(s.nodes);
  f(s.pods);
  f(s.pod_groups);
  f(s.workloads);
  f(s.priority_classes);
  f(s.disruption_budgets);
  f(s.others);
}

inline void append_scenario(model::scenario& to, model::scenario&& from) {
  append(to.slices, std::move(from.slices));
  append(to.classes, std::move(from.classes));
  append(to.claims, std::move(from.claims));
  append(to.claim_templates, std::move(from.claim_templates));
  append(to.taint_rules, std::move(from.taint_rules));
  append(to.nodes, std::move(from.nodes));
  append(to.pods, std::move(from.pods));
  append(to.pod_groups, std::move(from.pod_groups));
  append(to.workloads, std::move(from.workloads));
  append(to.priority_classes, std::move(from.priority_classes));
  append(to.disruption_budgets, std::move(from.disruption_budgets));
  append(to.others, std::move(from.others));
  append(to.warnings, std::move(from.warnings));
}

[[nodiscard]] inline std::size_t object_count(model::scenario& s) {
  std::size_t n = 0;
  for_each_kind(s, [&](const auto& objects) { n += objects.size(); });
  return n;
}

// Once a second document turns up, the first one's objects and warnings are named as in
// every other document ("document 1 items[3]").
inline void name_first_document(model::scenario& s) {
  for_each_kind(s, [](auto& objects) {
    for (auto& located : objects)
      located.source.path = located.source.path.empty() ? std::string("document 1") : concat("document 1 ", located.source.path);
  });
  for (std::string& warning : s.warnings)
    warning = warning.starts_with("input: ") ? concat("document 1: ", std::string_view(warning).substr(7)) : concat("document 1 ", warning);
}

// Whether a kind names a list: "List", or a typed list as the API server returns it ("PodList").
[[nodiscard]] constexpr bool list_kind(std::string_view kind) noexcept { return kind.ends_with("List"); }

// Whether simdjson reads what a scan left of a List or array (its copy without the items) as
// the ordinary reader reads the whole: an array, or an object whose kind names a list and whose
// items are an array. Anything else is read the ordinary way, which reports what is wrong.
[[nodiscard]] inline bool reads_as_list(od::parser& parser, const scanned_list& list) {
  const simdjson::padded_string copy(list.without_items);
  od::document root;
  od::array items;
  if (parser.iterate(copy).get(root) != simdjson::SUCCESS) return false;
  if (list.prefix.empty()) return root.get_array().get(items) == simdjson::SUCCESS;
  od::object object;
  od::value kind;
  std::string_view kind_text;
  if (root.get_object().get(object) != simdjson::SUCCESS ||
      object.find_field_unordered("kind").get(kind) != simdjson::SUCCESS ||
      kind.get_string().get(kind_text) != simdjson::SUCCESS || !list_kind(kind_text) ||
      object.reset().error() != simdjson::SUCCESS)
    return false;
  od::value items_value;
  if (object.find_field_unordered("items").get(items_value) != simdjson::SUCCESS ||
      items_value.get_array().get(items) != simdjson::SUCCESS)
    return false;
  std::string_view whole;
  return object.raw_json().get(whole) == simdjson::SUCCESS;
}

// Where reading `root` has got to (past the document once it is read through); null when simdjson cannot tell.
[[nodiscard]] inline const char* after_root(od::document& root) {
  const char* at = nullptr;
  if (root.current_location().get(at) != simdjson::SUCCESS) return nullptr;
  return at;
}

// Reads a document that is one object, not a List: its text runs to the next document, or to the end, without
// surrounding whitespace.
[[nodiscard]] inline dra::status read_lone_object(reader& r, od::object& object, od::document& root,
                                                  model::scenario& out, std::string_view text,
                                                  const document_place& place) {
  std::string_view from_start = text;
  while (!from_start.empty() && json_whitespace(from_start.front())) from_start.remove_prefix(1);
  std::string location = place.location;
  if (!location.empty()) location.pop_back();  // "document 2"
  return read_object(r, object, out, model::source_position{place.first_index, std::move(location), from_start}, [&] {
    const char* end = after_root(root);
    return end != nullptr ? end : text.data() + text.size();
  });
}

}  // namespace detail

// How a loader reads the items of a large List or JSON array.
struct load_options {
  // Threads that read the items, each with its own simdjson parser (and convert a YAML List's
  // items first, see yaml_options); 1 reads on the calling thread alone. Any number gives the
  // same document and the same first error (an input that fails is read once more on the
  // calling thread, to report exactly that error).
  unsigned threads = 1;
  // Smaller inputs are read on the calling thread alone: a thread costs more than it saves there.
  std::size_t min_parallel_bytes = std::size_t{4} << 20;
  // load_file maps a regular file read-only instead of copying it (where the platform can):
  // faster for large files, but the file must then stay untruncated for as long as the
  // document lives. Off by default; the dra command, which owns its input for its whole
  // short run, turns it on.
  bool map_files = false;
  // Items handed to a thread at a time, in bytes of input (at least a 4096th of the input); 0
  // picks sixteen chunks a thread, of at least 64 KiB each (for YAML's conversion, eight parts
  // a thread of at least 256 KiB).
  std::size_t chunk_bytes = 0;
};

// Loads scenarios with simdjson parsers kept between loads: their index
// buffers (about four bytes per input byte) are allocated once and reused,
// which matters when a program loads many or large scenarios. A loader is not
// thread-safe (use one per thread); it starts threads of its own only when
// its options ask for them.
class loader {
 public:
  loader() = default;
  explicit loader(load_options options) : options_(options) {}

  // Parses a scenario: JSON (the first non-space character is `{` or `[`) or YAML; one or more
  // documents, each a List, a typed list, a JSON array of objects or one object. Strings in the
  // result point into the document's own copy of the input. Every error names the object and
  // the JSON path (and, for YAML, the line).
  [[nodiscard]] result<document> load(std::string_view text) { return load_padded(simdjson::padded_string(text)); }
  // The same, taking over a buffer that is already padded (simdjson::padded_string::load
  // reads a file into one) instead of copying the text.
  [[nodiscard]] result<document> load_padded(simdjson::padded_string text) {
    return load_buffer(detail::input_buffer(std::move(text)));
  }

 private:
  friend result<document> load_file(const std::string& path, load_options options);
  result<document> load_buffer(detail::input_buffer text);
  // Reads every JSON document of the document's buffer; `failed` is the index of the document
  // an error comes from.
  dra::status read_all(document& doc, bool parallel, std::size_t& failed);
  // The text of each JSON document in `text`, numbered from `first_number` in errors.
  result<std::vector<std::string_view>> split_documents(document& doc, std::string_view text, std::size_t first_number);
  // Reads documents numbered from numbered_before + 1 on.
  dra::status read_documents(document& doc, std::span<const std::string_view> documents, std::size_t numbered_before,
                             bool parallel, std::size_t& failed);
  // Reads an input that is one List or array without simdjson indexing all of it: a byte scan
  // finds the items and hands them out to options_.threads threads as it goes, and simdjson
  // reads the rest from a copy without them. False (and nothing added) when the scan gives up,
  // text follows the document, or reading fails: the input is then read the ordinary way, which
  // reports exactly what is wrong.
  bool read_scanned_list(document& doc, std::string_view text);
  // Reads one document, `text`, which may be followed by others: `next` is where the next one
  // starts, or null. `split_first` (when given) is set when the input must be split first.
  dra::status read_document(document& doc, std::string_view text, const detail::document_place& place, bool parallel,
                            const char*& next, bool* split_first);
  // Reads the items of a List or array on up to options_.threads threads: this one walks them
  // and hands them out in chunks of consecutive items as it goes (`walk(chunk_filler&)`, which
  // also reads past the rest of the document, and returns false when it fails), then reads
  // chunks too. False (and nothing added) when an item or the walk fails: the caller then reads
  // the items on this thread, to report exactly the sequential error.
  template <class Walk>
  bool read_parallel(document& doc, Walk&& walk, std::string_view prefix, const detail::document_place& place);
  [[nodiscard]] std::size_t capacity_from(const document& doc, const char* at) const {
    return static_cast<std::size_t>(doc.buffer_.data() + doc.buffer_.size() + simdjson::SIMDJSON_PADDING - at);
  }

  load_options options_;
  simdjson::ondemand::parser parser_;
  std::vector<simdjson::ondemand::parser> helpers_;  // one per extra thread, kept for their buffers
};

// Parses a scenario (see loader::load). A one-off loader; keep a `loader` to parse many scenarios.
[[nodiscard]] inline result<document> load(std::string_view text, load_options options = {}) {
  loader once(options);
  return once.load(text);
}

inline result<document> loader::load_buffer(detail::input_buffer text) {
  document doc;
  const std::string_view input(text.data(), text.size());
  const std::size_t first = input.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return dra::error{"the input is empty: it holds no document", "", "", errc::malformed_document};
  std::size_t yaml_documents = 0;  // with YAML input, the input is kept to find an error's line
  if (input[first] == '{' || input[first] == '[') {
    doc.buffer_ = std::move(text);
  } else {
    const bool parallel = options_.threads > 1 && input.size() >= options_.min_parallel_bytes;
    auto converted = yaml_to_json(input, yaml_options{parallel ? options_.threads : 1u, options_.chunk_bytes});
    if (!converted) return std::move(converted).error();
    if (converted->first_lines.empty())
      return dra::error{"the input holds no document: every YAML document is empty", "", "", errc::malformed_document};
    doc.format_ = input_format::yaml;
    yaml_documents = converted->first_lines.size();
    doc.buffer_ = detail::input_buffer(std::move(converted->json));
  }
  std::size_t failed = 0;
  auto status = read_all(doc, options_.threads > 1 && doc.buffer_.size() >= options_.min_parallel_bytes, failed);
  if (!status) {
    dra::error e = std::move(status).error();
    if (failed < yaml_documents) {
      if (auto line = yaml_line(input, failed, e.path)) e.message += dra::concat(" (line ", std::to_string(*line), ")");
    }
    return e;
  }
  // The pods are taken as the API server keeps them: admitted, their PriorityClasses' values given.
  for (dra::error& problem : model::admit_priorities(doc.scenario_))
    doc.scenario_.warnings.push_back(
        concat(problem.to_string(), " (the API server refuses such a pod; priority 0 is used)"));
  return doc;
}

inline dra::status loader::read_all(document& doc, bool parallel, std::size_t& failed) {
  const std::string_view text(doc.buffer_.data(), doc.buffer_.size());
  doc.arenas_.clear();
  doc.arenas_.push_back(std::make_unique<detail::string_arena>());
  doc.scenario_ = {};
  doc.unknown_fields_.clear();
  failed = 0;
  if (parallel && read_scanned_list(doc, text)) {
    doc.documents_ = 1;
    return {};
  }
  // The input is first read as one document, at no cost over the one-document case. simdjson
  // refuses a root whose bracket the input's last one does not close: that input is split into
  // its documents first, and read again from the start if it has several.
  const char* next = nullptr;
  bool split_first = false;
  auto status = read_document(doc, text, detail::document_place{}, parallel, next, &split_first);
  if (split_first) {
    auto documents = split_documents(doc, text, 1);
    // One document after all, or a first one that does not end: that document's own error.
    if (!documents && documents.error().object == "document 1") return status;
    if (!documents) return std::move(documents).error();
    if (documents->size() < 2) return status;
    doc.arenas_.resize(1);
    doc.scenario_ = {};
    doc.unknown_fields_.clear();
    return read_documents(doc, *documents, 0, parallel, failed);
  }
  if (!status || next == nullptr) {
    doc.documents_ = 1;
    return status;
  }
  // More documents follow the first: find each, then read each like the first.
  auto documents =
      split_documents(doc, std::string_view(next, static_cast<std::size_t>(text.data() + text.size() - next)), 2);
  if (!documents) return std::move(documents).error();
  detail::name_first_document(doc.scenario_);
  return read_documents(doc, *documents, 1, parallel, failed);
}

inline bool loader::read_scanned_list(document& doc, std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  // Known before the scan starts, for the threads that read items as it goes on (the scan
  // tells a List from an array by the same first byte).
  const std::string_view prefix = text[first] == '[' ? "" : "items";
  auto walk = [&](detail::chunk_filler& filler) {
    detail::item_scanner scanner(text);
    const auto list = scanner.scan([&](std::string_view item) { filler.add(item); });
    // Documents after this one are found on simdjson's index of the whole input, which also
    // checks their text first (see read_all): they are read the ordinary way.
    if (!list || text.find_first_not_of(" \t\r\n", static_cast<std::size_t>(list->end - text.data())) !=
                     std::string_view::npos) {
      filler.abandon();
      return false;
    }
    filler.end();
    return detail::reads_as_list(parser_, *list);
  };
  return read_parallel(doc, walk, prefix, detail::document_place{});
}

inline result<std::vector<std::string_view>> loader::split_documents(document& doc, std::string_view text,
                                                                     std::size_t first_number) {
  namespace od = simdjson::ondemand;
  std::vector<std::string_view> documents;
  od::parser finder;
  od::document_stream stream;
  detail::reader r(*doc.arenas_.front());
  auto name = [&] { r.document_name = dra::concat("document ", std::to_string(documents.size() + first_number)); };
  name();
  if (auto code = finder.iterate_many(text.data(), text.size(), std::max<std::size_t>(text.size(), 4096)).get(stream))
    return r.fail(code);
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    name();
    const std::string_view source = it.source();
    if (source.empty() || (source.front() != '{' && source.front() != '['))
      return r.fail("a scenario must be a JSON object or array (an input that starts as JSON holds JSON documents only)");
    if (auto code = it.error()) return r.fail(code);
    documents.push_back(source);
  }
  name();
  if (stream.truncated_bytes() > 0) return r.fail("invalid JSON: the document is incomplete");
  return documents;
}

inline dra::status loader::read_documents(document& doc, std::span<const std::string_view> documents,
                                          std::size_t numbered_before, bool parallel, std::size_t& failed) {
  for (std::size_t k = 0; k < documents.size(); ++k) {
    failed = numbered_before + k;
    const std::string number = std::to_string(numbered_before + k + 1);
    const detail::document_place place{dra::concat("document ", number, " "), detail::object_count(doc.scenario_),
                                       dra::concat("document ", number)};
    const char* after = nullptr;
    if (auto status = read_document(doc, documents[k], place, parallel, after, nullptr); !status) return status;
    if (after != nullptr) {
      detail::reader r(*doc.arenas_.front());
      r.document_name = place.name;
      return r.fail("invalid JSON: unexpected text after the document");
    }
  }
  doc.documents_ = numbered_before + documents.size();
  return {};
}

inline dra::status loader::read_document(document& doc, std::string_view text, const detail::document_place& place,
                                         bool parallel, const char*& next, bool* split_first) {
  namespace od = simdjson::ondemand;
  next = nullptr;
  detail::reader r(*doc.arenas_.front());
  r.document_name = place.name;
  // The unknown fields this reader finds join the document's, however reading ends.
  struct keep_unknown_fields {
    detail::reader& from;
    std::vector<unknown_field>& to;
    ~keep_unknown_fields() { detail::append(to, std::move(from.unknown_fields)); }
  } keep{r, doc.unknown_fields_};
  od::document root;
  if (auto code = parser_.iterate(text.data(), text.size(), capacity_from(doc, text.data())).get(root)) return r.fail(code);
  od::json_type type{};
  if (auto code = root.type().get(type)) return r.fail(code);
  // The items of a List or array: on several threads when asked and when every item is an
  // object whose end is found; otherwise (or after such a walk failed) on this thread.
  // `finish` reads past the rest of the document and finds where the next one starts.
  auto read_list = [&](od::array& items, std::string_view prefix, auto&& finish) -> dra::status {
    if (parallel) {
      // Any failure on the way is met again by the sequential reader, which reports it with
      // the object and field it belongs to (skipping items finds no such place).
      auto read_sequentially = [&] { return read_document(doc, text, place, false, next, split_first); };
      auto walk = [&](detail::chunk_filler& filler) { return detail::hand_out_items(items, filler) && finish(); };
      if (read_parallel(doc, walk, prefix, place)) return {};
      return read_sequentially();
    }
    auto status = detail::read_items(r, root, items, doc.scenario_, prefix, place, text);
    if (status) status = finish();
    return status;
  };
  // simdjson's check that the input's last bracket closes the root (see read_all).
  auto unclosed_root = [&](simdjson::error_code code) {
    if (code == simdjson::INCOMPLETE_ARRAY_OR_OBJECT && split_first != nullptr) *split_first = true;
    return r.fail(code);
  };
  if (type == od::json_type::array) {
    od::array items;
    if (auto code = root.get_array().get(items)) return unclosed_root(code);
    return read_list(items, "", [&]() -> dra::status {
      next = detail::after_root(root);
      return {};
    });
  }
  if (type != od::json_type::object) return r.fail("a scenario must be a JSON object or array");
  od::object object;
  if (auto code = root.get_object().get(object)) return unclosed_root(code);
  auto finish_object = [&]() -> dra::status {
    std::string_view whole;
    if (auto code = object.raw_json().get(whole)) return r.fail(code);
    next = detail::after_root(root);
    return {};
  };
  od::value kind;
  std::string_view kind_text;
  // A structural error while looking abandons simdjson's iterator: report it before touching the object again.
  const auto kind_code = object.find_field_unordered("kind").get(kind);
  if (kind_code != simdjson::SUCCESS && kind_code != simdjson::NO_SUCH_FIELD) return r.fail(kind_code);
  if (kind_code == simdjson::SUCCESS && kind.get_string().get(kind_text) == simdjson::SUCCESS &&
      detail::list_kind(kind_text)) {
    if (auto code = object.reset().error()) return r.fail(code);
    od::value items_value;
    auto code = object.find_field_unordered("items").get(items_value);
    if (code == simdjson::NO_SUCH_FIELD) return finish_object();  // an empty List
    if (code) return r.fail(code);
    auto at = r.field("items");
    od::array items;
    if (items_value.get_array().get(items)) return r.fail("must be an array");
    return read_list(items, "items", finish_object);
  }
  if (auto code = object.reset().error()) return r.fail(code);
  auto status = detail::read_lone_object(r, object, root, doc.scenario_, text, place);
  if (status) next = detail::after_root(root);
  return status;
}

template <class Walk>
bool loader::read_parallel(document& doc, Walk&& walk, std::string_view prefix, const detail::document_place& place) {
  const std::string_view text(doc.buffer_.data(), doc.buffer_.size());
  const char* buffer_end = text.data() + text.size() + simdjson::SIMDJSON_PADDING;
  const std::size_t threads = std::max(1u, options_.threads);
  constexpr std::size_t max_chunks = 4096;
  // Sixteen chunks a thread: small enough that the threads end together although this one
  // starts reading last, large enough that handing one out costs nothing.
  const std::size_t chunk_bytes =
      std::max(options_.chunk_bytes != 0 ? options_.chunk_bytes : std::max(text.size() / (threads * 16), std::size_t{64} << 10),
               text.size() / max_chunks + 1);
  std::vector<detail::item_chunk> chunks(text.size() / chunk_bytes + 2);  // at most max_chunks + 2
  detail::chunk_queue queue;
  if (helpers_.size() < threads - 1) helpers_.resize(threads - 1);
  bool walked = false;
  {
    auto read_chunks = [&](simdjson::ondemand::parser& parser) {
      for (std::size_t k = queue.claim(); k != detail::chunk_queue::none; k = queue.claim())
        detail::read_item_chunk(parser, chunks[k], prefix, place, buffer_end);
    };
    std::vector<std::jthread> workers;
    try {
      for (std::size_t t = 1; t < threads; ++t) {
        try {
          workers.emplace_back([&, t] { read_chunks(helpers_[t - 1]); });
        } catch (const std::system_error&) {  // no thread to be had: fewer threads read
          break;
        }
      }
      detail::chunk_filler filler(chunks, chunk_bytes, queue);
      walked = walk(filler);
    } catch (...) {
      queue.end(0);  // the workers stop, so that joining them lets the exception through
      throw;
    }
    if (!walked) queue.end(0);  // the items are read again on this thread: stop reading them here
    // This thread's parser is free once the walk is over (the document's end is found).
    if (walked) read_chunks(parser_);
  }  // joins the workers
  if (!walked) return false;
  for (detail::item_chunk& chunk : chunks)
    if (chunk.exception) std::rethrow_exception(chunk.exception);
  // A failing input is read again on this thread, so that its error is exactly the sequential
  // one even for malformed text, where an item's extent found by skipping may differ from what
  // reading it in place meets.
  for (detail::item_chunk& chunk : chunks)
    if (!chunk.status) return false;
  for (detail::item_chunk& chunk : chunks) {
    if (chunk.texts.empty()) continue;
    detail::append_scenario(doc.scenario_, std::move(chunk.scenario));
    detail::append(doc.unknown_fields_, std::move(chunk.unknown));
    doc.arenas_.push_back(std::move(chunk.arena));
  }
  return true;
}

namespace detail {
// An error that names no object names the input it came from; one that names a document of
// it, the input and the document.
[[nodiscard]] inline result<document> name_input(result<document> doc, std::string_view name) {
  if (!doc && (doc.error().object.empty() || doc.error().object.starts_with("document "))) {
    dra::error e = std::move(doc).error();
    e.object = e.object.empty() ? std::string(name) : concat(name, ", ", e.object);
    return e;
  }
  return doc;
}
}  // namespace detail

// Reads a whole stream (a file or stdin) and loads it.
[[nodiscard]] inline result<document> load(std::istream& in, std::string_view name, load_options options = {}) {
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return dra::error{dra::concat("cannot read ", name), "", "", errc::io};
  return detail::name_input(load(text, options), name);
}

[[nodiscard]] inline result<document> load_file(const std::string& path, load_options options = {}) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    // The OS's reason ("No such file or directory", "Permission denied"), as ifstream keeps it in errno.
    const int reason = errno;
    return dra::error{dra::concat("cannot open ", dra::quoted(path), reason != 0 ? ": " : "",
                                  reason != 0 ? std::string_view(std::strerror(reason)) : std::string_view()),
                      "", "", errc::io};
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return dra::error{dra::concat("cannot read ", dra::quoted(path), ": it is a directory"), "", "",
                      errc::io};
  if (!std::filesystem::is_regular_file(path, ec)) return load(in, path, options);  // a pipe or a device: read as it comes
  // A regular file is mapped in place (load_options::map_files) or read straight into the padded
  // buffer the document keeps: at most one copy of a large file, not two.
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec)
    return dra::error{dra::concat("cannot read ", dra::quoted(path), ": ", ec.message()), "", "",
                      errc::io};
  loader once(options);
  if (options.map_files) {
    if (auto mapped = detail::input_buffer::map_file(path, static_cast<std::size_t>(size)))
      return detail::name_input(once.load_buffer(std::move(*mapped)), path);
  }
  simdjson::padded_string text(static_cast<std::size_t>(size));
  if (!in.read(text.data(), static_cast<std::streamsize>(size)) || static_cast<std::uintmax_t>(in.gcount()) != size)
    return dra::error{dra::concat("cannot read ", dra::quoted(path)), "", "", errc::io};
  return detail::name_input(once.load_padded(std::move(text)), path);
}

// The simdjson kernel that indexes JSON text in this process ("icelake", "haswell", "westmere", "arm64",
// "fallback", ...): the fastest the CPU runs, chosen by simdjson when the process first parses, whatever the
// target the program was compiled for; the environment variable SIMDJSON_FORCE_IMPLEMENTATION names another.
// Every kernel reads an input into the same document and the same errors.
[[nodiscard]] inline std::string_view json_kernel() noexcept { return simdjson::get_active_implementation()->name(); }

}  // namespace dra::json
