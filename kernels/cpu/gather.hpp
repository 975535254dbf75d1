// kernel<ops::Gather, cpu>: indices are validated in one pass (the first bad
// one is reported), then each (outer row, index) pair copies one contiguous
// block of `inner` elements; blocks are split over the pool.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/gather.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E, class I> status gather(const call<ops::Gather>& c) {
  const tensor &x = c.input(0), &idx = c.input(1);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  const std::int64_t n = x.dim(axis), k = idx.size();
  const std::int64_t outer = element_count(extents(x.shape().begin(), x.shape().begin() + axis));
  const std::int64_t inner = element_count(extents(x.shape().begin() + axis + 1, x.shape().end()));
  const I* ind = idx.data<I>();
  for (std::int64_t j = 0; j < k; ++j)
    if (ind[j] < -n || ind[j] >= n) return index_error("index", ind[j], j, idx.shape(), n);
  const E* src = x.data<E>();
  E* dst = c.output(0).data<E>();
  parallel_for(c.pool(), outer * k, grain_for(inner),  // copies inner elements
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t t = b; t < e; ++t) {
                   std::int64_t o = t / k, v = ind[t % k];
                   if (v < 0) v += n;
                   if (inner == 1)
                     dst[t] = src[o * n + v];
                   else
                     copy_n(src + (o * n + v) * inner, inner, dst + t * inner);
                 }
               });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Gather, cpu> {
  static constexpr std::array types{kernels::cpu::movable, dtypes::indices};
  template <ops::signature S> static status run(const call<ops::Gather>& c) {
    return kernels::cpu::gather<kernels::cpu::moved_t<S[0]>, storage_t<S[1]>>(c);
  }
};

}  // namespace onyx
