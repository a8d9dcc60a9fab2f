// A value-or-error result type for every input-facing function of dra.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace dra {

// What went wrong with a user's input, and where. `object` names the
// Kubernetes object ("ResourceSlice/slice-1", "ResourceClaim/ns/claim"),
// `path` is the JSON or field path inside it ("spec.devices[2].name").
// Both may be empty when the error is not tied to one object or field.
struct error {
  std::string message;
  std::string path{};
  std::string object{};

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
