// kernel<ops::ConvInteger, cpu>, kernel<ops::QLinearConv, cpu>: N-d
// convolution of 8-bit operands on the int8 GEMM (kernels/cpu/qgemm.hpp).
// Per image and group, Y[M/G x out] = W[M/G x K] * col[K x out] with
// K = C/G x taps: W (constant weights packed once at prepare, per group) is
// the GEMM's A with one zero point per output channel, col its B. col is X
// itself for a 1x1 window with stride 1 and no padding; otherwise the im2col
// matrix, built in slices of output positions (padding holds X's zero point,
// which stands for 0). Depthwise convolutions (one input channel per group
// and one output channel) run the float depthwise kernel instead, exact for
// up to 256 taps (else a direct int32 loop), where a GEMM would have one row.
// QLinearConv requantizes each finished block:
// y = saturate(round_half_even((acc + B[m]) * float(float(x_scale w_scale[m]) / y_scale)) + y_zero_point).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "kernels/cpu/mat_mul_integer.hpp"
#include "kernels/cpu/padded_plane.hpp"
#include "onyx/ops/conv_integer.hpp"
#include "onyx/ops/qlinear_conv.hpp"

namespace onyx {

namespace kernels::cpu {

/// What prepare keeps: each group's rows of a constant W, packed as A.
struct q8_conv_state {
  std::vector<q8_panels> w;
};

inline q8_conv_state prepare_q8_conv(const prepare_info_base& p, const ops::detail::conv_attributes& attrs, int w_in) {
  q8_conv_state s;
  const tensor* w = p.constant(w_in);
  if (!w || w->rank() < 3 || !is_q8(w->type()) || attrs.group < 1 || w->dim(0) % attrs.group != 0) return s;
  const std::int64_t m = w->dim(0), k = w->size() / std::max<std::int64_t>(m, 1), mg = m / attrs.group;
  if (mg == 1 && w->dim(1) == 1) return s;  // depthwise: the direct loop reads W as is
  for (std::int64_t g = 0; g < attrs.group; ++g)
    s.w.push_back(q8_pack_a(mg, k,
                            q8_rows(static_cast<const std::uint8_t*>(w->raw()) + g * mg * k, w->type(), k, true)));
  p.consume_constant(w_in);  // run reads the panels (the kernel is fixed for the process)
  return s;
}

/// One axis of a 2-D window, as the fast paths read it.
struct window_axis_view {
  std::int64_t in, out, kernel, stride, dilation, pad;
};

/// Row (ky, kx) of the im2col matrix of one channel plane, output positions
/// [o0, o0 + on) (flattened oh * out_w + ow): the input under that tap, or
/// `pad` (the zero point) outside the image.
inline void im2col_row_2d(const std::uint8_t* x, const ops::detail::window_axis& h, const ops::detail::window_axis& w,
                          std::int64_t ky, std::int64_t kx, std::int64_t o0, std::int64_t on, std::uint8_t pad,
                          std::uint8_t* dst) {
  const std::int64_t end = o0 + on;
  for (std::int64_t o = o0; o < end;) {
    const std::int64_t oh = o / w.out, ow = o % w.out, run = std::min(w.out - ow, end - o);
    const std::int64_t ih = oh * h.stride - h.pad_begin + ky * h.dilation;
    if (ih < 0 || ih >= h.in) {
      std::memset(dst, pad, static_cast<std::size_t>(run));
    } else {
      const std::uint8_t* row = x + ih * w.in;
      const std::int64_t iw0 = ow * w.stride - w.pad_begin + kx * w.dilation;  // input column of the run's first output
      if (w.stride == 1) {
        const std::int64_t lo = std::clamp<std::int64_t>(-iw0, 0, run), hi = std::clamp<std::int64_t>(w.in - iw0, lo, run);
        std::memset(dst, pad, static_cast<std::size_t>(lo));
        std::memcpy(dst + lo, row + iw0 + lo, static_cast<std::size_t>(hi - lo));
        std::memset(dst + hi, pad, static_cast<std::size_t>(run - hi));
      } else {
        for (std::int64_t j = 0; j < run; ++j) {
          const std::int64_t iw = iw0 + j * w.stride;
          dst[j] = iw >= 0 && iw < w.in ? row[iw] : pad;
        }
      }
    }
    dst += run;
    o += run;
  }
}

/// The exact accumulators of the convolution, handed to
/// emit(y_offset, channel, block): rows of the block are output channels
/// (channel + r), columns output positions; element (r, c) goes to
/// y_offset + r * out_plane + c of the flat output.
/// X is given as its bytes, type and shape (the node's input, or a
/// quantized copy of a float input) with its zero point.
template <class Emit>
status q8_conv(const kernel_call& c, const ops::detail::conv_attributes& attrs, const std::uint8_t* xb, dtype x_type,
               const extents& x_shape, const std::vector<std::int32_t>& zx, int w_in,
               const std::vector<std::int32_t>& zw, const extents& y_shape, Emit emit) {
  const tensor& w = c.input(w_in);
  const std::size_t spatial = x_shape.size() - 2;
  std::vector<std::int64_t> in(x_shape.begin() + 2, x_shape.end());
  std::vector<std::int64_t> wk(w.shape().begin() + 2, w.shape().end());
  ONYX_ASSIGN(auto win, ops::detail::conv_window(attrs, spatial, wk));
  ONYX_ASSIGN(auto geo, ops::detail::window_geometry(win, in));
  const std::int64_t n = x_shape[0], ch = x_shape[1], m = w.dim(0), group = attrs.group, cg = ch / group, mg = m / group;
  if (zx.size() != 1 || (zw.size() != 1 && static_cast<std::int64_t>(zw.size()) != m))
    return status(errc::invalid_argument, "x_zero_point must be a scalar and w_zero_point a scalar or one per output "
                                          "channel (" + std::to_string(m) + "), got " + std::to_string(zx.size()) +
                                          " and " + std::to_string(zw.size()) + " values");
  std::int64_t in_plane = 1, out_plane = 1, taps = 1;
  bool pointwise = true;
  for (std::size_t i = 0; i < spatial; ++i) {
    in_plane *= geo[i].in, out_plane *= geo[i].out, taps *= geo[i].kernel;
    pointwise = pointwise && geo[i].kernel == 1 && geo[i].stride == 1 && geo[i].pad_begin == 0 && geo[i].out == geo[i].in;
  }
  if (out_plane != element_count(extents(y_shape.begin() + 2, y_shape.end())))
    return status(errc::internal, "integer conv: output extents disagree with the window geometry");
  // offset[o * taps + t]: input offset of tap t for output position o within a channel plane, or -1 (padding)
  const bool two_d = spatial == 2;
  std::vector<std::int64_t> offset;
  if (!pointwise && !two_d) {
    offset.resize(static_cast<std::size_t>(out_plane * taps));
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
        offset[static_cast<std::size_t>(o * taps + t)] = inside ? off : -1;
      }
  }
  const auto* wb = static_cast<const std::uint8_t*>(w.raw());
  const bool x_signed = x_type == dtype::int8, w_signed = w.type() == dtype::int8;
  const auto as_int = [](const std::uint8_t* p, bool sgn, std::int64_t i) -> std::int32_t {
    return sgn ? static_cast<std::int8_t>(p[i]) : p[i];
  };

  if (cg == 1 && mg == 1 && two_d && taps <= 256 && fits_padded_plane(geo[0], geo[1])) {
    // depthwise 2-D in float, exactly: x - zx and w - zw are integers of at
    // most 255 in magnitude, so every partial sum of at most 256 taps is an
    // integer below 2^24, which float32 holds exactly. The channel is laid
    // out as the float kernel's padded plane (zero borders: x - zx of the
    // padding) and runs the ISA's f32_dwconv with its taps in registers.
    const padded_plane d = make_padded_plane(geo[0], geo[1]);
    const isa::table& t = isa::active();
    parallel_for(c.pool(), n * m, 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<float> buf(static_cast<std::size_t>(d.slot_elements)), xf(static_cast<std::size_t>(in_plane));
      std::vector<float> yf(static_cast<std::size_t>(out_plane)), wt(static_cast<std::size_t>(taps));
      std::vector<std::int32_t> out(static_cast<std::size_t>(out_plane));
      fill_padding(d, buf.data(), 0.0f);
      for (std::int64_t p = first; p < last; ++p) {
        const std::int64_t oc = p % m;
        const std::uint8_t* xp = xb + p * in_plane;
        for (std::int64_t i = 0; i < taps; ++i)
          wt[i] = static_cast<float>(as_int(wb, w_signed, oc * taps + i) - zw[zw.size() > 1 ? oc : 0]);
        if (x_signed)
          for (std::int64_t i = 0; i < in_plane; ++i) xf[i] = static_cast<float>(static_cast<std::int8_t>(xp[i]) - zx[0]);
        else
          for (std::int64_t i = 0; i < in_plane; ++i) xf[i] = static_cast<float>(xp[i] - zx[0]);
        copy_plane(d, geo[0], geo[1], xf.data(), buf.data(), t);
        isa::dwconv_args a{};
        set_window(a, d, geo[0], geo[1], buf.data(), yf.data());
        a.w = wt.data();
        t.f32_dwconv(a);
        for (std::int64_t i = 0; i < out_plane; ++i) out[i] = static_cast<std::int32_t>(yf[i]);
        emit(p * out_plane, oc, q8_block{0, 0, 1, out_plane, out.data(), out_plane});
      }
    });
    return ok();
  }
  if (cg == 1 && mg == 1 && two_d) {
    // depthwise 2-D: the channel's plane as int16 (x - zx) with zero borders,
    // then per output row and tap acc[ow] += w * plane[row][ow * sw + kx * dw]
    const window_axis_view gh{geo[0].in, geo[0].out, geo[0].kernel, geo[0].stride, geo[0].dilation, geo[0].pad_begin};
    const window_axis_view gw{geo[1].in, geo[1].out, geo[1].kernel, geo[1].stride, geo[1].dilation, geo[1].pad_begin};
    const std::int64_t hp = std::max(gh.pad + gh.in, (gh.out - 1) * gh.stride + (gh.kernel - 1) * gh.dilation + 1);
    const std::int64_t wp = std::max(gw.pad + gw.in, (gw.out - 1) * gw.stride + (gw.kernel - 1) * gw.dilation + 1);
    const auto depthwise = isa::q8_active().depthwise;
    parallel_for(c.pool(), n * m, 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<std::int32_t> out(static_cast<std::size_t>(out_plane));
      std::vector<std::int16_t> plane(static_cast<std::size_t>(hp * wp));
      std::vector<std::int32_t> wt(static_cast<std::size_t>(taps));
      for (std::int64_t p = first; p < last; ++p) {
        const std::int64_t oc = p % m;
        const std::uint8_t* xp = xb + p * in_plane;
        for (std::int64_t t = 0; t < taps; ++t) wt[t] = as_int(wb, w_signed, oc * taps + t) - zw[zw.size() > 1 ? oc : 0];
        std::fill(plane.begin(), plane.end(), std::int16_t(0));
        for (std::int64_t i = 0; i < gh.in; ++i) {
          std::int16_t* dst = plane.data() + (i + gh.pad) * wp + gw.pad;
          const std::uint8_t* src = xp + i * gw.in;
          if (x_signed)
            for (std::int64_t j = 0; j < gw.in; ++j) dst[j] = static_cast<std::int16_t>(static_cast<std::int8_t>(src[j]) - zx[0]);
          else
            for (std::int64_t j = 0; j < gw.in; ++j) dst[j] = static_cast<std::int16_t>(src[j] - zx[0]);
        }
        depthwise({plane.data(), wp, wt.data(), gh.kernel, gw.kernel, gh.stride, gw.stride, gh.dilation, gw.dilation,
                   out.data(), gh.out, gw.out});
        emit(p * out_plane, oc, q8_block{0, 0, 1, out_plane, out.data(), out_plane});
      }
    });
    return ok();
  }
  if (cg == 1 && mg == 1) {  // depthwise: y[b, ch, o] = sum_t (x - zx) (w - zw[ch])
    parallel_for(c.pool(), n * m, 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<std::int32_t> row(static_cast<std::size_t>(out_plane));
      for (std::int64_t p = first; p < last; ++p) {
        const std::int64_t oc = p % m;
        const std::uint8_t* xp = xb + p * in_plane;
        std::int32_t wv[64];
        std::vector<std::int32_t> wbig;
        std::int32_t* wt = wv;
        if (taps > 64) wbig.resize(static_cast<std::size_t>(taps)), wt = wbig.data();
        for (std::int64_t t = 0; t < taps; ++t) wt[t] = as_int(wb, w_signed, oc * taps + t) - zw[zw.size() > 1 ? oc : 0];
        for (std::int64_t o = 0; o < out_plane; ++o) {
          std::int32_t s = 0;
          if (pointwise) {
            s = (as_int(xp, x_signed, o) - zx[0]) * wt[0];
          } else {
            const std::int64_t* op = offset.data() + o * taps;
            for (std::int64_t t = 0; t < taps; ++t)
              if (op[t] >= 0) s += (as_int(xp, x_signed, op[t]) - zx[0]) * wt[t];
          }
          row[static_cast<std::size_t>(o)] = s;
        }
        emit(p * out_plane, oc, q8_block{0, 0, 1, out_plane, row.data(), out_plane});
      }
    });
    return ok();
  }

  const q8_conv_state* state = c.state_ ? &c.state<q8_conv_state>() : nullptr;
  const std::int64_t k = cg * taps;
  // im2col slices of at most ~1 MiB
  const std::int64_t slice = pointwise ? out_plane : std::clamp<std::int64_t>((1 << 20) / std::max<std::int64_t>(k, 1), 64, out_plane);
  std::vector<std::uint8_t> col(pointwise ? 0 : static_cast<std::size_t>(k * slice));
  const std::uint8_t pad = static_cast<std::uint8_t>(zx[0]);
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t g = 0; g < group; ++g) {
      q8_operand qa, qb;
      qa.matrix = q8_rows(wb + g * mg * k, w.type(), k, true);
      if (state && static_cast<std::int64_t>(state->w.size()) == group) {
        const q8_panels& pw = state->w[static_cast<std::size_t>(g)];
        if (pw.kernel() == &isa::q8_active() && pw.width() == mg && pw.depth() == k) qa.packed = &pw;
      }
      if (!qa.packed && !wb) return status(errc::internal, "W was packed at prepare for another shape and released");
      qa.zero_point = zw.data() + (zw.size() > 1 ? g * mg : 0);
      qa.per_index = zw.size() > 1;
      qb.zero_point = zx.data();
      const std::uint8_t* xg = xb + (b * ch + g * cg) * in_plane;
      for (std::int64_t o0 = 0; o0 < out_plane; o0 += slice) {
        const std::int64_t on = std::min(slice, out_plane - o0);
        if (pointwise) {
          qb.matrix = {xg, x_signed, in_plane, true};
        } else {
          parallel_for(c.pool(), k, std::max<std::int64_t>(1, 4096 / on), [&](std::int64_t k0, std::int64_t k1) {
            for (std::int64_t kk = k0; kk < k1; ++kk) {
              const std::int64_t ci = kk / taps, t = kk % taps;
              const std::uint8_t* xp = xg + ci * in_plane;
              std::uint8_t* dst = col.data() + kk * on;
              if (two_d) {
                im2col_row_2d(xp, geo[0], geo[1], t / geo[1].kernel, t % geo[1].kernel, o0, on, pad, dst);
                continue;
              }
              const std::int64_t* op = offset.data() + o0 * taps + t;
              for (std::int64_t o = 0; o < on; ++o) {
                const std::int64_t at = op[o * taps];
                dst[o] = at >= 0 ? xp[at] : pad;
              }
            }
          });
          qb.matrix = {col.data(), x_signed, on, true};
        }
        const std::int64_t y0 = (b * m + g * mg) * out_plane + o0;
        auto write = [&](const q8_block& blk) {
          emit(y0 + blk.i0 * out_plane + blk.j0, g * mg + blk.i0, blk);
        };
        q8_gemm(mg, on, k, qa, qb, q8_sink::adding(write), c.pool());
      }
    }
  return ok();
}

/// q8_conv on the node's own 8-bit X and zero point inputs.
template <class Emit>
status q8_conv(const kernel_call& c, const ops::detail::conv_attributes& attrs, int x_in, int w_in, int zx_in,
               int zw_in, const extents& y_shape, Emit emit) {
  const tensor& x = c.input(x_in);
  return q8_conv(c, attrs, static_cast<const std::uint8_t*>(x.raw()), x.type(), x.shape(), zero_points(c, zx_in), w_in,
                 zero_points(c, zw_in), y_shape, emit);
}

/// out_plane of a conv output shape.
inline std::int64_t out_plane_of(const extents& y_shape) { return element_count(extents(y_shape.begin() + 2, y_shape.end())); }

}  // namespace kernels::cpu

template <> struct kernel<ops::ConvInteger, cpu> {
  static constexpr std::array types{ops::ConvInteger::T1};
  using state = kernels::cpu::q8_conv_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::ConvInteger>& p) {
    return kernels::cpu::prepare_q8_conv(p, p.attrs(), 1);
  }
  template <ops::signature> static status run(const call<ops::ConvInteger>& c) {
    using namespace kernels::cpu;
    tensor& y = c.output(0);
    std::int32_t* ys = y.data<std::int32_t>();
    const std::int64_t plane = out_plane_of(y.shape());
    return q8_conv(c, c.attrs(), 0, 1, 2, 3, y.shape(), [&](std::int64_t at, std::int64_t, const q8_block& blk) {
      write_exact(blk, ys + at, plane);
    });
  }
};

template <> struct kernel<ops::QLinearConv, cpu> {
  static constexpr std::array types{ops::QLinearConv::T1};
  using state = kernels::cpu::q8_conv_state;
  template <ops::signature> static result<state> prepare(const prepare_info<ops::QLinearConv>& p) {
    return kernels::cpu::prepare_q8_conv(p, p.attrs(), 3);
  }
  template <ops::signature> static status run(const call<ops::QLinearConv>& c) {
    using namespace kernels::cpu;
    tensor& y = c.output(0);
    const std::int64_t m = c.input(3).dim(0), plane = out_plane_of(y.shape());
    ONYX_ASSIGN(auto sx, per_index(c, 1, 1, 1.0, "x_scale"));
    ONYX_ASSIGN(auto sw, per_index(c, 4, m, 1.0, "w_scale"));
    ONYX_ASSIGN(auto sy, per_index(c, 6, 1, 1.0, "y_scale"));
    ONYX_ASSIGN(auto zy, per_index(c, 7, 1, 0.0, "y_zero_point"));
    ONYX_ASSIGN(auto bias, per_index(c, 8, m, 0.0, "B"));
    std::vector<double> factor(static_cast<std::size_t>(m));
    for (std::size_t i = 0; i < factor.size(); ++i)
      factor[i] = round_to(dtype::float32, round_to(dtype::float32, sx[0] * sw[i]) / sy[0]);
    const bool out_signed = y.type() == dtype::int8;
    const double z = zy[0];
    const auto requantize = isa::q8_active().requantize;
    auto* out = static_cast<std::uint8_t*>(y.raw());
    return q8_conv(c, c.attrs(), 0, 3, 2, 5, y.shape(), [&](std::int64_t at, std::int64_t oc, const q8_block& blk) {
      for (std::int64_t r = 0; r < blk.rows; ++r)
        requantize(blk.acc + r * blk.ld, blk.cols, blk.col_add, blk.row_term(r), nullptr,
                   bias[static_cast<std::size_t>(oc + r)], nullptr, factor[static_cast<std::size_t>(oc + r)], z,
                   out_signed, out + at + r * plane);
    });
  }
};

}  // namespace onyx
