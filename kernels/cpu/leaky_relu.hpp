// kernel<ops::LeakyRelu, cpu>: y = x < 0 ? alpha * x : x (alpha = 0.01).
// Every listed type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/leaky_relu.hpp"

namespace onyx {

namespace kernels::cpu {
struct leaky_relu_fn {
  float alpha;
  explicit leaky_relu_fn(const ops::LeakyRelu::attributes& a) : alpha(a.alpha) {}
  template <class X> X operator()(X x) const { return x < X{} ? static_cast<X>(alpha) * x : x; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::LeakyRelu, cpu> : kernels::cpu::unary_kernel<ops::LeakyRelu, kernels::cpu::leaky_relu_fn, ops::LeakyRelu::T> {};

}  // namespace onyx
