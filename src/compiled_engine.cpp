// The compiled selector engine's members (include/dra/compiled_engine.hpp): the CEL environment compiled here once.
#include <dra/compiled_engine.hpp>

namespace dra::compiled {

selector_engine::selector_engine() = default;
selector_engine::selector_engine(cel::dra_environment_options options) : engine_(options) {}

result<selector_engine::program> selector_engine::compile(std::string_view expression) const {
  return engine_.compile(expression);
}

result<selector_engine::program> selector_engine::compile_derived(std::string_view expression) const {
  return engine_.compile_derived(expression);
}

result<bool> selector_engine::matches(const program& p, const flatten::mixin_device_view& device,
                                      std::string_view driver) const {
  return engine_.matches(p, device, driver);
}

result<cel::derived_value> selector_engine::derive(const program& p, const flatten::mixin_device_view& device,
                                                   std::string_view driver) const {
  return engine_.derive(p, device, driver);
}

}  // namespace dra::compiled
