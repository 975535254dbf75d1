// kernel<ops::ScatterElements, cpu>: the output starts as a copy of data;
// updates are applied one by one in row-major order of indices (sequential:
// repeated indices must combine in order).
#pragma once

#include "kernels/cpu/gather_elements.hpp"
#include "kernels/cpu/scatter.hpp"
#include "onyx/ops/scatter_elements.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E, class I, class Combine> status scatter_elements(const call<ops::ScatterElements>& c, Combine combine) {
  const tensor &x = c.input(0), &idx = c.input(1), &upd = c.input(2);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  ONYX_TRY(check_index_extents(x.shape(), idx.shape(), axis, "indices"));
  if (upd.shape() != idx.shape())
    return status(errc::invalid_argument, "updates shape " + to_string(upd.shape()) + " differs from indices shape " +
                                              to_string(idx.shape()));
  tensor& y = c.output(0);
  if (y.raw() != x.raw()) copy_n(x.data<E>(), x.size(), y.data<E>());
  const std::int64_t n = x.dim(axis);
  const auto xs = strides_of(x.shape());
  const extents& shape = idx.shape();
  const I* ind = idx.data<I>();
  const E* u = upd.data<E>();
  E* d = y.data<E>();
  std::vector<std::int64_t> coord(shape.size(), 0);
  for (std::int64_t p = 0; p < idx.size(); ++p) {
    const std::int64_t v = ind[p];
    if (v < -n || v >= n) return index_error("index", v, p, shape, n);
    std::int64_t off = 0;
    for (std::size_t k = 0; k < shape.size(); ++k)
      off += (static_cast<int>(k) == axis ? (v < 0 ? v + n : v) : coord[k]) * xs[k];
    combine(d[off], u[p]);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++coord[k] < shape[k]) break;
      coord[k] = 0;
    }
  }
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::ScatterElements, cpu> {
  static constexpr std::array types{kernels::cpu::movable, dtypes::indices};
  template <ops::signature S> static status run(const call<ops::ScatterElements>& c) {
    return kernels::cpu::dispatch_scatter<S[0]>(c.attrs().reduction, [&]<class E>(auto combine) {
      return kernels::cpu::scatter_elements<E, storage_t<S[1]>>(c, combine);
    });
  }
};

}  // namespace onyx
