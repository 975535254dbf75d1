// kernel<ops::Max, cpu>: elementwise maximum of the inputs, broadcasting (as
// Sum). NaN propagates from either side. Every numeric type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/max.hpp"

namespace onyx {

namespace kernels::cpu {
struct max_fn {
  template <class X> constexpr X operator()(X a, X b) const { return a > b || a != a ? a : b; }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Max, cpu> : kernels::cpu::variadic_kernel<ops::Max, kernels::cpu::max_fn, ops::Max::T> {};

}  // namespace onyx
