// kernel<ops::Round, cpu>: y = x rounded to the nearest integer, halves to even.
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/round.hpp"

namespace onyx {

namespace kernels::cpu {
struct round_fn {
  template <class X> X operator()(X x) const { return std::nearbyint(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Round, cpu> : kernels::cpu::unary_kernel<ops::Round, kernels::cpu::round_fn, ops::Round::T> {};

}  // namespace onyx
