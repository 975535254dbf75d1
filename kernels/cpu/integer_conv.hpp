// kernel<ops::ConvInteger, cpu>, kernel<ops::QLinearConv, cpu>: N-d
// convolution of 8-bit operands on the int8 GEMM (kernels/cpu/qgemm.hpp).
// Per image and group, Y[M/G x out] = W[M/G x K] * col[K x out] with
// K = C/G x taps: W (constant weights packed once at prepare, per group) is
// the GEMM's A with one zero point per output channel, col its B. col is X
// itself for a 1x1 window with stride 1 and no padding; otherwise the im2col
// matrix, built in slices of output positions (padding holds X's zero point,
// which stands for 0). Stride-1 2-D convolutions of one group with one
// weight zero point run a direct kernel where the level has one (VNNI, and
// avx2's vpmaddubsw tile, pair-bound on the weights: q8_conv_direct, the
// input in a flat padded plane of four channels per group, no im2col).
// Depthwise convolutions (one input channel per group
// and one output channel) run the float depthwise kernel instead, exact for
// up to 256 taps (else a direct int32 loop), where a GEMM would have one row.
// QLinearConv requantizes each finished block:
// y = saturate(round_half_even((acc + B[m]) * float(float(x_scale w_scale[m]) / y_scale)) + y_zero_point).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "kernels/cpu/mat_mul_integer.hpp"
#include "kernels/cpu/padded_plane.hpp"
#include "onyx/ops/conv_integer.hpp"
#include "onyx/ops/qlinear_conv.hpp"

namespace onyx {

namespace kernels::cpu {

/// W laid out for the direct 2-D convolution (isa::q8_conv_fn): per panel of
/// mr output channels, [tap][channel group of 4][row][4] bytes of A' (W as
/// the kernel reads it: unsigned, W + 128 for int8; or signed, W - 128 for
/// uint8, see conv_a_signed), zeros where a group or a panel runs past W;
/// with each output channel's sum of A'. For a kernel pair-bound on A'
/// (conv_fixup), a pair with |a0| + |a1| > 128 keeps its halves (rounded to
/// zero) in the panel, and the rest goes to the panel's fixes.
struct q8_direct_weights {
  std::vector<std::uint8_t> a;
  std::vector<std::int32_t> rowsum;
  std::int64_t groups = 0, panel = 0;  // channel groups; bytes per panel
  bool w_signed = false, a_signed = false;
  std::vector<isa::q8_conv_fix> fixes;   // panel after panel
  std::vector<std::int64_t> fix_begin;   // panel p's: [fix_begin[p], fix_begin[p + 1]); empty: none
  bool empty() const { return a.empty(); }
};

inline q8_direct_weights pack_direct_weights(const std::uint8_t* w, bool w_signed, std::int64_t m, std::int64_t ch,
                                             std::int64_t taps, const isa::q8_gemm_kernel& k) {
  const int mr = k.mr;
  q8_direct_weights d;
  d.w_signed = w_signed;
  d.a_signed = k.conv_a_signed;
  d.groups = (ch + 3) / 4;
  d.panel = taps * d.groups * mr * 4;
  const std::int64_t panels = (m + mr - 1) / mr;
  d.a.assign(static_cast<std::size_t>(panels * d.panel), 0);
  d.rowsum.assign(static_cast<std::size_t>(m), 0);
  const std::uint8_t flip = w_signed != d.a_signed ? 0x80 : 0x00;
  for (std::int64_t co = 0; co < m; ++co)
    for (std::int64_t ci = 0; ci < ch; ++ci)
      for (std::int64_t t = 0; t < taps; ++t) {
        const std::uint8_t v = w[(co * ch + ci) * taps + t] ^ flip;
        d.a[static_cast<std::size_t>((co / mr) * d.panel + ((t * d.groups + ci / 4) * mr + co % mr) * 4 + ci % 4)] = v;
        d.rowsum[static_cast<std::size_t>(co)] += d.a_signed ? std::int32_t{static_cast<std::int8_t>(v)} : std::int32_t{v};
      }
  if (!k.conv_fixup) return d;
  d.fix_begin.assign(static_cast<std::size_t>(panels + 1), 0);
  for (std::int64_t p = 0; p < panels; ++p) {
    for (std::int64_t step = 0; step < taps * d.groups; ++step) {
      std::uint8_t* g = d.a.data() + p * d.panel + step * mr * 4;
      isa::q8_conv_fix fix{step / d.groups, step % d.groups, {}};
      bool any = false;
      for (int i = 0; i < mr * 4; i += 2) {
        const int v0 = static_cast<std::int8_t>(g[i]), v1 = static_cast<std::int8_t>(g[i + 1]);
        if (std::abs(v0) + std::abs(v1) <= 128) continue;
        any = true;
        g[i] = static_cast<std::uint8_t>(v0 / 2), g[i + 1] = static_cast<std::uint8_t>(v1 / 2);
        fix.a[i] = static_cast<std::int8_t>(v0 - v0 / 2), fix.a[i + 1] = static_cast<std::int8_t>(v1 - v1 / 2);
      }
      if (any) d.fixes.push_back(fix);
    }
    d.fix_begin[static_cast<std::size_t>(p + 1)] = static_cast<std::int64_t>(d.fixes.size());
  }
  return d;
}

/// Whether the padded plane of q8_conv_direct and of the int16 depthwise
/// loop (hp x wp positions, counted in double) is worth laying out: not
/// where the padding dwarfs the image (padded_copy_fits).
inline bool q8_padded_plane_fits(const ops::detail::window_axis& h, const ops::detail::window_axis& w) {
  const auto extent = [](const ops::detail::window_axis& ax) {
    return std::max(static_cast<double>(ax.pad_begin) + static_cast<double>(ax.in),
                    static_cast<double>(ax.out - 1) * static_cast<double>(ax.stride) +
                        static_cast<double>(ax.kernel - 1) * static_cast<double>(ax.dilation) + 1);
  };
  return padded_copy_fits(extent(h) * extent(w), h.in, w.in);
}

/// Whether a convolution runs the direct 2-D kernel: one group, not
/// depthwise, a window of more than one tap, stride 1 (output positions next
/// to each other read input positions next to each other), and a level that
/// has the kernel. The zero points are checked apart.
inline bool direct_conv_fits(const ops::detail::conv_attributes& attrs, const extents& w_shape) {
  if (!isa::q8_active().conv || w_shape.size() != 4 || attrs.group != 1 || w_shape[1] < 2) return false;
  if (w_shape[2] * w_shape[3] < 2) return false;
  return std::all_of(attrs.strides.begin(), attrs.strides.end(), [](std::int64_t v) { return v == 1; });
}

/// What prepare keeps of a constant W: each group's rows packed as A for the
/// GEMM, or the direct kernel's layout.
struct q8_conv_state {
  std::vector<q8_panels> w;
  q8_direct_weights direct;
};

inline q8_conv_state prepare_q8_conv(const prepare_info_base& p, const ops::detail::conv_attributes& attrs, int w_in,
                                     int zw_in) {
  q8_conv_state s;
  const tensor* w = p.constant(w_in);
  if (!w || w->rank() < 3 || !is_q8(w->type()) || attrs.group < 1 || w->dim(0) % attrs.group != 0) return s;
  const std::int64_t m = w->dim(0), k = w->size() / std::max<std::int64_t>(m, 1), mg = m / attrs.group;
  if (mg == 1 && w->dim(1) == 1) return s;  // depthwise: the direct loop reads W as is
  if (direct_conv_fits(attrs, w->shape())) {
    // One zero point for all of W, known now (absent: 0), or run decides.
    const bool absent = zw_in >= p.input_count() || p.input(zw_in).kind == value_kind::none;
    const tensor* z = absent ? nullptr : p.constant(zw_in);
    bool uniform = absent;
    if (z && z->size() >= 1 && is_q8(z->type())) {
      const auto* zb = static_cast<const std::uint8_t*>(z->raw());
      uniform = std::all_of(zb, zb + z->size(), [&](std::uint8_t v) { return v == zb[0]; });
    }
    // X's extents, when fixed, tell whether run takes the direct path (not
    // under a padding that dwarfs the image): W is released only then, and
    // packed for the GEMM instead where it does not.
    std::optional<bool> planes_fit;
    if (const auto x = p.input(0).shape.concrete_extents(); x && x->size() == 4) {
      const std::int64_t wk[2] = {w->dim(2), w->dim(3)}, in[2] = {(*x)[2], (*x)[3]};
      auto win = ops::detail::conv_window(attrs, 2, wk);
      auto geo = win ? ops::detail::window_geometry(*win, in) : result<std::vector<ops::detail::window_axis>>(win.error());
      if (geo) planes_fit = q8_padded_plane_fits((*geo)[0], (*geo)[1]);
    }
    if (uniform && planes_fit != false) {
      s.direct = pack_direct_weights(static_cast<const std::uint8_t*>(w->raw()), w->type() == dtype::int8, m, w->dim(1),
                                     w->dim(2) * w->dim(3), isa::q8_active());
      if (planes_fit == true) p.consume_constant(w_in);  // run reads the direct layout only
      return s;
    }
  }
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
      // [lo, hi): the outputs of the run whose input column iw0 + j * stride
      // lies in the row; the others read the padding.
      const std::int64_t s = w.stride;
      const std::int64_t lo = std::clamp<std::int64_t>(iw0 < 0 ? (-iw0 + s - 1) / s : 0, 0, run);
      const std::int64_t hi = std::clamp<std::int64_t>(w.in - iw0 > 0 ? (w.in - iw0 + s - 1) / s : 0, lo, run);
      std::memset(dst, pad, static_cast<std::size_t>(lo));
      if (s == 1) {
        std::memcpy(dst + lo, row + iw0 + lo, static_cast<std::size_t>(hi - lo));
      } else {
        const std::uint8_t* src = row + iw0 + lo * s;  // input column of output lo
        std::uint8_t* out = dst + lo;
        const std::int64_t count = hi - lo;
        if (s == 2)
          for (std::int64_t j = 0; j < count; ++j) out[j] = src[2 * j];
        else
          for (std::int64_t j = 0; j < count; ++j) out[j] = src[j * s];
      }
      std::memset(dst + hi, pad, static_cast<std::size_t>(run - hi));
    }
    dst += run;
    o += run;
  }
}

/// The direct 2-D convolution (direct_conv_fits; one zero point for W): per
/// image, X goes once into a padded plane of four channels per 32-bit group
/// (B', X as the kernel reads it; borders X's zero point, the channels past C 0)
/// laid out flat, hp x wp positions, so that output position (y, x) at flat
/// index y wp + x reads flat index y wp + x + offset(tap) under every tap:
/// a run of output positions is a run of input groups, and isa::q8_conv_fn
/// reads them in place, no im2col. The wp - out_w columns past each row's end
/// are computed and dropped. The zero-point terms go to the sink:
///   acc - za' colsum(B')[p] - zb' rowsum(A')[co] + K za' zb'
/// with colsum(B')[p] the sum over taps of S[p + offset] and S the sum of a
/// position's channels, taken while packing.
template <class Emit>
status q8_conv_direct(const kernel_call& c, const q8_direct_weights& dw, const std::uint8_t* xb, bool x_signed,
                      const extents& x_shape, std::int32_t zx, std::int32_t zw, std::int64_t m,
                      const ops::detail::window_axis& gh, const ops::detail::window_axis& gw, Emit emit) {
  const isa::q8_gemm_kernel& k = isa::q8_active();
  const int mr = k.mr, nr = k.nr;
  const std::int64_t n = x_shape[0], ch = x_shape[1], groups = dw.groups, taps = gh.kernel * gw.kernel;
  const std::int64_t hp = std::max(gh.pad_begin + gh.in, gh.out + (gh.kernel - 1) * gh.dilation);
  const std::int64_t wp = std::max(gw.pad_begin + gw.in, gw.out + (gw.kernel - 1) * gw.dilation);
  const std::int64_t plane = hp * wp, slack = wp + 2 * nr;  // positions read past the last plane
  const std::int64_t out_plane = gh.out * gw.out, in_plane = gh.in * gw.in;
  using u32 = std::uint32_t;
  // B' is the input as the kernel reads it: signed (X - 128 for uint8) where
  // A' is unsigned, else unsigned (X + 128 for int8); za', zb' the zero
  // points in the same terms.
  const bool b_signed = !dw.a_signed;
  const std::uint8_t flip = x_signed == b_signed ? 0x00 : 0x80;
  const std::int32_t zb = x_signed == b_signed ? zx : b_signed ? zx - 128 : zx + 128;
  const std::int32_t za = dw.w_signed == dw.a_signed ? zw : dw.a_signed ? zw - 128 : zw + 128;
  const u32 kk = static_cast<u32>(ch * taps);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(taps));
  for (std::int64_t t = 0; t < taps; ++t)
    offsets[static_cast<std::size_t>(t)] = ((t / gw.kernel) * gh.dilation * wp + (t % gw.kernel) * gw.dilation) * 4;
  // The group of a border position: zb' in the real channels, 0 past C.
  std::uint8_t border[4][4] = {};  // border[g_channels - 1]: a group of 1..4 real channels
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i <= r; ++i) border[r][i] = static_cast<std::uint8_t>(zb);
  std::vector<std::uint8_t> packed(static_cast<std::size_t>((groups * plane + slack) * 4), 0);
  std::vector<std::int32_t> sums(static_cast<std::size_t>(plane + slack), 0), colterm(static_cast<std::size_t>(gh.out * wp));
  std::vector<std::int32_t> rowterm(static_cast<std::size_t>(m));
  for (std::int64_t co = 0; co < m; ++co)
    rowterm[static_cast<std::size_t>(co)] =
        static_cast<std::int32_t>(u32(0) - static_cast<u32>(zb) * static_cast<u32>(dw.rowsum[static_cast<std::size_t>(co)]));
  std::vector<std::uint8_t> fill_row(static_cast<std::size_t>(gw.in), flip);  // a channel past C: B' = 0
  const std::int64_t rows_per_chunk = std::max<std::int64_t>(1, 384 / wp);
  const std::int64_t chunks = (gh.out + rows_per_chunk - 1) / rows_per_chunk;
  const std::int64_t ld = (rows_per_chunk * wp + nr - 1) / nr * nr;
  for (std::int64_t b = 0; b < n; ++b) {
    const std::uint8_t* xi = xb + b * ch * in_plane;
    std::fill(sums.begin(), sums.end(), 0);
    parallel_for(c.pool(), hp, std::max<std::int64_t>(1, 8192 / (wp * ch)), [&](std::int64_t y0, std::int64_t y1) {
      for (std::int64_t yy = y0; yy < y1; ++yy) {
        const std::int64_t iy = yy - gh.pad_begin;
        const bool inside = iy >= 0 && iy < gh.in;
        std::int32_t* srow = sums.data() + yy * wp;
        for (std::int64_t q = 0; q < groups; ++q) {
          const int real = static_cast<int>(std::min<std::int64_t>(4, ch - q * 4));
          std::uint8_t* row = packed.data() + (q * plane + yy * wp) * 4;
          // borders: columns [0, lo) and [hi, wp), the whole row above or below the image
          const std::int64_t lo = inside ? gw.pad_begin : wp, hi = inside ? gw.pad_begin + gw.in : wp;
          for (std::int64_t x = 0; x < lo; ++x) std::memcpy(row + x * 4, border[real - 1], 4);
          for (std::int64_t x = hi; x < wp; ++x) std::memcpy(row + x * 4, border[real - 1], 4);
          if (inside) {
            const std::uint8_t* r[4];
            for (int i = 0; i < 4; ++i)
              r[i] = i < real ? xi + ((q * 4 + i) * gh.in + iy) * gw.in : fill_row.data();
            k.interleave4(r[0], r[1], r[2], r[3], gw.in, flip, !b_signed,
                          reinterpret_cast<std::uint32_t*>(row + gw.pad_begin * 4), srow + gw.pad_begin);
          }
        }
        const std::int32_t edge = static_cast<std::int32_t>(static_cast<u32>(ch) * static_cast<u32>(zb));
        for (std::int64_t x = 0; x < wp; ++x)
          if (!inside || x < gw.pad_begin || x >= gw.pad_begin + gw.in) srow[x] = edge;
      }
    });
    parallel_for(c.pool(), gh.out, std::max<std::int64_t>(1, 4096 / (wp * taps)), [&](std::int64_t y0, std::int64_t y1) {
      for (std::int64_t p = y0 * wp; p < y1 * wp; ++p) {
        u32 sum = 0;
        for (std::int64_t t = 0; t < taps; ++t) sum += static_cast<u32>(sums[static_cast<std::size_t>(p + offsets[t] / 4)]);
        colterm[static_cast<std::size_t>(p)] =
            static_cast<std::int32_t>(kk * static_cast<u32>(za) * static_cast<u32>(zb) - static_cast<u32>(za) * sum);
      }
    });
    parallel_for(c.pool(), chunks, 1, [&](std::int64_t c0, std::int64_t c1) {
      thread_local std::vector<std::int32_t> acc_buffer;
      if (acc_buffer.size() < static_cast<std::size_t>(m * ld)) acc_buffer.resize(static_cast<std::size_t>(m * ld));
      std::int32_t* acc = acc_buffer.data();
      for (std::int64_t ci = c0; ci < c1; ++ci) {
        const std::int64_t y0 = ci * rows_per_chunk, y1 = std::min(gh.out, y0 + rows_per_chunk);
        const std::int64_t first = y0 * wp, count = (y1 - y0) * wp;
        for (std::int64_t j = 0; j < count; j += nr)
          for (std::int64_t i = 0; i < m; i += mr) {
            const int rows = static_cast<int>(std::min<std::int64_t>(mr, m - i));
            const std::uint8_t* b_at = packed.data() + (first + j) * 4;
            k.conv(taps, offsets.data(), groups, plane * 4, dw.a.data() + (i / mr) * dw.panel, b_at, acc + i * ld + j,
                   ld, rows);
            if (dw.fix_begin.empty()) continue;
            const std::int64_t f0 = dw.fix_begin[static_cast<std::size_t>(i / mr)];
            const std::int64_t f1 = dw.fix_begin[static_cast<std::size_t>(i / mr + 1)];
            if (f1 > f0)
              k.conv_fixup(dw.fixes.data() + f0, f1 - f0, offsets.data(), plane * 4, b_at, acc + i * ld + j, ld, rows);
          }
        for (std::int64_t y = y0; y < y1; ++y) {
          q8_block blk{0, y * gw.out, m, gw.out, acc + (y - y0) * wp, ld};
          blk.col_add = colterm.data() + y * wp;
          blk.row_add = rowterm.data();
          emit(b * m * out_plane + y * gw.out, 0, blk);
        }
      }
    });
  }
  return ok();
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
  const bool two_d = spatial == 2;
  const bool padded_planes = two_d && q8_padded_plane_fits(geo[0], geo[1]);
  // offset[o * taps + t]: input offset of tap t for output position o within
  // a channel plane, or -1 (padding), for the loops that use it: N-d windows
  // and a 2-D depthwise one without its padded plane.
  std::vector<std::int64_t> offset;
  if (!pointwise && (!two_d || (cg == 1 && mg == 1 && !padded_planes))) {
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
  const q8_conv_state* state = c.state_ ? &c.state<q8_conv_state>() : nullptr;
  if (padded_planes && direct_conv_fits(attrs, w.shape()) &&
      std::all_of(zw.begin(), zw.end(), [&](std::int32_t v) { return v == zw[0]; })) {
    if (state && !state->direct.empty())
      return q8_conv_direct(c, state->direct, xb, x_signed, x_shape, zx[0], zw[0], m, geo[0], geo[1], emit);
    if (wb) {
      const q8_direct_weights now = pack_direct_weights(wb, w_signed, m, cg, taps, isa::q8_active());
      return q8_conv_direct(c, now, xb, x_signed, x_shape, zx[0], zw[0], m, geo[0], geo[1], emit);
    }
  }
  const auto as_int = [](const std::uint8_t* p, bool sgn, std::int64_t i) -> std::int32_t {
    return sgn ? static_cast<std::int8_t>(p[i]) : p[i];
  };

  if (cg == 1 && mg == 1 && two_d && taps <= 256 && fits_padded_plane(geo[0], geo[1])) {
    // depthwise 2-D in float, exactly: x - zx and w - zw are integers of at
    // most 255 in magnitude, so every partial sum of at most 256 taps is an
    // integer below 2^24, which float32 holds exactly. The channel is laid
    // out as the float kernel's padded plane (zero borders: x - zx of the
    // padding; at stride 1 widened straight into its rows) and runs the
    // ISA's f32_dwconv with its taps in registers, in bands of output rows
    // small enough that the band's floats and their int32 copy stay in L1
    // until emit has read them.
    const padded_plane d = make_padded_plane(geo[0], geo[1]);
    const isa::table& t = isa::active();
    const std::int64_t out_h = geo[0].out, out_w = geo[1].out;
    const std::int64_t band = std::clamp<std::int64_t>(2048 / std::max<std::int64_t>(out_w, 1), 1, out_h);
    const auto widen = [&](const std::uint8_t* src, float* dst, std::int64_t count) {
      if (x_signed)
        for (std::int64_t i = 0; i < count; ++i) dst[i] = static_cast<float>(static_cast<std::int8_t>(src[i]) - zx[0]);
      else
        for (std::int64_t i = 0; i < count; ++i) dst[i] = static_cast<float>(src[i] - zx[0]);
    };
    parallel_for(c.pool(), n * m, 1, [&](std::int64_t first, std::int64_t last) {
      std::vector<float> buf(static_cast<std::size_t>(d.slot_elements)), wt(static_cast<std::size_t>(taps));
      std::vector<float> xf(static_cast<std::size_t>(geo[1].stride == 1 ? 0 : in_plane));
      std::vector<float> yf(static_cast<std::size_t>(band * out_w));
      std::vector<std::int32_t> out(static_cast<std::size_t>(band * out_w));
      fill_padding(d, buf.data(), 0.0f);
      float* const image = buf.data() + geo[0].pad_begin * d.row_stride + geo[1].pad_begin;
      for (std::int64_t p = first; p < last; ++p) {
        const std::int64_t oc = p % m;
        const std::uint8_t* xp = xb + p * in_plane;
        for (std::int64_t i = 0; i < taps; ++i)
          wt[i] = static_cast<float>(as_int(wb, w_signed, oc * taps + i) - zw[zw.size() > 1 ? oc : 0]);
        if (geo[1].stride == 1) {
          for (std::int64_t iy = 0; iy < geo[0].in; ++iy) widen(xp + iy * geo[1].in, image + iy * d.row_stride, geo[1].in);
        } else {
          widen(xp, xf.data(), in_plane);
          copy_plane(d, geo[0], geo[1], xf.data(), buf.data(), t);
        }
        for (std::int64_t r0 = 0; r0 < out_h; r0 += band) {
          const std::int64_t rows = std::min(band, out_h - r0), count = rows * out_w;
          isa::dwconv_args a{};
          set_window(a, d, geo[0], geo[1], buf.data() + r0 * geo[0].stride * d.row_stride, yf.data());
          a.out_h = rows;
          a.w = wt.data();
          t.f32_dwconv(a);
          for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<std::int32_t>(yf[i]);
          emit(p * out_plane + r0 * out_w, oc, q8_block{0, r0 * out_w, 1, count, out.data(), count});
        }
      }
    });
    return ok();
  }
  if (cg == 1 && mg == 1 && padded_planes) {
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
    return kernels::cpu::prepare_q8_conv(p, p.attrs(), 1, 3);
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
    return kernels::cpu::prepare_q8_conv(p, p.attrs(), 3, 5);
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
