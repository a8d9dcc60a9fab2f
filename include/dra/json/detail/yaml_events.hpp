// libyaml's event parser over text in memory, owned and freed as C++ values, with its errors as dra errors.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <yaml.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace dra::json::detail {

// One pass over a YAML stream's events. The text must outlive the parser; libyaml reads it in place.
class yaml_event_stream {
 public:
  explicit yaml_event_stream(std::string_view text) noexcept {
    ready_ = yaml_parser_initialize(&parser_) != 0;
    if (ready_)
      yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  yaml_event_stream(const yaml_event_stream&) = delete;
  yaml_event_stream& operator=(const yaml_event_stream&) = delete;
  ~yaml_event_stream() {
    drop_event();
    if (ready_) yaml_parser_delete(&parser_);
  }

  // Moves to the next event; false when the text is not YAML (failure() says where and why). After
  // the stream's end event, every call returns that event again rather than reading past it.
  [[nodiscard]] bool next() noexcept {
    if (!ready_) return false;
    if (has_event_ && event_.type == YAML_STREAM_END_EVENT) return true;
    drop_event();
    has_event_ = yaml_parser_parse(&parser_, &event_) != 0;
    return has_event_;
  }

  [[nodiscard]] const yaml_event_t& event() const noexcept { return event_; }
  [[nodiscard]] yaml_event_type_t type() const noexcept { return has_event_ ? event_.type : YAML_NO_EVENT; }
  // The current event's first line, from 1.
  [[nodiscard]] std::size_t line() const noexcept { return event_.start_mark.line + 1; }

  [[nodiscard]] std::string_view scalar() const noexcept {
    return {reinterpret_cast<const char*>(event_.data.scalar.value), event_.data.scalar.length};
  }
  [[nodiscard]] std::string_view anchor() const noexcept {
    const yaml_char_t* name = nullptr;
    if (event_.type == YAML_SCALAR_EVENT) name = event_.data.scalar.anchor;
    if (event_.type == YAML_SEQUENCE_START_EVENT) name = event_.data.sequence_start.anchor;
    if (event_.type == YAML_MAPPING_START_EVENT) name = event_.data.mapping_start.anchor;
    if (event_.type == YAML_ALIAS_EVENT) name = event_.data.alias.anchor;
    return name == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char*>(name));
  }

  // Why the last next() failed, with the line and column libyaml gives (both from 1).
  [[nodiscard]] dra::error failure() const {
    if (!ready_ || parser_.error == YAML_MEMORY_ERROR)
      return dra::error{"invalid YAML: out of memory", "", "", errc::malformed_document};
    const std::string problem = parser_.problem != nullptr ? parser_.problem : "unreadable input";
    if (parser_.error == YAML_READER_ERROR)
      return dra::error{dra::concat("invalid YAML at byte ", std::to_string(parser_.problem_offset), ": ", problem),
                        "", "", errc::malformed_document};
    std::string message = dra::concat("invalid YAML at line ", std::to_string(parser_.problem_mark.line + 1),
                                      ", column ", std::to_string(parser_.problem_mark.column + 1), ": ", problem);
    if (parser_.context != nullptr)
      message += dra::concat(" (", parser_.context, " at line ", std::to_string(parser_.context_mark.line + 1), ")");
    return dra::error{std::move(message), "", "", errc::malformed_document};
  }

 private:
  void drop_event() noexcept {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = false;
  }

  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool ready_ = false;
  bool has_event_ = false;
};

}  // namespace dra::json::detail
