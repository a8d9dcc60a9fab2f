// The JSON fixtures of tests/json/data, loaded for the json room's tests.
#pragma once

#include "../support/source_dir.hpp"
#include <dra/json/ingest.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace dra_test {

inline std::string fixture_path(std::string_view name) {
  return std::string(dra_test::json_test_data()) + "/" + std::string(name);
}

// A fixture that must load; an empty document (and a test failure) when it does not.
inline dra::json::document load_fixture(std::string_view name) {
  auto doc = dra::json::load_file(fixture_path(name));
  EXPECT_TRUE(doc.has_value()) << name << ": " << (doc ? "" : doc.error().to_string());
  if (!doc) return *dra::json::load("[]");
  return std::move(doc).value();
}

}  // namespace dra_test
