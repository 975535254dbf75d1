// kernels/cpu/conv.hpp: Conv and fused::Conv on the CPU.
//
// Algorithm: per image n and group g, Y_g (Mg x P) = W_g (Mg x K) * col (K x P)
// with P the output positions and K = C/G * prod(kernel). col is the im2col
// matrix (row (c, k1..kn), column p holds the input tap of position p, 0 in
// the padding); the f32 product is the packed SGEMM of sgemm.hpp with W_g
// packed once at prepare time, bias and activation clamp in its epilogue.
// With W packed, im2col writes col straight in the GEMM's packed-B panel
// layout (col_panels, sgemm_panels), so col is never packed a second time.
//   - 1x1, stride 1, no padding: col is X itself (C x P), no copy, and all P
//     columns go to one GEMM (it streams the weights once).
//   - depthwise 2-D (C/G == 1 and M/G == 1): planes of up to 64 x 64 padded
//     positions, where the ISA has it, 8 channels at a time interleaved by
//     f32_dwconv_interleaved (depthwise2d_interleaved); else per channel, the
//     ISA kernel f32_dwconv over a padded copy of the input plane
//     (depthwise2d_f32; float64 and dilation along W: the direct scalar loops
//     of depthwise2d).
//   - 3x3, stride 1, dilation 1, one group, where winograd::gain says so:
//     Winograd F(4x4, 3x3) (winograd.hpp), weights transformed at prepare time.
//   - other 2-D windows of more than one tap with W prepacked: the direct
//     path (conv_direct.hpp), the input split by stride phase and read in
//     place by the micro-kernel, no im2col.
//   - work split: columns of col in tiles of about 256 KiB of col, tasks over
//     images x groups x tiles with a serial GEMM each; when there are fewer
//     tasks than threads (small late layers at batch 1), the whole col is built
//     and the GEMM itself runs on the pool.
// The plan step picks the path and computes the geometry and the split once
// per input shape, and asks for the scratch: one col tile per thread (or the
// whole col), Winograd's or the depthwise kernel's per-thread buffers, and for
// float16 the float32 copies of X, W, B and Y. W not packed at prepare time
// (not constant) is read in place by the unpacked SGEMM. When every path the
// plan may pick reads a prepared form, prepare releases the raw W
// (consume_constant).
// float16 converts X (and W when it is not prepared) and B to float32 and Y
// back; float64 runs the same driver with a plain triple-loop product.
// fused::Conv's residual Z (Y = clamp(conv + Z)): on the f32 GEMM paths Y
// starts as Z (the planner usually gives Y Z's buffer, planned::
// overwrites_input, else Z is copied) and the GEMM accumulates into it
// (gemm_epilogue::accumulate), so the clamp still runs in the epilogue;
// other paths add Z after the conv, then clamp.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "kernels/cpu/conv_direct.hpp"
#include "kernels/cpu/padded_plane.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "kernels/cpu/winograd.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/conv.hpp"
#include "onyx/ops/fused/conv.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu {

/// Concrete sizes of one Conv run.
struct conv_geometry {
  std::vector<ops::detail::window_axis> axes;
  std::int64_t N = 0, C = 0, M = 0, G = 1, Cg = 0, Mg = 0;
  std::int64_t taps = 1;     // prod(kernel)
  std::int64_t K = 0;        // Cg * taps
  std::int64_t P = 1;        // output positions per channel
  std::int64_t in_size = 1;  // input positions per channel
  bool pointwise = false;    // 1x1, stride 1, no padding: col == X
  bool depthwise2d = false;
};

inline result<conv_geometry> make_conv_geometry(const ops::detail::conv_attributes& a, const extents& x,
                                                const extents& w) {
  if (x.size() < 3 || w.size() != x.size())
    return status(errc::invalid_argument,
                  "Conv needs X of rank >= 3 and W of the same rank, got X " + to_string(x) + " and W " + to_string(w));
  conv_geometry g;
  const std::size_t spatial = x.size() - 2;
  if (spatial > 8) return status(errc::unsupported, "Conv supports at most 8 spatial axes");
  ONYX_ASSIGN(auto win, ops::detail::conv_window(a, spatial, std::span(w).subspan(2)));
  ONYX_ASSIGN(g.axes, ops::detail::window_geometry(win, std::span(x).subspan(2)));
  g.N = x[0];
  g.C = x[1];
  g.M = w[0];
  g.G = a.group;
  if (g.G < 1 || g.C != w[1] * g.G || g.M % g.G != 0)
    return status(errc::invalid_argument,
                  "X " + to_string(x) + " and W " + to_string(w) + " do not agree with group " + std::to_string(g.G));
  g.Cg = w[1];
  g.Mg = g.M / g.G;
  g.pointwise = true;
  for (std::size_t i = 0; i < spatial; ++i) {
    const auto& ax = g.axes[i];
    if (ax.kernel != w[2 + i]) return status(errc::invalid_argument, "kernel_shape does not match W " + to_string(w));
    // An empty W or X may have any other extents (10^18): products in range or an error.
    if (__builtin_mul_overflow(g.taps, ax.kernel, &g.taps) || __builtin_mul_overflow(g.P, ax.out, &g.P) ||
        __builtin_mul_overflow(g.in_size, ax.in, &g.in_size))
      return status(errc::invalid_argument,
                    "X " + to_string(x) + " and W " + to_string(w) + " give window sizes past 64-bit integers");
    g.pointwise = g.pointwise && ax.kernel == 1 && ax.stride == 1 && ax.pad_begin == 0 && ax.pad_end == 0;
  }
  if (__builtin_mul_overflow(g.Cg, g.taps, &g.K))
    return status(errc::invalid_argument, "W " + to_string(w) + " gives a kernel size past 64-bit integers");
  g.depthwise2d = spatial == 2 && g.Cg == 1 && g.Mg == 1;
  return g;
}

namespace conv_detail {

inline std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

/// The output range [lo, hi) within [from, to) whose tap o*s + off lies in [0, in).
inline void valid_range(std::int64_t from, std::int64_t to, std::int64_t s, std::int64_t off, std::int64_t in,
                        std::int64_t& lo, std::int64_t& hi) {
  lo = std::clamp(ceil_div(-off, s), from, to);
  hi = std::clamp(floor_div(in - 1 - off, s) + 1, lo, to);
}

/// Where im2col puts row r of col: element j (position p0 + j) of the row.
/// `rows`: a plain matrix, row r at col + (r - r0) * width.
template <class T>
struct col_rows {
  T* col;
  std::int64_t r0, width;
  T* row(std::int64_t r) const { return col + (r - r0) * width; }
  static void zero(T* d, std::int64_t j, std::int64_t n) { std::fill_n(d + j, n, T(0)); }
  static void copy(T* d, std::int64_t j, const T* s, std::int64_t n, std::int64_t stride) {
    if constexpr (std::is_same_v<T, float>)
      isa::active().f32_strided_copy(s, stride, n, d + j);
    else if (stride == 1)
      std::copy_n(s, n, d + j);
    else
      for (std::int64_t i = 0; i < n; ++i) d[j + i] = s[i * stride];
  }
};

/// Output position p as one index per axis (the last axis fastest).
inline void unravel_output(std::int64_t p, const conv_geometry& g, std::int64_t* oidx) {
  for (std::size_t d = g.axes.size(); d-- > 0;) {
    oidx[d] = p % g.axes[d].out;
    p /= g.axes[d].out;
  }
}

/// The input row (the position over every axis but the last) that output
/// indices `oidx` read through kernel indices `kidx`, or false when it lies
/// in the padding.
inline bool leading_row(const conv_geometry& g, const std::int64_t* oidx, const std::int64_t* kidx,
                        std::int64_t& row) {
  bool inside = true;
  row = 0;
  for (std::size_t d = 0; d + 1 < g.axes.size(); ++d) {
    const auto& ax = g.axes[d];
    const std::int64_t i = oidx[d] * ax.stride + kidx[d] * ax.dilation - ax.pad_begin;
    inside = inside && i >= 0 && i < ax.in;
    row = row * ax.in + i;
  }
  return inside;
}

/// `panels`: the packed-B layout of sgemm_panels (full-K panels of nr
/// columns, element (r, j) at col[(j / nr) * K * nr + r * nr + j % nr]), so
/// the GEMM reads col without packing it again.
struct col_panels {
  float* col;
  std::int64_t K, nr;
  float* row(std::int64_t r) const { return col + r * nr; }
  template <class F>
  void split(std::int64_t j, std::int64_t n, F f) const {
    while (n > 0) {
      const std::int64_t in_panel = std::min(n, nr - j % nr);
      f((j / nr) * K * nr + j % nr, in_panel);
      j += in_panel;
      n -= in_panel;
    }
  }
  void zero(float* d, std::int64_t j, std::int64_t n) const {
    split(j, n, [&](std::int64_t at, std::int64_t k) { std::fill_n(d + at, k, 0.0f); });
  }
  void copy(float* d, std::int64_t j, const float* s, std::int64_t n, std::int64_t stride) const {
    const isa::f32_strided_copy_fn copy = isa::active().f32_strided_copy;
    split(j, n, [&](std::int64_t at, std::int64_t k) {
      copy(s, stride, k, d + at);
      s += k * stride;
    });
  }
};

/// Rows [r0, r1) of col (K rows, one column per output position in [p0, p1)
/// of one image and group), placed by `out` (col_rows or col_panels).
template <class T, class Out>
void im2col(const T* x, const conv_geometry& g, std::int64_t p0, std::int64_t p1, std::int64_t r0, std::int64_t r1,
            const Out& out) {
  const std::size_t n = g.axes.size();
  const auto& last = g.axes[n - 1];
  std::int64_t kidx[8], oidx[8];
  for (std::int64_t r = r0; r < r1; ++r) {
    T* dst = out.row(r);
    const T* xc = x + (r / g.taps) * g.in_size;
    for (std::int64_t rem = r % g.taps, d = static_cast<std::int64_t>(n); d-- > 0;) {
      kidx[d] = rem % g.axes[d].kernel;
      rem /= g.axes[d].kernel;
    }
    const std::int64_t off_last = kidx[n - 1] * last.dilation - last.pad_begin;
    for (std::int64_t p = p0; p < p1;) {
      unravel_output(p, g, oidx);
      const std::int64_t count = std::min(p1 - p, last.out - oidx[n - 1]);
      const std::int64_t j = p - p0;
      std::int64_t base;
      if (!leading_row(g, oidx, kidx, base)) {
        out.zero(dst, j, count);
      } else {
        const T* row = xc + base * last.in;
        const std::int64_t o0 = oidx[n - 1], o1 = o0 + count;
        std::int64_t lo, hi;
        valid_range(o0, o1, last.stride, off_last, last.in, lo, hi);
        out.zero(dst, j, lo - o0);
        if (hi > lo)  // else lo * stride may point anywhere (a stride of 10^18): form no such pointer
          out.copy(dst, j + (lo - o0), row + lo * last.stride + off_last, hi - lo, last.stride);
        out.zero(dst, j + (hi - o0), o1 - hi);
      }
      p += count;
    }
  }
}

/// col for a few output positions [p0, p1) (at most isa::gemm_few_n: a 1-D
/// conv over a few frames, a 2x2 map), transposed: column p - p0 as K
/// contiguous floats at colT + (p - p0) * K. Runs of taps along the last
/// axis are contiguous in X, so each is one copy, where im2col's row order
/// would cost a strided copy of a few elements per row of K.
inline void im2col_columns(const float* x, const conv_geometry& g, std::int64_t p0, std::int64_t p1, float* colT) {
  const std::size_t n = g.axes.size();
  const auto& last = g.axes[n - 1];
  const std::int64_t run = last.kernel;
  for (std::int64_t p = p0; p < p1; ++p) {
    float* dst = colT + (p - p0) * g.K;
    std::int64_t oidx[8], kidx[8] = {};
    unravel_output(p, g, oidx);
    const std::int64_t i0 = oidx[n - 1] * last.stride - last.pad_begin;
    // Taps [lo, hi) of a run land inside the row (dilation 1: one copy).
    std::int64_t lo = 0, hi = 0;
    if (last.dilation == 1) {
      lo = std::clamp<std::int64_t>(-i0, 0, run);
      hi = std::clamp<std::int64_t>(last.in - i0, lo, run);
    }
    for (std::int64_t r = 0; r < g.K; r += run) {
      float* out = dst + r;
      std::int64_t base;
      if (!leading_row(g, oidx, kidx, base)) {
        std::fill_n(out, run, 0.0f);
      } else {
        const float* row = x + (r / g.taps) * g.in_size + base * last.in;
        if (last.dilation == 1) {
          std::fill_n(out, lo, 0.0f);
          if (hi > lo) std::copy_n(row + i0 + lo, hi - lo, out + lo);  // else form no pointer outside the row
          std::fill_n(out + hi, run - hi, 0.0f);
        } else {
          for (std::int64_t k = 0; k < run; ++k) {
            const std::int64_t i = i0 + k * last.dilation;
            out[k] = i >= 0 && i < last.in ? row[i] : 0.0f;
          }
        }
      }
      for (std::size_t d = n - 1; d-- > 0;) {  // next kernel index along the other axes (then channel)
        if (++kidx[d] < g.axes[d].kernel) break;
        kidx[d] = 0;
      }
    }
  }
}

/// im2col for 2-D windows: the same rows as im2col, with each tap's valid
/// output columns worked out once per row rather than per output row (the
/// N-d loop divides per segment). With the ISA's strided copy, ResNet-50's
/// stride-2 3x3 layers went from 1.81 / 1.70 / 1.71 to 1.51 / 1.53 / 1.51 ms
/// and its 7x7 stem from 2.04 to 1.84 ms per run (1 thread, Zen 5).
template <class T, class Out>
void im2col2d(const T* x, const conv_geometry& g, std::int64_t p0, std::int64_t p1, std::int64_t r0, std::int64_t r1,
              const Out& out) {
  const auto& ah = g.axes[0];
  const auto& aw = g.axes[1];
  const std::int64_t oh0 = p0 / aw.out, oh1 = (p1 + aw.out - 1) / aw.out;
  for (std::int64_t r = r0; r < r1; ++r) {
    T* dst = out.row(r);
    const T* xc = x + (r / g.taps) * g.in_size;
    const std::int64_t kh = (r % g.taps) / aw.kernel, kw = r % aw.kernel;
    const std::int64_t off_h = kh * ah.dilation - ah.pad_begin, off_w = kw * aw.dilation - aw.pad_begin;
    std::int64_t lo, hi;  // output columns whose tap lies inside the row
    valid_range(0, aw.out, aw.stride, off_w, aw.in, lo, hi);
    for (std::int64_t oh = oh0; oh < oh1; ++oh) {
      // This output row's positions within [p0, p1), as columns [c0, c1).
      const std::int64_t c0 = std::max(p0 - oh * aw.out, std::int64_t{0});
      const std::int64_t c1 = std::min(p1 - oh * aw.out, aw.out);
      const std::int64_t j = oh * aw.out + c0 - p0;
      const std::int64_t ih = oh * ah.stride + off_h;
      if (ih < 0 || ih >= ah.in || hi <= lo) {
        out.zero(dst, j, c1 - c0);
        continue;
      }
      const std::int64_t a = std::clamp(lo, c0, c1), b = std::clamp(hi, a, c1);
      out.zero(dst, j, a - c0);
      if (b > a) out.copy(dst, j + (a - c0), xc + ih * aw.in + a * aw.stride + off_w, b - a, aw.stride);
      out.zero(dst, j + (b - c0), c1 - b);
    }
  }
}

/// Depthwise 2-D: Y[c] = b[c] + sum_taps w[c, kh, kw] * X[c, shifted], clamped.
template <class T>
void depthwise2d(const T* x, const T* w, const T* bias, T* y, const conv_geometry& g, float lo, float hi,
                 const thread_pool* pool) {
  const auto& ah = g.axes[0];
  const auto& aw = g.axes[1];
  const bool clamp = lo > -std::numeric_limits<float>::infinity() || hi < std::numeric_limits<float>::infinity();
  parallel_for(pool, g.N * g.C, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t nc = b; nc < e; ++nc) {
      const std::int64_t c = nc % g.C;
      const T* xc = x + nc * g.in_size;
      const T* wc = w + c * g.taps;
      T* yc = y + nc * g.P;
      std::fill_n(yc, g.P, bias ? bias[c] : T(0));
      for (std::int64_t kh = 0; kh < ah.kernel; ++kh) {
        const std::int64_t offh = kh * ah.dilation - ah.pad_begin;
        std::int64_t oh0, oh1;
        valid_range(0, ah.out, ah.stride, offh, ah.in, oh0, oh1);
        for (std::int64_t kw = 0; kw < aw.kernel; ++kw) {
          const T wv = wc[kh * aw.kernel + kw];
          const std::int64_t offw = kw * aw.dilation - aw.pad_begin;
          std::int64_t ow0, ow1;
          valid_range(0, aw.out, aw.stride, offw, aw.in, ow0, ow1);
          if (ow1 <= ow0) continue;  // no tap inside: offw may be anything (a pad of 10^18)
          for (std::int64_t oh = oh0; oh < oh1; ++oh) {
            // Pointers to the first tap read and its output, both inside their rows.
            const T* xr = xc + (oh * ah.stride + offh) * aw.in + (ow0 * aw.stride + offw);
            T* yr = yc + oh * aw.out + ow0;
            const std::int64_t n = ow1 - ow0;
            if (aw.stride == 1)
              for (std::int64_t i = 0; i < n; ++i) yr[i] += wv * xr[i];
            else
              for (std::int64_t i = 0; i < n; ++i) yr[i] += wv * xr[i * aw.stride];
          }
        }
      }
      if (clamp)
        for (std::int64_t i = 0; i < g.P; ++i) yc[i] = std::min<T>(std::max<T>(yc[i], T(lo)), T(hi));
    }
  });
}

/// Depthwise 2-D in f32 with dilation 1 along W: per channel, the padded
/// input plane is copied once (split by phase for strided W), then each
/// output row is computed by the ISA kernel with all taps in registers.
/// The scalar depthwise2d ran ShuffleNet's 3x3 layers at ~4 GFLOP/s.
/// With `w2`, d is make_unphased_plane's layout and f32_dwconv_w2 runs.
inline void depthwise2d_f32(const float* x, const float* w, const float* bias, float* y, const conv_geometry& g,
                            const padded_plane& d, bool w2, float lo, float hi, float* scratch, std::int64_t slots,
                            const thread_pool* pool) {
  const auto& ah = g.axes[0];
  const auto& aw = g.axes[1];
  const auto copied = w2 ? unit_stride(aw) : aw;  // how the rows are copied into d
  const isa::table& t = isa::active();
  const isa::f32_dwconv_fn kernel = w2 ? t.f32_dwconv_w2 : t.f32_dwconv;
  const bool clamp = lo > -std::numeric_limits<float>::infinity() || hi < std::numeric_limits<float>::infinity();
  const std::int64_t planes = g.N * g.C;
  parallel_for(pool, slots, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t slot = b; slot < e; ++slot) {
      float* buf = scratch + slot * d.slot_elements;
      fill_padding(d, buf, 0.0f);  // the same in every channel: once per thread
      for (std::int64_t nc = planes * slot / slots; nc < planes * (slot + 1) / slots; ++nc) {
        const std::int64_t c = nc % g.C;
        copy_plane(d, ah, copied, x + nc * g.in_size, buf, t);
        isa::dwconv_args a{};
        set_window(a, d, ah, aw, buf, y + nc * g.P);
        a.w = w + c * g.taps;
        a.bias = bias ? bias[c] : 0.0f;
        a.clamp = clamp;
        a.min = lo;
        a.max = hi;
        kernel(a);
      }
    }
  });
}

/// Whether a depthwise 2-D convolution takes the interleaved kernel
/// (isa::table::f32_dwconv_interleaved, L channels a group): small planes,
/// where the row kernel's per-channel plane copy and call, and the lanes a
/// short row leaves empty, cost more than its FMAs. ShuffleNet's 3x3 layers
/// (conv_bench, 1 thread, Zen 3), row kernel against interleaved: see
/// bench/README.md's twenty-second stop.
inline bool dw_interleaved_fits(const conv_geometry& g, std::int64_t L) {
  if (!g.depthwise2d || L <= 0 || g.taps > isa::dwconv_interleaved_max_taps || g.N * g.C <= 0 || g.P <= 0) return false;
  const auto& ah = g.axes[0];
  const auto& aw = g.axes[1];
  if (ah.stride < 1 || aw.stride < 1 || ah.dilation < 1 || aw.dilation < 1) return false;
  const double padded = plane_extent_bound(ah) * plane_extent_bound(aw);
  return padded <= 64.0 * 64.0 && padded_copy_fits(padded, ah.in, aw.in) &&
         static_cast<double>(ah.out) * static_cast<double>(aw.out) <= isa::dwconv_interleaved_max_positions;
}

/// Floats of one thread's buffer for depthwise2d_interleaved (whole cache lines).
inline std::int64_t dw_interleaved_slot(std::int64_t h, std::int64_t w, std::int64_t L) {
  return ((h * w + L) * L + 15) / 16 * 16;  // L positions of slack (f32_dwconv_interleaved)
}

/// The depthwise convolution by groups of L channels, each group through
/// f32_dwconv_interleaved in one thread's buffer (its padding zeroed once).
inline void depthwise2d_interleaved(const float* x, const float* w, const float* bias, float* y, const conv_geometry& g,
                                    std::int64_t ph, std::int64_t pw, float lo, float hi, float* scratch,
                                    std::int64_t slots, const thread_pool* pool) {
  const auto& ah = g.axes[0];
  const auto& aw = g.axes[1];
  const isa::table& t = isa::active();
  const int L = t.dwconv_interleaved_lanes;
  const std::int64_t per_image = (g.C + L - 1) / L, groups = g.N * per_image;
  const std::int64_t slot_elements = dw_interleaved_slot(ph, pw, L);
  // What every call shares; each call sets its channels, planes and buffer.
  isa::dwconv_interleaved_args shape{};
  shape.x_stride = g.in_size;
  shape.in_h = ah.in;
  shape.in_w = aw.in;
  shape.kh = ah.kernel;
  shape.kw = aw.kernel;
  shape.stride_h = ah.stride;
  shape.stride_w = aw.stride;
  shape.dilation_h = ah.dilation;
  shape.dilation_w = aw.dilation;
  shape.pad_top = ah.pad_begin;
  shape.pad_left = aw.pad_begin;
  shape.padded_h = ph;
  shape.padded_w = pw;
  shape.out_h = ah.out;
  shape.out_w = aw.out;
  shape.clamp = lo > -std::numeric_limits<float>::infinity() || hi < std::numeric_limits<float>::infinity();
  shape.min = lo;
  shape.max = hi;
  shape.y_stride = g.P;
  parallel_for(pool, slots, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t slot = b; slot < e; ++slot) {
      float* const buf = scratch + slot * slot_elements;
      std::fill_n(buf, ph * pw * L, 0.0f);
      // The slot's groups, one call per image they touch.
      isa::dwconv_interleaved_args a = shape;
      a.buf = buf;
      for (std::int64_t gi = groups * slot / slots, ge = groups * (slot + 1) / slots; gi < ge;) {
        const std::int64_t n = gi / per_image, c0 = (gi % per_image) * L;
        const std::int64_t gn = std::min(ge, (n + 1) * per_image);  // this image's groups end
        const std::int64_t c1 = std::min(g.C, (gn - n * per_image) * L);
        gi = gn;
        a.x = x + (n * g.C + c0) * g.in_size;
        a.channels = static_cast<int>(c1 - c0);
        a.w = w + c0 * g.taps;
        a.bias = bias ? bias + c0 : nullptr;
        a.y = y + (n * g.C + c0) * g.P;
        t.f32_dwconv_interleaved(a);
      }
    }
  });
}

/// Y (Mg x width, row stride ldc) = W_g * B (K x width, row stride ldb) + bias, clamped.
/// f32: the packed SGEMM (W packed at prepare time, else read in place by the
/// unpacked SGEMM); f64: a plain product.
template <class T>
struct group_gemm;

template <>
struct group_gemm<float> {
  const std::vector<packed_a>* packed;  // null: W not packed
  const float* w;
  const float* bias;
  float lo, hi;
  std::int64_t Mg, K;
  bool accumulate = false;  // Y holds a residual to add to
  gemm_epilogue epilogue(std::int64_t grp) const {
    gemm_epilogue ep;
    ep.accumulate = accumulate;
    if (bias) {
      ep.bias = bias + grp * Mg;
      ep.kind = gemm_epilogue::bias_kind::per_row;
    }
    ep.min = lo;
    ep.max = hi;
    return ep;
  }
  /// Whether col may be built as packed panels (W prepacked).
  bool takes_panels() const { return packed != nullptr; }
  /// Y = W_g * col with col given transposed (width rows of K, im2col_columns).
  void columns(std::int64_t grp, const float* col_t, std::int64_t width, float* y, std::int64_t ldc,
               const thread_pool* pool) const {
    product(grp, true, col_t, K, width, y, ldc, pool);
  }
  /// Y = W_g * col with col already in sgemm_panels' layout.
  void panels(std::int64_t grp, const float* b, std::int64_t width, float* y, std::int64_t ldc,
              const thread_pool* pool) const {
    sgemm_panels(Mg, width, K, (*packed)[static_cast<std::size_t>(grp)], b, y, ldc, pool, epilogue(grp));
  }
  void operator()(std::int64_t grp, const float* b, std::int64_t ldb, std::int64_t width, float* y, std::int64_t ldc,
                  const thread_pool* pool) const {
    product(grp, false, b, ldb, width, y, ldc, pool);
  }
  /// Y = W_g * op(B), B (K x width) or, trans_b, its transpose (width x K).
  void product(std::int64_t grp, bool trans_b, const float* b, std::int64_t ldb, std::int64_t width, float* y,
               std::int64_t ldc, const thread_pool* pool) const {
    const gemm_epilogue ep = epilogue(grp);
    if (packed)
      sgemm_packed(trans_b, Mg, width, K, 1.0f, (*packed)[static_cast<std::size_t>(grp)], b, ldb, 0.0f, y, ldc, pool,
                   ep);
    else
      sgemm(false, trans_b, Mg, width, K, 1.0f, w + grp * Mg * K, K, b, ldb, 0.0f, y, ldc, pool, ep);
  }
};

template <>
struct group_gemm<double> {
  const double* w;
  const double* bias;
  float lo, hi;
  std::int64_t Mg, K;
  bool takes_panels() const { return false; }
  void columns(std::int64_t, const double*, std::int64_t, double*, std::int64_t, const thread_pool*) const {}
  void panels(std::int64_t, const double*, std::int64_t, double*, std::int64_t, const thread_pool*) const {}
  void operator()(std::int64_t grp, const double* b, std::int64_t ldb, std::int64_t width, double* y, std::int64_t ldc,
                  const thread_pool*) const {
    for (std::int64_t i = 0; i < Mg; ++i) {
      const double* wr = w + (grp * Mg + i) * K;
      double* yr = y + i * ldc;
      std::fill_n(yr, width, bias ? bias[grp * Mg + i] : 0.0);
      for (std::int64_t k = 0; k < K; ++k) {
        const double wk = wr[k];
        const double* br = b + k * ldb;
        for (std::int64_t j = 0; j < width; ++j) yr[j] += wk * br[j];
      }
      for (std::int64_t j = 0; j < width; ++j) yr[j] = std::min<double>(std::max<double>(yr[j], lo), hi);
    }
  }
};

/// The driver's work split for one shape, chosen by `plan`.
struct conv_split {
  bool tiled = true;               // tasks over images x groups x column tiles, one col tile per thread
  std::int64_t tile = 0;           // columns per tile
  std::int64_t tiles = 0;          // tiles per (image, group)
  std::int64_t tasks = 0;          // N * G * tiles
  std::int64_t slots = 1;          // threads: one col tile each (tiled)
  std::int64_t slot_elements = 0;  // distance between two threads' col tiles
  std::int64_t col_elements = 0;   // scratch for col, in elements of T (0 when pointwise)
};

/// im2col tiles of about 64 Ki elements of col (256 KiB in f32), in whole
/// micro-kernel columns (nr), keep a tile of col in L2 while its GEMM runs
/// and read the packed weights once per tile; 1x1 convolutions need no col
/// and take all P columns in one GEMM, which streams the weights once (1x1
/// layers of ResNet-50 ran at 45-64 GFLOP/s in 64-column tiles, 80-95 whole).
/// With fewer tasks than threads (small late layers at batch 1), the whole
/// col is built and the GEMM itself runs on the pool.
inline conv_split split_conv(const conv_geometry& g, std::int64_t threads) {
  conv_split s;
  const std::int64_t nr = isa::active().gemm_nr;
  if (g.pointwise) {
    s.tile = g.P;
  } else {
    const std::int64_t cols = std::max<std::int64_t>(2 * nr, (std::int64_t{64} << 10) / std::max<std::int64_t>(g.K, 1));
    s.tile = std::min(cols / nr * nr, g.P);
  }
  s.tiles = s.tile > 0 ? (g.P + s.tile - 1) / s.tile : 0;
  if (!g.pointwise && s.tiles > 0) {
    // Tiles of equal size in whole panels (conv_driver's tile_range), as
    // many per (image, group) as it takes for the tasks to be a multiple of
    // the threads: ResNet-50's 256 -> 512 stride-2 1x1 layer had tiles of
    // 256, 256, 256 and 16 columns, two per thread, one thread idle 40% of
    // the time.
    const std::int64_t panels = (g.P + nr - 1) / nr, groups = g.N * g.G;
    std::int64_t tiles = s.tiles;
    while (threads > 1 && (groups * tiles) % threads != 0 && tiles < panels) ++tiles;
    if ((groups * tiles) % threads == 0 || threads == 1) s.tiles = tiles;
    s.tile = (panels + s.tiles - 1) / s.tiles * nr;  // the largest tile
  }
  s.tasks = g.N * g.G * s.tiles;
  s.tiled = s.tasks >= threads || threads == 1;
  s.slots = s.tiled ? threads : 1;
  // Tiles are about 64 Ki elements, so back to back they would sit a power of
  // two apart and map to the same cache sets; one cache line more between them.
  // Room for whole panels of nr columns (col_panels).
  const auto whole = [nr](std::int64_t cols) { return (cols + nr - 1) / nr * nr; };
  s.slot_elements = (g.K * whole(s.tile) + 15) / 16 * 16 + 16;
  if (!g.pointwise) s.col_elements = s.tiled ? s.slots * s.slot_elements : g.K * whole(g.P);
  return s;
}

/// The im2col + GEMM driver over images, groups and column tiles; `col`
/// holds split.col_elements elements of scratch.
///
/// Between tiles (and between images and groups) it checks `c`'s
/// stop_requested and returns false, leaving Y partly written, when the run
/// was told to stop: one Conv over a huge map can otherwise outlast any
/// run deadline (a fuzzed model asked for 10^13 multiply-adds).
template <class T, class Gemm>
bool conv_driver(const T* x, T* y, const conv_geometry& g, const conv_split& sp, T* col, const Gemm& gemm,
                 const thread_pool* pool, const kernel_call& c) {
  const std::int64_t x_group = g.Cg * g.in_size, y_group = g.Mg * g.P;
  const std::int64_t tile = sp.tile, tiles = sp.tiles, tasks = sp.tasks, slots = sp.slots;
  const std::int64_t nr = isa::active().gemm_nr;
  // Tile i's columns [p0, p1): whole tiles of `tile` for a 1x1 conv (one tile
  // of all P), else tiles within one panel of each other (split_conv).
  const std::int64_t p_panels = (g.P + nr - 1) / nr;
  const auto tile_range = [&](std::int64_t i) -> std::pair<std::int64_t, std::int64_t> {
    if (g.pointwise) return {i * tile, std::min((i + 1) * tile, g.P)};
    return {std::min(p_panels * i / tiles * nr, g.P), std::min(p_panels * (i + 1) / tiles * nr, g.P)};
  };
  // f32 with prepacked W: im2col writes the GEMM's packed panels directly.
  const bool panels = std::is_same_v<T, float> && gemm.takes_panels();
  // f32 over a few positions: col transposed (im2col_columns) for the
  // GEMM's few-column kernel, which reads it in place.
  const bool few = std::is_same_v<T, float> && !g.pointwise && g.P <= isa::gemm_few_n;
  const auto build_col = [&](const T* xg, std::int64_t p0, std::int64_t p1, T* dst) {
    const bool plane = g.axes.size() == 2;
    if constexpr (std::is_same_v<T, float>)
      if (panels)
        return plane ? im2col2d(xg, g, p0, p1, 0, g.K, col_panels{dst, g.K, nr})
                     : im2col(xg, g, p0, p1, 0, g.K, col_panels{dst, g.K, nr});
    if (plane)
      im2col2d(xg, g, p0, p1, 0, g.K, col_rows<T>{dst, 0, p1 - p0});
    else
      im2col(xg, g, p0, p1, 0, g.K, col_rows<T>{dst, 0, p1 - p0});
  };

  if (sp.tiled) {
    // One contiguous range of tasks per slot, as parallel_for would split them.
    std::atomic<bool> stop{false};
    parallel_for(pool, slots, 1, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t slot = b; slot < e; ++slot) {
        T* cs = col ? col + slot * sp.slot_elements : nullptr;
        for (std::int64_t t = tasks * slot / slots; t < tasks * (slot + 1) / slots; ++t) {
          if (stop.load(std::memory_order_relaxed) || c.stop_requested()) {
            stop.store(true, std::memory_order_relaxed);
            return;
          }
          const std::int64_t ng = t / tiles;
          const auto [p0, p1] = tile_range(t % tiles);
          const T* xg = x + ng * x_group;
          T* yg = y + ng * y_group + p0;
          if (g.pointwise) {
            gemm(ng % g.G, xg + p0, g.P, p1 - p0, yg, g.P, nullptr);
          } else if (few) {
            if constexpr (std::is_same_v<T, float>) im2col_columns(xg, g, p0, p1, cs);
            gemm.columns(ng % g.G, cs, p1 - p0, yg, g.P, nullptr);
          } else {
            build_col(xg, p0, p1, cs);
            if (panels)
              gemm.panels(ng % g.G, cs, p1 - p0, yg, g.P, nullptr);
            else
              gemm(ng % g.G, cs, p1 - p0, p1 - p0, yg, g.P, nullptr);
          }
        }
      }
    });
    return !stop.load();
  }
  // Few large GEMMs: whole col per (image, group), im2col and GEMM on the pool.
  for (std::int64_t ng = 0; ng < g.N * g.G; ++ng) {
    if (c.stop_requested()) return false;
    const T* xg = x + ng * x_group;
    T* yg = y + ng * y_group;
    if (g.pointwise) {
      gemm(ng % g.G, xg, g.P, g.P, yg, g.P, pool);
    } else if (few) {
      if constexpr (std::is_same_v<T, float>) im2col_columns(xg, g, 0, g.P, col);
      gemm.columns(ng % g.G, col, g.P, yg, g.P, pool);
    } else if (panels) {
      // Split by panels of nr columns: a panel is K rows of nr taps, each a
      // strided gather with a padding test (about 8 units of grain_for's work).
      const std::int64_t n_panels = (g.P + nr - 1) / nr;
      parallel_for(pool, n_panels, grain_for(8 * g.K * nr), [&](std::int64_t b, std::int64_t e) {
        build_col(xg, b * nr, std::min(e * nr, g.P), col + b * g.K * nr);
      });
      gemm.panels(ng % g.G, col, g.P, yg, g.P, pool);
    } else {
      parallel_for(pool, g.K, grain_for(8 * g.P), [&](std::int64_t r0, std::int64_t r1) {
        if (g.axes.size() == 2)
          im2col2d(xg, g, 0, g.P, r0, r1, col_rows<T>{col, 0, g.P});
        else
          im2col(xg, g, 0, g.P, r0, r1, col_rows<T>{col, 0, g.P});
      });
      gemm(ng % g.G, col, g.P, g.P, yg, g.P, pool);
    }
  }
  return true;
}

/// What prepare keeps: W_g packed per group (f32 and f16, when W is constant),
/// and W transformed for Winograd where that path may be taken.
struct conv_state {
  std::vector<packed_a> packed;
  winograd::weights winograd;  // U (36 matrices M x C), or empty
  float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
};

inline std::vector<packed_a> pack_groups(const float* w, std::int64_t G, std::int64_t Mg, std::int64_t K) {
  std::vector<packed_a> packed;
  packed.reserve(static_cast<std::size_t>(G));
  for (std::int64_t grp = 0; grp < G; ++grp) packed.push_back(pack_a(false, Mg, K, w + grp * Mg * K, K));
  return packed;
}

/// The Winograd shape of a 2-D 3x3 stride-1 dilation-1 one-group convolution, if it is one.
inline std::optional<winograd::shape> winograd_shape(const conv_geometry& g) {
  if (g.axes.size() != 2 || g.G != 1) return std::nullopt;
  for (const auto& ax : g.axes)
    if (ax.kernel != 3 || ax.stride != 1 || ax.dilation != 1) return std::nullopt;
  return winograd::shape{g.N, g.C, g.M, g.axes[0].in, g.axes[1].in, g.axes[0].out, g.axes[1].out,
                         g.axes[0].pad_begin, g.axes[1].pad_begin};
}

/// Whether a shape takes the direct path (conv_direct.hpp) when W is
/// prepacked: 2-D, a window of more than one tap, not depthwise
/// (Winograd, where it applies, is chosen first). A 1x1 window at stride 2
/// stays with im2col's subsampled copy and the GEMM: ResNet-50's three ran
/// 1.15 / 0.95 / 0.99 ms that way and 1.16 / 1.05 / 1.03 ms direct (1 thread).
/// So does a short K (Cg * taps below direct_min_k): a 3-channel stem's
/// product is too short to pay for the direct path's phase planes and the
/// staging of panels that cross a row's end. conv_bench, 1 / 2 threads, us,
/// direct against im2col (Zen 5, three alternations each, the third shown):
/// K = 27, SqueezeNet's 3x3 s2 stem 370 / 361 against 330 / 208, VGG's 3x3
/// s1 1755 / 1048 against 1356 / 768; K = 48, a 4x4 s4 patch stem 285 / 242
/// against 258 / 144. Above it direct wins: K = 75 (5x5 s2) 376 / 290
/// against 551 / 410, ResNet-50's 7x7 stem (K = 147) 1331 / 809 against
/// 1666 / 1201.
inline constexpr std::int64_t direct_min_k = 64;
inline bool direct_candidate(const conv_geometry& g) {
  return g.axes.size() == 2 && g.taps > 1 && !g.depthwise2d && g.P > isa::gemm_few_n && g.K >= direct_min_k;
}

/// Minimum winograd::gain for the Winograd path (see there).
constexpr double winograd_min_gain = 1.5;

/// Whether prepare should transform W for Winograd: a 3x3 stride-1 kernel of
/// one group, and either X's shape unknown or a shape where the path wins.
inline bool winograd_candidate(const ops::detail::conv_attributes& a, const prepare_info_base& p, const tensor& w) {
  if (w.rank() != 4 || w.dim(2) != 3 || w.dim(3) != 3 || a.group != 1 || w.dim(1) < 8 || w.dim(0) < 8) return false;
  for (auto v : a.strides)
    if (v != 1) return false;
  for (auto v : a.dilations)
    if (v != 1) return false;
  const auto x = p.input(0).shape.concrete_extents();
  if (!x) return true;
  auto g = make_conv_geometry(a, *x, w.shape());
  if (!g) return false;
  const auto ws = winograd_shape(*g);
  return ws && winograd::gain(*ws) >= winograd_min_gain;
}

template <dtype D>
result<conv_state> prepare(const ops::detail::conv_attributes& a, const prepare_info_base& p, float lo, float hi) {
  conv_state s;
  s.lo = lo;
  s.hi = hi;
  const tensor* w = p.constant(1);
  if constexpr (D != dtype::float64) {
    if (w && w->rank() >= 3 && a.group >= 1 && w->dim(0) % a.group == 0) {
      const std::int64_t Mg = w->dim(0) / a.group, K = w->size() / std::max<std::int64_t>(w->dim(0), 1);
      if (Mg * K > 0 && !(w->rank() == 4 && w->dim(1) == 1 && Mg == 1)) {  // depthwise reads W directly
        std::vector<float> widened;
        const float* wf;
        if constexpr (D == dtype::float32) {
          wf = w->data<float>();
        } else {
          widened.resize(static_cast<std::size_t>(w->size()));
          onyx::widen(*w, std::span<float>(widened));
          wf = widened.data();
        }
        const bool wino = winograd_candidate(a, p, *w);
        if (wino) s.winograd = winograd::transform_weights(wf, w->dim(0), w->dim(1));
        // With X's shape known and Winograd chosen, the im2col form is not
        // packed (4x the weights are enough); a later shape that prefers
        // im2col reads W in place.
        if (!wino || !p.input(0).shape.concrete_extents()) s.packed = pack_groups(wf, a.group, Mg, K);
        // Every path run may take reads a prepared form: the packed W, or (X's
        // shape fixed, so plan picks the same path) the Winograd transform.
        if (!s.packed.empty() || p.input(0).shape.concrete_extents()) p.consume_constant(1);
      }
    }
  }
  return s;
}

/// What `plan` fixes per input shape: the geometry, the path (Winograd,
/// depthwise rows, or im2col + GEMM with its work split), whether the
/// prepared W fits, and the scratch offsets: `work` holds the chosen path's
/// buffers (col tiles, Winograd's V and M, or the padded planes), then the
/// float16 copies.
struct conv_plan {
  conv_geometry g;
  conv_split split;
  bool prepacked = false;
  bool winograd = false;
  winograd::plan wplan;
  bool dw_rows = false;  // depthwise2d_f32
  bool dw_w2 = false;    // ... on f32_dwconv_w2 (an unphased plane)
  padded_plane dw;
  bool direct = false;  // conv_direct.hpp
  conv_direct::layout dl;
  std::int64_t dw_slots = 1;
  bool dw_interleaved = false;  // depthwise2d_interleaved, planes of dwi_h x dwi_w positions
  std::int64_t dwi_h = 0, dwi_w = 0;
  bool residual_in_gemm = false;  // fused::Conv's Z accumulated by the f32 GEMM (Y starts as Z)
  std::size_t work = 0, x32 = 0, w32 = 0, b32 = 0, y32 = 0, z32 = 0;  // scratch offsets
};

/// Y = clamp(Y + Z, lo, hi) elementwise (a residual added after a path
/// that cannot take it in its epilogue).
template <class T>
void add_residual(T* y, const T* z, std::int64_t n, float lo, float hi, const thread_pool* pool) {
  parallel_for(pool, n, grain_for(1), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) y[i] = std::min<T>(std::max<T>(y[i] + z[i], T(lo)), T(hi));
  });
}

template <dtype D>
result<planned<conv_plan>> plan(const ops::detail::conv_attributes& a, const plan_info_base& p) {
  planned<conv_plan> r;
  conv_plan& cp = r.plan;
  const extents x = p.input_shape(0), w = p.input_shape(1);
  ONYX_ASSIGN(cp.g, make_conv_geometry(a, x, w));
  const conv_geometry& g = cp.g;
  const std::int64_t threads = p.pool() ? p.pool()->size() : 1;
  scratch_layout layout;
  if constexpr (D != dtype::float64) {
    const conv_state& s = p.state<conv_state>();
    cp.prepacked = static_cast<std::int64_t>(s.packed.size()) == g.G && g.G > 0 && s.packed[0].rows() == g.Mg &&
                   s.packed[0].cols() == g.K && s.packed[0].isa() == isa::active().isa;
    if (const auto ws = winograd_shape(g); ws && !s.winograd.empty() && s.winograd.isa() == isa::active().isa &&
                                           s.winograd.M == g.M && s.winograd.C == g.C &&
                                           winograd::gain(*ws) >= winograd_min_gain) {
      cp.winograd = true;
      cp.wplan = winograd::make_plan(*ws, threads);
      cp.work = layout.add<float>(cp.wplan.slots * cp.wplan.slot_elements);
    } else if (const std::int64_t L = isa::active().dwconv_interleaved_lanes; dw_interleaved_fits(g, L)) {
      cp.dw_interleaved = true;
      cp.dwi_h = plane_extent(g.axes[0]);
      cp.dwi_w = plane_extent(g.axes[1]);
      const std::int64_t groups = g.N * ((g.C + L - 1) / L);
      const std::int64_t work = L * (g.P * g.taps + g.in_size);  // a group's taps plus its transposes
      cp.dw_slots = std::clamp<std::int64_t>(groups * work / grain_for(1), 1, std::min(threads, groups));
      cp.work = layout.add<float>(cp.dw_slots * dw_interleaved_slot(cp.dwi_h, cp.dwi_w, L));
    } else if (g.depthwise2d && fits_padded_plane(g.axes[0], g.axes[1])) {
      cp.dw_rows = true;
      const auto& ah = g.axes[0];
      const auto& aw = g.axes[1];
      // 3x3 and 5x5 with stride 2 along W: the taps split in registers
      // where the ISA has that kernel, not the plane copied into phases
      // (the strided copies were half of such a layer's time).
      cp.dw_w2 = isa::active().f32_dwconv_w2 && aw.stride == 2 && ah.kernel == aw.kernel &&
                 (aw.kernel == 3 || aw.kernel == 5) && (ah.stride == 1 || ah.stride == 2) && ah.dilation == 1;
      cp.dw = cp.dw_w2 ? make_unphased_plane(ah, aw, isa::dwconv_w2_slack) : make_padded_plane(ah, aw);
      // A plane's work: taps per output plus copying the input once.
      const std::int64_t work = g.P * g.taps + g.in_size;
      cp.dw_slots = std::clamp<std::int64_t>(g.N * g.C * work / grain_for(1), 1, std::min(threads, g.N * g.C));
      cp.work = layout.add<float>(cp.dw_slots * cp.dw.slot_elements);
    } else if (cp.prepacked && direct_candidate(g)) {
      const isa::table& t = isa::active();
      if (auto dl = conv_direct::make_layout(g.axes[0], g.axes[1], g.G, g.Cg, g.Mg, t.gemm_mr, t.gemm_nr, threads)) {
        cp.direct = true;
        cp.dl = std::move(*dl);
        cp.work = layout.add<float>(cp.dl.input_elements + cp.dl.slots * cp.dl.stage_elements);
      }
    }
  }
  if (!g.depthwise2d && !cp.winograd && !cp.direct) {
    cp.split = split_conv(g, threads);
    using T = std::conditional_t<D == dtype::float64, double, float>;
    cp.work = layout.add<T>(cp.split.col_elements);
  }
  if (p.has_input(3)) {  // fused::Conv's residual: Y's shape exactly
    extents y{g.N, g.M};
    for (const auto& ax : g.axes) y.push_back(ax.out);
    if (p.input_shape(3) != y)
      return status(errc::invalid_argument,
                    "Z has shape " + to_string(p.input_shape(3)) + ", expected Y's shape " + to_string(y));
    // Y may take Z's buffer where the GEMM accumulates into Y; the other
    // paths write Y before they add Z.
    cp.residual_in_gemm = D == dtype::float32 && !cp.winograd && !g.depthwise2d;
    if (cp.residual_in_gemm) r.overwrites_input = 3;
  }
  if constexpr (D == dtype::float16) {
    cp.x32 = layout.add<float>(element_count(x));
    cp.w32 = layout.add<float>(element_count(w));
    if (p.has_input(2)) cp.b32 = layout.add<float>(element_count(p.input_shape(2)));
    cp.y32 = layout.add<float>(g.N * g.M * g.P);
    if (p.has_input(3)) cp.z32 = layout.add<float>(g.N * g.M * g.P);
  }
  r.scratch_bytes = layout.bytes;
  return r;
}

template <dtype D>
status run(const kernel_call& c) {
  const conv_state& s = c.state<conv_state>();
  const conv_plan& cp = c.plan<conv_plan>();
  const conv_geometry& g = cp.g;
  const tensor& x = c.input(0);
  const tensor& w = c.input(1);
  tensor& y = c.output(0);
  if (y.size() == 0 || g.K == 0) {
    if (y.size() != 0 && g.K == 0) return status(errc::invalid_argument, "Conv with an empty kernel");
    return ok();
  }
  if (!w.raw() && !cp.prepacked && !cp.winograd)  // consumed by prepare, yet this shape needs it raw
    return status(errc::internal, "Conv: W was released after packing, but X's shape " + to_string(x.shape()) +
                                      " needs a path that reads it unpacked");
  const bool has_bias = c.has_input(2);
  if (has_bias && c.input(2).size() != g.M)
    return status(errc::invalid_argument,
                  "B has " + std::to_string(c.input(2).size()) + " values, expected " + std::to_string(g.M));
  const bool residual = c.has_input(3);
  if (residual && c.input(3).size() != y.size())
    return status(errc::invalid_argument, "Z has shape " + to_string(c.input(3).shape()) + ", expected Y's shape " +
                                              to_string(y.shape()));
  constexpr float no_min = -std::numeric_limits<float>::infinity(), no_max = std::numeric_limits<float>::infinity();

  if constexpr (D == dtype::float64) {
    const double* b = has_bias ? c.input(2).data<double>() : nullptr;
    const float lo = residual ? no_min : s.lo, hi = residual ? no_max : s.hi;  // clamped after Z is added
    if (g.depthwise2d)
      depthwise2d(x.data<double>(), w.data<double>(), b, y.data<double>(), g, lo, hi, c.pool());
    else if (!conv_driver(x.data<double>(), y.data<double>(), g, cp.split, c.scratch_at<double>(cp.work),
                          group_gemm<double>{w.data<double>(), b, lo, hi, g.Mg, g.K}, c.pool(), c))
      return kernel_call::stopped();
    if (residual) add_residual(y.data<double>(), c.input(3).data<double>(), y.size(), s.lo, s.hi, c.pool());
    return ok();
  } else {
    // float32 views of X, W, B, Y (float16: copies in the scratch).
    const float* xp;
    const float* wp;
    const float* bp = nullptr;
    float* yp;
    if constexpr (D == dtype::float32) {
      xp = x.data<float>();
      wp = w.data<float>();
      if (has_bias) bp = c.input(2).data<float>();
      yp = y.data<float>();
    } else {
      float* xf = c.scratch_at<float>(cp.x32);
      float* wf = c.scratch_at<float>(cp.w32);
      onyx::widen(x, std::span<float>(xf, static_cast<std::size_t>(x.size())));
      if (!cp.prepacked && !cp.winograd)  // else the prepared forms hold W
        onyx::widen(w, std::span<float>(wf, static_cast<std::size_t>(w.size())));
      if (has_bias) {
        float* bf = c.scratch_at<float>(cp.b32);
        onyx::widen(c.input(2), std::span<float>(bf, static_cast<std::size_t>(c.input(2).size())));
        bp = bf;
      }
      xp = xf;
      wp = wf;
      yp = c.scratch_at<float>(cp.y32);
    }
    // The residual: accumulated by the f32 GEMM (Y starts as Z), else added
    // after the conv (zp, float32), and then the clamp.
    const bool accumulate = residual && cp.residual_in_gemm;
    const float* zp = nullptr;
    if (residual) {
      if constexpr (D == dtype::float32) {
        zp = c.input(3).data<float>();
      } else {
        float* zf = c.scratch_at<float>(cp.z32);
        onyx::widen(c.input(3), std::span<float>(zf, static_cast<std::size_t>(y.size())));
        zp = zf;
      }
    }
    if (accumulate && zp != yp) std::copy_n(zp, y.size(), yp);
    const float lo = residual && !accumulate ? no_min : s.lo, hi = residual && !accumulate ? no_max : s.hi;
    if (cp.winograd)
      winograd::run(cp.wplan, s.winograd, xp, bp, lo, hi, yp, c.scratch_at<float>(cp.work), c.pool());
    else if (cp.dw_interleaved)
      depthwise2d_interleaved(xp, wp, bp, yp, g, cp.dwi_h, cp.dwi_w, lo, hi, c.scratch_at<float>(cp.work), cp.dw_slots,
                              c.pool());
    else if (cp.dw_rows)
      depthwise2d_f32(xp, wp, bp, yp, g, cp.dw, cp.dw_w2, lo, hi, c.scratch_at<float>(cp.work), cp.dw_slots, c.pool());
    else if (g.depthwise2d)
      depthwise2d(xp, wp, bp, yp, g, lo, hi, c.pool());
    else if (cp.direct) {
      if (!conv_direct::run(cp.dl, g.axes[0], g.axes[1], g.N, g.G, g.Cg, g.Mg, g.K, xp, s.packed, bp, lo, hi, accumulate, yp,
                            c.scratch_at<float>(cp.work), c.pool(), c))
        return kernel_call::stopped();
    } else if (!conv_driver(xp, yp, g, cp.split, c.scratch_at<float>(cp.work),
                          group_gemm<float>{cp.prepacked ? &s.packed : nullptr, wp, bp, lo, hi, g.Mg, g.K, accumulate},
                          c.pool(), c))
      return kernel_call::stopped();
    if (residual && !accumulate) add_residual(yp, zp, y.size(), s.lo, s.hi, c.pool());
    if constexpr (D == dtype::float16) {
      onyx::narrow(std::span<const float>(yp, static_cast<std::size_t>(y.size())), y);
    }
    return ok();
  }
}

}  // namespace conv_detail

}  // namespace onyx::kernels::cpu

namespace onyx {

template <>
struct kernel<ops::Conv, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  using state = kernels::cpu::conv_detail::conv_state;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::Conv>& p) {
    return kernels::cpu::conv_detail::prepare<S[0]>(p.attrs(), p, -std::numeric_limits<float>::infinity(),
                                                    std::numeric_limits<float>::infinity());
  }
  template <ops::signature S>
  static result<planned<kernels::cpu::conv_detail::conv_plan>> plan(const plan_info<ops::Conv>& p) {
    return kernels::cpu::conv_detail::plan<S[0]>(p.attrs(), p);
  }
  template <ops::signature S>
  static status run(const call<ops::Conv>& c) {
    return kernels::cpu::conv_detail::run<S[0]>(c);
  }
};

template <>
struct kernel<ops::fused::Conv, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  using state = kernels::cpu::conv_detail::conv_state;
  template <ops::signature S>
  static result<state> prepare(const prepare_info<ops::fused::Conv>& p) {
    const auto& a = p.attrs();
    return kernels::cpu::conv_detail::prepare<S[0]>(a, p, a.activation.min, a.activation.max);
  }
  template <ops::signature S>
  static result<planned<kernels::cpu::conv_detail::conv_plan>> plan(const plan_info<ops::fused::Conv>& p) {
    return kernels::cpu::conv_detail::plan<S[0]>(p.attrs(), p);
  }
  template <ops::signature S>
  static status run(const call<ops::fused::Conv>& c) {
    return kernels::cpu::conv_detail::run<S[0]>(c);
  }
};

}  // namespace onyx
