// kernels/cpu/rms_normalization.hpp: RMSNormalization (23+).
//
// X is viewed as rows of len = prod(X.shape[axis:]); each row's mean square
// is summed in double, then y = x * inv_rms * scale[j] with scale expanded
// once to len values (broadcast right-aligned). Rows are split over the pool.
#pragma once

#include <cmath>
#include <vector>

#include "onyx/ops/rms_normalization.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::rms_detail {

/// Scale broadcast to `len` values of the normalized block.
template <class T> std::vector<double> expand_scale(const tensor& s, std::span<const std::int64_t> block) {
  const std::int64_t len = element_count(block);
  std::vector<double> out(static_cast<std::size_t>(len));
  const std::size_t r = block.size(), off = r - s.rank();
  const T* p = s.data<T>();
  for (std::int64_t j = 0; j < len; ++j) {
    std::int64_t rem = j, k = 0, mul = 1;
    for (std::size_t d = r; d-- > 0;) {
      const std::int64_t i = rem % block[d];
      rem /= block[d];
      if (d >= off) {
        const std::int64_t e = s.dim(d - off);
        k += (e == 1 ? 0 : i) * mul;
        mul *= e;
      }
    }
    out[static_cast<std::size_t>(j)] = static_cast<double>(load(p[k]));
  }
  return out;
}

template <class T> status rms_norm(const call<ops::RMSNormalization>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  std::span<const std::int64_t> block(x.shape().data() + axis, x.rank() - axis);
  const tensor& s = c.input(1);
  if (s.rank() > block.size())
    return status(errc::invalid_argument, "RMSNormalization: scale " + to_string(s.shape()) +
                                              " has more dims than the normalized shape " + to_string(block));
  for (std::size_t d = 0; d < s.rank(); ++d) {
    const std::int64_t e = s.dim(d), want = block[block.size() - s.rank() + d];
    if (e != 1 && e != want)
      return status(errc::invalid_argument, "RMSNormalization: scale " + to_string(s.shape()) +
                                                " does not broadcast to " + to_string(block));
  }
  const std::int64_t len = element_count(block), rows = len ? x.size() / len : 0;
  const auto scale = expand_scale<T>(s, block);
  const double eps = c.attrs().epsilon;
  const T* xp = x.data<T>();
  T* yp = c.output(0).data<T>();
  parallel_for(c.pool(), rows, grain_for(2 * len),  // sum of squares, write
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t r = b; r < e; ++r) {
                   const T* xr = xp + r * len;
                   T* yr = yp + r * len;
                   double sq = 0;
                   for (std::int64_t j = 0; j < len; ++j) {
                     const double v = static_cast<double>(load(xr[j]));
                     sq += v * v;
                   }
                   const double inv = 1.0 / std::sqrt(sq / static_cast<double>(len) + eps);
                   for (std::int64_t j = 0; j < len; ++j)
                     yr[j] = store<T>(static_cast<double>(load(xr[j])) * inv * scale[static_cast<std::size_t>(j)]);
                 }
               });
  return ok();
}

}  // namespace onyx::kernels::cpu::rms_detail

namespace onyx {

template <> struct kernel<ops::RMSNormalization, cpu> {
  static constexpr std::array types{dtypes::floats};
  template <ops::signature S> static status run(const call<ops::RMSNormalization>& c) {
    return kernels::cpu::rms_detail::rms_norm<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
