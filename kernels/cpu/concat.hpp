// kernel<ops::Concat, cpu>: for each of the `outer` rows (dims before the
// axis) the inputs' contiguous blocks are copied one after another.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/concat.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status concat(const call<ops::Concat>& c) {
  tensor& y = c.output(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, y.rank()));
  const std::int64_t outer = element_count(extents(y.shape().begin(), y.shape().begin() + axis));
  const std::int64_t inner = element_count(extents(y.shape().begin() + axis + 1, y.shape().end()));
  std::vector<const E*> src;
  std::vector<std::int64_t> block;
  for (int i = 0; i < c.input_count(); ++i) {
    src.push_back(c.input(i).data<E>());
    block.push_back(c.input(i).shape()[axis] * inner);
  }
  const std::int64_t row = y.shape()[axis] * inner;
  E* dst = y.data<E>();
  parallel_for(c.pool(), outer, grain_for(row),  // copies a row
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t o = b; o < e; ++o) {
                   E* d = dst + o * row;
                   for (std::size_t i = 0; i < src.size(); ++i) {
                     copy_n(src[i] + o * block[i], block[i], d);
                     d += block[i];
                   }
                 }
               });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Concat, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Concat>& c) {
    return kernels::cpu::concat<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
