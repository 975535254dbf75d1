// kernel<ops::Atanh, cpu>: y = atanh(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/atanh.hpp"

namespace onyx {

namespace kernels::cpu {
struct atanh_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::atanh(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Atanh, cpu> : kernels::cpu::unary_kernel<ops::Atanh, kernels::cpu::atanh_fn, ops::Atanh::T> {};

}  // namespace onyx
