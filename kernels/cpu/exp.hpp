// kernel<ops::Exp, cpu>: y = e^x.
// Every listed type; half types in float; float32 through the ISA micro-kernel isa::f32_exp.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/exp.hpp"

namespace onyx {

namespace kernels::cpu {
struct exp_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  static isa::f32_unary_fn f32_isa(const isa::table& t) { return t.f32_exp; }
  template <class X> X operator()(X x) const { return std::exp(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Exp, cpu> : kernels::cpu::unary_kernel<ops::Exp, kernels::cpu::exp_fn, ops::Exp::T> {};

}  // namespace onyx
