// A non-owning reference to a callable (C++26's std::function_ref, reduced to what dra needs), so that a function
// taking a callback is compiled once instead of once per caller's lambda.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace dra {

template <class Signature>
class function_ref;

// What a function_ref<R(Args...)> may refer to: an object (not a function: pass a pointer to it) callable with
// Args... whose result converts to R; not another function_ref, which is copied instead.
template <class F, class Ref, class R, class... Args>
concept referable_callable = !std::is_same_v<std::remove_cvref_t<F>, Ref> &&
                             !std::is_function_v<std::remove_reference_t<F>> && std::is_invocable_r_v<R, F&, Args...>;

// Holds a pointer to the callable: the callable must outlive every call (pass lambdas as arguments, do not store).
template <class R, class... Args>
class function_ref<R(Args...)> {
 public:
  template <referable_callable<function_ref, R, Args...> F>
  function_ref(F&& f) noexcept  // NOLINT(google-explicit-constructor): converts like std::function_ref
      : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* callable, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(callable))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(callable_, std::forward<Args>(args)...); }

 private:
  void* callable_;
  R (*call_)(void*, Args...);
};

}  // namespace dra
