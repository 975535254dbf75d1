// kernel<ops::AffineGrid, cpu>: each grid point is theta[n] times its
// homogeneous base coordinates, computed in double.
#pragma once

#include <array>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/affine_grid.hpp"

namespace onyx {

namespace kernels::cpu {
/// Base coordinate i of an axis of s points, in [-1, 1].
inline double affine_base(std::int64_t i, std::int64_t s, bool align_corners) {
  if (align_corners) return s > 1 ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(s - 1) : -1.0;
  return -1.0 + (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(s);
}
}  // namespace kernels::cpu

template <>
struct kernel<ops::AffineGrid, cpu> {
  static constexpr std::array types{ops::AffineGrid::T1};
  template <ops::signature S>
  static status run(const call<ops::AffineGrid>& c) {
    using T = storage_t<S[0]>;
    const tensor& theta = c.input(0);
    const auto size = kernels::cpu::int64s(c.input(1));
    if (size.size() != 4 && size.size() != 5)
      return status(errc::invalid_argument, "size must hold 4 or 5 values, not " + std::to_string(size.size()));
    const std::int64_t k = static_cast<std::int64_t>(size.size()) - 2;  // spatial axes
    const std::int64_t n = size[0];
    if (theta.rank() != 3 || theta.dim(0) != n || theta.dim(1) != k || theta.dim(2) != k + 1)
      return status(errc::invalid_argument, "theta " + sym_shape(theta.shape()).str() + " must be (" +
                                                std::to_string(n) + ", " + std::to_string(k) + ", " +
                                                std::to_string(k + 1) + ") for size of length " +
                                                std::to_string(size.size()));
    for (std::int64_t v : size)
      if (v < 0) return status(errc::invalid_argument, "size values must not be negative");
    // Spatial extents, outermost first: (D,) H, W. Coordinates run x (W), y (H), z (D).
    const std::int64_t d_ext = k == 3 ? size[2] : 1, h_ext = size[k == 3 ? 3 : 2], w_ext = size[k == 3 ? 4 : 3];
    extents shape{n};
    for (std::size_t i = 2; i < size.size(); ++i) shape.push_back(size[i]);
    shape.push_back(k);
    tensor& y = kernels::cpu::output_sized(c, 0, theta.type(), shape);
    const bool align = c.attrs().align_corners != 0;
    const T* tp = theta.data<T>();
    T* yp = y.data<T>();
    for (std::int64_t b = 0; b < n; ++b) {
      const T* m = tp + b * k * (k + 1);
      for (std::int64_t d = 0; d < d_ext; ++d)
        for (std::int64_t h = 0; h < h_ext; ++h)
          for (std::int64_t w = 0; w < w_ext; ++w) {
            std::array<double, 4> base{kernels::cpu::affine_base(w, w_ext, align),
                                       kernels::cpu::affine_base(h, h_ext, align), 1.0, 1.0};
            if (k == 3) base[2] = kernels::cpu::affine_base(d, d_ext, align);
            for (std::int64_t row = 0; row < k; ++row) {
              double v = 0;
              for (std::int64_t col = 0; col <= k; ++col)
                v += static_cast<double>(load(m[row * (k + 1) + col])) * base[static_cast<std::size_t>(col)];
              *yp++ = store<T>(v);
            }
          }
    }
    return ok();
  }
};

}  // namespace onyx
