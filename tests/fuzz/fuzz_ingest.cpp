// Fuzz target: any bytes through JSON ingest, summary and emit; nothing may crash, leak or read out of bounds.
#include <dra/json/emit.hpp>
#include <dra/json/ingest.hpp>
#include <dra/sim/summary.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = dra::json::load(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!doc) {
    // An error always says what is wrong.
    if (doc.error().message.empty()) std::abort();
    return 0;
  }
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
