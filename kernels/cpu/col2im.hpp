// kernel<ops::Col2Im, cpu>: for each (n, c) plane, every block element k and
// block position l adds input[n, c * K + k, l] into the image at
// l_i * stride_i - pad_begin_i + k_i * dilation_i (skipped in the padding).
// Planes split over the pool; half types accumulate in float.
#pragma once

#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "onyx/ops/col2im.hpp"

namespace onyx {

namespace kernels::cpu {

template <class T> status fold_columns(const call<ops::Col2Im>& c) {
  const tensor& x = c.input(0);
  const auto image = c.input(1).values<std::int64_t>();
  const auto block = c.input(2).values<std::int64_t>();
  const std::size_t r = image.size();
  if (block.size() != r || r == 0)
    return status(errc::invalid_argument, "image_shape and block_shape must be non-empty and of one length");
  auto param = [&](const std::vector<std::int64_t>& v, std::size_t n, std::int64_t fill,
                   const char* what) -> result<std::vector<std::int64_t>> {
    if (v.empty()) return std::vector<std::int64_t>(n, fill);
    if (v.size() != n)
      return status(errc::invalid_argument, std::string(what) + " has " + std::to_string(v.size()) + " values, expected " +
                                                std::to_string(n));
    return v;
  };
  ONYX_ASSIGN(auto dil, param(c.attrs().dilations, r, 1, "dilations"));
  ONYX_ASSIGN(auto pads, param(c.attrs().pads, 2 * r, 0, "pads"));
  ONYX_ASSIGN(auto strides, param(c.attrs().strides, r, 1, "strides"));
  std::int64_t taps = 1, blocks = 1, plane = 1;
  std::vector<std::int64_t> grid(r);
  for (std::size_t i = 0; i < r; ++i) {
    std::int64_t span = (block[i] - 1) * dil[i] + 1;
    grid[i] = (image[i] + pads[i] + pads[r + i] - span) / strides[i] + 1;
    if (grid[i] < 1 || block[i] < 1 || strides[i] < 1 || dil[i] < 1)
      return status(errc::invalid_argument, "block " + std::to_string(i) + " does not fit the padded image");
    taps *= block[i], blocks *= grid[i], plane *= image[i];
  }
  if (x.rank() != 3 || x.dim(1) % taps != 0 || x.dim(2) != blocks)
    return status(errc::invalid_argument, "input " + sym_shape(x.shape()).str() + " is not [N, C * " +
                                              std::to_string(taps) + ", " + std::to_string(blocks) + "]");
  const std::int64_t n = x.dim(0), ch = x.dim(1) / taps;
  extents out{n, ch};
  out.insert(out.end(), image.begin(), image.end());
  tensor& y = c.allocate_output(0, x.type(), out);
  using A = decltype(load(T{}));
  const T* xs = x.data<T>();
  T* ys = y.data<T>();
  parallel_for(c.pool(), n * ch, 1, [&](std::int64_t first, std::int64_t last) {
    std::vector<A> acc(static_cast<std::size_t>(plane));
    std::vector<std::int64_t> k(r), l(r);
    for (std::int64_t p = first; p < last; ++p) {
      std::fill(acc.begin(), acc.end(), A{});
      for (std::int64_t t = 0; t < taps; ++t) {
        for (std::int64_t rem = t, i = static_cast<std::int64_t>(r) - 1; i >= 0; --i) k[i] = rem % block[i], rem /= block[i];
        const T* row = xs + (p * taps + t) * blocks;
        for (std::int64_t b = 0; b < blocks; ++b) {
          std::int64_t off = 0;
          bool inside = true;
          for (std::int64_t rem = b, i = static_cast<std::int64_t>(r) - 1; i >= 0; --i) {
            l[i] = rem % grid[i], rem /= grid[i];
          }
          for (std::size_t i = 0; i < r && inside; ++i) {
            std::int64_t pos = l[i] * strides[i] - pads[i] + k[i] * dil[i];
            inside = pos >= 0 && pos < image[i];
            off = off * image[i] + pos;
          }
          if (inside) acc[off] += load(row[b]);
        }
      }
      for (std::int64_t i = 0; i < plane; ++i) ys[p * plane + i] = store<T>(acc[i]);
    }
  });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Col2Im, cpu> {
  static constexpr std::array types{ops::Col2Im::T};
  template <ops::signature S> static status run(const call<ops::Col2Im>& c) {
    return kernels::cpu::fold_columns<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
