// kernel<ops::Ceil, cpu>: y = ceil(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/ceil.hpp"

namespace onyx {

namespace kernels::cpu {
struct ceil_fn {
  template <class X> X operator()(X x) const { return std::ceil(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Ceil, cpu> : kernels::cpu::unary_kernel<ops::Ceil, kernels::cpu::ceil_fn, ops::Ceil::T> {};

}  // namespace onyx
