// kernel<ops::Tile, cpu>: output index t*d + i along a dim is the row-major
// flattening of (t, i), so the output is a strided copy over
// [r0, d0, r1, d1, ...] with strides [0, s0, 0, s1, ...].
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/tile.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status tile(const call<ops::Tile>& c) {
  const tensor& x = c.input(0);
  auto repeats = int64s(c.input(1));
  if (repeats.size() != x.rank()) return status(errc::invalid_argument, "repeats length differs from the input rank");
  auto xs = strides_of(x.shape());
  extents dims;
  std::vector<std::int64_t> strides;
  for (std::size_t k = 0; k < x.rank(); ++k) {
    dims.insert(dims.end(), {repeats[k], x.dim(k)});
    strides.insert(strides.end(), {0, xs[k]});
  }
  strided_copy(x.data<E>(), c.output(0).data<E>(), std::move(dims), std::move(strides), c.pool());
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Tile, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Tile>& c) {
    return kernels::cpu::tile<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
