// kernel<ops::SpaceToDepth, cpu>: the input viewed as [N, C, H', b, W', b],
// copied in the output's order [N, b, b, C, H', W'] by strided_copy.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/space_to_depth.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status space_to_depth(const call<ops::SpaceToDepth>& c) {
  const tensor& x = c.input(0);
  const std::int64_t b = c.attrs().blocksize, n = x.dim(0), ch = x.dim(1), h = x.dim(2), w = x.dim(3);
  strided_copy(x.data<E>(), c.output(0).data<E>(), {n, b, b, ch, h / b, w / b}, {ch * h * w, w, 1, h * w, b * w, b},
               c.pool());
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::SpaceToDepth, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::SpaceToDepth>& c) {
    return kernels::cpu::space_to_depth<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
