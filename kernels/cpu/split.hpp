// kernel<ops::Split, cpu>: for each of the `outer` rows (dims before the
// axis) each output takes its contiguous block, in order.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/split.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status split(const call<ops::Split>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  std::optional<std::vector<std::int64_t>> given;
  if (c.has_input(1)) given = int64s(c.input(1));
  ONYX_ASSIGN(auto sizes, ops::Split::sizes(c.attrs(), given, x.dim(axis), c.output_count()));
  const std::int64_t outer = element_count(extents(x.shape().begin(), x.shape().begin() + axis));
  const std::int64_t inner = element_count(extents(x.shape().begin() + axis + 1, x.shape().end()));
  const std::int64_t row = x.dim(axis) * inner;
  const E* src = x.data<E>();
  std::int64_t at = 0;
  for (int i = 0; i < c.output_count(); ++i) {
    extents shape = x.shape();
    shape[axis] = sizes[i];
    E* dst = output_sized(c, i, x.type(), shape).template data<E>();
    const std::int64_t block = sizes[i] * inner;
    parallel_for(c.pool(), outer, std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(block, 1)),
                 [&](std::int64_t b, std::int64_t e) {
                   for (std::int64_t o = b; o < e; ++o) copy_n(src + o * row + at, block, dst + o * block);
                 });
    at += block;
  }
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Split, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Split>& c) {
    return kernels::cpu::split<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
