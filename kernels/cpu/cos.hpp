// kernel<ops::Cos, cpu>: y = cos(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/cos.hpp"

namespace onyx {

namespace kernels::cpu {
struct cos_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::cos(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Cos, cpu> : kernels::cpu::unary_kernel<ops::Cos, kernels::cpu::cos_fn, ops::Cos::T> {};

}  // namespace onyx
