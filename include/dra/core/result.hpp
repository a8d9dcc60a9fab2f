// A value-or-error result type for every input-facing function of dra.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace dra {

// What kind of problem an error is: programs branch on the code, people read the message.
enum class errc : std::uint8_t {
  invalid_input,        // wrong in a way no finer code names
  malformed_document,   // not well-formed JSON or YAML, or no document at all
  invalid_field,        // a field of the wrong type or out of range, found while reading
  invalid_object,       // an object breaks the API's validation rules
  unknown_field,        // a field its kind does not have (strict validation)
  cel_compile,          // a CEL expression does not parse or type-check
  cel_runtime,          // evaluating CEL failed (a missing key, an overflow, a wrong type)
  cel_cost_limit,       // evaluating CEL ran past its cost limit
  not_found,            // a reference (a device class, claim, template) resolves to nothing
  pool_unavailable,     // a pool being updated or invalid where all of its devices are needed
  unsupported,          // a field or mode the engine, or a disabled feature, does not support
  limit_exceeded,       // more devices asked than an allocation result may hold
  constraint_conflict,  // a device an All request must take breaks a claim constraint (upstream's error)
  search_budget,        // the allocator's step budget ran out before the search ended
  io,                   // a file or stream could not be read or written
};

// The code's name as written above ("cel_runtime"), for logs and JSON output.
[[nodiscard]] constexpr std::string_view to_string(errc code) noexcept {
  constexpr std::string_view names[] = {
      "invalid_input", "malformed_document", "invalid_field",       "invalid_object", "unknown_field",
      "cel_compile",   "cel_runtime",        "cel_cost_limit",      "not_found",      "pool_unavailable",
      "unsupported",   "limit_exceeded",     "constraint_conflict", "search_budget",  "io"};
  const auto index = static_cast<std::size_t>(code);
  return index < std::size(names) ? names[index] : std::string_view("unknown");
}

// What went wrong with a user's input, and where. `object` names the
// Kubernetes object ("ResourceSlice/slice-1", "ResourceClaim/ns/claim"),
// `path` is the JSON or field path inside it ("spec.devices[2].name").
// Both may be empty when the error is not tied to one object or field.
struct error {
  std::string message;
  std::string path{};
  std::string object{};
  errc code = errc::invalid_input;

  // "object: path: message", leaving out empty parts.
  [[nodiscard]] std::string to_string() const {
    std::string out;
    if (!object.empty()) {
      out += object;
      out += ": ";
    }
    if (!path.empty()) {
      out += path;
      out += ": ";
    }
    out += message;
    return out;
  }

  // Returns the same error with `prefix` put in front of its path, so that
  // callers deeper in a document can report paths relative to themselves.
  [[nodiscard]] error within(std::string_view prefix) && {
    if (!prefix.empty()) {
      if (path.empty())
        path = std::string(prefix);
      else if (path.front() == '[')
        path = std::string(prefix) + path;
      else
        path = std::string(prefix) + "." + path;
    }
    return std::move(*this);
  }

  friend bool operator==(const error&, const error&) = default;
};

// Every problem found in one pass (validation reports all, not the first).
using error_list = std::vector<error>;

// Holds either a T or an error. Small on purpose: C++20 has no
// std::expected, and this is all that dra's input paths need.
template <class T>
class [[nodiscard]] result {
  static_assert(!std::is_same_v<std::remove_cvref_t<T>, dra::error>, "result<error> is ambiguous");

 public:
  using value_type = T;

  template <class U = T>
  requires std::is_constructible_v<T, U&&> &&
      (!std::is_same_v<std::remove_cvref_t<U>, result>)&&(!std::is_same_v<std::remove_cvref_t<U>, dra::error>)
          result(U&& value)
      : state_(std::in_place_index<0>, std::forward<U>(value)) {}         // NOLINT(google-explicit-constructor)
  result(dra::error e) : state_(std::in_place_index<1>, std::move(e)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  [[nodiscard]] T& value() & { return std::get<0>(state_); }
  [[nodiscard]] const T& value() const& { return std::get<0>(state_); }
  [[nodiscard]] T&& value() && { return std::get<0>(std::move(state_)); }
  [[nodiscard]] const dra::error& error() const& { return std::get<1>(state_); }
  [[nodiscard]] dra::error&& error() && { return std::get<1>(std::move(state_)); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  template <class U>
  [[nodiscard]] T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, dra::error> state_;
};

// Success carries nothing; failure carries an error.
template <>
class [[nodiscard]] result<void> {
 public:
  using value_type = void;

  // User-provided, so that `return {};` does not zero the whole object before constructing it
  // (value-initialization would: a hundred bytes per field ingest reads).
  result() noexcept {}
  result(dra::error e) : error_(std::move(e)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  // Like result<T>::error(): throws std::bad_optional_access on success.
  [[nodiscard]] const dra::error& error() const& { return error_.value(); }
  [[nodiscard]] dra::error&& error() && { return std::move(error_).value(); }

 private:
  // Empty on success: a success is made and dropped on every field ingest reads, so it must
  // not construct (and destroy) an error's three strings.
  std::optional<dra::error> error_;
};

using status = result<void>;

}  // namespace dra
