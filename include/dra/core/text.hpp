// Small text helpers shared by every room: building messages without temporaries.
#pragma once

#include <string>
#include <string_view>

namespace dra {

// Joins pieces into one string with a single allocation. (Also sidesteps
// GCC 12's false -Wrestrict warning on `"literal" + std::string&&`.)
template <class... Pieces>
[[nodiscard]] std::string concat(const Pieces&... pieces) {
  const std::string_view views[] = {std::string_view(pieces)...};
  std::size_t size = 0;
  for (std::string_view v : views) size += v.size();
  std::string out;
  out.reserve(size);
  for (std::string_view v : views) out.append(v);
  return out;
}

// "\"text\"", as Go's %q prints a plain string.
[[nodiscard]] inline std::string quoted(std::string_view text) { return concat("\"", text, "\""); }

}  // namespace dra
