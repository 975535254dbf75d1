// kernel<ops::IsNaN, cpu>: y = (x is NaN), bool.
// Every listed type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/is_nan.hpp"

namespace onyx {

namespace kernels::cpu {
struct is_nan_fn {
  template <class X> bool operator()(X x) const { return x != x; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::IsNaN, cpu> : kernels::cpu::unary_kernel<ops::IsNaN, kernels::cpu::is_nan_fn, ops::IsNaN::T1, dtype::boolean> {};

}  // namespace onyx
