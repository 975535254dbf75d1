// kernel<ops::GatherElements, cpu>: one validating pass over the indices,
// then each chunk of output positions keeps an odometer over the indices'
// shape and reads data at the odometer's offset with the axis coordinate
// replaced.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/gather_elements.hpp"

namespace onyx {

namespace kernels::cpu {
/// Fails unless every dim of `idx` except `axis` fits inside `x`'s.
inline status check_index_extents(const extents& x, const extents& idx, int axis, std::string_view what) {
  for (std::size_t k = 0; k < x.size(); ++k)
    if (static_cast<int>(k) != axis && idx[k] > x[k])
      return status(errc::invalid_argument, std::string(what) + " shape " + to_string(idx) + " exceeds data shape " +
                                                to_string(x) + " in dim " + std::to_string(k));
  return ok();
}

template <class E, class I> status gather_elements(const call<ops::GatherElements>& c) {
  const tensor &x = c.input(0), &idx = c.input(1);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  ONYX_TRY(check_index_extents(x.shape(), idx.shape(), axis, "indices"));
  const std::int64_t n = x.dim(axis);
  const I* ind = idx.data<I>();
  for (std::int64_t p = 0; p < idx.size(); ++p)
    if (ind[p] < -n || ind[p] >= n) return index_error("index", ind[p], p, idx.shape(), n);
  const auto xs = strides_of(x.shape());
  const extents& shape = idx.shape();
  const std::size_t r = shape.size();
  const E* src = x.data<E>();
  E* dst = c.output(0).data<E>();
  // An element: an odometer step and a gathered load, about 8 units.
  parallel_for(c.pool(), idx.size(), grain_for(8), [&](std::int64_t b, std::int64_t e) {
    std::vector<std::int64_t> coord(r);
    std::int64_t rest = b, off = 0;  // off: offset without the axis term
    for (std::size_t k = r; k-- > 0;) {
      coord[k] = rest % shape[k];
      rest /= shape[k];
      if (static_cast<int>(k) != axis) off += coord[k] * xs[k];
    }
    for (std::int64_t p = b; p < e; ++p) {
      std::int64_t v = ind[p];
      dst[p] = src[off + (v < 0 ? v + n : v) * xs[axis]];
      for (std::size_t k = r; k-- > 0;) {
        const std::int64_t step = static_cast<int>(k) == axis ? 0 : xs[k];
        off += step;
        if (++coord[k] < shape[k]) break;
        off -= coord[k] * step;
        coord[k] = 0;
      }
    }
  });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::GatherElements, cpu> {
  static constexpr std::array types{kernels::cpu::movable, dtypes::indices};
  template <ops::signature S> static status run(const call<ops::GatherElements>& c) {
    return kernels::cpu::gather_elements<kernels::cpu::moved_t<S[0]>, storage_t<S[1]>>(c);
  }
};

}  // namespace onyx
