// onyx/core/function_ref.hpp: a non-owning reference to a callable.
//
// Two words (object pointer, trampoline), no allocation, no virtual call. The
// referenced callable must outlive the function_ref, so take it as a parameter
// type, never store one past the call that received it.
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace onyx {

template <class Signature>
class function_ref;

template <class R, class... Args>
class function_ref<R(Args...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, function_ref> &&
             std::is_invocable_r_v<R, F&, Args...>)
  function_ref(F&& f) noexcept {  // NOLINT(google-explicit-constructor): like std::function
    using target = std::remove_reference_t<F>;
    if constexpr (std::is_function_v<target>) {
      object_ = reinterpret_cast<void*>(&f);
      call_ = [](void* o, Args... args) -> R {
        return std::invoke(reinterpret_cast<target*>(o), std::forward<Args>(args)...);
      };
    } else {
      object_ = const_cast<void*>(static_cast<const void*>(std::addressof(f)));
      call_ = [](void* o, Args... args) -> R {
        return std::invoke(*static_cast<target*>(o), std::forward<Args>(args)...);
      };
    }
  }

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace onyx
