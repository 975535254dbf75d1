// kernel<ops::Div, cpu>: c = a / b, broadcasting (kernels/cpu/broadcast.hpp).
// Every numeric type; float16/bfloat16 in float. Integers truncate toward
// zero; x / 0 gives 0 and INT_MIN / -1 wraps to INT_MIN instead of trapping.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/div.hpp"

namespace onyx {

namespace kernels::cpu {
struct divide_fn {
  template <class X> constexpr X operator()(X a, X b) const {
    if constexpr (std::is_integral_v<X>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<X>)
        if (b == -1) return static_cast<X>(0 - static_cast<std::make_unsigned_t<X>>(a));
    }
    return static_cast<X>(a / b);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Div, cpu> : kernels::cpu::binary_kernel<ops::Div, kernels::cpu::divide_fn, ops::Div::T> {};

}  // namespace onyx
