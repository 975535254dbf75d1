// kernel<ops::Atan, cpu>: y = atan(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/atan.hpp"

namespace onyx {

namespace kernels::cpu {
struct atan_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::atan(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Atan, cpu> : kernels::cpu::unary_kernel<ops::Atan, kernels::cpu::atan_fn, ops::Atan::T> {};

}  // namespace onyx
