// kernel<ops::Sinh, cpu>: y = sinh(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sinh.hpp"

namespace onyx {

namespace kernels::cpu {
struct sinh_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::sinh(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Sinh, cpu> : kernels::cpu::unary_kernel<ops::Sinh, kernels::cpu::sinh_fn, ops::Sinh::T> {};

}  // namespace onyx
