// kernel<ops::Abs, cpu>: y = |x|.
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/abs.hpp"

namespace onyx {

namespace kernels::cpu {
struct abs_fn {
  template <class X> X operator()(X x) const {
    if constexpr (std::is_unsigned_v<X>) return x; else return static_cast<X>(x < X{} ? -x : x);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Abs, cpu> : kernels::cpu::unary_kernel<ops::Abs, kernels::cpu::abs_fn, ops::Abs::T> {};

}  // namespace onyx
