// kernel<ops::GatherND, cpu>: each index row becomes one data offset (its
// batch's base plus index * stride per addressed dim), validated as it is
// read; then each row copies one contiguous slice.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/gather_nd.hpp"

namespace onyx {

namespace kernels::cpu {
/// Data offsets of the index rows of `idx` (int64, last dim k) into `x`,
/// after `b` batch dims; errc::out_of_range names the first bad index.
inline result<std::vector<std::int64_t>> index_rows(const tensor& x, const tensor& idx, std::size_t b) {
  const auto k = static_cast<std::size_t>(idx.shape().back());
  const std::int64_t rows = k ? idx.size() / static_cast<std::int64_t>(k) : 0;
  const std::int64_t per_batch = element_count(extents(idx.shape().begin() + b, idx.shape().end() - 1));
  const std::int64_t batch_stride = element_count(extents(x.shape().begin() + b, x.shape().end()));
  const auto xs = strides_of(x.shape());
  const std::int64_t* ind = idx.data<std::int64_t>();
  std::vector<std::int64_t> off(static_cast<std::size_t>(rows));
  for (std::int64_t t = 0; t < rows; ++t) {
    std::int64_t o = per_batch ? t / per_batch * batch_stride : 0;
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t n = x.dim(b + j), v = ind[t * static_cast<std::int64_t>(k) + j];
      if (v < -n || v >= n) return index_error("index", v, t * static_cast<std::int64_t>(k) + j, idx.shape(), n);
      o += (v < 0 ? v + n : v) * xs[b + j];
    }
    off[t] = o;
  }
  return off;
}

template <class E> status gather_nd(const call<ops::GatherND>& c) {
  const tensor &x = c.input(0), &idx = c.input(1);
  const auto b = static_cast<std::size_t>(c.attrs().batch_dims);
  for (std::size_t d = 0; d < b; ++d)
    if (x.dim(d) != idx.dim(d))
      return status(errc::invalid_argument, "batch dim " + std::to_string(d) + " differs: data " + to_string(x.shape()) +
                                                ", indices " + to_string(idx.shape()));
  ONYX_ASSIGN(auto off, index_rows(x, idx, b));
  const auto k = static_cast<std::size_t>(idx.shape().back());
  const std::int64_t slice = element_count(extents(x.shape().begin() + static_cast<std::ptrdiff_t>(b + k), x.shape().end()));
  const E* src = x.data<E>();
  E* dst = c.output(0).data<E>();
  parallel_for(c.pool(), static_cast<std::int64_t>(off.size()), grain_for(slice),  // copies a slice
               [&](std::int64_t lo, std::int64_t hi) {
                 for (std::int64_t t = lo; t < hi; ++t) copy_n(src + off[t], slice, dst + t * slice);
               });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::GatherND, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::GatherND>& c) {
    return kernels::cpu::gather_nd<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
