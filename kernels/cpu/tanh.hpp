// kernel<ops::Tanh, cpu>: y = tanh(x).
// Every listed type; half types in float; float32 through the ISA micro-kernel isa::f32_tanh.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/tanh.hpp"

namespace onyx {

namespace kernels::cpu {
struct tanh_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  static isa::f32_unary_fn f32_isa(const isa::table& t) { return t.f32_tanh; }
  template <class X> X operator()(X x) const { return std::tanh(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Tanh, cpu> : kernels::cpu::unary_kernel<ops::Tanh, kernels::cpu::tanh_fn, ops::Tanh::T> {};

}  // namespace onyx
