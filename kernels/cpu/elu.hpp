// kernel<ops::Elu, cpu>: y = x < 0 ? alpha * (e^x - 1) : x (alpha = 1).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/elu.hpp"

namespace onyx {

namespace kernels::cpu {
struct elu_fn {
  float alpha;
  explicit elu_fn(const ops::Elu::attributes& a) : alpha(a.alpha) {}
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return x < X{} ? static_cast<X>(alpha) * std::expm1(x) : x; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Elu, cpu> : kernels::cpu::unary_kernel<ops::Elu, kernels::cpu::elu_fn, ops::Elu::T> {};

}  // namespace onyx
