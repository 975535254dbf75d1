// kernels/cpu/skip_layer_normalization.hpp: com.microsoft SkipLayerNormalization.
//
// Per row of H floats, one call of isa::f32_layer_norm_row: its first pass
// forms s = input + skip [+ bias] (written into the input_skip_bias_sum
// output when it is asked for, else into the output itself) with the row's
// sum, and the later passes normalize s into the output while the row is
// still in L1 (in place when s sits in the output). Each operand's
// row is found through its leading dims broadcast to the output's
// (plan_broadcast over the leading dims: a row stride of 0 along a dim of 1),
// so a skip shared by the batch needs no copy.
// Rows are split over the pool.
#pragma once

#include "kernels/cpu/broadcast.hpp"
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
    const std::int64_t h = out.back();
    if (h == 0 || c.output(0).size() == 0) return ok();
    if (x.shape().back() != h || skip.shape().back() != h)
      return status(errc::invalid_argument, "input " + to_string(x.shape()) + " and skip " +
                                                to_string(skip.shape()) + " must share the last dim");
    // Rows of x and skip along the output's leading dims (stride 0 where broadcast).
    auto lead = [](const extents& e) { return extents(e.begin(), e.end() - 1); };
    const extents lead_out = lead(out), lead_x = lead(x.shape()), lead_skip = lead(skip.shape());
    ONYX_ASSIGN(auto rows_plan, kernels::cpu::plan_broadcast<2>(lead_out, {&lead_x, &lead_skip}));
    for (int i : {2, 3, 4})
      if (c.has_input(i) && c.input(i).size() != h)
        return status(errc::invalid_argument, std::string(i == 2 ? "gamma" : i == 3 ? "beta" : "bias") + " must hold " +
                                                  std::to_string(h) + " values, got " + to_string(c.input(i).shape()));
    const std::int64_t rows = c.output(0).size() / h;
    // The row of input k (0: x, 1: skip) that output row r reads.
    auto row_of = [&](std::int64_t r, std::size_t k) {
      std::int64_t row = 0;
      for (int j = rows_plan.rank - 1; j >= 0; --j) {
        row += (r % rows_plan.dims[j]) * rows_plan.strides[k][j];
        r /= rows_plan.dims[j];
      }
      return row;
    };
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
        const float* xr = xs + row_of(r, 0) * h;
        const float* kr = ks + row_of(r, 1) * h;
        float stats[2];
        normalize(xr, kr, bias, sums + r * h, ys + r * h, h, gamma, beta, eps, stats);
        if (mean) mean[r] = stats[0];
        if (inv) inv[r] = stats[1];
      }
    });
    return ok();
  }
};

}  // namespace onyx
