// kernel<ops::Sigmoid, cpu>: y = 1 / (1 + e^-x).
// Every listed type; half types in float; float32 through the ISA micro-kernel isa::f32_logistic.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sigmoid.hpp"

namespace onyx {

namespace kernels::cpu {
struct sigmoid_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  static isa::f32_unary_fn f32_isa(const isa::table& t) { return t.f32_logistic; }
  template <class X> X operator()(X x) const { return X(1) / (X(1) + std::exp(-x)); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Sigmoid, cpu> : kernels::cpu::unary_kernel<ops::Sigmoid, kernels::cpu::sigmoid_fn, ops::Sigmoid::T> {};

}  // namespace onyx
