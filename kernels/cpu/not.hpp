// kernel<ops::Not, cpu>: y = !x, bool.
// Every listed type.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/not.hpp"

namespace onyx {

namespace kernels::cpu {
struct not_fn {
  template <class X> X operator()(X x) const { return !x; }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Not, cpu> : kernels::cpu::unary_kernel<ops::Not, kernels::cpu::not_fn, ops::Not::T> {};

}  // namespace onyx
