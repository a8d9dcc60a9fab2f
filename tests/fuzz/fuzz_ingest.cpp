// Fuzz target: any bytes through JSON and YAML ingest, summary and emit; nothing may crash, leak or read out of bounds.
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/json/yaml.hpp>
#include <dra/sim/analysis/summary.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // YAML converted with a List's items in parts, one item a part, is the YAML converted whole.
  const auto whole = dra::json::yaml_to_json(input);
  const auto in_parts = dra::json::yaml_to_json(input, dra::json::yaml_options{.threads = 2, .part_bytes = 1});
  if (whole.has_value() != in_parts.has_value()) std::abort();
  if (whole ? whole->json != in_parts->json || whole->first_lines != in_parts->first_lines
            : !(whole.error() == in_parts.error()))
    std::abort();
  auto doc = dra::json::load(input);
  // Items read on two threads give the same first error, or the same objects, as on one.
  auto threaded = dra::json::load(input, dra::json::load_options{.threads = 2, .min_parallel_bytes = 0});
  if (doc.has_value() != threaded.has_value()) std::abort();
  if (!doc) {
    // An error always says what is wrong.
    if (doc.error().message.empty() || !(doc.error() == threaded.error())) std::abort();
    return 0;
  }
  if (!(doc->scenario() == threaded->scenario()) || doc->unknown_fields() != threaded->unknown_fields() ||
      doc->document_count() != threaded->document_count())
    std::abort();
  const dra::model::scenario& scenario = doc->scenario();
  (void)dra::sim::to_json(dra::sim::summarize(scenario));
  for (const auto& [claim, source] : scenario.claims) {
    if (!claim.allocation) continue;
    // What was read back in emits as JSON that ingest accepts again.
    std::string emitted = dra::json::to_json(*claim.allocation);
    std::string wrapped = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"x"},)"
                          R"("status":{"allocation":)" +
                          emitted + "}}";
    auto again = dra::json::load(wrapped);
    if (!again || again->scenario().claims.size() != 1 || !again->scenario().claims[0].object.allocation) std::abort();
  }
  return 0;
}
