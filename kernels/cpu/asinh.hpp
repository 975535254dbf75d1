// kernel<ops::Asinh, cpu>: y = asinh(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/asinh.hpp"

namespace onyx {

namespace kernels::cpu {
struct asinh_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::asinh(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Asinh, cpu> : kernels::cpu::unary_kernel<ops::Asinh, kernels::cpu::asinh_fn, ops::Asinh::T> {};

}  // namespace onyx
