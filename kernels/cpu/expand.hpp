// kernel<ops::Expand, cpu>: a strided copy with stride 0 on the dims the
// input broadcasts (its missing leading dims and its 1s).
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/expand.hpp"

namespace onyx {

namespace kernels::cpu {
/// Strides of `from` read as a tensor of shape `to` under broadcasting.
inline std::vector<std::int64_t> broadcast_strides(const extents& from, const extents& to) {
  auto s = strides_of(from);
  std::vector<std::int64_t> out(to.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) {
    std::size_t j = to.size() - from.size() + i;
    out[j] = from[i] == 1 ? 0 : s[i];
  }
  return out;
}

template <class E> status expand(const call<ops::Expand>& c) {
  const tensor& x = c.input(0);
  tensor& y = c.output(0);
  strided_copy(x.data<E>(), y.data<E>(), y.shape(), broadcast_strides(x.shape(), y.shape()), c.pool());
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::Expand, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::Expand>& c) {
    return kernels::cpu::expand<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
