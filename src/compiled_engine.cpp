// The compiled selector engine's members (include/dra/compiled_engine.hpp): the CEL environment compiled here once.
#include <dra/cel/selector.hpp>
#include <dra/compiled_engine.hpp>

#include <memory>

namespace dra::compiled {

namespace {
cel::selector_engine::program to_cel(const selector_engine::program& p) { return {p.compiled, p.reads_only_driver}; }
result<selector_engine::program> from_cel(result<cel::selector_engine::program> p) {
  if (!p) return std::move(p).error();
  return selector_engine::program{std::move(p->compiled), p->reads_only_driver};
}
}  // namespace

selector_engine::selector_engine() : engine_(std::make_shared<const cel::selector_engine>()) {}

result<selector_engine::program> selector_engine::compile(std::string_view expression) const {
  return from_cel(engine_->compile(expression));
}

result<selector_engine::program> selector_engine::compile_derived(std::string_view expression) const {
  return from_cel(engine_->compile_derived(expression));
}

result<bool> selector_engine::matches(const program& p, const flatten::mixin_device_view& device,
                                      std::string_view driver) const {
  return engine_->matches(to_cel(p), device, driver);
}

result<cel::derived_value> selector_engine::derive(const program& p, const flatten::mixin_device_view& device,
                                                   std::string_view driver) const {
  return engine_->derive(to_cel(p), device, driver);
}

}  // namespace dra::compiled
