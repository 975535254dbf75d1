// kernel<ops::Sum, cpu>: y = x0 + x1 + ..., broadcasting; the first two inputs
// in one pass, each later one accumulated into y. float32, float64,
// float16/bfloat16 (in float).
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sum.hpp"

namespace onyx {

namespace kernels::cpu {
struct sum_fn {
  template <class X> constexpr X operator()(X a, X b) const { return a + b; }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Sum, cpu> : kernels::cpu::variadic_kernel<ops::Sum, kernels::cpu::sum_fn, ops::Sum::T> {};

}  // namespace onyx
