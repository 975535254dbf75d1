// kernel<ops::CausalConvWithState, cpu>: per (batch, channel) row, the
// convolution runs over past_state ++ input without building it: tap j of
// output t reads position t + j of the joined sequence. The sum is rounded to
// T before SiLU, as the spec's reference does. Rows are split over the pool.
#pragma once

#include <cmath>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/causal_conv_with_state.hpp"

namespace onyx {

template <>
struct kernel<ops::CausalConvWithState, cpu> {
  static constexpr std::array types{ops::CausalConvWithState::T};
  template <ops::signature S>
  static status run(const call<ops::CausalConvWithState>& c) {
    using T = storage_t<S[0]>;
    const tensor &x = c.input(0), &w = c.input(1);
    if (x.rank() != 3 || w.rank() != 3 || w.dim(0) != x.dim(1) || w.dim(1) != 1 || w.dim(2) < 1)
      return status(errc::invalid_argument, "expected input (B, C, L) and weight (C, 1, k), got " +
                                                sym_shape(x.shape()).str() + " and " + sym_shape(w.shape()).str());
    const std::int64_t batch = x.dim(0), channels = x.dim(1), len = x.dim(2), k = w.dim(2), keep = k - 1;
    const bool has_bias = c.has_input(2), has_past = c.has_input(3);
    if (has_bias && c.input(2).shape() != extents{channels})
      return status(errc::invalid_argument, "bias must be (" + std::to_string(channels) + ")");
    if (has_past && c.input(3).shape() != extents{batch, channels, keep})
      return status(errc::invalid_argument, "past_state must be " + sym_shape(extents{batch, channels, keep}).str() +
                                                ", not " + sym_shape(c.input(3).shape()).str());
    const bool silu = c.attrs().activation != "none";
    const T *xp = x.data<T>(), *wp = w.data<T>();
    const T* bp = has_bias ? c.input(2).data<T>() : nullptr;
    const T* pp = has_past ? c.input(3).data<T>() : nullptr;
    T* yp = c.output(0).template data<T>();
    T* sp = nullptr;
    if (c.has_output(1)) sp = kernels::cpu::output_sized(c, 1, x.type(), {batch, channels, keep}).template data<T>();
    parallel_for(c.pool(), batch * channels, 1, [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t row = first; row < last; ++row) {
        const std::int64_t ch = row % channels;
        const T* in = xp + row * len;
        const T* past = pp ? pp + row * keep : nullptr;
        // Position p of past ++ input (p < keep: the past, zeros without one).
        auto at = [&](std::int64_t p) -> float {
          if (p >= keep) return static_cast<float>(load(in[p - keep]));
          return past ? static_cast<float>(load(past[p])) : 0.0f;
        };
        const T* taps = wp + ch * k;
        for (std::int64_t t = 0; t < len; ++t) {
          float acc = bp ? static_cast<float>(load(bp[ch])) : 0.0f;
          for (std::int64_t j = 0; j < k; ++j) acc += static_cast<float>(load(taps[j])) * at(t + j);
          T v = store<T>(acc);
          if (silu) {
            const float f = static_cast<float>(load(v));
            v = store<T>(f / (1.0f + std::exp(-f)));
          }
          yp[row * len + t] = v;
        }
        if (sp)
          for (std::int64_t j = 0; j < keep; ++j) sp[row * keep + j] = store<T>(at(len + j));
      }
    });
    return ok();
  }
};

}  // namespace onyx
