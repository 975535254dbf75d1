// kernel<ops::Slice, cpu>: a strided copy whose source strides are the
// input strides times the steps, starting at the resolved starts.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/slice.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status slice(const call<ops::Slice>& c) {
  const tensor& x = c.input(0);
  auto starts = int64s(c.input(1)), ends = int64s(c.input(2));
  std::optional<std::vector<std::int64_t>> axes, steps;
  if (c.has_input(3)) axes = int64s(c.input(3));
  if (c.has_input(4)) steps = int64s(c.input(4));
  if (starts.size() != ends.size()) return status(errc::invalid_argument, "starts and ends differ in length");
  std::vector<int> ax;
  std::vector<std::int64_t> st;
  ONYX_TRY(ops::slice_axes(x.rank(), starts.size(), axes, steps, ax, st));
  extents dims = x.shape();
  auto strides = strides_of(x.shape());
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    auto s = ops::resolve_slice(starts[i], ends[i], st[i], dims[ax[i]]);
    dims[ax[i]] = s.size;
    if (s.size > 0) offset += s.start * strides[ax[i]];
    strides[ax[i]] *= s.step;
  }
  tensor& y = output_sized(c, 0, x.type(), dims);
  strided_copy(x.data<E>() + offset, y.data<E>(), std::move(dims), std::move(strides), c.pool());
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Slice, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Slice>& c) {
    return kernels::cpu::slice<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
