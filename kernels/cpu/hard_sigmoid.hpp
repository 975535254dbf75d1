// kernel<ops::HardSigmoid, cpu>: y = clamp(alpha * x + beta, 0, 1) (alpha = 0.2, beta = 0.5).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/hard_sigmoid.hpp"

namespace onyx {

namespace kernels::cpu {
struct hard_sigmoid_fn {
  float alpha, beta;
  explicit hard_sigmoid_fn(const ops::HardSigmoid::attributes& a) : alpha(a.alpha), beta(a.beta) {}
  template <class X> X operator()(X x) const {
    return std::clamp(static_cast<X>(alpha) * x + static_cast<X>(beta), X(0), X(1));
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::HardSigmoid, cpu> : kernels::cpu::unary_kernel<ops::HardSigmoid, kernels::cpu::hard_sigmoid_fn, ops::HardSigmoid::T> {};

}  // namespace onyx
