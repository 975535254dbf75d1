// kernel<ops::Concat, cpu>: for each of the `outer` rows (dims before the
// axis) the inputs' contiguous blocks are copied one after another.
//
// With one row (every dim before the axis is 1: NCHW channels at batch 1)
// each input is one contiguous block of the output. The plan step says where
// (planned::inputs_in_output), so the memory planner can have each input's
// producer write straight into its block; the copy of an input already in
// place is skipped, and such a Concat costs nothing.
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
                     if (src[i] + o * block[i] != d) copy_n(src[i] + o * block[i], block[i], d);
                     d += block[i];
                   }
                 }
               });
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Concat, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  struct no_plan {};
  template <ops::signature S> static result<planned<no_plan>> plan(const plan_info<ops::Concat>& p) {
    using E = kernels::cpu::moved_t<S[0]>;
    planned<no_plan> r;
    if (p.input_count() == 0 || p.input(0).kind != value_kind::tensor) return r;
    const extents first = p.input_shape(0);
    ONYX_ASSIGN(int axis, ops::normalize_axis(p.attrs().axis, static_cast<int>(first.size())));
    for (int d = 0; d < axis; ++d)
      if (first[d] != 1) return r;  // more than one row: inputs interleave in the output
    std::int64_t at = 0;
    for (int i = 0; i < p.input_count(); ++i) {
      r.inputs_in_output.push_back(at);
      at += element_count(p.input_shape(i)) * static_cast<std::int64_t>(sizeof(E));
    }
    return r;
  }
  template <ops::signature S> static status run(const call<ops::Concat>& c) {
    return kernels::cpu::concat<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
