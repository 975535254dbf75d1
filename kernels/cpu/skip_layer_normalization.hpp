// kernels/cpu/skip_layer_normalization.hpp: com.microsoft SkipLayerNormalization.
//
// Per row of H floats: s = input + skip [+ bias] is written once (into the
// input_skip_bias_sum output when it is asked for, else into the output
// itself), then isa::f32_layer_norm_row normalizes it into the output while
// the row is still in L1 (in place when s sits in the output). Each operand's
// row is found through its leading dims broadcast to the output's (a row
// stride of 0 along a dim of 1), so a skip shared by the batch needs no copy.
// Rows are split over the pool.
#pragma once

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/skip_layer_normalization.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

template <> struct kernel<ops::SkipLayerNormalization, cpu> {
  static constexpr std::array types{dtypes::f32};
  template <ops::signature S> static status run(const call<ops::SkipLayerNormalization>& c) {
    const tensor &x = c.input(0), &skip = c.input(1);
    const extents& out = c.output(0).shape();
    const std::size_t lead = out.size() - 1;  // 1 or 2 leading dims
    const std::int64_t h = out[lead];
    if (h == 0 || c.output(0).size() == 0) return ok();
    // Row strides of x and skip along the output's leading dims (0 where broadcast).
    std::int64_t strides[2][2] = {};
    for (int k = 0; k < 2; ++k) {
      const tensor& t = k ? skip : x;
      if (t.dim(t.rank() - 1) != h || t.rank() - 1 > lead)
        return status(errc::invalid_argument, "input " + to_string(x.shape()) + " and skip " +
                                                  to_string(skip.shape()) + " must share the last dim and broadcast");
      std::int64_t stride = 1;
      for (std::size_t d = lead; d-- > 0;) {
        const std::int64_t td = static_cast<std::int64_t>(d) - static_cast<std::int64_t>(lead - (t.rank() - 1));
        const std::int64_t n = td >= 0 ? t.dim(static_cast<std::size_t>(td)) : 1;
        if (n != 1 && n != out[d])
          return status(errc::invalid_argument, "input " + to_string(x.shape()) + " and skip " +
                                                    to_string(skip.shape()) + " do not broadcast");
        strides[k][d] = n == 1 ? 0 : stride;
        stride *= n;
      }
    }
    for (int i : {2, 3, 4})
      if (c.has_input(i) && c.input(i).size() != h)
        return status(errc::invalid_argument, std::string(i == 2 ? "gamma" : i == 3 ? "beta" : "bias") + " must hold " +
                                                  std::to_string(h) + " values, got " + to_string(c.input(i).shape()));
    const std::int64_t rows = c.output(0).size() / h, inner = lead == 2 ? out[1] : rows;
    const float* xs = x.data<float>();
    const float* ks = skip.data<float>();
    const float* gamma = c.input(2).data<float>();
    const float* beta = c.has_input(3) ? c.input(3).data<float>() : nullptr;
    const float* bias = c.has_input(4) ? c.input(4).data<float>() : nullptr;
    float* ys = c.output(0).data<float>();
    float* sums = c.has_output(3) ? c.output(3).data<float>() : ys;
    float* mean = c.has_output(1) ? c.output(1).data<float>() : nullptr;
    float* inv = c.has_output(2) ? c.output(2).data<float>() : nullptr;
    const float eps = c.attrs().epsilon;
    const auto normalize = kernels::cpu::isa::active().f32_layer_norm_row;
    parallel_for(c.pool(), rows, grain_for(4 * h), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t r = b; r < e; ++r) {
        // r = i0 * inner + i1 (two leading dims) or i0 (one).
        const std::int64_t i0 = lead == 2 ? r / inner : r, i1 = lead == 2 ? r % inner : 0;
        const float* xr = xs + (i0 * strides[0][0] + i1 * strides[0][1]) * h;
        const float* kr = ks + (i0 * strides[1][0] + i1 * strides[1][1]) * h;
        float* sr = sums + r * h;
        if (bias)
          for (std::int64_t j = 0; j < h; ++j) sr[j] = xr[j] + kr[j] + bias[j];
        else
          for (std::int64_t j = 0; j < h; ++j) sr[j] = xr[j] + kr[j];
        float stats[2];
        normalize(sr, ys + r * h, h, gamma, beta, eps, stats);
        if (mean) mean[r] = stats[0];
        if (inv) inv[r] = stats[1];
      }
    });
    return ok();
  }
};

}  // namespace onyx
