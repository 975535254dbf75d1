// kernel<ops::Sqrt, cpu>: y = sqrt(x) (NaN for x < 0).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sqrt.hpp"

namespace onyx {

namespace kernels::cpu {
struct sqrt_fn {
  template <class X> X operator()(X x) const { return std::sqrt(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Sqrt, cpu> : kernels::cpu::unary_kernel<ops::Sqrt, kernels::cpu::sqrt_fn, ops::Sqrt::T> {};

}  // namespace onyx
