// kernel<ops::Log, cpu>: y = ln x.
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/log.hpp"

namespace onyx {

namespace kernels::cpu {
struct log_fn {
  static constexpr std::int64_t grain = transcendental_grain;
  template <class X> X operator()(X x) const { return std::log(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Log, cpu> : kernels::cpu::unary_kernel<ops::Log, kernels::cpu::log_fn, ops::Log::T> {};

}  // namespace onyx
