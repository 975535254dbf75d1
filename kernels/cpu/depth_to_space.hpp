// kernel<ops::DepthToSpace, cpu>: the input viewed as [N, b, b, C', H, W]
// (DCR) or [N, C', b, b, H, W] (CRD), copied in the output's order
// [N, C', H, b, W, b] by strided_copy.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/depth_to_space.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status depth_to_space(const call<ops::DepthToSpace>& c) {
  const tensor& x = c.input(0);
  const std::int64_t b = c.attrs().blocksize, n = x.dim(0), h = x.dim(2), w = x.dim(3), cc = x.dim(1) / (b * b);
  const std::int64_t hw = h * w;
  std::int64_t s_c, s_b1, s_b2;
  if (c.attrs().mode == "DCR") s_b1 = b * cc * hw, s_b2 = cc * hw, s_c = hw;
  else s_c = b * b * hw, s_b1 = b * hw, s_b2 = hw;
  strided_copy(x.data<E>(), c.output(0).data<E>(), {n, cc, h, b, w, b}, {x.dim(1) * hw, s_c, w, s_b1, 1, s_b2},
               c.pool());
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::DepthToSpace, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::DepthToSpace>& c) {
    return kernels::cpu::depth_to_space<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
