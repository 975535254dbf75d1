// kernels/cpu/normalization.hpp: BatchNormalization (inference and training mode) and
// fused::BatchNormalization (with its clamp), LRN,
// InstanceNormalization, LayerNormalization, GroupNormalization, LpNormalization.
//
// The mean/variance normalizations share one row routine: a row is a
// contiguous run of X (a plane for InstanceNormalization, a group of planes
// for GroupNormalization, the trailing axes for LayerNormalization); its mean
// and biased variance come from a two-pass sum in double (one-pass E[x^2] -
// E[x]^2 loses digits when |mean| >> std), then y = (x - mean) * inv_std *
// scale + bias with the affine terms looked up per element. Rows are split
// over the pool. Parameter tensors of any float type are read through
// `load`, so float16 and bfloat16 compute in float. float32 LayerNormalization
// with a full scale row (a transformer's) runs the ISA row kernel
// isa::f32_layer_norm_row instead, in float.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/ops/batch_normalization.hpp"
#include "onyx/ops/fused/batch_normalization.hpp"
#include "onyx/ops/group_normalization.hpp"
#include "onyx/ops/instance_normalization.hpp"
#include "onyx/ops/layer_normalization.hpp"
#include "onyx/ops/lp_normalization.hpp"
#include "onyx/ops/lrn.hpp"
#include "onyx/registry/kernel.hpp"
#include "onyx/core/parallel.hpp"

namespace onyx::kernels::cpu::norm_detail {

/// A float tensor's values as doubles, whatever its float type.
inline std::vector<double> as_doubles(const tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.size()));
  onyx::widen(t, std::span<double>(v));
  return v;
}

/// Rows of `len` elements: y = (x - mean) * inv_std * scale(row, j) + bias(row, j),
/// with affine(row, j, scale&, bias&). Writes mean and inv_std per row when asked.
template <class T, class Affine>
void normalize_rows(const T* x, T* y, std::int64_t rows, std::int64_t len, double eps, const thread_pool* pool,
                    const Affine& affine, float* mean_out = nullptr, float* inv_std_out = nullptr) {
  parallel_for(pool, rows, grain_for(3 * len),  // mean, variance, write
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t r = b; r < e; ++r) {
                   const T* xr = x + r * len;
                   T* yr = y + r * len;
                   double sum = 0;
                   for (std::int64_t j = 0; j < len; ++j) sum += static_cast<double>(load(xr[j]));
                   const double mean = len ? sum / static_cast<double>(len) : 0.0;
                   double sq = 0;
                   for (std::int64_t j = 0; j < len; ++j) {
                     const double d = static_cast<double>(load(xr[j])) - mean;
                     sq += d * d;
                   }
                   const double inv_std = 1.0 / std::sqrt((len ? sq / static_cast<double>(len) : 0.0) + eps);
                   for (std::int64_t j = 0; j < len; ++j) {
                     double s, t;
                     affine(r, j, s, t);
                     yr[j] = store<T>((static_cast<double>(load(xr[j])) - mean) * inv_std * s + t);
                   }
                   if (mean_out) mean_out[r] = static_cast<float>(mean);
                   if (inv_std_out) inv_std_out[r] = static_cast<float>(inv_std);
                 }
               });
}

/// Per-channel y = clamp(x * a[c] + b[c], lo, hi) over (n, c) planes of
/// `plane` elements (a NaN passes the clamp; the default bounds clamp nothing).
/// float32 runs each plane through the ISA's f32_affine.
template <class T>
void channel_affine(const T* x, T* y, std::int64_t N, std::int64_t C, std::int64_t plane, const std::vector<double>& a,
                    const std::vector<double>& b, const thread_pool* pool,
                    float lo = -std::numeric_limits<float>::infinity(),
                    float hi = std::numeric_limits<float>::infinity()) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const isa::f32_affine_fn affine = isa::active().f32_affine;
  parallel_for(pool, N * C, grain_for(plane),  // an FMA per element
               [&](std::int64_t first, std::int64_t last) {
                 for (std::int64_t nc = first; nc < last; ++nc) {
                   const A s = static_cast<A>(a[nc % C]), t = static_cast<A>(b[nc % C]);
                   const T* xp = x + nc * plane;
                   T* yp = y + nc * plane;
                   if constexpr (std::is_same_v<T, float>) {
                     affine(xp, s, t, lo, hi, yp, plane);
                   } else {
                     const A l = lo, h = hi;
                     for (std::int64_t i = 0; i < plane; ++i) {
                       const A v = static_cast<A>(load(xp[i])) * s + t;
                       const A w = v < l ? l : v;
                       yp[i] = store<T>(h < w ? h : w);
                     }
                   }
                 }
               });
}

inline std::int64_t plane_size(const tensor& x) {
  std::int64_t p = 1;
  for (std::size_t d = 2; d < x.rank(); ++d) p *= x.dim(d);
  return p;
}

inline status require_size(const tensor& t, std::int64_t n, const char* what) {
  if (t.size() == n) return ok();
  return status(errc::invalid_argument, std::string(what) + " has " + std::to_string(t.size()) +
                                            " values, expected " + std::to_string(n));
}

/// y = x * a + b per channel: a = scale / sqrt(var + eps), b = B - mean * a.
inline void inference_affine(const std::vector<double>& scale, const std::vector<double>& bias,
                             const std::vector<double>& mean, const std::vector<double>& var, float eps,
                             std::vector<double>& a, std::vector<double>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = scale[i] / std::sqrt(var[i] + static_cast<double>(eps));
    b[i] = bias[i] - mean[i] * a[i];
  }
}

template <class T> status batch_norm(const call<ops::BatchNormalization>& c) {
  const tensor& x = c.input(0);
  const std::int64_t C = x.dim(1);
  const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (int i = 1; i < 5; ++i) ONYX_TRY(require_size(c.input(i), C, names[i]));
  auto scale = as_doubles(c.input(1)), bias = as_doubles(c.input(2)), mean = as_doubles(c.input(3)),
       var = as_doubles(c.input(4));
  if (c.attrs().training_mode) {
    // The batch's per-channel mean and biased variance (two passes in
    // double), then the running statistics the optional outputs return.
    const std::int64_t N = x.dim(0), P = plane_size(x);
    const T* xp = x.data<T>();
    std::vector<double> bmean(C, 0.0), bvar(C, 0.0);
    const double count = static_cast<double>(N * P);
    for (std::int64_t ch = 0; ch < C; ++ch) {
      double sum = 0, sq = 0;
      for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t j = 0; j < P; ++j) sum += static_cast<double>(load(xp[(n * C + ch) * P + j]));
      bmean[ch] = count > 0 ? sum / count : 0.0;
      for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t j = 0; j < P; ++j) {
          const double d = static_cast<double>(load(xp[(n * C + ch) * P + j])) - bmean[ch];
          sq += d * d;
        }
      bvar[ch] = count > 0 ? sq / count : 0.0;
    }
    const double m = c.attrs().momentum;
    std::vector<double> running(C);
    for (int out = 1; out <= 2; ++out) {
      if (!c.has_output(out)) continue;
      const auto& in = out == 1 ? mean : var;
      const auto& batch = out == 1 ? bmean : bvar;
      for (std::int64_t ch = 0; ch < C; ++ch) running[ch] = in[ch] * m + batch[ch] * (1 - m);
      onyx::narrow(std::span<const double>(running), c.output(out));
    }
    mean = std::move(bmean);
    var = std::move(bvar);
  }
  std::vector<double> a(C), b(C);
  inference_affine(scale, bias, mean, var, c.attrs().epsilon, a, b);
  channel_affine(x.data<T>(), c.output(0).data<T>(), x.dim(0), C, plane_size(x), a, b, c.pool());
  return ok();
}

/// fused::BatchNormalization: inference BatchNormalization and its clamp in one pass.
template <class T> status batch_norm_clamped(const call<ops::fused::BatchNormalization>& c) {
  const tensor& x = c.input(0);
  const std::int64_t C = x.dim(1);
  const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (int i = 1; i < 5; ++i) ONYX_TRY(require_size(c.input(i), C, names[i]));
  std::vector<double> a(C), b(C);
  inference_affine(as_doubles(c.input(1)), as_doubles(c.input(2)), as_doubles(c.input(3)), as_doubles(c.input(4)),
                   c.attrs().epsilon, a, b);
  const ops::fused::activation& act = c.attrs().activation;
  channel_affine(x.data<T>(), c.output(0).data<T>(), x.dim(0), C, plane_size(x), a, b, c.pool(), act.min, act.max);
  return ok();
}

/// LRN: squares summed over the channel window, per spatial position.
template <class T> status lrn(const call<ops::LRN>& c) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const auto& at = c.attrs();
  const tensor& x = c.input(0);
  const std::int64_t N = x.dim(0), C = x.dim(1), P = plane_size(x);
  const std::int64_t before = (at.size - 1) / 2, after = at.size - 1 - before;
  const A scale = static_cast<A>(at.alpha) / static_cast<A>(at.size);
  const T* xp = x.data<T>();
  T* yp = c.output(0).data<T>();
  parallel_for(c.pool(), N * C, 1, [&](std::int64_t lo, std::int64_t hi) {
    std::vector<A> sum(static_cast<std::size_t>(P));
    for (std::int64_t nc = lo; nc < hi; ++nc) {
      const std::int64_t n = nc / C, ch = nc % C;
      std::fill(sum.begin(), sum.end(), A(0));
      for (std::int64_t k = std::max<std::int64_t>(0, ch - before); k <= std::min(C - 1, ch + after); ++k) {
        const T* xk = xp + (n * C + k) * P;
        for (std::int64_t i = 0; i < P; ++i) {
          const A v = static_cast<A>(load(xk[i]));
          sum[i] += v * v;
        }
      }
      const T* xc = xp + nc * P;
      T* yc = yp + nc * P;
      for (std::int64_t i = 0; i < P; ++i)
        yc[i] = store<T>(static_cast<A>(load(xc[i])) /
                         std::pow(static_cast<A>(at.bias) + scale * sum[i], static_cast<A>(at.beta)));
    }
  });
  return ok();
}

template <class T> status instance_norm(const call<ops::InstanceNormalization>& c) {
  const tensor& x = c.input(0);
  const std::int64_t C = x.dim(1);
  ONYX_TRY(require_size(c.input(1), C, "scale"));
  ONYX_TRY(require_size(c.input(2), C, "B"));
  auto scale = as_doubles(c.input(1)), bias = as_doubles(c.input(2));
  normalize_rows(x.data<T>(), c.output(0).data<T>(), x.dim(0) * C, plane_size(x), c.attrs().epsilon, c.pool(),
                 [&](std::int64_t r, std::int64_t, double& s, double& t) {
                   s = scale[r % C];
                   t = bias[r % C];
                 });
  return ok();
}

template <class T> status group_norm(const call<ops::GroupNormalization>& c) {
  const tensor& x = c.input(0);
  const std::int64_t C = x.dim(1), G = c.attrs().num_groups, P = plane_size(x);
  if (G < 1 || C % G != 0)
    return status(errc::invalid_argument, "channels " + std::to_string(C) + " are not divisible by num_groups " +
                                              std::to_string(G));
  ONYX_TRY(require_size(c.input(1), C, "scale"));
  ONYX_TRY(require_size(c.input(2), C, "bias"));
  auto scale = as_doubles(c.input(1)), bias = as_doubles(c.input(2));
  const std::int64_t Cg = C / G;
  normalize_rows(x.data<T>(), c.output(0).data<T>(), x.dim(0) * G, Cg * P, c.attrs().epsilon, c.pool(),
                 [&](std::int64_t r, std::int64_t j, double& s, double& t) {
                   const std::int64_t ch = (r % G) * Cg + j / P;
                   s = scale[ch];
                   t = bias[ch];
                 });
  return ok();
}

/// Index of element j of the normalized block in a tensor of shape `s`
/// broadcast (right-aligned) to `block`.
inline std::vector<std::int64_t> broadcast_index(const extents& s, std::span<const std::int64_t> block) {
  const std::int64_t len = element_count(block);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(len));
  const std::size_t r = block.size(), off = r - s.size();
  for (std::int64_t j = 0; j < len; ++j) {
    std::int64_t rem = j, k = 0, mul = 1;
    for (std::size_t d = r; d-- > 0;) {
      const std::int64_t i = rem % block[d];
      rem /= block[d];
      if (d >= off) {
        const std::int64_t e = s[d - off];
        k += (e == 1 ? 0 : i) * mul;
        mul *= e;
      }
    }
    idx[static_cast<std::size_t>(j)] = k;
  }
  return idx;
}

template <class T> status layer_norm(const call<ops::LayerNormalization>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  std::span<const std::int64_t> block(x.shape().data() + axis, x.rank() - axis);
  const std::int64_t len = element_count(block), rows = len ? x.size() / len : 0;
  float* mean = c.has_output(1) ? c.output(1).data<float>() : nullptr;
  float* inv = c.has_output(2) ? c.output(2).data<float>() : nullptr;
  // float32 with a full scale (and bias) row: the ISA row kernel, in float.
  if constexpr (std::is_same_v<T, float>) {
    const tensor& scale = c.input(1);
    const bool full_bias = !c.has_input(2) || (c.input(2).type() == dtype::float32 && c.input(2).size() == len);
    if (len > 0 && scale.type() == dtype::float32 && scale.size() == len && full_bias) {
      const auto row = isa::active().f32_layer_norm_row;
      const float* xs = x.data<float>();
      float* ys = c.output(0).data<float>();
      const float* sp = scale.data<float>();
      const float* bp = c.has_input(2) ? c.input(2).data<float>() : nullptr;
      const float eps = c.attrs().epsilon;
      parallel_for(c.pool(), rows, grain_for(3 * len), [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t r = b; r < e; ++r) {
          float stats[2];
          row(xs + r * len, nullptr, nullptr, nullptr, ys + r * len, len, sp, bp, eps, stats);
          if (mean) mean[r] = stats[0];
          if (inv) inv[r] = stats[1];
        }
      });
      return ok();
    }
  }
  auto scale = as_doubles(c.input(1));
  auto scale_idx = broadcast_index(c.input(1).shape(), block);
  std::vector<double> bias;
  std::vector<std::int64_t> bias_idx;
  if (c.has_input(2)) {
    bias = as_doubles(c.input(2));
    bias_idx = broadcast_index(c.input(2).shape(), block);
  }
  normalize_rows(
      x.data<T>(), c.output(0).data<T>(), rows, len, c.attrs().epsilon, c.pool(),
      [&](std::int64_t, std::int64_t j, double& s, double& t) {
        s = scale[scale_idx[j]];
        t = bias.empty() ? 0.0 : bias[bias_idx[j]];
      },
      mean, inv);
  return ok();
}

template <class T> status lp_norm(const call<ops::LpNormalization>& c) {
  const tensor& x = c.input(0);
  ONYX_ASSIGN(int axis, ops::normalize_axis(c.attrs().axis, x.rank()));
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= x.dim(d);
  for (std::size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
  const std::int64_t len = x.dim(axis);
  const bool l1 = c.attrs().p == 1;
  const T* xp = x.data<T>();
  T* yp = c.output(0).data<T>();
  parallel_for(c.pool(), outer * inner, grain_for(2 * len), [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t q = lo; q < hi; ++q) {
      const std::int64_t base = (q / inner) * len * inner + q % inner;
      double norm = 0;
      for (std::int64_t j = 0; j < len; ++j) {
        const double v = static_cast<double>(load(xp[base + j * inner]));
        norm += l1 ? std::abs(v) : v * v;
      }
      if (!l1) norm = std::sqrt(norm);
      for (std::int64_t j = 0; j < len; ++j)
        yp[base + j * inner] = store<T>(norm == 0 ? 0.0 : static_cast<double>(load(xp[base + j * inner])) / norm);
    }
  });
  return ok();
}

}  // namespace onyx::kernels::cpu::norm_detail

namespace onyx {

template <> struct kernel<ops::BatchNormalization, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S> static status run(const call<ops::BatchNormalization>& c) {
    return kernels::cpu::norm_detail::batch_norm<storage_t<S[0]>>(c);
  }
};

template <> struct kernel<ops::fused::BatchNormalization, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S> static status run(const call<ops::fused::BatchNormalization>& c) {
    return kernels::cpu::norm_detail::batch_norm_clamped<storage_t<S[0]>>(c);
  }
};

template <> struct kernel<ops::LRN, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S> static status run(const call<ops::LRN>& c) {
    return kernels::cpu::norm_detail::lrn<storage_t<S[0]>>(c);
  }
};

template <> struct kernel<ops::InstanceNormalization, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S> static status run(const call<ops::InstanceNormalization>& c) {
    return kernels::cpu::norm_detail::instance_norm<storage_t<S[0]>>(c);
  }
};

template <> struct kernel<ops::GroupNormalization, cpu> {
  static constexpr std::array types{dtypes::floats};
  template <ops::signature S> static status run(const call<ops::GroupNormalization>& c) {
    return kernels::cpu::norm_detail::group_norm<storage_t<S[0]>>(c);
  }
};

template <> struct kernel<ops::LayerNormalization, cpu> {
  static constexpr std::array types{dtypes::floats};
  template <ops::signature S> static status run(const call<ops::LayerNormalization>& c) {
    return kernels::cpu::norm_detail::layer_norm<storage_t<S[0]>>(c);
  }
};

template <> struct kernel<ops::LpNormalization, cpu> {
  static constexpr std::array types{dtypes::f16 | dtypes::f32 | dtypes::f64};
  template <ops::signature S> static status run(const call<ops::LpNormalization>& c) {
    return kernels::cpu::norm_detail::lp_norm<storage_t<S[0]>>(c);
  }
};

}  // namespace onyx
