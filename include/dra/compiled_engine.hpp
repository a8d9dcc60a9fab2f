// Kubernetes' DRA CEL environment behind functions compiled once (in the dra_compiled library): an
// alloc::selector_engine whose members are defined in src/compiled_engine.cpp, so that a program's files that run the
// allocator or the scheduling cycle with it compile no CEL code of their own.
#pragma once

#include <dra/cel/derived.hpp>
#include <dra/core/result.hpp>
#include <dra/flatten/mixin_view.hpp>

#include <memory>
#include <string_view>

namespace dra::cel {
class program;
class selector_engine;
}  // namespace dra::cel

namespace dra::compiled {

// cel::selector_engine's answers (the same compile cache, the same results), through calls into the library. Its
// header names no CEL type but the derived attributes' values, so that a file using it reads none of the CEL
// language's headers either.
class selector_engine {
 public:
  // A compiled expression, as cel::selector_engine::program holds it.
  struct program {
    std::shared_ptr<const cel::program> compiled;
    // The expression reads the device only as `device.driver` (see cel::selector_engine::program).
    bool reads_only_driver = false;
  };

  selector_engine();

  [[nodiscard]] result<program> compile(std::string_view expression) const;
  [[nodiscard]] result<program> compile_derived(std::string_view expression) const;
  [[nodiscard]] result<bool> matches(const program& p, const flatten::mixin_device_view& device,
                                     std::string_view driver) const;
  [[nodiscard]] result<cel::derived_value> derive(const program& p, const flatten::mixin_device_view& device,
                                                  std::string_view driver) const;

  // The engine it calls, for what the allocator does not ask (selections, the environment).
  [[nodiscard]] const cel::selector_engine& engine() const noexcept { return *engine_; }

 private:
  std::shared_ptr<const cel::selector_engine> engine_;  // shared by copies, as its compile cache is
};

}  // namespace dra::compiled
