// The compiled component's scenario documents (include/dra/compiled.hpp): loading, instantiated once here; its
// validation and allocation have source files of their own (compiled_validate.cpp, compiled_allocate.cpp), so that
// no file of the component compiles the whole engine.
#include "document_impl.hpp"

#include <dra/compiled.hpp>
#include <dra/json/ingest.hpp>

namespace dra::compiled {

scenario_document::scenario_document(std::unique_ptr<impl> loaded) : impl_(std::move(loaded)) {}
scenario_document::scenario_document(scenario_document&&) noexcept = default;
scenario_document& scenario_document::operator=(scenario_document&&) noexcept = default;
scenario_document::~scenario_document() = default;

result<scenario_document> scenario_document::load(std::string_view text) { return from(json::load(text)); }

result<scenario_document> scenario_document::load_file(const std::string& path) { return from(json::load_file(path)); }

result<scenario_document> scenario_document::from(result<json::document> loaded) {
  if (!loaded) return std::move(loaded).error();
  return scenario_document(std::make_unique<impl>(impl{std::move(*loaded)}));
}

const model::scenario& scenario_document::scenario() const noexcept { return impl_->document.scenario(); }

}  // namespace dra::compiled
