// kernel<ops::Celu, cpu>: y = max(0, x) + min(0, alpha * (e^(x / alpha) - 1)) (alpha = 1).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/celu.hpp"

namespace onyx {

namespace kernels::cpu {
struct celu_fn {
  float alpha;
  explicit celu_fn(const ops::Celu::attributes& a) : alpha(a.alpha) {}
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const {
    return x > X{} ? x : static_cast<X>(alpha) * std::expm1(x / static_cast<X>(alpha));
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Celu, cpu> : kernels::cpu::unary_kernel<ops::Celu, kernels::cpu::celu_fn, ops::Celu::T> {};

}  // namespace onyx
