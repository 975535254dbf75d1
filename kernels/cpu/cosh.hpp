// kernel<ops::Cosh, cpu>: y = cosh(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/cosh.hpp"

namespace onyx {

namespace kernels::cpu {
struct cosh_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::cosh(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Cosh, cpu> : kernels::cpu::unary_kernel<ops::Cosh, kernels::cpu::cosh_fn, ops::Cosh::T> {};

}  // namespace onyx
