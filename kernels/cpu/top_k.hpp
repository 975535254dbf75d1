// kernel<ops::TopK, cpu>: per line along the axis, a partial sort of the
// indices by (value, then lower index) picks and orders the k winners:
// O(n log k) per line. Lines are split over the pool.
#pragma once

#include <numeric>

#include "kernels/cpu/data_movement.hpp"
#include "kernels/cpu/reduce.hpp"
#include "onyx/ops/top_k.hpp"

namespace onyx {

namespace kernels::cpu {
template <class T> status top_k(const call<ops::TopK>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  const auto kv = int64s(c.input(1));
  const std::int64_t n = x.dim(axis), k = kv.empty() ? -1 : kv[0];
  if (k < 0 || k > n)
    return status(errc::invalid_argument, "K = " + std::to_string(k) + " is outside [0, " + std::to_string(n) + "]");
  extents shape = x.shape();
  shape[axis] = k;
  T* vals = output_sized(c, 0, x.type(), shape).template data<T>();
  std::int64_t* inds = output_sized(c, 1, dtype::int64, shape).template data<std::int64_t>();
  const std::int64_t outer = element_count(extents(x.shape().begin(), x.shape().begin() + axis));
  const std::int64_t inner = element_count(extents(x.shape().begin() + axis + 1, x.shape().end()));
  const bool largest = c.attrs().largest != 0;
  const T* src = x.data<T>();
  parallel_for(c.pool(), outer * inner, std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(n, 1)),
               [&](std::int64_t b, std::int64_t e) {
                 using A = decltype(load(T{}));
                 std::vector<std::int64_t> order(static_cast<std::size_t>(n));
                 std::vector<A> line(static_cast<std::size_t>(n));
                 for (std::int64_t t = b; t < e; ++t) {
                   const std::int64_t o = t / inner, j = t % inner;
                   const T* s = src + o * n * inner + j;
                   for (std::int64_t i = 0; i < n; ++i) line[i] = load(s[i * inner]);
                   std::iota(order.begin(), order.end(), std::int64_t{0});
                   auto before = [&](std::int64_t p, std::int64_t q) {
                     A a = line[p], z = line[q];
                     bool an = is_nan(a), zn = is_nan(z);
                     if (an || zn) return an != zn ? (largest ? an : zn) : p < q;  // NaN is the largest
                     if (a != z) return largest ? a > z : a < z;
                     return p < q;
                   };
                   std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
                   const std::int64_t base = o * k * inner + j;
                   for (std::int64_t i = 0; i < k; ++i) {
                     vals[base + i * inner] = s[order[i] * inner];
                     inds[base + i * inner] = order[i];
                   }
                 }
               });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::TopK, cpu> {
  static constexpr std::array types{ops::TopK::T};
  template <ops::signature S> static status run(const call<ops::TopK>& c) {
    return kernels::cpu::top_k<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
