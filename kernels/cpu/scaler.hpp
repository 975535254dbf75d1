// kernel<ops::Scaler, cpu>: y = (x - offset[c]) * scale[c] in float32, c the
// index along axis 1 (offset/scale of one value broadcast).
#pragma once

#include <algorithm>

#include "kernels/cpu/ml_inputs.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/scaler.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::Scaler, cpu> {
  static constexpr std::array types{ops::Scaler::T};
  template <ops::signature S>
  static status run(const call<ops::Scaler>& c) {
    const auto& a = c.attrs();
    const tensor& x = c.input(0);
    // Element i takes value i % stride, stride = dim 1 (dim 0 of a 1-D X), as ORT.
    const std::int64_t stride = x.rank() == 0 ? 1 : x.rank() == 1 ? x.dim(0) : x.dim(1);
    for (auto [what, v] : {std::pair{"offset", &a.offset}, std::pair{"scale", &a.scale}})
      if (v->size() > 1 && static_cast<std::int64_t>(v->size()) != stride)
        return status(errc::invalid_argument, std::string(what) + " has " + std::to_string(v->size()) + " values for " +
                                                  std::to_string(stride) + " columns");
    std::vector<float> buf;
    const float* xp = kernels::cpu::ml::as_floats(x, buf);
    float* yp = c.output(0).data<float>();
    const std::int64_t n = x.size();
    if (n == 0) return ok();
    // Offset and scale per column, then whole rows of `stride` elements.
    const std::int64_t w = std::max<std::int64_t>(stride, 1);
    std::vector<float> off(static_cast<std::size_t>(w)), sc(static_cast<std::size_t>(w));
    for (std::int64_t j = 0; j < w; ++j) {
      const auto k = static_cast<std::size_t>(j);
      off[k] = a.offset.empty() ? 0.0f : a.offset.size() == 1 ? a.offset[0] : a.offset[k];
      sc[k] = a.scale.empty() ? 1.0f : a.scale.size() == 1 ? a.scale[0] : a.scale[k];
    }
    parallel_for(c.pool(), n / w, grain_for(2 * w), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t r = b; r < e; ++r) {
        const float* xr = xp + r * w;
        float* yr = yp + r * w;
        for (std::int64_t j = 0; j < w; ++j) yr[j] = (xr[j] - off[j]) * sc[j];
      }
    });
    return ok();
  }
};

}  // namespace onyx
