// kernel<ops::Acos, cpu>: y = acos(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/acos.hpp"

namespace onyx {

namespace kernels::cpu {
struct acos_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::acos(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Acos, cpu> : kernels::cpu::unary_kernel<ops::Acos, kernels::cpu::acos_fn, ops::Acos::T> {};

}  // namespace onyx
