// kernels/cpu/pool.hpp: MaxPool, AveragePool, LpPool and their Global forms.
//
// Windowed pools: per axis and output index, the taps that land inside X
// ([j0, j1)) and, for count_include_pad, inside the explicitly padded extent
// are precomputed once per input shape by the plan step; each output then walks its in-bounds taps
// with an odometer, so padding is never read; two spatial axes without
// Indices take a separable path (rows, then columns). Planes (n, c) are split
// over the pool; the separable path's row buffers (one per thread) are the
// plan's scratch. float16 accumulates in float, like float32; float64 in double.
// float32 2-D max/average pools (dilation 1 along W, no Indices) run on the
// ISA kernel f32_pool instead: per output row, the in-bounds input rows are
// reduced into a padded row buffer (one per thread, its padding set once),
// then each output vector reduces its taps along it in a register; nothing
// is copied. The separable path ran Inception-v2's 3x3 average pools at
// ~2.5 G taps/s; a padded copy of each plane before the pool (the previous
// f32 path) cost more than the pool itself.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/parallel.hpp"
#include "onyx/ops/average_pool.hpp"
#include "onyx/ops/global_average_pool.hpp"
#include "onyx/ops/global_lp_pool.hpp"
#include "onyx/ops/global_max_pool.hpp"
#include "onyx/ops/lp_pool.hpp"
#include "onyx/ops/max_pool.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::pool_detail {

enum class kind { max, average, lp };

/// float for float16/float32, double for float64, the type itself for integers.
template <class T>
using acc_t =
    std::conditional_t<std::is_same_v<T, double>, double, std::conditional_t<std::is_integral_v<T>, T, float>>;

struct axis_taps {
  std::vector<std::int64_t> j0, j1, counted;  // per output index
};

template <class A, kind K>
constexpr A initial() {
  if constexpr (K != kind::max)
    return A(0);
  else if constexpr (std::numeric_limits<A>::has_infinity)
    return -std::numeric_limits<A>::infinity();
  else
    return std::numeric_limits<A>::lowest();
}

/// Two spatial axes, max or average, no Indices output: the window is
/// separable. Each output row first reduces its kernel rows into `row`
/// (contiguous, so it vectorizes), then each output reduces its taps along
/// that row. Max skips NaN, as ORT's does.
template <class T, kind K>
void separable_2d(const T* xs, T* ys, const std::vector<axis_taps>& taps,
                  const std::vector<ops::detail::window_axis>& axes, bool include_pad, acc_t<T>* row) {
  using A = acc_t<T>;
  const auto &ah = axes[0], &aw = axes[1];
  for (std::int64_t oh = 0; oh < ah.out; ++oh) {
    const std::int64_t h0 = taps[0].j0[oh], h1 = taps[0].j1[oh];
    std::fill_n(row, aw.in, initial<A, K>());
    for (std::int64_t kh = h0; kh < h1; ++kh) {
      const T* xr = xs + (oh * ah.stride - ah.pad_begin + kh * ah.dilation) * aw.in;
      A* r = row;
      for (std::int64_t w = 0; w < aw.in; ++w) {
        const A v = static_cast<A>(load(xr[w]));
        if constexpr (K == kind::max)
          r[w] = v > r[w] ? v : r[w];
        else
          r[w] += v;
      }
    }
    T* yr = ys + oh * aw.out;
    for (std::int64_t ow = 0; ow < aw.out; ++ow) {
      const std::int64_t w0 = taps[1].j0[ow], w1 = taps[1].j1[ow], base = ow * aw.stride - aw.pad_begin;
      A acc = initial<A, K>();
      for (std::int64_t kw = w0; kw < w1; ++kw) {
        const A v = row[base + kw * aw.dilation];
        if constexpr (K == kind::max)
          acc = v > acc ? v : acc;
        else
          acc += v;
      }
      if constexpr (K == kind::average) {
        const std::int64_t div = include_pad ? taps[0].counted[oh] * taps[1].counted[ow] : (h1 - h0) * (w1 - w0);
        acc = div > 0 ? acc / static_cast<A>(div) : A(0);
      }
      yr[ow] = store<T>(acc);
    }
  }
}

/// What `plan` fixes per input shape: the window geometry, the in-bounds
/// taps of every output index, the strides, and the separable path's
/// per-thread row buffer in the scratch.
struct pool_plan {
  std::vector<ops::detail::window_axis> axes;
  std::vector<axis_taps> taps;  // per spatial axis
  std::int64_t in_size = 1, out_size = 1, planes = 0;
  std::int64_t in_stride[8] = {}, col_stride[8] = {};
  std::int64_t slots = 1;       // separable path: one row buffer per thread
  std::int64_t row_stride = 0;  // accumulators per thread's row (aw.in, rounded up to 128 bytes)
  std::size_t row = 0;          // scratch offset of the row buffers
  // The f32 row path (see the top of this file).
  bool row_path = false;
  std::vector<float> h_scale, w_scale;
  std::int64_t row_floats = 0;  // per thread: isa::pool_row_block row buffers
  std::size_t rows_buffer = 0;  // scratch offset of the row buffers (one per slot)
};

/// Sets up the f32 row path for 2-D max/average pools where it applies.
inline void plan_row_path(pool_plan& pp, kind k, bool include_pad, scratch_layout& layout) {
  const auto &ah = pp.axes[0], &aw = pp.axes[1];
  if (k == kind::lp || aw.dilation != 1 || aw.stride < 1 || ah.stride < 1 || ah.dilation < 1) return;
  // A hostile geometry (strides near 2^30) takes the general path rather
  // than a huge row buffer.
  const double row = (static_cast<double>(aw.out) + 16) * static_cast<double>(aw.stride) +
                     static_cast<double>(aw.kernel) + static_cast<double>(aw.in) + static_cast<double>(aw.pad_begin);
  if (row > double(1 << 26)) return;
  pp.row_path = true;
  pp.row_floats = isa::pool_row_block * isa::pool_row_floats(aw.in, aw.pad_begin, aw.out, aw.kernel, aw.stride);
  if (k == kind::average) {
    const auto scales = [&](std::size_t d, std::int64_t extra) {
      std::vector<float> v(static_cast<std::size_t>(pp.axes[d].out + extra), 0.0f);
      for (std::int64_t o = 0; o < pp.axes[d].out; ++o) {
        const std::int64_t n = include_pad ? pp.taps[d].counted[o] : pp.taps[d].j1[o] - pp.taps[d].j0[o];
        v[static_cast<std::size_t>(o)] = n > 0 ? 1.0f / static_cast<float>(n) : 0.0f;
      }
      return v;
    };
    pp.h_scale = scales(0, 0);
    pp.w_scale = scales(1, 16);
  }
  pp.rows_buffer = layout.add<float>(pp.slots * pp.row_floats);
}

/// The f32 row path over planes [0, planes) on the pool.
inline void run_row_path(const pool_plan& pp, bool is_max, const float* x, float* y, float* scratch,
                         const thread_pool* pool) {
  const auto &ah = pp.axes[0], &aw = pp.axes[1];
  const isa::table& t = isa::active();
  const std::int64_t slots = pp.slots, planes = pp.planes;
  parallel_for(pool, slots, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t slot = b; slot < e; ++slot) {
      float* row = scratch + slot * pp.row_floats;
      // The padding is the same for every row: set once per thread.
      std::fill_n(row, pp.row_floats, is_max ? -std::numeric_limits<float>::infinity() : 0.0f);
      isa::pool_args a{};
      a.height = ah.in;
      a.width = aw.in;
      a.stride_h = ah.stride;
      a.dilation_h = ah.dilation;
      a.pad_top = ah.pad_begin;
      a.h_first = pp.taps[0].j0.data();  // per output row: its in-bounds kernel rows
      a.h_end = pp.taps[0].j1.data();
      a.out_h = ah.out;
      a.out_w = aw.out;
      a.kw = aw.kernel;
      a.stride_w = aw.stride;
      a.pad_left = aw.pad_begin;
      a.row = row;
      a.max = is_max;
      a.h_scale = pp.h_scale.data();
      a.w_scale = pp.w_scale.data();
      for (std::int64_t plane = planes * slot / slots; plane < planes * (slot + 1) / slots; ++plane) {
        a.x = x + plane * pp.in_size;
        a.y = y + plane * pp.out_size;
        t.f32_pool(a);
      }
    }
  });
}

template <class T>
result<planned<pool_plan>> plan_windowed(const ops::detail::pool_attributes& a, const plan_info_base& p, kind k) {
  using A = acc_t<T>;
  const extents x = p.input_shape(0);
  const std::size_t n = x.size() - 2;
  if (n > 8) return status(errc::unsupported, "pooling supports at most 8 spatial axes");
  planned<pool_plan> r;
  pool_plan& pp = r.plan;
  ONYX_ASSIGN(auto win, ops::detail::pool_window(a, n));
  ONYX_ASSIGN(pp.axes, ops::detail::window_geometry(win, std::span(x).subspan(2)));
  const auto& axes = pp.axes;
  pp.taps.resize(n);
  for (std::size_t d = 0; d < n; ++d) {
    const auto& ax = axes[d];
    auto& t = pp.taps[d];
    for (std::int64_t o = 0; o < ax.out; ++o) {
      const std::int64_t base = o * ax.stride - ax.pad_begin;
      const std::int64_t j0 = base >= 0 ? 0 : (-base + ax.dilation - 1) / ax.dilation;
      const std::int64_t j1 = std::clamp((ax.in - 1 - base) / ax.dilation + 1, j0, ax.kernel);
      const std::int64_t jp = std::clamp((ax.in + ax.pad_end - 1 - base) / ax.dilation + 1, std::int64_t{0}, ax.kernel);
      t.j0.push_back(std::min(j0, ax.kernel));
      t.j1.push_back(base > ax.in - 1 ? t.j0.back() : j1);
      t.counted.push_back(jp);
    }
    pp.in_size *= ax.in;
    pp.out_size *= ax.out;
  }
  for (std::size_t d = n, s = 1; d-- > 0;) pp.in_stride[d] = static_cast<std::int64_t>(s), s *= axes[d].in;
  for (std::size_t d = 0, s = 1; d < n; ++d) pp.col_stride[d] = static_cast<std::int64_t>(s), s *= axes[d].in;
  pp.planes = x[0] * x[1];
  if (n == 2 && k != kind::lp) {  // the separable path may run (not when Indices is asked for)
    const std::int64_t threads = p.pool() ? p.pool()->size() : 1;
    pp.slots = std::max<std::int64_t>(1, std::min(threads, pp.planes));
    scratch_layout layout;
    // Each thread's row starts on its own 128-byte line pair, so two threads
    // never write one cache line (false sharing cost the 2-thread pools 40%).
    pp.row_stride =
        (axes[1].in * static_cast<std::int64_t>(sizeof(A)) + 127) / 128 * 128 / static_cast<std::int64_t>(sizeof(A));
    pp.row = layout.add<A>(pp.slots * pp.row_stride);
    if constexpr (std::is_same_v<T, float>) plan_row_path(pp, k, a.count_include_pad != 0, layout);
    r.scratch_bytes = layout.bytes;
  }
  return r;
}

template <class T, kind K>
status windowed(const ops::detail::pool_attributes& a, const kernel_call& c) {
  using A = acc_t<T>;
  const pool_plan& pp = c.plan<pool_plan>();
  const tensor& x = c.input(0);
  const std::size_t n = x.rank() - 2;
  const auto& axes = pp.axes;
  const auto& taps = pp.taps;
  const std::int64_t in_size = pp.in_size, out_size = pp.out_size;
  const std::int64_t* in_stride = pp.in_stride;
  const std::int64_t* col_stride = pp.col_stride;
  const bool column_major = a.storage_order == 1;
  const bool include_pad = a.count_include_pad != 0;
  const double p = a.p;

  const T* xp = x.data<T>();
  T* yp = c.output(0).template data<T>();
  std::int64_t* ip = c.has_output(1) ? c.output(1).data<std::int64_t>() : nullptr;
  const std::int64_t planes = x.dim(0) * x.dim(1);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 2 && pp.row_path && !ip) {
      run_row_path(pp, K == kind::max, xp, yp, c.scratch_at<float>(pp.rows_buffer), c.pool());
      return ok();
    }
  }
  if (n == 2 && K != kind::lp && !ip) {
    // One contiguous range of planes per slot, as parallel_for would split them.
    const std::int64_t slots = pp.slots;
    A* rows = c.scratch_at<A>(pp.row);
    parallel_for(c.pool(), slots, 1, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t slot = b; slot < e; ++slot) {
        A* row = rows + slot * pp.row_stride;
        for (std::int64_t plane = planes * slot / slots; plane < planes * (slot + 1) / slots; ++plane)
          separable_2d<T, K>(xp + plane * in_size, yp + plane * out_size, taps, axes, include_pad, row);
      }
    });
    return ok();
  }
  parallel_for(c.pool(), planes, 1, [&](std::int64_t b, std::int64_t e) {
    std::int64_t o[8], j[8];
    for (std::int64_t plane = b; plane < e; ++plane) {
      const T* xs = xp + plane * in_size;
      std::fill_n(o, n, 0);
      for (std::int64_t q = 0; q < out_size; ++q) {
        std::int64_t count = 1, counted = 1;
        bool empty = false;
        for (std::size_t d = 0; d < n; ++d) {
          j[d] = taps[d].j0[o[d]];
          count *= taps[d].j1[o[d]] - j[d];
          counted *= taps[d].counted[o[d]];
          empty = empty || j[d] >= taps[d].j1[o[d]];
        }
        A acc = initial<A, K>();
        std::int64_t best = -1;
        while (!empty) {
          std::int64_t off = 0, coff = 0;
          for (std::size_t d = 0; d < n; ++d) {
            const std::int64_t pos = o[d] * axes[d].stride - axes[d].pad_begin + j[d] * axes[d].dilation;
            off += pos * in_stride[d];
            coff += pos * col_stride[d];
          }
          const A v = static_cast<A>(load(xs[off]));
          if constexpr (K == kind::max) {
            if (v > acc || best < 0) acc = v, best = column_major ? coff : off;
          } else if constexpr (K == kind::average) {
            acc += v;
          } else {
            acc += static_cast<A>(std::pow(std::abs(static_cast<double>(v)), p));
          }
          std::size_t d = n;
          while (d-- > 0) {
            if (++j[d] < taps[d].j1[o[d]]) break;
            j[d] = taps[d].j0[o[d]];
          }
          if (d == static_cast<std::size_t>(-1)) break;
        }
        if constexpr (K == kind::average) {
          const std::int64_t div = include_pad ? counted : count;
          acc = div > 0 ? acc / static_cast<A>(div) : A(0);
        } else if constexpr (K == kind::lp) {
          acc = static_cast<A>(std::pow(static_cast<double>(acc), 1.0 / p));
        }
        yp[plane * out_size + q] = store<T>(acc);
        if (ip) ip[plane * out_size + q] = best < 0 ? -1 : plane * in_size + best;
        for (std::size_t d = n; d-- > 0;) {
          if (++o[d] < axes[d].out) break;
          o[d] = 0;
        }
      }
    }
  });
  return ok();
}

template <class T, kind K>
status global(const kernel_call& c, double p = 2.0) {
  using A = acc_t<T>;
  const tensor& x = c.input(0);
  std::int64_t size = 1;
  for (std::size_t d = 2; d < x.rank(); ++d) size *= x.dim(d);
  const T* xp = x.data<T>();
  T* yp = c.output(0).template data<T>();
  parallel_for(c.pool(), x.dim(0) * x.dim(1), grain_for(size),  // a plane
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t plane = b; plane < e; ++plane) {
                   const T* xs = xp + plane * size;
                   A acc = K == kind::max ? -std::numeric_limits<A>::infinity() : A(0);
                   std::int64_t i = 0;
                   if constexpr (K == kind::average && std::is_same_v<T, float>) {
                     // 16 partial sums (vectorizable: one chain per lane) instead of one
                     // serial chain; GlobalAveragePool ran at ~1 G elements/s.
                     float part[16] = {};
                     for (; i + 16 <= size; i += 16)
                       for (int j = 0; j < 16; ++j) part[j] += xs[i + j];
                     for (int j = 0; j < 16; ++j) acc += part[j];
                   }
                   for (; i < size; ++i) {
                     const A v = static_cast<A>(load(xs[i]));
                     if constexpr (K == kind::max)
                       acc = v > acc ? v : acc;
                     else if constexpr (K == kind::average)
                       acc += v;
                     else
                       acc += static_cast<A>(std::pow(std::abs(static_cast<double>(v)), p));
                   }
                   if constexpr (K == kind::average) acc = size ? acc / static_cast<A>(size) : A(0);
                   if constexpr (K == kind::lp) acc = static_cast<A>(std::pow(static_cast<double>(acc), 1.0 / p));
                   yp[plane] = store<T>(acc);
                 }
               });
  return ok();
}

}  // namespace onyx::kernels::cpu::pool_detail

namespace onyx {

template <>
struct kernel<ops::MaxPool, cpu> {
  template <ops::signature S>
  static result<planned<kernels::cpu::pool_detail::pool_plan>> plan(const plan_info<ops::MaxPool>& p) {
    return kernels::cpu::pool_detail::plan_windowed<storage_t<S[0]>>(p.attrs(), p,
                                                                     kernels::cpu::pool_detail::kind::max);
  }
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64 | dtypes::i8 | dtypes::u8};
  template <ops::signature S>
  static status run(const call<ops::MaxPool>& c) {
    if (c.attrs().storage_order != 0 && c.attrs().storage_order != 1)
      return status(errc::invalid_argument, "storage_order must be 0 or 1");
    return kernels::cpu::pool_detail::windowed<storage_t<S[0]>, kernels::cpu::pool_detail::kind::max>(c.attrs(), c);
  }
};

template <>
struct kernel<ops::AveragePool, cpu> {
  template <ops::signature S>
  static result<planned<kernels::cpu::pool_detail::pool_plan>> plan(const plan_info<ops::AveragePool>& p) {
    return kernels::cpu::pool_detail::plan_windowed<storage_t<S[0]>>(p.attrs(), p,
                                                                     kernels::cpu::pool_detail::kind::average);
  }
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S>
  static status run(const call<ops::AveragePool>& c) {
    return kernels::cpu::pool_detail::windowed<storage_t<S[0]>, kernels::cpu::pool_detail::kind::average>(c.attrs(), c);
  }
};

template <>
struct kernel<ops::LpPool, cpu> {
  template <ops::signature S>
  static result<planned<kernels::cpu::pool_detail::pool_plan>> plan(const plan_info<ops::LpPool>& p) {
    return kernels::cpu::pool_detail::plan_windowed<storage_t<S[0]>>(p.attrs(), p, kernels::cpu::pool_detail::kind::lp);
  }
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S>
  static status run(const call<ops::LpPool>& c) {
    return kernels::cpu::pool_detail::windowed<storage_t<S[0]>, kernels::cpu::pool_detail::kind::lp>(c.attrs(), c);
  }
};

template <>
struct kernel<ops::GlobalAveragePool, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S>
  static status run(const call<ops::GlobalAveragePool>& c) {
    return kernels::cpu::pool_detail::global<storage_t<S[0]>, kernels::cpu::pool_detail::kind::average>(c);
  }
};

template <>
struct kernel<ops::GlobalMaxPool, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S>
  static status run(const call<ops::GlobalMaxPool>& c) {
    return kernels::cpu::pool_detail::global<storage_t<S[0]>, kernels::cpu::pool_detail::kind::max>(c);
  }
};

template <>
struct kernel<ops::GlobalLpPool, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S>
  static status run(const call<ops::GlobalLpPool>& c) {
    return kernels::cpu::pool_detail::global<storage_t<S[0]>, kernels::cpu::pool_detail::kind::lp>(c, c.attrs().p);
  }
};

}  // namespace onyx
