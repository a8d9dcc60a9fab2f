// Device selectors: compile a CEL expression once (cached by source) and match it against devices, as the allocator does.
#pragma once

#include <dra/cel/derived.hpp>
#include <dra/cel/device.hpp>
#include <dra/cel/environment.hpp>
#include <dra/cel/program.hpp>
#include <dra/core/result.hpp>
#include <dra/flatten/mixin_view.hpp>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dra::cel {

namespace detail {
[[nodiscard]] inline bool reads_only_driver(const node& n);
}  // namespace detail

// The selector engine the allocator uses (`alloc::selector_engine`): Kubernetes' DRA environment,
// a compile cache keyed by expression text, evaluation over device views. Thread-safe.
class selector_engine {
 public:
  struct program {
    std::shared_ptr<const cel::program> compiled;
    // The expression reads the device only as `device.driver` (`device.driver == "gpu.example.com"`, the usual
    // DeviceClass selector): on devices whose attributes are all usable, its result depends on the driver alone,
    // so callers may keep one result per driver.
    bool reads_only_driver = false;
  };

  // The environment is made when first needed: a run with no selector to compile (an empty scenario, a what-if
  // sweep over pods without claims) does not pay for its function tables.
  explicit selector_engine(dra_environment_options options = {})
      : env_(std::make_shared<lazy_environment>(options)) {}

  [[nodiscard]] const environment& env() const { return *shared_env(); }

  // Compiles (or finds in the cache) a selector; errors read "compilation failed: ERROR: <input>:1:5: …".
  [[nodiscard]] result<program> compile(std::string_view expression) const {
    return compile_into(cache_->programs, expression, [](const type& t) -> std::optional<std::string> {
      if (t == type::boolean() || t.is_dyn()) return std::nullopt;
      return dra::concat("must evaluate to bool or the unknown type, not ", t.to_string());
    });
  }

  // Compiles (or finds in the cache) a derived attribute's expression (KEP-6080): the selectors' environment, a
  // result that is a string, int, bool or semver, a list of one of them, or only known when it runs.
  [[nodiscard]] result<program> compile_derived(std::string_view expression) const {
    return compile_into(cache_->derived_programs, expression, derived_type_problem);
  }

  // Evaluates a derived attribute's expression for one device of `driver`: its value, or the CEL runtime error
  // (also when the result has a type no attribute has). Attributes that cannot be converted fail it as they fail
  // selectors.
  template <flatten::device_view View>
  [[nodiscard]] result<derived_value> derive(const program& p, const View& device, std::string_view driver) const {
    if (auto problem = unusable_attributes(device)) [[unlikely]]
      return std::move(*problem);
    auto v = run(p, device, driver);
    if (!v) return std::move(v).error();
    return derived_value::from(*v);
  }
  [[nodiscard]] result<derived_value> derive(const program& p, const flatten::mixin_device_view& device,
                                             std::string_view driver) const {
    return derive<flatten::mixin_device_view>(p, device, driver);
  }

 private:
  template <class TypeCheck>
  [[nodiscard]] result<program> compile_into(auto& programs, std::string_view expression,
                                             const TypeCheck& type_problem) const {
    std::lock_guard lock(cache_->mutex);
    const std::string key(expression);
    if (auto it = programs.find(key); it != programs.end()) {
      if (!it->second.compiled) return error{it->second.failure, "", "", errc::cel_compile};
      return program{it->second.compiled, detail::reads_only_driver(it->second.compiled->root())};
    }
    auto compiled = cel::compile(shared_env(), expression);
    entry e;
    if (!compiled) {
      e.failure = compiled.error().message;
      programs.emplace(key, e);
      return std::move(compiled).error();
    }
    if (auto problem = type_problem(compiled.value().result_type())) {
      e.failure = std::move(*problem);
      programs.emplace(key, e);
      return error{e.failure, "", "", errc::cel_compile};
    }
    e.compiled = std::make_shared<const cel::program>(std::move(compiled).value());
    programs.emplace(key, e);
    return program{e.compiled, detail::reads_only_driver(e.compiled->root())};
  }

 public:
  // Evaluates a selector for one device of `driver`: true, false, or the CEL runtime error.
  template <flatten::device_view View>
  [[nodiscard]] result<bool> matches(const program& p, const View& device, std::string_view driver) const {
    if (auto problem = unusable_attributes(device)) [[unlikely]]
      return std::move(*problem);
    return evaluate(p, device, driver);
  }

  // Upstream converts every attribute before evaluating, so one it cannot convert fails every selector: the
  // error every selector gives on this device, if any.
  template <flatten::device_view View>
  [[nodiscard]] std::optional<error> unusable_attributes(const View& device) const {
    if (device.base().includes.empty()) {  // the common case: no merge needed
      for (const auto& e : device.base().attributes)
        if (auto problem = unusable_attribute(e.value)) [[unlikely]]
          return error{dra::concat("attribute ", e.name, ": ", *problem), "", "", errc::cel_runtime};
    } else {
      for (const auto e : device.attributes())
        if (auto problem = unusable_attribute(*e.value)) [[unlikely]]
          return error{dra::concat("attribute ", e.name, ": ", *problem), "", "", errc::cel_runtime};
    }
    return std::nullopt;
  }

  // matches() for a device known to have no unusable attribute.
  template <flatten::device_view View>
  [[nodiscard]] result<bool> evaluate(const program& p, const View& device, std::string_view driver) const {
    auto evaluated = run(p, device, driver);
    if (!evaluated) return std::move(evaluated).error();
    const value& v = *evaluated;
    if (!v.is(value_kind::boolean))
      return error{dra::concat("CEL result of type ", type_name(v), " could not be converted to bool"), "", "",
                   errc::cel_runtime};
    return v.as_bool();
  }
  [[nodiscard]] result<bool> matches(const program& p, const flatten::mixin_device_view& device,
                                     std::string_view driver) const {
    return matches<flatten::mixin_device_view>(p, device, driver);
  }

 private:
  // The expression's value for the device, or its runtime error (the cost limit with its own code).
  template <flatten::device_view View>
  [[nodiscard]] result<value> run(const program& p, const View& device, std::string_view driver) const {
    device_binding<View> binding(device, driver, device.base().allow_multiple_allocations.value_or(false));
    activation vars;
    vars.bind("device", binding.as_value());
    value v = p.compiled->evaluate(vars);
    if (v.is_error())
      return error{v.error_message(), "", "",
                   v.error_message() == cost_limit_message ? errc::cel_cost_limit : errc::cel_runtime};
    return v;
  }

  [[nodiscard]] static std::optional<std::string> unusable_attribute(const model::device_attribute& a) {
    if (a.fields_set == 0) return "unsupported attribute value";
    // Only versions can be unparsable.
    if (const auto k = model::kind_of(a.value);
        k != model::attribute_kind::version && k != model::attribute_kind::versions)
      return std::nullopt;
    auto check = [](const model::version_value& v) -> std::optional<std::string> {
      if (v.parsed) return std::nullopt;
      auto parsed = dra::semver::parse(v.source);
      return dra::concat("parse semantic version: ", parsed ? "invalid" : parsed.error().message);
    };
    if (const auto* v = std::get_if<model::version_value>(&a.value)) return check(*v);
    if (const auto* list = std::get_if<std::vector<model::version_value>>(&a.value))
      for (const auto& v : *list)
        if (auto problem = check(v)) return problem;
    return std::nullopt;
  }

  struct entry {
    std::shared_ptr<const cel::program> compiled;
    std::string failure;
  };
  struct cache {
    std::mutex mutex;
    std::unordered_map<std::string, entry> programs;
    std::unordered_map<std::string, entry> derived_programs;  // kept apart: the result types allowed differ
  };
  struct lazy_environment {
    explicit lazy_environment(dra_environment_options o) : options(o) {}
    dra_environment_options options;
    std::once_flag made;
    std::shared_ptr<const environment> env;
  };
  [[nodiscard]] const std::shared_ptr<const environment>& shared_env() const {
    std::call_once(env_->made, [this] { env_->env = make_dra_environment(env_->options); });
    return env_->env;
  }
  std::shared_ptr<lazy_environment> env_;  // shared by copies, as the cache is
  std::shared_ptr<cache> cache_ = std::make_shared<cache>();
};

namespace detail {
// Whether the expression reads the variable `device` only through `device.driver` (and never rebinds the name).
[[nodiscard]] inline bool reads_only_driver(const node& n) {
  if (n.kind == node_kind::select && !n.test_only && n.name == "driver" && n.args.size() == 1 &&
      n.args[0].kind == node_kind::ident && n.args[0].name == "device")
    return true;
  if (n.kind == node_kind::ident && n.name == "device") return false;
  if (n.kind == node_kind::comprehension &&
      (n.iter_var == "device" || n.iter_var2 == "device" || n.accu_var == "device"))
    return false;
  return std::all_of(n.args.begin(), n.args.end(), [](const node& a) { return reads_only_driver(a); });
}
}  // namespace detail

}  // namespace dra::cel
