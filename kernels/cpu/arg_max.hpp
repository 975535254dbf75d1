// kernel<ops::ArgMax, cpu> and kernel<ops::ArgMin, cpu>: the input as
// (outer, n, inner); for each outer row a vector of `inner` running bests
// walks the n rows, so the inner loop is unit-stride. NaN counts as the
// extreme (the first NaN wins, as numpy's argmax).
#pragma once

#include "kernels/cpu/reduce.hpp"
#include "onyx/ops/arg_max.hpp"

namespace onyx::kernels::cpu {

template <bool Max, class T, class Op> status arg_reduce(const call<Op>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  const std::int64_t n = x.dim(axis);
  const std::int64_t outer = element_count(extents(x.shape().begin(), x.shape().begin() + axis));
  const std::int64_t inner = element_count(extents(x.shape().begin() + axis + 1, x.shape().end()));
  const bool last = c.attrs().select_last_index != 0;
  const T* src = x.data<T>();
  std::int64_t* dst = c.output(0).template data<std::int64_t>();
  parallel_for(c.pool(), outer, grain_for(n * inner),  // n compares per output
               [&](std::int64_t b, std::int64_t e) {
                 using A = decltype(load(T{}));
                 std::vector<A> best(static_cast<std::size_t>(inner));
                 for (std::int64_t o = b; o < e; ++o) {
                   const T* s = src + o * n * inner;
                   std::int64_t* d = dst + o * inner;
                   for (std::int64_t j = 0; j < inner; ++j) best[j] = load(s[j]), d[j] = 0;
                   for (std::int64_t i = 1; i < n; ++i)
                     for (std::int64_t j = 0; j < inner; ++j) {
                       A v = load(s[i * inner + j]), cur = best[j];
                       if (is_nan(cur)) continue;  // a NaN already won
                       bool better = is_nan(v) || (Max ? (last ? v >= cur : v > cur) : (last ? v <= cur : v < cur));
                       if (better) best[j] = v, d[j] = i;
                     }
                 }
               });
  return ok();
}

}  // namespace onyx::kernels::cpu

namespace onyx {

template <> struct kernel<ops::ArgMax, cpu> {
  static constexpr std::array types{ops::ArgMax::T};
  template <ops::signature S> static status run(const call<ops::ArgMax>& c) {
    return kernels::cpu::arg_reduce<true, storage_t<S[0]>>(c);
  }
};
template <> struct kernel<ops::ArgMin, cpu> {
  static constexpr std::array types{ops::ArgMin::T};
  template <ops::signature S> static status run(const call<ops::ArgMin>& c) {
    return kernels::cpu::arg_reduce<false, storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
