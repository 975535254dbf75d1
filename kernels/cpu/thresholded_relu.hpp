// kernel<ops::ThresholdedRelu, cpu>: y = x > alpha ? x : 0 (alpha = 1).
// Every listed type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/thresholded_relu.hpp"

namespace onyx {

namespace kernels::cpu {
struct thresholded_relu_fn {
  float alpha;
  explicit thresholded_relu_fn(const ops::ThresholdedRelu::attributes& a) : alpha(a.alpha) {}
  template <class X> X operator()(X x) const { return x > static_cast<X>(alpha) ? x : X{}; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::ThresholdedRelu, cpu> : kernels::cpu::unary_kernel<ops::ThresholdedRelu, kernels::cpu::thresholded_relu_fn, ops::ThresholdedRelu::T> {};

}  // namespace onyx
