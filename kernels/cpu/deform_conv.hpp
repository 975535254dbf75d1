// kernel<ops::DeformConv, cpu>: per image and group, the displaced, masked
// samples of every (input channel, tap) form a column matrix, as im2col does
// for Conv, and W_g multiplies it. In double; images are split over the pool.
#pragma once

#include <cmath>
#include <vector>

#include "onyx/ops/deform_conv.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

namespace kernels::cpu {
/// X[y, x] of an h x w plane sampled bilinearly; points outside count as 0.
template <class T>
double bilinear_zero_padded(const T* plane, std::int64_t h, std::int64_t w, double y, double x) {
  const double fy = std::floor(y), fx = std::floor(x);
  const auto y0 = static_cast<std::int64_t>(fy), x0 = static_cast<std::int64_t>(fx);
  const double ly = y - fy, lx = x - fx;
  double v = 0;
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      const std::int64_t yy = y0 + dy, xx = x0 + dx;
      if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
      v += (dy ? ly : 1 - ly) * (dx ? lx : 1 - lx) * static_cast<double>(load(plane[yy * w + xx]));
    }
  return v;
}
}  // namespace kernels::cpu

template <>
struct kernel<ops::DeformConv, cpu> {
  static constexpr std::array types{ops::DeformConv::T};
  template <ops::signature S>
  static status run(const call<ops::DeformConv>& c) {
    using T = storage_t<S[0]>;
    const auto& a = c.attrs();
    const tensor &x = c.input(0), &w = c.input(1), &off = c.input(2);
    const tensor* bias = c.input_count() > 3 && c.has_input(3) ? &c.input(3) : nullptr;
    const tensor* mask = c.input_count() > 4 && c.has_input(4) ? &c.input(4) : nullptr;
    auto fail = [](std::string why) { return status(errc::invalid_argument, std::move(why)); };
    if (x.rank() != 4 || w.rank() != 4 || off.rank() != 4) return fail("X, W and offset must be 4-D");
    const std::int64_t n = x.dim(0), ic = x.dim(1), ih = x.dim(2), iw = x.dim(3), oc = w.dim(0), G = a.group,
                       OG = a.offset_group, kh = w.dim(2), kw = w.dim(3), oh = off.dim(2), ow = off.dim(3);
    if (!a.kernel_shape.empty() && a.kernel_shape != std::vector<std::int64_t>{kh, kw})
      return fail("kernel_shape does not match W");
    if (ic != w.dim(1) * G || oc % G)
      return fail("X's channels must be W's dim 1 times group, and M a multiple of group");
    if (ic % OG) return fail("X's channels must be a multiple of offset_group");
    if (off.dim(0) != n || off.dim(1) != OG * kh * kw * 2)
      return fail("offset must be (N, offset_group * kH * kW * 2, oH, oW)");
    if (mask && mask->shape() != extents{n, OG * kh * kw, oh, ow})
      return fail("mask must be (N, offset_group * kH * kW, oH, oW)");
    if (bias && bias->shape() != extents{oc}) return fail("B must be (M)");
    auto attr_or = [](const std::vector<std::int64_t>& v, std::size_t i, std::int64_t d) {
      return v.empty() ? d : v[i];
    };
    const std::int64_t sh = attr_or(a.strides, 0, 1), sw = attr_or(a.strides, 1, 1), dh = attr_or(a.dilations, 0, 1),
                       dw = attr_or(a.dilations, 1, 1), ph = attr_or(a.pads, 0, 0), pw = attr_or(a.pads, 1, 0);
    const std::int64_t pe_h = attr_or(a.pads, 2, 0), pe_w = attr_or(a.pads, 3, 0);
    if (oh != (ih + ph + pe_h - (kh - 1) * dh - 1) / sh + 1 || ow != (iw + pw + pe_w - (kw - 1) * dw - 1) / sw + 1)
      return fail("offset's spatial dims do not match the convolution's output");

    const std::int64_t icg = ic / G, ocg = oc / G, icog = ic / OG, taps = kh * kw, P = oh * ow;
    const T *xp = x.data<T>(), *wp = w.data<T>(), *op = off.data<T>();
    const T* mp = mask ? mask->data<T>() : nullptr;
    const T* bp = bias ? bias->data<T>() : nullptr;
    T* yp = c.output(0).template data<T>();
    parallel_for(c.pool(), n, 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<double> col(static_cast<std::size_t>(icg * taps * P));
      for (std::int64_t b = first; b < last; ++b)
        for (std::int64_t g = 0; g < G; ++g) {
          for (std::int64_t ci = 0; ci < icg; ++ci) {
            const std::int64_t ch = g * icg + ci, og = ch / icog;
            const T* plane = xp + (b * ic + ch) * ih * iw;
            for (std::int64_t t = 0; t < taps; ++t) {
              const std::int64_t ki = t / kw, kj = t % kw;
              const T* dy = op + ((b * OG + og) * taps * 2 + 2 * t) * P;
              const T* dx = dy + P;
              const T* m = mp ? mp + ((b * OG + og) * taps + t) * P : nullptr;
              double* row = col.data() + (ci * taps + t) * P;
              for (std::int64_t p = 0; p < P; ++p) {
                const std::int64_t i = p / ow, j = p % ow;
                const double y = static_cast<double>(i * sh - ph + ki * dh) + static_cast<double>(load(dy[p]));
                const double xx = static_cast<double>(j * sw - pw + kj * dw) + static_cast<double>(load(dx[p]));
                double v = kernels::cpu::bilinear_zero_padded(plane, ih, iw, y, xx);
                if (m) v *= static_cast<double>(load(m[p]));
                row[p] = v;
              }
            }
          }
          for (std::int64_t o = 0; o < ocg; ++o) {
            const std::int64_t m_out = g * ocg + o;
            const T* wrow = wp + m_out * icg * taps;
            T* out = yp + (b * oc + m_out) * P;
            for (std::int64_t p = 0; p < P; ++p) {
              double acc = bp ? static_cast<double>(load(bp[m_out])) : 0.0;
              for (std::int64_t r = 0; r < icg * taps; ++r) acc += static_cast<double>(load(wrow[r])) * col[r * P + p];
              out[p] = store<T>(acc);
            }
          }
        }
    });
    return ok();
  }
};

}  // namespace onyx
