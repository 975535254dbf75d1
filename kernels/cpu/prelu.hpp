// kernel<ops::PRelu, cpu>: y = x < 0 ? slope * x : x, slope broadcast to x.
// float32, float64, float16/bfloat16 (in float), int32, int64, uint32, uint64
// (unsigned x is never negative: a copy).
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/prelu.hpp"

namespace onyx {

namespace kernels::cpu {
struct prelu_fn {
  template <class X> X operator()(X x, X slope) const {
    if constexpr (std::is_unsigned_v<X>)
      return x;
    else
      return x < X{} ? static_cast<X>(slope * x) : x;
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::PRelu, cpu> : kernels::cpu::binary_kernel<ops::PRelu, kernels::cpu::prelu_fn, ops::PRelu::T> {};

}  // namespace onyx
