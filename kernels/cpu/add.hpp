// kernel<ops::Add, cpu>: c = a + b, broadcasting (kernels/cpu/broadcast.hpp).
// Every numeric type; float16/bfloat16 in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/add.hpp"

namespace onyx {

namespace kernels::cpu {
struct add_fn {
  template <class X> constexpr X operator()(X a, X b) const { return static_cast<X>(a + b); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Add, cpu> : kernels::cpu::binary_kernel<ops::Add, kernels::cpu::add_fn, ops::Add::T> {};

}  // namespace onyx
