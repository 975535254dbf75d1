// kernel<ops::ConvInteger, cpu>, kernel<ops::QLinearConv, cpu>: a direct
// N-d convolution over operands decoded to doubles (exact for 8-bit
// integers) with the zero points subtracted. A table maps each (output
// position, kernel tap) to its input offset or -1 in the padding; each
// (batch, output channel) plane is one task. O(N M out C/G taps): correct
// for every window, no GEMM.
#pragma once

#include <cmath>
#include <vector>

#include "kernels/cpu/mat_mul_integer.hpp"
#include "onyx/ops/conv_integer.hpp"
#include "onyx/ops/qlinear_conv.hpp"

namespace onyx {

namespace kernels::cpu {

/// acc for every output element, handed to emit(flat, acc, output channel).
template <class Emit>
status integer_conv(const kernel_call& c, const ops::detail::conv_attributes& attrs, int x_in, int w_in, int zx_in,
                    int zw_in, const extents& y_shape, Emit emit) {
  const tensor& x = c.input(x_in);
  const tensor& w = c.input(w_in);
  const std::size_t spatial = x.rank() - 2;
  std::vector<std::int64_t> in(x.shape().begin() + 2, x.shape().end());
  std::vector<std::int64_t> wk(w.shape().begin() + 2, w.shape().end());
  ONYX_ASSIGN(auto win, ops::detail::conv_window(attrs, spatial, wk));
  ONYX_ASSIGN(auto geo, ops::detail::window_geometry(win, in));
  const std::int64_t n = x.dim(0), ch = x.dim(1), m = w.dim(0), group = attrs.group, cg = ch / group, mg = m / group;
  ONYX_ASSIGN(auto zx, per_index(c, zx_in, 1, 0.0, "x_zero_point"));
  ONYX_ASSIGN(auto zw, per_index(c, zw_in, m, 0.0, "w_zero_point"));
  std::vector<double> xv = decode_all(x), wv = decode_all(w);
  for (auto& v : xv) v -= zx[0];
  std::int64_t in_plane = 1, out_plane = 1, taps = 1;
  for (std::size_t i = 0; i < spatial; ++i) in_plane *= geo[i].in, out_plane *= geo[i].out, taps *= geo[i].kernel;
  if (out_plane != element_count(extents(y_shape.begin() + 2, y_shape.end())))
    return status(errc::internal, "integer conv: output extents disagree with the window geometry");
  std::vector<std::int64_t> offset(static_cast<std::size_t>(out_plane * taps));
  for (std::int64_t o = 0; o < out_plane; ++o)
    for (std::int64_t t = 0; t < taps; ++t) {
      std::int64_t off = 0, ro = o, rt = t, stride = 1;
      bool inside = true;
      for (std::size_t i = spatial; i-- > 0;) {
        std::int64_t oi = ro % geo[i].out, ti = rt % geo[i].kernel;
        ro /= geo[i].out, rt /= geo[i].kernel;
        std::int64_t pos = oi * geo[i].stride - geo[i].pad_begin + ti * geo[i].dilation;
        if (pos < 0 || pos >= geo[i].in) inside = false;
        off += pos * stride;
        stride *= geo[i].in;
      }
      offset[o * taps + t] = inside ? off : -1;
    }
  parallel_for(c.pool(), n * m, 1, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t p = first; p < last; ++p) {
      std::int64_t b = p / m, oc = p % m, g = oc / mg;
      for (std::int64_t o = 0; o < out_plane; ++o) {
        double s = 0;
        for (std::int64_t ci = 0; ci < cg; ++ci) {
          const double* xp = xv.data() + (b * ch + g * cg + ci) * in_plane;
          const double* wp = wv.data() + (oc * cg + ci) * taps;
          const std::int64_t* op = offset.data() + o * taps;
          for (std::int64_t t = 0; t < taps; ++t)
            if (op[t] >= 0) s += xp[op[t]] * (wp[t] - zw[oc]);
        }
        emit(p * out_plane + o, s, oc);
      }
    }
  });
  return ok();
}

}  // namespace kernels::cpu

template <> struct kernel<ops::ConvInteger, cpu> {
  static constexpr std::array types{ops::ConvInteger::T1};
  template <ops::signature> static status run(const call<ops::ConvInteger>& c) {
    tensor& y = c.output(0);
    std::int32_t* ys = y.data<std::int32_t>();
    return kernels::cpu::integer_conv(c, c.attrs(), 0, 1, 2, 3, y.shape(), [&](std::int64_t at, double s, std::int64_t) {
      ys[at] = static_cast<std::int32_t>(static_cast<std::int64_t>(s));
    });
  }
};

template <> struct kernel<ops::QLinearConv, cpu> {
  static constexpr std::array types{ops::QLinearConv::T1};
  template <ops::signature> static status run(const call<ops::QLinearConv>& c) {
    using namespace kernels::cpu;
    tensor& y = c.output(0);
    std::int64_t m = c.input(3).dim(0);
    ONYX_ASSIGN(auto sx, per_index(c, 1, 1, 1.0, "x_scale"));
    ONYX_ASSIGN(auto sw, per_index(c, 4, m, 1.0, "w_scale"));
    ONYX_ASSIGN(auto sy, per_index(c, 6, 1, 1.0, "y_scale"));
    ONYX_ASSIGN(auto zy, per_index(c, 7, 1, 0.0, "y_zero_point"));
    ONYX_ASSIGN(auto bias, per_index(c, 8, m, 0.0, "B"));
    auto range = quant_range(y.type());
    std::vector<double> r(static_cast<std::size_t>(y.size()));
    ONYX_TRY(integer_conv(c, c.attrs(), 0, 3, 2, 5, y.shape(), [&](std::int64_t at, double s, std::int64_t oc) {
      double factor = round_to(dtype::float32, round_to(dtype::float32, sx[0] * sw[oc]) / sy[0]);
      double v = (s + bias[oc]) * factor + zy[0];
      r[at] = range ? std::clamp(std::nearbyint(v), range->first, range->second) : v;
    }));
    if (y.bytes() > 0) std::memset(y.raw(), 0, y.bytes());
    encode_block(y, 0, y.size(), r.data(), nullptr, false, cast_options{});
    return ok();
  }
};

}  // namespace onyx
