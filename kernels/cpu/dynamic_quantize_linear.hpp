// kernel<ops::DynamicQuantizeLinear, cpu>: one pass for the range (split
// over the pool, partial minima/maxima merged), one to quantize.
#pragma once

#include <algorithm>
#include <cmath>
#include <mutex>

#include "onyx/ops/dynamic_quantize_linear.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

template <> struct kernel<ops::DynamicQuantizeLinear, cpu> {
  static constexpr std::array types{ops::DynamicQuantizeLinear::T1};
  template <ops::signature> static status run(const call<ops::DynamicQuantizeLinear>& c) {
    const tensor& x = c.input(0);
    const float* xs = x.data<float>();
    float lo = 0, hi = 0;
    std::mutex merge;
    parallel_for(c.pool(), x.size(), grain_for(1), [&](std::int64_t b, std::int64_t e) {
      float l = 0, h = 0;
      for (std::int64_t i = b; i < e; ++i) l = std::min(l, xs[i]), h = std::max(h, xs[i]);
      std::lock_guard lock(merge);
      lo = std::min(lo, l), hi = std::max(hi, h);
    });
    const float scale = (hi == lo ? 1.0f : hi - lo) / 255.0f;
    const float zero = std::nearbyint(std::clamp(0.0f - lo / scale, 0.0f, 255.0f));
    std::uint8_t* ys = c.output(0).data<std::uint8_t>();
    // An element: a division and a rounding.
    parallel_for(c.pool(), x.size(), grain_for(2), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i)
        ys[i] = static_cast<std::uint8_t>(std::clamp(std::nearbyint(xs[i] / scale) + zero, 0.0f, 255.0f));
    });
    c.output(1).data<float>()[0] = scale;
    c.output(2).data<std::uint8_t>()[0] = static_cast<std::uint8_t>(zero);
    return ok();
  }
};

}  // namespace onyx
