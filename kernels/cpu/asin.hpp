// kernel<ops::Asin, cpu>: y = asin(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/asin.hpp"

namespace onyx {

namespace kernels::cpu {
struct asin_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::asin(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Asin, cpu> : kernels::cpu::unary_kernel<ops::Asin, kernels::cpu::asin_fn, ops::Asin::T> {};

}  // namespace onyx
