// kernel<ops::Reciprocal, cpu>: y = 1 / x.
// Every listed type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/reciprocal.hpp"

namespace onyx {

namespace kernels::cpu {
struct reciprocal_fn {
  template <class X> X operator()(X x) const { return X(1) / x; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Reciprocal, cpu> : kernels::cpu::unary_kernel<ops::Reciprocal, kernels::cpu::reciprocal_fn, ops::Reciprocal::T> {};

}  // namespace onyx
