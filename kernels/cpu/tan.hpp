// kernel<ops::Tan, cpu>: y = tan(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/tan.hpp"

namespace onyx {

namespace kernels::cpu {
struct tan_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::tan(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Tan, cpu> : kernels::cpu::unary_kernel<ops::Tan, kernels::cpu::tan_fn, ops::Tan::T> {};

}  // namespace onyx
