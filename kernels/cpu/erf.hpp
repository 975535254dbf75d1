// kernel<ops::Erf, cpu>: y = erf(x), the Gauss error function.
// Floats only (integer Erf is not supported); float32 through the ISA micro-kernel isa::f32_erf.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/erf.hpp"

namespace onyx {

namespace kernels::cpu {
struct erf_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  static isa::f32_unary_fn f32_isa(const isa::table& t) { return t.f32_erf; }
  template <class X> X operator()(X x) const { return std::erf(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Erf, cpu> : kernels::cpu::unary_kernel<ops::Erf, kernels::cpu::erf_fn, dtypes::floats> {};

}  // namespace onyx
