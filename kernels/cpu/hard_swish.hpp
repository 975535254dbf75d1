// kernel<ops::HardSwish, cpu>: y = x * clamp(x / 6 + 1/2, 0, 1).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/hard_swish.hpp"

namespace onyx {

namespace kernels::cpu {
struct hard_swish_fn {
  template <class X> X operator()(X x) const { return x * std::clamp(x / X(6) + X(0.5), X(0), X(1)); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::HardSwish, cpu> : kernels::cpu::unary_kernel<ops::HardSwish, kernels::cpu::hard_swish_fn, ops::HardSwish::T> {};

}  // namespace onyx
