// kernel<ops::Min, cpu>: elementwise minimum of the inputs, broadcasting (as
// Sum). NaN propagates from either side. Every numeric type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/min.hpp"

namespace onyx {

namespace kernels::cpu {
struct min_fn {
  template <class X> constexpr X operator()(X a, X b) const { return a < b || a != a ? a : b; }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Min, cpu> : kernels::cpu::variadic_kernel<ops::Min, kernels::cpu::min_fn, ops::Min::T> {};

}  // namespace onyx
