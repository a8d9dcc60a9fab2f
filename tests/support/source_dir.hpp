// Test support: where the source tree is, found from the test program's own path.
#pragma once

#include <filesystem>
#include <string>

namespace dra_test {

// The source root: the program's folder joined with DRA_SOURCE_FROM_BINARY, the relative path the build compiled in
// (tests/CMakeLists.txt). No absolute path is compiled into a test, so two checkouts compile the same text and share
// ccache's objects.
inline const std::string& source_dir() {
  static const std::string dir = [] {
    auto root = (std::filesystem::canonical("/proc/self/exe").parent_path() / DRA_SOURCE_FROM_BINARY).lexically_normal();
    return (root.has_filename() ? root : root.parent_path()).string();  // "/src/", from "…/..", has a trailing '/'
  }();
  return dir;
}

// The JSON room's fixtures.
inline std::string json_test_data() { return source_dir() + "/tests/json/data"; }

}  // namespace dra_test
