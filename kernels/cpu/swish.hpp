// kernel<ops::Swish, cpu>: y = x * sigmoid(alpha * x) = x / (1 + exp(-alpha * x)).
// float32, float64; half types in float.
#pragma once

#include <cmath>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/swish.hpp"

namespace onyx {

namespace kernels::cpu {
struct swish_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  float alpha;
  explicit swish_fn(const ops::Swish::attributes& a) : alpha(a.alpha) {}
  template <class X> X operator()(X x) const { return x / (X{1} + std::exp(-static_cast<X>(alpha) * x)); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Swish, cpu> : kernels::cpu::unary_kernel<ops::Swish, kernels::cpu::swish_fn, ops::Swish::T> {};

}  // namespace onyx
