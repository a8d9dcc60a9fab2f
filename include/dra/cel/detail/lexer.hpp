// The CEL lexer: source text to tokens (numbers, strings with their escapes, identifiers, operators), with UTF-8 checks and cel-go's error locations.
#pragma once

#include <dra/core/result.hpp>
#include <dra/core/text.hpp>

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel::detail {

// "ERROR: <input>:LINE:COL: message", counting columns in code points from 1.
[[nodiscard]] inline std::string located_message(std::string_view source, std::size_t offset, std::string_view message) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < source.size(); ++i) {
    const auto c = static_cast<unsigned char>(source[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++column;
    }
  }
  return dra::concat("ERROR: <input>:", std::to_string(line), ":", std::to_string(column), ": ", message);
}

inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Decodes one UTF-8 code point at s[i]; returns its length, 0 when invalid.
[[nodiscard]] inline std::size_t utf8_length(std::string_view s, std::size_t i, std::uint32_t* cp = nullptr) noexcept {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n;
  std::uint32_t v;
  if (c < 0x80) {
    if (cp) *cp = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    v = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    v = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    v = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    v = (v << 6) | (d & 0x3F);
  }
  if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
      (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  if (cp) *cp = v;
  return n;
}

[[nodiscard]] inline bool valid_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

enum class token_kind : std::uint8_t {
  end,
  identifier,
  int_literal,
  uint_literal,
  double_literal,
  string_literal,
  bytes_literal,
  punct,  // operators and punctuation; `text` holds the spelling
  error,
};

struct token {
  token_kind kind = token_kind::end;
  std::size_t offset = 0;
  std::string_view text{};
  std::string decoded{};  // string and bytes literals
};

class lexer {
 public:
  explicit lexer(std::string_view source) : src_(source) {}

  token next() {
    skip_space();
    token t;
    t.offset = pos_;
    if (pos_ >= src_.size()) return t;
    const char c = src_[pos_];
    if (is_ident_start(c)) {
      // String prefixes: r, b, rb, br (any case) directly followed by a quote.
      std::size_t p = pos_;
      bool raw = false, bytes = false;
      for (int k = 0; k < 2 && p < src_.size(); ++k) {
        const char q = src_[p];
        if ((q == 'r' || q == 'R') && !raw) {
          raw = true;
          ++p;
        } else if ((q == 'b' || q == 'B') && !bytes) {
          bytes = true;
          ++p;
        } else {
          break;
        }
        if (p < src_.size() && (src_[p] == '"' || src_[p] == '\'')) return quoted(p, raw, bytes);
      }
      std::size_t e = pos_;
      while (e < src_.size() && (is_ident_start(src_[e]) || is_digit(src_[e]))) ++e;
      t.kind = token_kind::identifier;
      t.text = src_.substr(pos_, e - pos_);
      pos_ = e;
      return t;
    }
    if (is_digit(c) || (c == '.' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) return number();
    if (c == '"' || c == '\'') return quoted(pos_, false, false);
    static constexpr std::string_view two[] = {"==", "!=", "<=", ">=", "&&", "||", ".?", "[?"};
    for (std::string_view op : two) {
      if (src_.substr(pos_, 2) == op) {
        t.kind = token_kind::punct;
        t.text = src_.substr(pos_, 2);
        pos_ += 2;
        return t;
      }
    }
    if (std::string_view("+-*/%!<>=?:.,()[]{}").find(c) != std::string_view::npos) {
      t.kind = token_kind::punct;
      t.text = src_.substr(pos_, 1);
      ++pos_;
      return t;
    }
    t.kind = token_kind::error;
    t.text = src_.substr(pos_, 1);
    t.decoded = c == '`' ? "unsupported syntax: '`'" : dra::concat("Syntax error: token recognition error at: '",
                                                                            src_.substr(pos_, 1), "'");
    return t;
  }

 private:
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  static bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
  static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

  void skip_space() {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  token number() {
    token t;
    t.offset = pos_;
    std::size_t p = pos_;
    if (src_[p] == '0' && p + 1 < src_.size() && (src_[p + 1] == 'x' || src_[p + 1] == 'X')) {
      p += 2;
      while (p < src_.size() && is_hex(src_[p])) ++p;
      t.kind = token_kind::int_literal;
      if (p < src_.size() && (src_[p] == 'u' || src_[p] == 'U')) {
        t.kind = token_kind::uint_literal;
        t.text = src_.substr(pos_, p - pos_);
        pos_ = p + 1;
        return t;
      }
      t.text = src_.substr(pos_, p - pos_);
      pos_ = p;
      return t;
    }
    bool is_double = false;
    while (p < src_.size() && is_digit(src_[p])) ++p;
    if (p + 1 < src_.size() && src_[p] == '.' && is_digit(src_[p + 1])) {
      is_double = true;
      ++p;
      while (p < src_.size() && is_digit(src_[p])) ++p;
    }
    if (p < src_.size() && (src_[p] == 'e' || src_[p] == 'E')) {
      std::size_t q = p + 1;
      if (q < src_.size() && (src_[q] == '+' || src_[q] == '-')) ++q;
      if (q < src_.size() && is_digit(src_[q])) {
        is_double = true;
        p = q;
        while (p < src_.size() && is_digit(src_[p])) ++p;
      }
    }
    t.text = src_.substr(pos_, p - pos_);
    if (is_double) {
      t.kind = token_kind::double_literal;
    } else if (p < src_.size() && (src_[p] == 'u' || src_[p] == 'U')) {
      t.kind = token_kind::uint_literal;
      ++p;
    } else {
      t.kind = token_kind::int_literal;
    }
    pos_ = p;
    return t;
  }

  token fail(std::size_t at, std::string message) {
    token t;
    t.kind = token_kind::error;
    t.offset = at;
    t.decoded = std::move(message);
    pos_ = src_.size();
    return t;
  }

  // A quoted literal starting at src_[q] (the quote), prefixes already seen.
  token quoted(std::size_t q, bool raw, bool bytes) {
    token t;
    t.offset = pos_;
    t.kind = bytes ? token_kind::bytes_literal : token_kind::string_literal;
    const char quote = src_[q];
    const bool triple = src_.substr(q, 3) == std::string(3, quote);
    std::size_t p = q + (triple ? 3 : 1);
    std::string out;
    while (true) {
      if (p >= src_.size()) return fail(t.offset, "Syntax error: token recognition error at: '" + std::string(src_.substr(t.offset)) + "'");
      const char c = src_[p];
      if (triple ? src_.substr(p, 3) == std::string(3, quote) : c == quote) {
        p += triple ? 3 : 1;
        break;
      }
      if (!triple && (c == '\n' || c == '\r'))
        return fail(t.offset, "Syntax error: token recognition error at: '" + std::string(src_.substr(t.offset, p - t.offset + 1)) + "'");
      if (c != '\\' || raw) {
        if (raw && c == '\\' && p + 1 < src_.size() && (src_[p + 1] == quote || src_[p + 1] == '\\')) {
          out.push_back(c);
          out.push_back(src_[p + 1]);
          p += 2;
          continue;
        }
        out.push_back(c);
        ++p;
        continue;
      }
      // Escape sequence.
      if (p + 1 >= src_.size()) return fail(p, "Syntax error: invalid escape sequence");
      const char e = src_[p + 1];
      p += 2;
      switch (e) {
        case 'a': out.push_back('\a'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'v': out.push_back('\v'); break;
        case '\\': out.push_back('\\'); break;
        case '\'': out.push_back('\''); break;
        case '"': out.push_back('"'); break;
        case '`': out.push_back('`'); break;
        case '?': out.push_back('?'); break;
        case 'x':
        case 'X':
        case 'u':
        case 'U': {
          const std::size_t n = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
          if (p + n > src_.size()) return fail(p - 2, "Syntax error: invalid escape sequence");
          std::uint32_t v = 0;
          for (std::size_t k = 0; k < n; ++k) {
            const char h = src_[p + k];
            if (!is_hex(h)) return fail(p - 2, "Syntax error: invalid escape sequence");
            v = v * 16 + static_cast<std::uint32_t>(is_digit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
          }
          p += n;
          if (n == 2 && bytes) {
            out.push_back(static_cast<char>(v));
          } else {
            if (bytes && n != 2) return fail(p - n - 2, "Syntax error: unicode escape in bytes literal");
            if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
              return fail(p - n - 2, "Syntax error: invalid unicode code point");
            append_utf8(out, v);
          }
          break;
        }
        case '0':
        case '1':
        case '2':
        case '3': {
          if (p + 2 > src_.size() || src_[p] < '0' || src_[p] > '7' || src_[p + 1] < '0' || src_[p + 1] > '7')
            return fail(p - 2, "Syntax error: invalid octal escape");
          const std::uint32_t v = static_cast<std::uint32_t>((e - '0') * 64 + (src_[p] - '0') * 8 + (src_[p + 1] - '0'));
          p += 2;
          if (bytes)
            out.push_back(static_cast<char>(v));
          else
            append_utf8(out, v);
          break;
        }
        default: return fail(p - 2, "Syntax error: token recognition error at: '\\" + std::string(1, e) + "'");
      }
    }
    t.text = src_.substr(t.offset, p - t.offset);
    t.decoded = std::move(out);
    pos_ = p;
    if (!bytes && !valid_utf8(t.decoded)) return fail(t.offset, "Syntax error: invalid UTF-8 in string literal");
    return t;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
};

}  // namespace dra::cel::detail
