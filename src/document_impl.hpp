// What a compiled::scenario_document holds (include/dra/compiled.hpp), shared by the component's source files.
#pragma once

#include <dra/compiled.hpp>
#include <dra/json/ingest.hpp>

namespace dra::compiled {

struct scenario_document::impl {
  json::document document;
};

}  // namespace dra::compiled
