// kernel<ops::Scaler, cpu>: y = (x - offset[c]) * scale[c] in float32, c the
// index along axis 1 (offset/scale of one value broadcast).
#pragma once

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
    auto at = [](const std::vector<float>& v, std::int64_t j, float none) {
      return v.empty() ? none : v.size() == 1 ? v[0] : v[static_cast<std::size_t>(j)];
    };
    const std::int64_t n = x.size();
    parallel_for(c.pool(), n, grain_for(2), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) {
        const std::int64_t j = stride ? i % stride : 0;
        yp[i] = (xp[i] - at(a.offset, j, 0.0f)) * at(a.scale, j, 1.0f);
      }
    });
    return ok();
  }
};

}  // namespace onyx
