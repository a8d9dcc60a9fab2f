// Finds a List's items by a scan of its bytes, so that threads read them before simdjson could index the whole input.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dra::json::detail {

// Where a scanned List or array keeps its items, and what is left of it without them.
struct scanned_list {
  std::string_view prefix;  // "items" for a List, "" for an array
  // The document with its items left out (`"items":[]`, or `[]`): simdjson reads the rest of
  // it from this small copy instead of indexing every item's bytes.
  std::string without_items;
  const char* end = nullptr;  // one past the document's closing bracket
};

// A byte scan that knows JSON's strings and brackets, and nothing more: every item and the rest
// of the document are still read by simdjson, which finds any other error. Its answer is
// trusted only for text whose brackets and strings are well formed; anything else (a bracket
// closing the wrong kind, an unterminated string, a backslash outside a string, a non-object
// item, an escaped or repeated "items" key) gives up, and the caller reads the input the
// ordinary way.
class item_scanner {
 public:
  explicit item_scanner(std::string_view text) noexcept : at_(text.data()), end_(text.data() + text.size()) {}

  // Scans one document from the text's start: a JSON object with a top-level "items" array, or
  // an array. Calls `on_item(text)` for each item (an object, from `{` to `}`) as it is found.
  // Nothing when the text is not one of those shapes or the scan gives up.
  template <class OnItem>
  [[nodiscard]] std::optional<scanned_list> scan(OnItem&& on_item) {
    skip_whitespace();
    const char* const start = at_;
    if (at_ == end_) return std::nullopt;
    if (*at_ == '[') {
      if (!items(on_item)) return std::nullopt;
      return scanned_list{"", "[]", at_};
    }
    if (*at_ != '{') return std::nullopt;
    ++at_;
    const char* items_open = nullptr;
    const char* items_close = nullptr;
    skip_whitespace();
    if (at_ != end_ && *at_ == '}') return std::nullopt;  // an empty object has no items
    for (;;) {
      if (at_ == end_ || *at_ != '"') return std::nullopt;
      const char* key_start = at_ + 1;
      if (!skip_string()) return std::nullopt;
      const std::string_view key(key_start, static_cast<std::size_t>(at_ - 1 - key_start));
      if (key.find('\\') != std::string_view::npos) return std::nullopt;  // may spell "items"
      skip_whitespace();
      if (at_ == end_ || *at_ != ':') return std::nullopt;
      ++at_;
      skip_whitespace();
      if (key == "items") {
        if (items_open != nullptr || at_ == end_ || *at_ != '[') return std::nullopt;
        items_open = at_;
        if (!items(on_item)) return std::nullopt;
        items_close = at_ - 1;
      } else if (!skip_value()) {
        return std::nullopt;
      }
      skip_whitespace();
      if (at_ == end_) return std::nullopt;
      if (*at_ == '}') break;
      if (*at_ != ',') return std::nullopt;
      ++at_;
      skip_whitespace();
    }
    ++at_;
    if (items_open == nullptr) return std::nullopt;
    std::string rest;
    rest.reserve(static_cast<std::size_t>(items_open + 1 - start) + static_cast<std::size_t>(at_ - items_close));
    rest.append(start, items_open + 1).append(items_close, at_);
    return scanned_list{"items", std::move(rest), at_};
  }

 private:
  static constexpr std::size_t max_depth = 512;

  void skip_whitespace() noexcept {
    while (at_ != end_ && (*at_ == ' ' || *at_ == '\n' || *at_ == '\r' || *at_ == '\t')) ++at_;
  }
  // From an opening quote to past its closing one (names and short values of the document
  // itself: the items are passed over by skip_container, 64 bytes at a time).
  [[nodiscard]] bool skip_string() noexcept {
    const char* p = at_ + 1;
    while (p != end_) {
      const char c = *p++;
      if (c == '"') {
        at_ = p;
        return true;
      }
      if (c == '\\') {
        if (p == end_) return false;
        ++p;
      }
    }
    return false;
  }

  // Which bytes of a 64-byte block are quotes, backslashes and brackets, a bit each.
  struct block_bits {
    std::uint64_t quotes = 0;
    std::uint64_t backslashes = 0;
    std::uint64_t brackets = 0;
  };
  [[nodiscard]] static block_bits classify(const char* block) noexcept {
    block_bits out;
#if defined(__SSE2__)
    for (int k = 0; k < 4; ++k) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * k));
      auto bits_of = [](__m128i matches) {
        return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(matches)));
      };
      // '[' and ']' differ from '{' and '}' only in the 0x20 bit.
      const __m128i folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20));
      out.quotes |= bits_of(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'))) << (16 * k);
      out.backslashes |= bits_of(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))) << (16 * k);
      out.brackets |=
          bits_of(_mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')), _mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))))
          << (16 * k);
    }
#else
    for (int i = 0; i < 64; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << i;
      const char c = block[i];
      if (c == '"') out.quotes |= bit;
      if (c == '\\') out.backslashes |= bit;
      if (c == '{' || c == '}' || c == '[' || c == ']') out.brackets |= bit;
    }
#endif
    return out;
  }
  // Bit i set when an odd number of bits 0..i are: from an opening quote up to its closing one.
  [[nodiscard]] static constexpr std::uint64_t prefix_xor(std::uint64_t bits) noexcept {
    for (int shift = 1; shift < 64; shift *= 2) bits ^= bits << shift;
    return bits;
  }

  // An object or array, from its opening bracket to past its closing one. The text is taken 64
  // bytes at a time: the quotes that open or close strings are those no backslash escapes, the
  // bytes inside strings lie between them, and only the brackets outside are looked at one by
  // one (a loop over every byte was an eighth of `dra summary` on 100 MB; this is a
  // fortieth). A backslash outside a string gives up.
  [[nodiscard]] bool skip_container() noexcept {
    char closers[max_depth];
    std::size_t depth = 0;
    std::uint64_t inside_string = 0;  // all ones when the previous block ended inside a string
    bool escaped_first = false;       // the previous block ended with a backslash escaping this block's first byte
    for (const char* block_start = at_; block_start < end_; block_start += 64) {
      char last_block[64];
      const char* block = block_start;
      if (const auto left = static_cast<std::size_t>(end_ - block_start); left < 64) {
        std::memcpy(last_block, block_start, left);
        std::memset(last_block + left, ' ', 64 - left);  // nothing the scan stops at
        block = last_block;
      }
      const block_bits bits = classify(block);
      std::uint64_t escaped = escaped_first ? 1 : 0;
      escaped_first = false;
      // Backslashes are rare: each that is not escaped itself escapes the byte after it.
      for (std::uint64_t escaping = bits.backslashes & ~escaped; escaping != 0;) {
        const std::uint64_t bit = escaping & (~escaping + 1);
        if (bit == std::uint64_t{1} << 63) {
          escaped_first = true;
          break;
        }
        escaped |= bit << 1;
        escaping &= ~(bit | bit << 1);
      }
      const std::uint64_t inside = prefix_xor(bits.quotes & ~escaped) ^ inside_string;
      inside_string = (inside >> 63) != 0 ? ~std::uint64_t{0} : 0;
      if ((bits.backslashes & ~inside) != 0) return false;  // no JSON outside a string
      for (std::uint64_t brackets = bits.brackets & ~inside; brackets != 0; brackets &= brackets - 1) {
        const int i = std::countr_zero(brackets);
        const char c = block[i];
        if (c == '{' || c == '[') {
          if (depth == max_depth) return false;
          closers[depth++] = c == '{' ? '}' : ']';
        } else {
          if (depth == 0 || closers[--depth] != c) return false;
          if (depth == 0) {
            at_ = block_start + i + 1;
            return true;
          }
        }
      }
    }
    return false;
  }
  // Any value; a number or literal runs to the next comma, bracket or whitespace.
  [[nodiscard]] bool skip_value() noexcept {
    if (at_ == end_) return false;
    if (*at_ == '"') return skip_string();
    if (*at_ == '{' || *at_ == '[') return skip_container();
    const char* start = at_;
    while (at_ != end_ && *at_ != ',' && *at_ != '}' && *at_ != ']' && *at_ != ' ' && *at_ != '\n' && *at_ != '\r' &&
           *at_ != '\t' && *at_ != '"' && *at_ != '{' && *at_ != '[')
      ++at_;
    return at_ != start;
  }
  // The items array, from `[` to past `]`: objects separated by commas.
  template <class OnItem>
  [[nodiscard]] bool items(OnItem& on_item) {
    ++at_;
    skip_whitespace();
    if (at_ != end_ && *at_ == ']') {
      ++at_;
      return true;
    }
    for (;;) {
      if (at_ == end_ || *at_ != '{') return false;
      const char* item = at_;
      if (!skip_container()) return false;
      on_item(std::string_view(item, static_cast<std::size_t>(at_ - item)));
      skip_whitespace();
      if (at_ == end_) return false;
      if (*at_ == ']') {
        ++at_;
        return true;
      }
      if (*at_ != ',') return false;
      ++at_;
      skip_whitespace();
    }
  }

  const char* at_;
  const char* end_;
};

}  // namespace dra::json::detail
