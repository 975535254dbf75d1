// kernel<ops::RoiAlign, cpu>: per region, the bilinear sample positions and
// weights of every bin are computed once, then applied to each channel.
// Arithmetic in double. A batch index outside X fails with errc::out_of_range.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "onyx/ops/roi_align.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

namespace kernels::cpu {
/// One bilinear sample: four flat positions in an H x W plane and weights.
struct roi_sample {
  std::int64_t pos[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

/// The sample at (y, x) of an H x W plane; all-zero weights outside
/// [-1, H] x [-1, W]; coordinates past the last row or column clamp to it.
inline roi_sample bilinear_sample(double y, double x, std::int64_t h, std::int64_t w) {
  roi_sample s;
  if (y < -1.0 || y > static_cast<double>(h) || x < -1.0 || x > static_cast<double>(w)) return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  auto y0 = static_cast<std::int64_t>(y), x0 = static_cast<std::int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) y0 = y1 = h - 1, y = static_cast<double>(y0);
  if (x0 >= w - 1) x0 = x1 = w - 1, x = static_cast<double>(x0);
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0);
  s.pos[0] = y0 * w + x0, s.pos[1] = y0 * w + x1, s.pos[2] = y1 * w + x0, s.pos[3] = y1 * w + x1;
  s.w[0] = (1 - ly) * (1 - lx), s.w[1] = (1 - ly) * lx, s.w[2] = ly * (1 - lx), s.w[3] = ly * lx;
  return s;
}
}  // namespace kernels::cpu

template <>
struct kernel<ops::RoiAlign, cpu> {
  static constexpr std::array types{ops::RoiAlign::T1};
  template <ops::signature S>
  static status run(const call<ops::RoiAlign>& c) {
    using T = storage_t<S[0]>;
    using kernels::cpu::roi_sample;
    const auto& a = c.attrs();
    const tensor &x = c.input(0), &rois = c.input(1), &batch = c.input(2);
    if (x.rank() != 4 || rois.rank() != 2 || rois.dim(1) != 4 || batch.rank() != 1 || batch.dim(0) != rois.dim(0))
      return status(errc::invalid_argument, "expected X (N, C, H, W), rois (R, 4) and batch_indices (R)");
    const std::int64_t n = x.dim(0), channels = x.dim(1), h = x.dim(2), w = x.dim(3), oh = a.output_height,
                       ow = a.output_width;
    const bool half_pixel = a.coordinate_transformation_mode == "half_pixel", max_mode = a.mode == "max";
    const T *xp = x.data<T>(), *rp = rois.data<T>();
    const std::int64_t* bp = batch.data<std::int64_t>();
    for (std::int64_t r = 0; r < rois.dim(0); ++r)
      if (bp[r] < 0 || bp[r] >= n)
        return status(errc::out_of_range, "batch_indices[" + std::to_string(r) + "] = " + std::to_string(bp[r]) +
                                              " is outside X's batch of " + std::to_string(n));
    T* yp = c.output(0).template data<T>();
    parallel_for(c.pool(), rois.dim(0), 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<roi_sample> samples;
      for (std::int64_t r = first; r < last; ++r) {
        const double offset = half_pixel ? 0.5 : 0.0, scale = a.spatial_scale;
        const double x1 = static_cast<double>(load(rp[r * 4 + 0])) * scale - offset;
        const double y1 = static_cast<double>(load(rp[r * 4 + 1])) * scale - offset;
        const double x2 = static_cast<double>(load(rp[r * 4 + 2])) * scale - offset;
        const double y2 = static_cast<double>(load(rp[r * 4 + 3])) * scale - offset;
        double rh = y2 - y1, rw = x2 - x1;
        if (!half_pixel) rh = std::max(rh, 1.0), rw = std::max(rw, 1.0);
        const double bin_h = rh / static_cast<double>(oh), bin_w = rw / static_cast<double>(ow);
        const std::int64_t grid_h =
            a.sampling_ratio > 0 ? a.sampling_ratio : static_cast<std::int64_t>(std::ceil(bin_h));
        const std::int64_t grid_w =
            a.sampling_ratio > 0 ? a.sampling_ratio : static_cast<std::int64_t>(std::ceil(bin_w));
        const double count = static_cast<double>(std::max<std::int64_t>(grid_h * grid_w, 1));
        samples.clear();
        for (std::int64_t ph = 0; ph < oh; ++ph)
          for (std::int64_t pw = 0; pw < ow; ++pw)
            for (std::int64_t iy = 0; iy < grid_h; ++iy)
              for (std::int64_t ix = 0; ix < grid_w; ++ix)
                samples.push_back(kernels::cpu::bilinear_sample(
                    y1 + static_cast<double>(ph) * bin_h +
                        (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h),
                    x1 + static_cast<double>(pw) * bin_w +
                        (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w),
                    h, w));
        for (std::int64_t ch = 0; ch < channels; ++ch) {
          const T* plane = xp + (bp[r] * channels + ch) * h * w;
          T* out = yp + (r * channels + ch) * oh * ow;
          const roi_sample* s = samples.data();
          for (std::int64_t bin = 0; bin < oh * ow; ++bin) {
            double acc = 0;
            for (std::int64_t k = 0; k < grid_h * grid_w; ++k, ++s) {
              if (max_mode) {
                double v = s->w[0] * static_cast<double>(load(plane[s->pos[0]]));
                for (int q = 1; q < 4; ++q) v = std::max(v, s->w[q] * static_cast<double>(load(plane[s->pos[q]])));
                acc = k == 0 ? v : std::max(acc, v);
              } else {
                for (int q = 0; q < 4; ++q) acc += s->w[q] * static_cast<double>(load(plane[s->pos[q]]));
              }
            }
            out[bin] = store<T>(max_mode ? acc : acc / count);
          }
        }
      }
    });
    return ok();
  }
};

}  // namespace onyx
