// kernel<ops::Floor, cpu>: y = floor(x).
// Every listed type; half types in float.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/floor.hpp"

namespace onyx {

namespace kernels::cpu {
struct floor_fn {
  template <class X> X operator()(X x) const { return std::floor(x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Floor, cpu> : kernels::cpu::unary_kernel<ops::Floor, kernels::cpu::floor_fn, ops::Floor::T> {};

}  // namespace onyx
