// kernel<ops::Sin, cpu>: y = sin(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sin.hpp"

namespace onyx {

namespace kernels::cpu {
struct sin_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::sin(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Sin, cpu> : kernels::cpu::unary_kernel<ops::Sin, kernels::cpu::sin_fn, ops::Sin::T> {};

}  // namespace onyx
