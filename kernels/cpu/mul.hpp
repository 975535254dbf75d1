// kernel<ops::Mul, cpu>: c = a * b, broadcasting (kernels/cpu/broadcast.hpp).
// Every numeric type; float16/bfloat16 in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/mul.hpp"

namespace onyx {

namespace kernels::cpu {
struct multiply_fn {
  template <class X> constexpr X operator()(X a, X b) const { return static_cast<X>(a * b); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Mul, cpu> : kernels::cpu::binary_kernel<ops::Mul, kernels::cpu::multiply_fn, ops::Mul::T> {};

}  // namespace onyx
