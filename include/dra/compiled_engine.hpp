// Kubernetes' DRA CEL environment behind functions compiled once (in the dra_compiled library): an
// alloc::selector_engine whose members are defined in src/compiled_engine.cpp, so that a program's files that run the
// allocator or the scheduling cycle with it compile no CEL code of their own.
#pragma once

#include <dra/cel/derived.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/selector.hpp>
#include <dra/core/result.hpp>
#include <dra/flatten/mixin_view.hpp>

#include <string_view>

namespace dra::compiled {

// cel::selector_engine's answers (the same compile cache, the same results), through calls into the library.
class selector_engine {
 public:
  using program = cel::selector_engine::program;

  selector_engine();
  explicit selector_engine(cel::dra_environment_options options);

  [[nodiscard]] result<program> compile(std::string_view expression) const;
  [[nodiscard]] result<program> compile_derived(std::string_view expression) const;
  [[nodiscard]] result<bool> matches(const program& p, const flatten::mixin_device_view& device,
                                     std::string_view driver) const;
  [[nodiscard]] result<cel::derived_value> derive(const program& p, const flatten::mixin_device_view& device,
                                                  std::string_view driver) const;

  // The engine it calls, for what the allocator does not ask (selections, the environment).
  [[nodiscard]] const cel::selector_engine& engine() const noexcept { return engine_; }

 private:
  cel::selector_engine engine_;
};

}  // namespace dra::compiled
