// kernel<ops::Sign, cpu>: y = -1, 0 or 1 by the sign of x (NaN gives 0).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sign.hpp"

namespace onyx {

namespace kernels::cpu {
struct sign_fn {
  template <class X> X operator()(X x) const {
    if constexpr (std::is_unsigned_v<X>) return static_cast<X>(x != X{}); else return static_cast<X>((X{} < x) - (x < X{}));
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Sign, cpu> : kernels::cpu::unary_kernel<ops::Sign, kernels::cpu::sign_fn, ops::Sign::T> {};

}  // namespace onyx
