// kernel<ops::QLinearGlobalAveragePool, cpu>: per (image, channel) the exact
// int32 sum of the spatial values, then y = saturate(round((sum - X_zp *
// size) * X_scale / (Y_scale * size)) + Y_zp), the one multiplier ONNX
// Runtime's MLAS kernel applies. NCHW sums run along contiguous rows;
// channels_last accumulates C running sums per image. Split over the pool by
// (image, channel) rows (NCHW) or by image (channels_last).
#pragma once

#include <vector>

#include "kernels/cpu/qlinear.hpp"
#include "onyx/ops/qlinear_global_average_pool.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T> status qlinear_global_average_pool(const call<ops::QLinearGlobalAveragePool>& c) {
  ONYX_ASSIGN(float xs, qlinear::scale(c, 1, "x_scale"));
  ONYX_ASSIGN(int xz, qlinear::zero_point<T>(c, 2, "x_zero_point"));
  ONYX_ASSIGN(float ys, qlinear::scale(c, 3, "y_scale"));
  ONYX_ASSIGN(int yz, qlinear::zero_point<T>(c, 4, "y_zero_point"));
  const tensor& x = c.input(0);
  const auto& shape = x.shape();
  const bool last = c.attrs().channels_last != 0;
  const std::int64_t n = shape[0], ch = last ? shape.back() : shape[1];
  const std::int64_t size = n > 0 && ch > 0 ? x.size() / (n * ch) : 0;
  const T* in = x.data<T>();
  T* out = c.output(0).data<T>();
  if (size == 0) return status(errc::invalid_argument, "X has no spatial elements to average");
  const float multiplier = xs / (ys * static_cast<float>(size));
  const std::int64_t bias = -static_cast<std::int64_t>(xz) * size;
  auto requantize = [&](std::int64_t sum) {
    return qlinear::saturate_round<T>(static_cast<float>(sum + bias) * multiplier, yz);
  };
  if (!last) {
    parallel_for(c.pool(), n * ch, std::max<std::int64_t>(1, grain_for(1) / size), [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t r = b; r < e; ++r) {
        const T* row = in + r * size;
        std::int64_t sum = 0;
        for (std::int64_t i = 0; i < size; ++i) sum += row[i];
        out[r] = requantize(sum);
      }
    });
    return ok();
  }
  parallel_for(c.pool(), n, std::max<std::int64_t>(1, grain_for(1) / (size * ch)), [&](std::int64_t b, std::int64_t e) {
    std::vector<std::int64_t> sums(ch);
    for (std::int64_t img = b; img < e; ++img) {
      std::fill(sums.begin(), sums.end(), 0);
      const T* px = in + img * size * ch;
      for (std::int64_t i = 0; i < size; ++i, px += ch)
        for (std::int64_t k = 0; k < ch; ++k) sums[k] += px[k];
      for (std::int64_t k = 0; k < ch; ++k) out[img * ch + k] = requantize(sums[k]);
    }
  });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::QLinearGlobalAveragePool, cpu> {
  static constexpr std::array types{ops::QLinearGlobalAveragePool::T};
  template <ops::signature S> static status run(const call<ops::QLinearGlobalAveragePool>& c) {
    return kernels::cpu::qlinear_global_average_pool<kernels::cpu::qlinear::type<S>>(c);
  }
};

}  // namespace onyx
