// A small streaming JSON writer that escapes strings exactly as Go's encoding/json does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::json {

// Writes compact or indented JSON into a string. The caller keeps the
// nesting right (begin/end pairs); keys and commas are placed for it.
//
// Hand-written on purpose: Debian's simdjson 3.0.1 only parses, and the
// output must escape like Go (HTML characters as \u003c, U+2028/9), which
// general-purpose writers do not.
class writer {
 public:
  explicit writer(int indent = 0) : indent_(indent) {}

  writer& begin_object() { return open('{'); }
  writer& end_object() { return close('}'); }
  writer& begin_array() { return open('['); }
  writer& end_array() { return close(']'); }

  writer& key(std::string_view name) {
    separate();
    quote(name);
    out_ += indent_ > 0 ? ": " : ":";
    after_key_ = true;
    return *this;
  }

  writer& string(std::string_view text) {
    separate();
    quote(text);
    return *this;
  }
  writer& integer(std::int64_t value) { return raw(std::to_string(value)); }
  writer& boolean(bool value) { return raw(value ? "true" : "false"); }
  writer& null() { return raw("null"); }
  // Already-serialized JSON (e.g. opaque driver parameters), written as is.
  writer& raw(std::string_view json) {
    separate();
    out_ += json;
    return *this;
  }

  // Shorthands for "key": value.
  writer& field(std::string_view name, std::string_view text) { return key(name).string(text); }
  writer& field(std::string_view name, const char* text) { return key(name).string(text); }
  writer& field(std::string_view name, bool value) { return key(name).boolean(value); }
  writer& field(std::string_view name, std::int64_t value) { return key(name).integer(value); }

  [[nodiscard]] const std::string& str() const& noexcept { return out_; }
  [[nodiscard]] std::string str() && noexcept { return std::move(out_); }

 private:
  writer& open(char bracket) {
    separate();
    out_ += bracket;
    first_.push_back(true);
    return *this;
  }
  writer& close(char bracket) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += bracket;
    return *this;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ += ',';
    first_.back() = false;
    newline();
  }
  void newline() {
    if (indent_ <= 0) return;
    out_ += '\n';
    out_.append(first_.size() * static_cast<std::size_t>(indent_), ' ');
  }
  void quote(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out_ += '"';
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      switch (c) {
        case '"':
          out_ += "\\\"";
          continue;
        case '\\':
          out_ += "\\\\";
          continue;
        case '\n':
          out_ += "\\n";
          continue;
        case '\r':
          out_ += "\\r";
          continue;
        case '\t':
          out_ += "\\t";
          continue;
        default:
          break;
      }
      if (c < 0x20 || c == '<' || c == '>' || c == '&') {
        out_ += "\\u00";
        out_ += hex[c >> 4];
        out_ += hex[c & 0xf];
        continue;
      }
      // U+2028 and U+2029 (E2 80 A8/A9) are escaped by Go too.
      if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
          (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xA8) {
        out_ += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
        i += 2;
        continue;
      }
      out_ += static_cast<char>(c);
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written into it yet
  int indent_;
  bool after_key_ = false;
};

}  // namespace dra::json
