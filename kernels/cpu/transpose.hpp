// kernel<ops::Transpose, cpu>: a strided copy whose source strides are the
// input's strides permuted (see strided_copy for the tiled 2-D path).
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/transpose.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status transpose(const call<ops::Transpose>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(auto perm, ops::Transpose::permutation(c.attrs(), x.rank()));
  auto xs = strides_of(x.shape());
  extents dims;
  std::vector<std::int64_t> strides;
  for (int p : perm) {
    dims.push_back(x.dim(p));
    strides.push_back(xs[p]);
  }
  strided_copy(x.data<E>(), c.output(0).data<E>(), std::move(dims), std::move(strides), c.pool());
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Transpose, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Transpose>& c) {
    return kernels::cpu::transpose<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
