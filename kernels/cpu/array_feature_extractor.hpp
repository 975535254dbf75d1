// kernel<ops::ArrayFeatureExtractor, cpu>: a gather along the last axis with
// the flattened indices, per element width.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/array_feature_extractor.hpp"

namespace onyx {

template <>
struct kernel<ops::ArrayFeatureExtractor, cpu> {
  static constexpr std::array types{ops::ArrayFeatureExtractor::T};
  template <ops::signature S>
  static status run(const call<ops::ArrayFeatureExtractor>& c) {
    using E = kernels::cpu::moved_t<S[0]>;
    const tensor &x = c.input(0), &y = c.input(1);
    if (x.rank() == 0) return status(errc::invalid_argument, "X must have rank >= 1");
    const std::int64_t width = x.dim(x.rank() - 1), rows = width ? x.size() / width : 0, n = y.size();
    const std::int64_t* idx = y.data<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i)
      if (idx[i] < 0 || idx[i] >= width)
        return status(errc::out_of_range, "Y[" + std::to_string(i) + "] = " + std::to_string(idx[i]) +
                                              " is outside X's last axis of " + std::to_string(width));
    extents shape(x.shape().begin(), x.shape().end() - 1);
    if (shape.empty()) shape.push_back(1);
    shape.push_back(n);
    tensor& z = kernels::cpu::output_sized(c, 0, x.type(), shape);
    const E* xp = x.data<E>();
    E* zp = z.data<E>();
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < n; ++i) zp[r * n + i] = xp[r * width + idx[i]];
    return ok();
  }
};

}  // namespace onyx
