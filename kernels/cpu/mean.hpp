// kernel<ops::Mean, cpu>: the broadcast sum of the inputs (as Sum), then one
// pass dividing by their count. float32, float64, float16/bfloat16 (in float).
#pragma once

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/mean.hpp"

namespace onyx {

namespace kernels::cpu {
struct mean_fn {
  template <class X> constexpr X operator()(X a, X b) const { return a + b; }
  template <class T> static void finish(T* y, std::int64_t n, int count, const thread_pool* pool) {
    const float inv = 1.0f / static_cast<float>(count);
    if constexpr (std::is_same_v<T, double>)
      map_unary(y, y, n, [count](double v) { return v / count; }, pool);
    else
      map_unary(y, y, n, [inv](float v) { return v * inv; }, pool);
  }
};
}  // namespace kernels::cpu

template <>
struct kernel<ops::Mean, cpu> : kernels::cpu::variadic_kernel<ops::Mean, kernels::cpu::mean_fn, ops::Mean::T> {};

}  // namespace onyx
