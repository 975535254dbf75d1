// kernel<ops::Neg, cpu>: y = -x.
// Every listed type; half types in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/neg.hpp"

namespace onyx {

namespace kernels::cpu {
struct neg_fn {
  template <class X> X operator()(X x) const { return static_cast<X>(-x); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Neg, cpu> : kernels::cpu::unary_kernel<ops::Neg, kernels::cpu::neg_fn, ops::Neg::T> {};

}  // namespace onyx
