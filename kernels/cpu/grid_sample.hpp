// kernel<ops::GridSample, cpu>: per output point, the r source coordinates
// are denormalized and border-adjusted once, then the t^r taps (t = 1, 2 or 4)
// of the separable kernel are summed for every channel. (n, point) pairs
// split over the pool; X is read in double.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/cast.hpp"
#include "onyx/ops/grid_sample.hpp"

namespace onyx {

namespace kernels::cpu {

/// Mirrors x into [lo, hi] (the reference's repeated reflection).
inline double grid_reflect(double x, double lo, double hi) {
  double range = hi - lo;
  if (x < lo) {
    double d = lo - x;
    auto n = static_cast<std::int64_t>(d / range);
    double r = d - static_cast<double>(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    double d = x - hi;
    auto n = static_cast<std::int64_t>(d / range);
    double r = d - static_cast<double>(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

inline void cubic_weights(double t, double w[4]) {
  constexpr double a = -0.75;
  auto far = [](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };    // 1 <= |x| < 2
  auto near = [](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };          // |x| < 1
  w[0] = far(t + 1), w[1] = near(t), w[2] = near(1 - t), w[3] = far(2 - t);
}

template <class T> status grid_sample(const call<ops::GridSample>& c) {
  const auto& a = c.attrs();
  const tensor& x = c.input(0);
  const tensor& grid = c.input(1);
  tensor& y = c.output(0);
  const std::size_t r = x.rank() - 2;
  const std::int64_t n = x.dim(0), ch = x.dim(1);
  if (grid.rank() != x.rank() || grid.dim(0) != n || grid.dim(grid.rank() - 1) != static_cast<std::int64_t>(r))
    return status(errc::invalid_argument, "grid " + sym_shape(grid.shape()).str() + " does not fit X " +
                                              sym_shape(x.shape()).str());
  const bool nearest = a.mode == "nearest", cubic = a.mode == "cubic" || a.mode == "bicubic";
  const int taps = nearest ? 1 : cubic ? 4 : 2;
  enum { zeros, border, reflection } pad = a.padding_mode == "border" ? border
                                          : a.padding_mode == "reflection" ? reflection
                                                                          : zeros;
  std::vector<std::int64_t> dims(x.shape().begin() + 2, x.shape().end());
  std::vector<double> lo(r), hi(r);
  std::int64_t plane = 1;
  for (std::size_t i = 0; i < r; ++i) {
    lo[i] = a.align_corners ? 0.0 : -0.5;
    hi[i] = a.align_corners ? double(dims[i] - 1) : double(dims[i]) - 0.5;
    plane *= dims[i];
  }
  std::int64_t combos = 1;
  for (std::size_t i = 0; i < r; ++i) combos *= taps;
  const std::int64_t points = grid.size() / (n * static_cast<std::int64_t>(r));
  std::vector<double> g = decode_all(grid);
  const T* xs = x.data<T>();
  T* ys = y.data<T>();
  // A point: ch * combos taps, about 4 units each (bounds test, load, double FMA).
  parallel_for(c.pool(), n * points, grain_for(4 * ch * combos), [&](std::int64_t first, std::int64_t last) {
    std::vector<double> w(r * 4);
    std::vector<std::int64_t> idx(r * 4);
    std::vector<bool> valid(r * 4);
    for (std::int64_t q = first; q < last; ++q) {
      const std::int64_t b = q / points, p = q % points;
      for (std::size_t i = 0; i < r; ++i) {
        double v = g[q * r + (r - 1 - i)];  // the grid lists the last axis first
        double len = static_cast<double>(dims[i]);
        v = a.align_corners ? (v + 1) / 2 * (len - 1) : ((v + 1) * len - 1) / 2;
        if (nearest) v = std::nearbyint(v);
        if (v < lo[i] || v > hi[i]) {
          if (pad == border) v = std::clamp(v, 0.0, len - 1);
          else if (pad == reflection) v = grid_reflect(v, lo[i], hi[i]);
        }
        double base = nearest ? std::trunc(v) : std::floor(v), t = v - base;
        double wt[4] = {1, 0, 0, 0};
        if (cubic) cubic_weights(t, wt);
        else if (!nearest) wt[0] = 1 - t, wt[1] = t;
        for (int k = 0; k < taps; ++k) {
          auto at = static_cast<std::int64_t>(base) + k - (cubic ? 1 : 0);
          bool ok = true;
          if (pad == border) at = std::clamp<std::int64_t>(at, 0, dims[i] - 1);
          else if (pad == reflection) at = static_cast<std::int64_t>(grid_reflect(double(at), lo[i], hi[i]));
          else ok = at >= 0 && at < dims[i];
          w[i * 4 + k] = wt[k], idx[i * 4 + k] = at, valid[i * 4 + k] = ok && at >= 0 && at < dims[i];
        }
      }
      for (std::int64_t cc = 0; cc < ch; ++cc) {
        const T* xp = xs + (b * ch + cc) * plane;
        double sum = 0;
        for (std::int64_t combo = 0; combo < combos; ++combo) {
          double weight = 1;
          std::int64_t off = 0;
          bool inside = true;
          for (std::size_t i = 0, rem = combo; i < r; ++i) {
            std::size_t k = rem % taps;
            rem /= taps;
            weight *= w[i * 4 + k];
            inside = inside && valid[i * 4 + k];
            off = off * dims[i] + idx[i * 4 + k];
          }
          if (inside && weight != 0) sum += weight * static_cast<double>(load(xp[off]));
        }
        ys[(b * ch + cc) * points + p] = store<T>(sum);
      }
    }
  });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::GridSample, cpu> {
  static constexpr std::array types{ops::GridSample::T1};
  template <ops::signature S> static status run(const call<ops::GridSample>& c) {
    return kernels::cpu::grid_sample<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
