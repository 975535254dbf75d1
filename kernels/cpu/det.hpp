// kernel<ops::Det, cpu>: per matrix, Gaussian elimination with partial
// pivoting in double; det = sign of the row swaps * product of the pivots.
// A zero pivot column gives 0. Matrices are split over the pool.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "onyx/ops/det.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

namespace kernels::cpu {
/// The determinant of the n x n matrix `a` (row-major), which it overwrites.
inline double determinant(double* a, std::int64_t n) {
  double det = 1;
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t pivot = k;
    for (std::int64_t i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[pivot * n + k])) pivot = i;
    if (a[pivot * n + k] == 0) return 0;
    if (pivot != k) {
      for (std::int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[pivot * n + j]);
      det = -det;
    }
    det *= a[k * n + k];
    for (std::int64_t i = k + 1; i < n; ++i) {
      const double f = a[i * n + k] / a[k * n + k];
      for (std::int64_t j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
    }
  }
  return det;
}
}  // namespace kernels::cpu

template <>
struct kernel<ops::Det, cpu> {
  static constexpr std::array types{ops::Det::T};
  template <ops::signature S>
  static status run(const call<ops::Det>& c) {
    using T = storage_t<S[0]>;
    const tensor& x = c.input(0);
    const std::int64_t n = x.dim(x.rank() - 1);
    if (x.dim(x.rank() - 2) != n)
      return status(errc::invalid_argument, "X must hold square matrices, not " + sym_shape(x.shape()).str());
    const std::int64_t matrices = c.output(0).size();
    const T* xp = x.data<T>();
    T* yp = c.output(0).template data<T>();
    parallel_for(c.pool(), matrices, 1, [&](std::int64_t b, std::int64_t e) {
      std::vector<double> a(static_cast<std::size_t>(n * n));
      for (std::int64_t m = b; m < e; ++m) {
        for (std::int64_t i = 0; i < n * n; ++i) a[i] = static_cast<double>(load(xp[m * n * n + i]));
        yp[m] = store<T>(kernels::cpu::determinant(a.data(), n));
      }
    });
    return ok();
  }
};

}  // namespace onyx
