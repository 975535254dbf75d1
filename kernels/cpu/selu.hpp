// kernel<ops::Selu, cpu>: y = gamma * (x > 0 ? x : alpha * (e^x - 1)) (alpha ~ 1.6733, gamma ~ 1.0507).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/selu.hpp"

namespace onyx {

namespace kernels::cpu {
struct selu_fn {
  float alpha, gamma;
  explicit selu_fn(const ops::Selu::attributes& a) : alpha(a.alpha), gamma(a.gamma) {}
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const {
    return static_cast<X>(gamma) * (x > X{} ? x : static_cast<X>(alpha) * std::expm1(x));
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Selu, cpu> : kernels::cpu::unary_kernel<ops::Selu, kernels::cpu::selu_fn, ops::Selu::T> {};

}  // namespace onyx
