// kernel<ops::CenterCropPad, cpu>: output element i reads input element
// i + shift per axis (shift = (in - out) / 2 for a crop, -((out - in) / 2)
// for a pad) or is zero outside the input; per element width, rows of the
// last axis walked with one odometer over the others.
#pragma once

#include <vector>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/center_crop_pad.hpp"

namespace onyx {

namespace kernels::cpu {

template <class E> status center_crop_pad(const call<ops::CenterCropPad>& c) {
  const tensor& x = c.input(0);
  const tensor& s = c.input(1);
  std::vector<std::int64_t> target(static_cast<std::size_t>(s.size()));
  for (std::size_t i = 0; i < target.size(); ++i)
    target[i] = s.type() == dtype::int64 ? s.data<std::int64_t>()[i] : s.data<std::int32_t>()[i];
  ONYX_ASSIGN(auto axes, ops::CenterCropPad::target_axes(c.attrs(), x.rank(), target.size()));
  extents out = x.shape();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (target[i] < 0) return status(errc::invalid_argument, "shape value " + std::to_string(target[i]) + " is negative");
    out[axes[i]] = target[i];
  }
  tensor& y = c.allocate_output(0, x.type(), out);
  const std::size_t r = x.rank();
  std::vector<std::int64_t> shift(r), in_strides = strides_of(x.shape());
  for (std::size_t d = 0; d < r; ++d) {
    std::int64_t in = x.dim(d), o = out[d];
    shift[d] = in >= o ? (in - o) / 2 : -((o - in) / 2);
  }
  const E* xs = x.data<E>();
  E* ys = y.data<E>();
  std::fill_n(ys, y.size(), E{});
  if (y.size() == 0 || x.size() == 0) return ok();
  if (r == 0) {
    ys[0] = xs[0];
    return ok();
  }
  const std::int64_t last = out[r - 1], rows = y.size() / last;
  std::vector<std::int64_t> idx(r - 1, 0);
  for (std::int64_t row = 0; row < rows; ++row) {
    bool inside = true;
    std::int64_t base = 0;
    for (std::size_t d = 0; d + 1 < r; ++d) {
      std::int64_t p = idx[d] + shift[d];
      if (p < 0 || p >= x.dim(d)) inside = false;
      base += p * in_strides[d];
    }
    if (inside)
      for (std::int64_t j = 0; j < last; ++j) {
        std::int64_t p = j + shift[r - 1];
        if (p >= 0 && p < x.dim(r - 1)) ys[row * last + j] = xs[base + p];
      }
    for (std::size_t d = r - 1; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::CenterCropPad, cpu> {
  static constexpr std::array types{ops::CenterCropPad::T};
  template <ops::signature S> static status run(const call<ops::CenterCropPad>& c) {
    return kernels::cpu::center_crop_pad<kernels::cpu::moved_t<S[0]>>(c);
  }
};

}  // namespace onyx
