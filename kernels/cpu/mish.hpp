// kernel<ops::Mish, cpu>: y = x * tanh(softplus(x)).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/mish.hpp"

namespace onyx {

namespace kernels::cpu {
struct mish_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const {
    X sp = x > X{} ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    return x * std::tanh(sp);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Mish, cpu> : kernels::cpu::unary_kernel<ops::Mish, kernels::cpu::mish_fn, ops::Mish::T> {};

}  // namespace onyx
