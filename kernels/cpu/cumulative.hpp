// kernel<ops::CumSum, cpu>, kernel<ops::CumProd, cpu>: x viewed as
// [outer, n, inner] around the axis; each outer slab keeps a row of `inner`
// running totals and walks the axis forward or backward, so the inner loop is
// contiguous. Half types accumulate in float. Slabs split over the pool.
#pragma once

#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/cum_prod.hpp"
#include "onyx/ops/cum_sum.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T, bool Product>
status cumulative(const tensor& x, const tensor& axis_t, tensor& y, const ops::detail::cumulative_attributes& a,
                  const thread_pool* pool) {
  if (axis_t.size() != 1) return status(errc::invalid_argument, "axis must hold one value");
  std::int64_t axis_v = axis_t.type() == dtype::int64 ? axis_t.data<std::int64_t>()[0] : axis_t.data<std::int32_t>()[0];
  ONYX_ASSIGN(int axis, ops::normalize_axis(axis_v, x.rank()));
  std::int64_t outer = 1, inner = 1, n = x.dim(axis);
  for (int d = 0; d < axis; ++d) outer *= x.dim(d);
  for (std::size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
  using A = decltype(load(T{}));
  const T* xs = x.data<T>();
  T* ys = y.data<T>();
  const A identity = Product ? A{1} : A{0};
  parallel_for(pool, outer, grain_for(n * inner),  // an add per element
               [&](std::int64_t b, std::int64_t e) {
                 std::vector<A> acc(static_cast<std::size_t>(inner));
                 for (std::int64_t o = b; o < e; ++o) {
                   std::fill(acc.begin(), acc.end(), identity);
                   for (std::int64_t s = 0; s < n; ++s) {
                     std::int64_t k = a.reverse ? n - 1 - s : s;
                     const T* xr = xs + (o * n + k) * inner;
                     T* yr = ys + (o * n + k) * inner;
                     for (std::int64_t i = 0; i < inner; ++i) {
                       A v = load(xr[i]);
                       if (a.exclusive) yr[i] = store<T>(acc[i]);
                       acc[i] = Product ? static_cast<A>(acc[i] * v) : static_cast<A>(acc[i] + v);
                       if (!a.exclusive) yr[i] = store<T>(acc[i]);
                     }
                   }
                 }
               });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::CumSum, cpu> {
  static constexpr std::array types{ops::CumSum::T};
  template <ops::signature S> static status run(const call<ops::CumSum>& c) {
    return kernels::cpu::cumulative<storage_t<S[0]>, false>(c.input(0), c.input(1), c.output(0), c.attrs(), c.pool());
  }
};

template <> struct kernel<ops::CumProd, cpu> {
  static constexpr std::array types{ops::CumProd::T};
  template <ops::signature S> static status run(const call<ops::CumProd>& c) {
    return kernels::cpu::cumulative<storage_t<S[0]>, true>(c.input(0), c.input(1), c.output(0), c.attrs(), c.pool());
  }
};

}  // namespace onyx
