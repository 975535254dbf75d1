// kernel<ops::Normalizer, cpu>: per row along axis 1 (inner dims strided, as
// ORT), norm accumulated in float32 as ORT, then divided.
#pragma once

#include <cmath>

#include "kernels/cpu/ml_inputs.hpp"
#include "onyx/ops/normalizer.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <>
struct kernel<ops::Normalizer, cpu> {
  static constexpr std::array types{ops::Normalizer::T};
  template <ops::signature S>
  static status run(const call<ops::Normalizer>& c) {
    const tensor& x = c.input(0);
    const std::string& norm = c.attrs().norm;
    const std::int64_t len = x.rank() == 1 ? x.dim(0) : x.dim(1);
    std::int64_t inner = 1;
    for (std::size_t d = 2; d < x.rank(); ++d) inner *= x.dim(d);
    const std::int64_t groups = len && inner ? x.size() / (len * inner) : 0;
    std::vector<float> buf;
    const float* xp = kernels::cpu::ml::as_floats(x, buf);
    float* yp = c.output(0).data<float>();
    for (std::int64_t g = 0; g < groups; ++g)
      for (std::int64_t k = 0; k < inner; ++k) {
        const float* in = xp + g * len * inner + k;
        float* out = yp + g * len * inner + k;
        float z = 0;
        if (norm == "MAX") {
          z = -INFINITY;
          for (std::int64_t i = 0; i < len; ++i) z = std::max(z, in[i * inner]);
        } else if (norm == "L1") {
          for (std::int64_t i = 0; i < len; ++i) z += std::abs(in[i * inner]);
        } else {
          for (std::int64_t i = 0; i < len; ++i) z += in[i * inner] * in[i * inner];
          z = std::sqrt(z);
        }
        for (std::int64_t i = 0; i < len; ++i) out[i * inner] = z != 0 ? in[i * inner] / z : in[i * inner];
      }
    return ok();
  }
};

}  // namespace onyx
