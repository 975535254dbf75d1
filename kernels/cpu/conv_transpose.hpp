// kernels/cpu/conv_transpose.hpp: ConvTranspose by GEMM + col2im.
//
// Per image and group: col (Mg*taps x P_in) = W_g^T (Mg*taps x Cg) * X_g
// (Cg x P_in), the f32 product on the packed SGEMM with W_g^T packed at
// prepare time; then col2im scatters each row (m, k1..kn) into Y[m] at
// o = i * stride - pad_begin + k * dilation, skipping positions outside Y.
// Y starts as the bias; where the taps tile Y (stride == kernel, no
// padding), Y is written once from col instead (col_to_tiled). The scatter
// is split over output channels, which write disjoint planes. float64 uses a
// plain product.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/cpu/sgemm.hpp"
#include "kernels/cpu/mat_mul.hpp"
#include "onyx/ops/conv_transpose.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::conv_transpose_detail {

struct state {
  std::vector<packed_a> packed;  // W_g^T per group (float32, constant W)
};

/// Whether the taps tile Y exactly: every output position receives one tap
/// of one input position (stride == kernel, no dilation, padding or output
/// padding on any axis: the 2x2 stride-2 upsampling of segmentation heads).
inline bool taps_tile_output(const std::vector<ops::ConvTranspose::axis>& axes) {
  return std::all_of(axes.begin(), axes.end(), [](const ops::ConvTranspose::axis& a) {
    return a.stride == a.kernel && (a.dilation == 1 || a.kernel == 1) && a.pad_begin == 0 && a.out == a.in * a.stride;
  });
}

/// Y written straight from col where the taps tile it (taps_tile_output,
/// 2-D): y = col + bias, one pass, no fill of Y with the bias and no
/// read-modify-write of it. The same sums as col2im after the fill.
template <class T>
void col_to_tiled(const T* col, T* y, const std::vector<ops::ConvTranspose::axis>& axes, std::int64_t taps,
                  std::int64_t p_in, std::int64_t p_out, const T* bias, std::int64_t m0, std::int64_t m1) {
  const auto &ah = axes[0], &aw = axes[1];
  for (std::int64_t m = m0; m < m1; ++m) {
    const T b = bias ? bias[m] : T(0);
    for (std::int64_t oh = 0; oh < ah.out; ++oh) {
      const std::int64_t kh = oh % ah.stride, ih = oh / ah.stride;
      T* yr = y + m * p_out + oh * aw.out;
      const T* xr = col + (m * taps + kh * aw.kernel) * p_in + ih * aw.in;
      if (aw.stride == 2) {  // the common case, in a loop the compiler vectorizes
        const T* x1 = xr + p_in;
        for (std::int64_t iw = 0; iw < aw.in; ++iw) {
          yr[2 * iw] = xr[iw] + b;
          yr[2 * iw + 1] = x1[iw] + b;
        }
      } else {
        for (std::int64_t kw = 0; kw < aw.stride; ++kw, xr += p_in)
          for (std::int64_t iw = 0; iw < aw.in; ++iw) yr[iw * aw.stride + kw] = xr[iw] + b;
      }
    }
  }
}

template <class T>
void col2im(const T* col, T* y, const std::vector<ops::ConvTranspose::axis>& axes, std::int64_t taps,
            std::int64_t p_in, std::int64_t p_out, std::int64_t m0, std::int64_t m1) {
  const std::size_t n = axes.size();
  if (n == 2) {
    // Per tap, the input columns whose output lands inside Y form one range:
    // a branch-free strided add per input row (the odometer below ran
    // PP-OCRv4 det's 2x2 stride-2 upsampling at ~9 GFLOP/s).
    const auto &ah = axes[0], &aw = axes[1];
    const auto range = [](const ops::ConvTranspose::axis& a, std::int64_t off, std::int64_t& lo, std::int64_t& hi) {
      // i with 0 <= i * stride + off < out, i in [0, in)
      lo = off >= 0 ? 0 : (-off + a.stride - 1) / a.stride;
      hi = a.out - off <= 0 ? 0 : std::min(a.in, (a.out - off + a.stride - 1) / a.stride);
      hi = std::max(hi, lo);
    };
    for (std::int64_t m = m0; m < m1; ++m) {
      T* ym = y + m * p_out;
      for (std::int64_t kh = 0; kh < ah.kernel; ++kh)
        for (std::int64_t kw = 0; kw < aw.kernel; ++kw) {
          const T* row = col + (m * taps + kh * aw.kernel + kw) * p_in;
          const std::int64_t offh = kh * ah.dilation - ah.pad_begin, offw = kw * aw.dilation - aw.pad_begin;
          std::int64_t h0, h1, w0, w1;
          range(ah, offh, h0, h1);
          range(aw, offw, w0, w1);
          for (std::int64_t ih = h0; ih < h1; ++ih) {
            T* yr = ym + (ih * ah.stride + offh) * aw.out + offw;
            const T* xr = row + ih * aw.in;
            for (std::int64_t iw = w0; iw < w1; ++iw) yr[iw * aw.stride] += xr[iw];
          }
        }
    }
    return;
  }
  std::int64_t k[8], i[8];
  for (std::int64_t m = m0; m < m1; ++m) {
    T* ym = y + m * p_out;
    for (std::int64_t t = 0; t < taps; ++t) {
      for (std::int64_t rem = t, d = static_cast<std::int64_t>(n); d-- > 0;) k[d] = rem % axes[d].kernel, rem /= axes[d].kernel;
      const T* row = col + (m * taps + t) * p_in;
      std::fill_n(i, n, 0);
      for (std::int64_t p = 0; p < p_in; ++p) {
        std::int64_t off = 0;
        bool inside = true;
        for (std::size_t d = 0; d < n; ++d) {
          const std::int64_t o = i[d] * axes[d].stride - axes[d].pad_begin + k[d] * axes[d].dilation;
          inside = inside && o >= 0 && o < axes[d].out;
          off = off * axes[d].out + o;
        }
        if (inside) ym[off] += row[p];
        for (std::size_t d = n; d-- > 0;) {
          if (++i[d] < axes[d].in) break;
          i[d] = 0;
        }
      }
    }
  }
}

template <dtype D> result<state> prepare(const prepare_info<ops::ConvTranspose>& p) {
  state s;
  const tensor* w = p.constant(1);
  const std::int64_t G = p.attrs().group;
  if constexpr (D == dtype::float32) {
    if (w && w->rank() >= 3 && G >= 1 && w->dim(0) % G == 0 && w->size() > 0) {
      const std::int64_t Cg = w->dim(0) / G, rows = w->size() / w->dim(0);  // Mg * taps
      for (std::int64_t g = 0; g < G; ++g)
        s.packed.push_back(pack_a(true, rows, Cg, w->data<float>() + g * Cg * rows, rows));
    }
  }
  return s;
}

template <dtype D> status run(const call<ops::ConvTranspose>& c) {
  using T = storage_t<D>;
  const tensor& x = c.input(0);
  const tensor& w = c.input(1);
  tensor& y = c.output(0);
  if (x.rank() > 10) return status(errc::unsupported, "ConvTranspose supports at most 8 spatial axes");
  const std::int64_t G = c.attrs().group, N = x.dim(0), C = x.dim(1);
  if (G < 1 || w.dim(0) != C || C % G != 0)
    return status(errc::invalid_argument, "X " + to_string(x.shape()) + " and W " + to_string(w.shape()) +
                                              " do not agree with group " + std::to_string(G));
  ONYX_ASSIGN(auto axes, ops::ConvTranspose::geometry(c.attrs(), std::span(x.shape()).subspan(2),
                                                      std::span(w.shape()).subspan(2)));
  const std::int64_t Cg = C / G, Mg = w.dim(1), M = Mg * G, taps = element_count(std::span(w.shape()).subspan(2));
  std::int64_t p_in = 1, p_out = 1;
  for (auto& a : axes) p_in *= a.in, p_out *= a.out;
  if (c.has_input(2) && c.input(2).size() != M)
    return status(errc::invalid_argument, "B must have " + std::to_string(M) + " values");
  const T* bias = c.has_input(2) ? c.input(2).data<T>() : nullptr;
  const T* xp = x.data<T>();
  const T* wp = w.data<T>();
  T* yp = y.data<T>();
  const std::int64_t rows = Mg * taps;
  // Grow-only per thread: the product overwrites it (beta 0), so a run
  // neither allocates nor zeroes its megabytes again.
  thread_local std::vector<T> col;
  if (col.size() < static_cast<std::size_t>(rows * p_in)) col.resize(static_cast<std::size_t>(rows * p_in));
  T* const cols = col.data();  // by pointer: in the workers, `col` would name their own buffers
  const bool tiled = axes.size() == 2 && taps_tile_output(axes);
  const auto& st = c.state<state>();
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t g = 0; g < G; ++g) {
      const T* xg = xp + (n * C + g * Cg) * p_in;
      const T* wg = wp + g * Cg * rows;
      if constexpr (D == dtype::float32) {
        if (static_cast<std::int64_t>(st.packed.size()) == G && st.packed[g].isa() == isa::active().isa)
          sgemm_packed(false, rows, p_in, Cg, 1.0f, st.packed[g], xg, p_in, 0.0f, cols, p_in, c.pool());
        else
          sgemm(true, false, rows, p_in, Cg, 1.0f, wg, rows, xg, p_in, 0.0f, cols, p_in, c.pool());
      } else {
        matmul_detail::plain_gemm<T>(true, false, rows, p_in, Cg, wg, rows, xg, p_in, cols, p_in);
      }
      T* yg = yp + (n * M + g * Mg) * p_out;
      if (tiled) {
        parallel_for(c.pool(), Mg, 1, [&](std::int64_t m0, std::int64_t m1) {
          col_to_tiled(cols, yg, axes, taps, p_in, p_out, bias ? bias + g * Mg : nullptr, m0, m1);
        });
        continue;
      }
      for (std::int64_t m = 0; m < Mg; ++m) std::fill_n(yg + m * p_out, p_out, bias ? bias[g * Mg + m] : T(0));
      parallel_for(c.pool(), Mg, 1, [&](std::int64_t m0, std::int64_t m1) {
        col2im(cols, yg, axes, taps, p_in, p_out, m0, m1);
      });
    }
  return ok();
}

}  // namespace onyx::kernels::cpu::conv_transpose_detail

namespace onyx {

template <> struct kernel<ops::ConvTranspose, cpu> {
  static constexpr std::array types{dtypes::f32 | dtypes::f64};
  using state = kernels::cpu::conv_transpose_detail::state;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::ConvTranspose>& p) {
    return kernels::cpu::conv_transpose_detail::prepare<S[0]>(p);
  }
  template <ops::signature S> static status run(const call<ops::ConvTranspose>& c) {
    return kernels::cpu::conv_transpose_detail::run<S[0]>(c);
  }
};

}  // namespace onyx
