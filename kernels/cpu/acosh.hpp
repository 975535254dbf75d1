// kernel<ops::Acosh, cpu>: y = acosh(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/acosh.hpp"

namespace onyx {

namespace kernels::cpu {
struct acosh_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::acosh(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Acosh, cpu> : kernels::cpu::unary_kernel<ops::Acosh, kernels::cpu::acosh_fn, ops::Acosh::T> {};

}  // namespace onyx
