// kernel<ops::Relu, cpu>: y = max(x, 0); NaN stays NaN.
// float32, float64, float16/bfloat16 (in float), int8..int64.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/relu.hpp"

namespace onyx {

namespace kernels::cpu {
struct relu_fn {
  template <class X> constexpr X operator()(X x) const { return x < X{} ? X{} : x; }
};
}  // namespace kernels::cpu

template <> struct kernel<ops::Relu, cpu> : kernels::cpu::unary_kernel<ops::Relu, kernels::cpu::relu_fn, ops::Relu::T> {};

}  // namespace onyx
