// kernel<ops::Resize, cpu>: every resized axis gets a table mapping each
// output position to its input taps, built once per run from the coordinate
// transform (sum of the output lengths, negligible next to the data).
//
// nearest: one index per output position and axis; the output is a gather,
//   instantiated per element width.
// linear/cubic: separable, one pass per resized axis in axis order (as the
//   spec's reference does), each pass out[o, y, i] = sum_k w[y,k] in[o, t[y,k], i],
//   with the inner loop contiguous over i. When only the last two axes are
//   resized (NCHW images, the common case) a fused pass blends the vertical
//   taps of each output row into one row buffer and then applies the
//   horizontal taps, so no intermediate tensor is written.
// float16/bfloat16 compute in float32, float64 in float64.
#pragma once

#include <cmath>
#include <cstring>

#include "kernels/cpu/data_movement.hpp"
#include "onyx/ops/resize.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx {

namespace kernels::cpu {

enum class resize_transform { half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric,
                              tf_crop_and_resize, tf_half_pixel_for_nn };

inline resize_transform resize_transform_of(std::string_view m) {
  if (m == "half_pixel_symmetric") return resize_transform::half_pixel_symmetric;
  if (m == "pytorch_half_pixel") return resize_transform::pytorch_half_pixel;
  if (m == "align_corners") return resize_transform::align_corners;
  if (m == "asymmetric") return resize_transform::asymmetric;
  if (m == "tf_crop_and_resize") return resize_transform::tf_crop_and_resize;
  if (m == "tf_half_pixel_for_nn") return resize_transform::tf_half_pixel_for_nn;
  return resize_transform::half_pixel;
}

/// The input coordinate of output position x along one axis. `len` is
/// scale * in as a real number: the spec's reference uses it (not the
/// rounded output length) for align_corners and tf_crop_and_resize.
inline double resize_source(resize_transform t, const ops::detail::resize_axis& a, std::int64_t in, double x) {
  const double s = a.scale, len = s * static_cast<double>(in), last = static_cast<double>(in - 1);
  switch (t) {
    case resize_transform::half_pixel: return (x + 0.5) / s - 0.5;
    case resize_transform::half_pixel_symmetric: {
      double offset = static_cast<double>(in) / 2 * (1 - static_cast<double>(a.out) / len);
      return offset + (x + 0.5) / s - 0.5;
    }
    case resize_transform::pytorch_half_pixel: return a.out > 1 ? (x + 0.5) / s - 0.5 : 0.0;
    case resize_transform::align_corners: return len == 1 ? 0.0 : x * last / (len - 1);
    case resize_transform::asymmetric: return x / s;
    case resize_transform::tf_half_pixel_for_nn: return (x + 0.5) / s;
    case resize_transform::tf_crop_and_resize:
      return len == 1 ? (a.roi_end - a.roi_start) * last / 2 + a.roi_start * last
                      : x * (a.roi_end - a.roi_start) * last / (len - 1) + a.roi_start * last;
  }
  return 0;
}

inline bool resize_outside(resize_transform t, double src, std::int64_t in) {
  return t == resize_transform::tf_crop_and_resize && (src < 0 || src > static_cast<double>(in - 1));
}

/// Input index per output position along one axis; -1 where extrapolated.
inline std::vector<std::int64_t> nearest_table(resize_transform t, std::string_view rounding,
                                               const ops::detail::resize_axis& a, std::int64_t in) {
  std::vector<std::int64_t> idx(static_cast<std::size_t>(a.out));
  for (std::int64_t x = 0; x < a.out; ++x) {
    double src = resize_source(t, a, in, static_cast<double>(x));
    if (resize_outside(t, src, in)) {
      idx[x] = -1;
      continue;
    }
    double fl = std::floor(src), frac = src - fl;
    bool up = frac != 0 && (rounding == "ceil" || (rounding == "round_prefer_ceil" && frac >= 0.5) ||
                            (rounding == "round_prefer_floor" && frac > 0.5));
    idx[x] = std::clamp(static_cast<std::int64_t>(fl) + (up ? 1 : 0), std::int64_t{0}, in - 1);
  }
  return idx;
}

/// The taps of one axis: `n` (input index, weight) pairs per output position,
/// indices clamped into the input (edge padding); `outside` marks positions
/// tf_crop_and_resize extrapolates.
struct tap_table {
  int n = 0;
  std::vector<std::int64_t> index;
  std::vector<double> weight;
  std::vector<char> outside;
};

inline double cubic_weight(double d, double A) {
  d = std::abs(d);
  if (d <= 1) return ((A + 2) * d - (A + 3)) * d * d + 1;
  if (d < 2) return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A;
  return 0;
}

inline tap_table interpolation_table(resize_transform t, const ops::Resize::attributes& at,
                                     const ops::detail::resize_axis& a, std::int64_t in) {
  const bool cubic = at.mode == "cubic", antialias = at.antialias != 0;
  // Antialiasing stretches the kernel by 1/scale when downsampling.
  const double stretch = antialias ? std::min(a.scale, 1.0) : 1.0;
  const double reach = cubic ? 2.0 : 1.0;
  tap_table tt;
  tt.n = antialias ? 2 - 2 * (static_cast<int>(std::floor(-reach / stretch)) + 1) : (cubic ? 4 : 2);
  tt.index.resize(static_cast<std::size_t>(a.out * tt.n));
  tt.weight.resize(tt.index.size());
  tt.outside.resize(static_cast<std::size_t>(a.out));
  for (std::int64_t x = 0; x < a.out; ++x) {
    double src = resize_source(t, a, in, static_cast<double>(x));
    tt.outside[x] = resize_outside(t, src, in);
    // The n nearest input positions, ties to the left: an integer source
    // sits at the right of the two middle taps.
    double fl = std::floor(src);
    std::int64_t start = static_cast<std::int64_t>(fl) - tt.n / 2 + (src == fl ? 0 : 1);
    double sum = 0, kept = 0;
    double* w = &tt.weight[x * tt.n];
    std::int64_t* idx = &tt.index[x * tt.n];
    for (int k = 0; k < tt.n; ++k) {
      double d = (static_cast<double>(start + k) - src) * stretch;
      w[k] = cubic ? cubic_weight(d, at.cubic_coeff_a) : std::max(0.0, 1 - std::abs(d));
      sum += w[k];
    }
    if (antialias && sum != 0)
      for (int k = 0; k < tt.n; ++k) w[k] /= sum;
    for (int k = 0; k < tt.n; ++k) {
      std::int64_t j = start + k;
      if (at.exclude_outside && (j < 0 || j >= in)) w[k] = 0;
      kept += w[k];
      idx[k] = std::clamp(j, std::int64_t{0}, in - 1);
    }
    if (at.exclude_outside && kept != 0)
      for (int k = 0; k < tt.n; ++k) w[k] /= kept;
  }
  return tt;
}

template <class E>
void resize_nearest(const tensor& x, tensor& y, const std::vector<std::vector<std::int64_t>>& tables, E fill,
                    const thread_pool* pool) {
  const std::size_t r = x.rank();
  const extents& out = y.shape();
  const auto xs = strides_of(x.shape());
  const std::int64_t width = r ? out[r - 1] : 1, rows = r ? element_count(out) / std::max<std::int64_t>(width, 1) : 1;
  if (element_count(out) == 0) return;
  if (r == 0) {
    *y.data<E>() = *x.data<E>();
    return;
  }
  const E* src = x.data<E>();
  E* dst = y.data<E>();
  const std::int64_t* last = tables[r - 1].data();
  const std::int64_t last_stride = xs[r - 1];
  // Upsampling by a whole factor f along the last axis (output i reads input
  // i / f, all inside): each input element is written f times, no index table.
  const std::int64_t in_w = x.shape()[r - 1];
  std::int64_t f = in_w > 0 && width % in_w == 0 ? width / in_w : 0;
  for (std::int64_t i = 0; f > 0 && i < width; ++i)
    if (last[i] != i / f) f = 0;
  // The input offset of an output row, or -1 outside (fill).
  const auto source = [&](std::int64_t row) {
    std::int64_t off = 0, rem = row;
    for (std::size_t k = r - 1; k-- > 0;) {
      const std::int64_t i = tables[k][rem % out[k]];
      rem /= out[k];
      if (i < 0) return std::int64_t(-1);
      off += i * xs[k];
    }
    return off;
  };
  parallel_for(pool, rows, grain_for(width),  // a row
               [&](std::int64_t b, std::int64_t e) {
                 std::int64_t previous = -2;
                 for (std::int64_t row = b; row < e; ++row) {
                   const std::int64_t off = source(row);
                   E* d = dst + row * width;
                   if (off == previous) {  // the row above read the same input row (upsampling)
                     std::copy(d - width, d, d);
                     continue;
                   }
                   previous = off;
                   if (off < 0) {
                     std::fill(d, d + width, fill);
                     continue;
                   }
                   const E* s = src + off;
                   // the common 2x in its own loop: PP-OCRv4 det QDQ's Resizes ran 2.3 ms with the f loop, 0.75 so
                   if (f == 2 && last_stride == 1) {
                     for (std::int64_t j = 0; j < in_w; ++j) d[2 * j] = d[2 * j + 1] = s[j];
                   } else if (f > 0) {
                     for (std::int64_t j = 0; j < in_w; ++j) std::fill(d + j * f, d + (j + 1) * f, s[j * last_stride]);
                   } else {
                     for (std::int64_t i = 0; i < width; ++i) d[i] = last[i] < 0 ? fill : s[last[i] * last_stride];
                   }
                 }
               });
}

/// One separable pass along an axis of a tensor viewed as [outer, n_in, inner].
template <class A, class In, class Out>
void resize_pass(const In* src, Out* dst, std::int64_t outer, std::int64_t n_in, std::int64_t inner,
                 const tap_table& tt, std::int64_t n_out, A fill, const thread_pool* pool) {
  std::vector<A> w(tt.weight.begin(), tt.weight.end());
  parallel_for(pool, outer * n_out, grain_for(inner * tt.n),  // taps per element
               [&](std::int64_t b, std::int64_t e) {
                 std::vector<A> acc(static_cast<std::size_t>(inner));
                 for (std::int64_t p = b; p < e; ++p) {
                   const std::int64_t o = p / n_out, y = p % n_out;
                   Out* d = dst + p * inner;
                   if (tt.outside[y]) {
                     std::fill(d, d + inner, store<Out>(fill));
                     continue;
                   }
                   const In* base = src + o * n_in * inner;
                   const A* wy = &w[y * tt.n];
                   const std::int64_t* iy = &tt.index[y * tt.n];
                   if (inner == 1) {
                     A s = 0;
                     for (int k = 0; k < tt.n; ++k) s += wy[k] * static_cast<A>(load(base[iy[k]]));
                     d[0] = store<Out>(s);
                     continue;
                   }
                   std::fill(acc.begin(), acc.end(), A(0));
                   for (int k = 0; k < tt.n; ++k) {
                     const In* row = base + iy[k] * inner;
                     const A wk = wy[k];
                     for (std::int64_t i = 0; i < inner; ++i) acc[i] += wk * static_cast<A>(load(row[i]));
                   }
                   for (std::int64_t i = 0; i < inner; ++i) d[i] = store<Out>(acc[i]);
                 }
               });
}

/// The fused pass over the last two axes: planes of h_in x w_in to h_out x w_out.
template <class A, class T>
void resize_planes(const T* src, T* dst, std::int64_t planes, std::int64_t h_in, std::int64_t w_in,
                   const tap_table& ty, const tap_table& tx, std::int64_t h_out, std::int64_t w_out, A fill,
                   const thread_pool* pool) {
  std::vector<A> wy(ty.weight.begin(), ty.weight.end()), wx(tx.weight.begin(), tx.weight.end());
  parallel_for(pool, planes * h_out, grain_for(w_in * ty.n),  // taps per element
               [&](std::int64_t b, std::int64_t e) {
                 std::vector<A> row(static_cast<std::size_t>(w_in));
                 for (std::int64_t p = b; p < e; ++p) {
                   const std::int64_t plane = p / h_out, y = p % h_out;
                   T* d = dst + p * w_out;
                   if (ty.outside[y]) {
                     std::fill(d, d + w_out, store<T>(fill));
                     continue;
                   }
                   const T* base = src + plane * h_in * w_in;
                   std::fill(row.begin(), row.end(), A(0));
                   for (int k = 0; k < ty.n; ++k) {
                     const T* s = base + ty.index[y * ty.n + k] * w_in;
                     const A wk = wy[y * ty.n + k];
                     for (std::int64_t i = 0; i < w_in; ++i) row[i] += wk * static_cast<A>(load(s[i]));
                   }
                   for (std::int64_t x = 0; x < w_out; ++x) {
                     if (tx.outside[x]) {
                       d[x] = store<T>(fill);
                       continue;
                     }
                     A s = 0;
                     for (int k = 0; k < tx.n; ++k) s += wx[x * tx.n + k] * row[tx.index[x * tx.n + k]];
                     d[x] = store<T>(s);
                   }
                 }
               });
}

template <class T>
void resize_interpolate(const tensor& x, tensor& y, const std::vector<int>& axes, const std::vector<tap_table>& tables,
                        float extrapolation, const thread_pool* pool) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const std::size_t r = x.rank();
  const A fill = static_cast<A>(extrapolation);
  if (axes.empty()) {
    std::memcpy(y.raw(), x.raw(), x.bytes());
    return;
  }
  if (axes.size() == 2 && axes[0] == static_cast<int>(r) - 2 && axes[1] == static_cast<int>(r) - 1) {
    resize_planes<A>(x.data<T>(), y.data<T>(), element_count(std::span(x.shape()).first(r - 2)), x.dim(r - 2),
                     x.dim(r - 1), tables[r - 2], tables[r - 1], y.dim(r - 2), y.dim(r - 1), fill, pool);
    return;
  }
  // Passes read T or the previous pass's A buffer and write A, except the
  // last, which writes the output.
  extents shape = x.shape();
  std::vector<A> cur, next;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const int ax = axes[k];
    const std::int64_t outer = element_count(std::span(shape).first(ax)),
                       inner = element_count(std::span(shape).subspan(ax + 1)), n_in = shape[ax];
    shape[ax] = y.dim(ax);
    const bool first = k == 0, last = k + 1 == axes.size();
    if (!last) next.resize(static_cast<std::size_t>(element_count(shape)));
    if (first && last)
      resize_pass<A>(x.data<T>(), y.data<T>(), outer, n_in, inner, tables[ax], shape[ax], fill, pool);
    else if (first)
      resize_pass<A>(x.data<T>(), next.data(), outer, n_in, inner, tables[ax], shape[ax], fill, pool);
    else if (last)
      resize_pass<A>(cur.data(), y.data<T>(), outer, n_in, inner, tables[ax], shape[ax], fill, pool);
    else
      resize_pass<A>(cur.data(), next.data(), outer, n_in, inner, tables[ax], shape[ax], fill, pool);
    std::swap(cur, next);
  }
}

template <dtype D> status resize(const call<ops::Resize>& c) {
  const auto& at = c.attrs();
  ONYX_TRY(ops::Resize::check(at));
  const tensor& x = c.input(0);
  std::vector<double> roi, scales;
  std::vector<std::int64_t> sizes;
  if (c.has_input(1)) roi = ops::detail::doubles_of(c.input(1));
  if (c.has_input(2)) scales = ops::detail::doubles_of(c.input(2));
  if (c.has_input(3)) sizes = int64s(c.input(3));
  ONYX_ASSIGN(auto geo, ops::detail::resize_geometry(x.shape(), scales, sizes, roi, at.axes, at.keep_aspect_ratio_policy));
  extents out;
  for (auto& a : geo) out.push_back(a.out);
  for (std::size_t i = 0; i < x.rank(); ++i)
    if (x.dim(i) == 0 && out[i] > 0)
      return status(errc::invalid_argument, "axis " + std::to_string(i) + " of X is empty but the output is not");
  tensor& y = output_sized(c, 0, x.type(), out);
  if (y.size() == 0) return ok();
  const auto t = resize_transform_of(at.coordinate_transformation_mode);

  if (at.mode == "nearest") {
    std::vector<std::vector<std::int64_t>> tables;
    for (std::size_t i = 0; i < x.rank(); ++i) tables.push_back(nearest_table(t, at.nearest_mode, geo[i], x.dim(i)));
    using E = moved_t<D>;
    E fill{};
    storage_t<D> v{};
    store_number(D, at.extrapolation_value, v);
    std::memcpy(&fill, &v, sizeof fill);
    resize_nearest<E>(x, y, tables, fill, c.pool());
    return ok();
  }
  if constexpr (dtypes::floats.contains(D)) {
    std::vector<int> axes;
    std::vector<tap_table> tables(x.rank());
    for (std::size_t i = 0; i < x.rank(); ++i) {
      const auto& a = geo[i];
      bool identity = a.out == x.dim(i) && a.scale == 1.0 &&
                      (t != resize_transform::tf_crop_and_resize || (a.roi_start == 0 && a.roi_end == 1));
      if (identity) continue;
      axes.push_back(static_cast<int>(i));
      tables[i] = interpolation_table(t, at, a, x.dim(i));
    }
    resize_interpolate<storage_t<D>>(x, y, axes, tables, at.extrapolation_value, c.pool());
    return ok();
  } else {
    return status(errc::unsupported, at.mode + " resize of " + std::string(name(D)) + " is not implemented");
  }
}

}  // namespace kernels::cpu

template <> struct kernel<ops::Resize, cpu> {
  static constexpr std::array types{ops::Resize::T1};
  template <ops::signature S> static status run(const call<ops::Resize>& c) { return kernels::cpu::resize<S[0]>(c); }
};

}  // namespace onyx
