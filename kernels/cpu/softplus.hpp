// kernel<ops::Softplus, cpu>: y = ln(1 + e^x), computed without overflow for large x.
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/softplus.hpp"

namespace onyx {

namespace kernels::cpu {
struct softplus_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const {
    return x > X{} ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Softplus, cpu> : kernels::cpu::unary_kernel<ops::Softplus, kernels::cpu::softplus_fn, ops::Softplus::T> {};

}  // namespace onyx
