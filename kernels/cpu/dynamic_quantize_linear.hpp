// kernel<ops::DynamicQuantizeLinear, cpu>: one pass for the range (split
// over the pool, partial minima/maxima merged), one to quantize, both with
// the vector kernels of the int8 level (kernels/cpu/isa/q8.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>

#include "onyx/ops/dynamic_quantize_linear.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"
#include "kernels/cpu/isa/q8.hpp"

namespace onyx {

namespace kernels::cpu {

/// DynamicQuantizeLinear of n floats into y: the range [min(x, 0), max(x, 0)]
/// (one pass split over the pool), then y = saturate(round(x / scale) + zero).
/// Returns {scale, zero point}. The vector kernels of isa::q8_active().
inline std::pair<float, std::uint8_t> dynamic_quantize(const float* x, std::int64_t n, std::uint8_t* y,
                                                       const thread_pool* pool) {
  const isa::q8_gemm_kernel& k = isa::q8_active();
  float lo = 0, hi = 0;
  std::mutex merge;
  parallel_for(pool, n, grain_for(1), [&](std::int64_t b, std::int64_t e) {
    float l = 0, h = 0;
    k.f32_minmax(x + b, e - b, &l, &h);
    std::lock_guard lock(merge);
    lo = std::min(lo, l), hi = std::max(hi, h);
  });
  const float scale = (hi == lo ? 1.0f : hi - lo) / 255.0f;
  const float zero = std::nearbyint(std::clamp(0.0f - lo / scale, 0.0f, 255.0f));
  // An element: a division and a rounding.
  parallel_for(pool, n, grain_for(2), [&](std::int64_t b, std::int64_t e) { k.f32_quantize_u8(x + b, e - b, scale, zero, y + b); });
  return {scale, static_cast<std::uint8_t>(zero)};
}

}  // namespace kernels::cpu

template <> struct kernel<ops::DynamicQuantizeLinear, cpu> {
  static constexpr std::array types{ops::DynamicQuantizeLinear::T1};
  template <ops::signature> static status run(const call<ops::DynamicQuantizeLinear>& c) {
    const tensor& x = c.input(0);
    auto [scale, zero] = kernels::cpu::dynamic_quantize(x.data<float>(), x.size(), c.output(0).data<std::uint8_t>(), c.pool());
    c.output(1).data<float>()[0] = scale;
    c.output(2).data<std::uint8_t>()[0] = zero;
    return ok();
  }
};

}  // namespace onyx
