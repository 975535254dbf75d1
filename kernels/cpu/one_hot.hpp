// kernel<ops::OneHot, cpu>: fill with off, then set on at each in-range
// index; the output is [outer, depth, inner] around the new axis.
#pragma once

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/one_hot.hpp"

namespace onyx {

namespace kernels::cpu {
template <class E> status one_hot(const call<ops::OneHot>& c) {
  const tensor &idx = c.input(0), &values = c.input(2);
  if (values.size() != 2) return status(errc::invalid_argument, "values must hold [off, on]");
  if (c.input(1).size() != 1) return status(errc::invalid_argument, "depth must hold one value");
  const auto depth = static_cast<std::int64_t>(number_at(c.input(1), 0));
  if (depth < 1) return status(errc::invalid_argument, "depth must be positive, not " + std::to_string(depth));
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, idx.rank() + 1));
  extents shape = idx.shape();
  shape.insert(shape.begin() + axis, depth);
  E* d = output_sized(c, 0, values.type(), shape).template data<E>();
  const E off = values.data<E>()[0], on = values.data<E>()[1];
  const std::int64_t outer = element_count(extents(idx.shape().begin(), idx.shape().begin() + axis));
  const std::int64_t inner = element_count(extents(idx.shape().begin() + axis, idx.shape().end()));
  std::fill_n(d, outer * depth * inner, off);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      auto v = static_cast<std::int64_t>(number_at(idx, o * inner + i));
      if (v < -depth || v >= depth) continue;  // all off, as the spec says
      d[(o * depth + (v < 0 ? v + depth : v)) * inner + i] = on;
    }
  return ok();
}
}  // namespace kernels::cpu

template <> struct kernel<ops::OneHot, cpu> {
  static constexpr std::array types{kernels::cpu::movable};
  template <ops::signature S> static status run(const call<ops::OneHot>& c) {
    return kernels::cpu::one_hot<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
