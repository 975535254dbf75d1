// kernel<ops::Compress, cpu>: x viewed as [outer, n, inner] around the axis
// (no axis: [1, size, 1]); the selected rows of `inner` elements are copied,
// per element width.
#pragma once

#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/compress.hpp"

namespace onyx {

namespace kernels::cpu {

template <class E> status compress(const call<ops::Compress>& c) {
  const tensor& x = c.input(0);
  const tensor& cond = c.input(1);
  const bool* keep = cond.data<bool>();
  std::int64_t outer = 1, n = x.size(), inner = 1;
  int axis = -1;
  if (c.attrs().axis) {
    ONYX_ASSIGN(axis, ops::normalize_axis(*c.attrs().axis, x.rank()));
    n = x.dim(axis);
    for (int d = 0; d < axis; ++d) outer *= x.dim(d);
    for (std::size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
  }
  std::vector<std::int64_t> rows;
  for (std::int64_t k = 0; k < cond.size(); ++k) {
    if (!keep[k]) continue;
    if (k >= n)
      return status(errc::out_of_range, "condition[" + std::to_string(k) + "] is true but the axis has only " +
                                            std::to_string(n) + " entries");
    rows.push_back(k);
  }
  extents shape{static_cast<std::int64_t>(rows.size())};
  if (axis >= 0) {
    shape = x.shape();
    shape[axis] = static_cast<std::int64_t>(rows.size());
  }
  tensor& y = c.allocate_output(0, x.type(), shape);
  const E* xs = x.data<E>();
  E* ys = y.data<E>();
  const auto m = static_cast<std::int64_t>(rows.size());
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t r = 0; r < m; ++r) copy_n(xs + (o * n + rows[r]) * inner, inner, ys + (o * m + r) * inner);
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Compress, cpu> {
  static constexpr std::array types{ops::Compress::T};
  template <ops::signature S> static status run(const call<ops::Compress>& c) {
    return kernels::cpu::compress<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
