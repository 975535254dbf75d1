// kernel<ops::Sub, cpu>: c = a - b, broadcasting (kernels/cpu/broadcast.hpp).
// Every numeric type; float16/bfloat16 in float.
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/sub.hpp"

namespace onyx {

namespace kernels::cpu {
struct subtract_fn {
  template <class X> constexpr X operator()(X a, X b) const { return static_cast<X>(a - b); }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Sub, cpu> : kernels::cpu::binary_kernel<ops::Sub, kernels::cpu::subtract_fn, ops::Sub::T> {};

}  // namespace onyx
