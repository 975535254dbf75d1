// kernels/cuda/conv_launch.hpp: the launchers of the convolution, pooling and
// BatchNormalization kernels (conv.cu, pool.cu).
//
// Plain C++ declarations (no CUDA header), like launch.hpp: every launcher
// queues its work on the calling thread's stream and returns at once, its
// status reporting launch errors only. Pointers are device pointers.
// Element types: float32 and float16 (computed in float), unless said otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/cuda/launch.hpp"

namespace onyx::kernels::cuda {

/// The most spatial axes the window kernels take (1-D, 2-D and 3-D).
inline constexpr int max_spatial = 3;

/// The product of a geometry's max_spatial extents (unused axes hold 1).
inline std::int64_t spatial_size(const std::int64_t* v) {
  std::int64_t n = 1;
  for (int d = 0; d < max_spatial; ++d) n *= v[d];
  return n;
}

/// A sliding window over exactly three spatial axes, outermost first: a
/// window of fewer axes is given leading unit axes (in, out, kernel, stride
/// and dilation 1, no padding), so every kernel walks three fixed loops.
/// Per axis, output o reads taps o * stride - pad_begin + j * dilation for
/// j in [0, kernel).
struct spatial_window {
  std::int64_t in[max_spatial] = {1, 1, 1};
  std::int64_t out[max_spatial] = {1, 1, 1};
  std::int64_t kernel[max_spatial] = {1, 1, 1};
  std::int64_t stride[max_spatial] = {1, 1, 1};
  std::int64_t dilation[max_spatial] = {1, 1, 1};
  std::int64_t pad_begin[max_spatial] = {};
  std::int64_t pad_end[max_spatial] = {};
};

/// The concrete geometry `axes` (ops::detail::window_axis per spatial axis,
/// outermost first) as a spatial_window, or errc::unsupported past
/// max_spatial axes. A template so this header needs no op header.
template <class Axes>
result<spatial_window> spatial_window_of(const Axes& axes) {
  const std::size_t rank = axes.size();
  if (rank < 1 || rank > static_cast<std::size_t>(max_spatial))
    return status(errc::unsupported, "the CUDA window kernels take 1 to " + std::to_string(max_spatial) +
                                         " spatial axes, got " + std::to_string(rank));
  spatial_window w;
  const std::size_t lead = static_cast<std::size_t>(max_spatial) - rank;
  for (std::size_t i = 0; i < rank; ++i) {
    w.in[lead + i] = axes[i].in;
    w.out[lead + i] = axes[i].out;
    w.kernel[lead + i] = axes[i].kernel;
    w.stride[lead + i] = axes[i].stride;
    w.dilation[lead + i] = axes[i].dilation;
    w.pad_begin[lead + i] = axes[i].pad_begin;
    w.pad_end[lead + i] = axes[i].pad_end;
  }
  return w;
}

/// A spatial_window in the index type I the kernels compute with:
/// std::int32_t where index_fits_int32 says so (64-bit division costs a GPU
/// several times 32-bit's, and the window kernels divide per element), else
/// std::int64_t.
template <class I>
struct window_as {
  I in[max_spatial], out[max_spatial], kernel[max_spatial], stride[max_spatial], dilation[max_spatial],
      pad_begin[max_spatial], pad_end[max_spatial];
  explicit window_as(const spatial_window& w) {
    for (int d = 0; d < max_spatial; ++d) {
      in[d] = static_cast<I>(w.in[d]);
      out[d] = static_cast<I>(w.out[d]);
      kernel[d] = static_cast<I>(w.kernel[d]);
      stride[d] = static_cast<I>(w.stride[d]);
      dilation[d] = static_cast<I>(w.dilation[d]);
      pad_begin[d] = static_cast<I>(w.pad_begin[d]);
      pad_end[d] = static_cast<I>(w.pad_end[d]);
    }
  }
};

/// Whether every index a window kernel forms fits in 32 bits: array indices
/// below `elements` (the largest array it touches), and per axis the tap
/// positions o * stride - pad_begin + j * dilation, the padded extent and
/// the tap-range arithmetic of pool.cu, all bounded by the sum below.
inline bool index_fits_int32(const spatial_window& w, std::int64_t elements) {
  constexpr double limit = 2147483647.0;
  if (static_cast<double>(elements) >= limit) return false;
  for (int d = 0; d < max_spatial; ++d) {
    const double reach = static_cast<double>(w.out[d]) * static_cast<double>(w.stride[d]) +
                         static_cast<double>(w.kernel[d]) * static_cast<double>(w.dilation[d]) +
                         static_cast<double>(w.in[d]) + static_cast<double>(w.pad_begin[d]) +
                         static_cast<double>(w.pad_end[d]);
    if (reach >= limit) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Convolution (conv.cu)

/// The im2col matrix of `planes` input planes (images x channels, each
/// prod(w.in) elements of `width` bytes, 2 or 4): plane q, kernel tap t
/// (kernel indices, the last axis fastest) and output position p (likewise)
/// land at col[(q * taps + t) * P + p], 0 where the tap lies in the padding.
/// Per image this is the K x P matrix of every group, group after group.
status im2col(int width, const void* x, void* col, std::int64_t planes, const spatial_window& w);

/// A direct convolution where every group has one input channel (depthwise,
/// with any channel multiplier):
///   y[n, m, p] = act(bias[m] + residual[n, m, p] + sum_t w[m, t] * x[n, m / (M / C), tap t of p])
/// with bias and residual optional (null), clip bounding act to [lo, hi].
struct depthwise_args {
  dtype t = dtype::float32;
  const void* x = nullptr;
  const void* w = nullptr;  // M x prod(kernel)
  const void* bias = nullptr;
  const void* residual = nullptr;
  void* y = nullptr;
  std::int64_t n = 0, c = 0, m = 0;  // images, input channels (= groups), output channels
  spatial_window win;
  activation act = activation::none;
  float lo = 0, hi = 0;
};
status depthwise_conv(const depthwise_args& a);

/// BatchNormalization's inference form over `n` elements of X (N x C x plane):
///   y = (x - mean[c]) * scale[c] / sqrt(var[c] + epsilon) + bias[c]
/// X and Y float32 or float16; each parameter vector of its own float type
/// (float32, float16, bfloat16 or float64).
struct batch_norm_args {
  dtype t = dtype::float32;
  const void* x = nullptr;
  void* y = nullptr;
  std::int64_t n = 0, channels = 0, plane = 0;
  const void* scale = nullptr;
  const void* bias = nullptr;
  const void* mean = nullptr;
  const void* var = nullptr;
  dtype scale_t = dtype::float32, bias_t = dtype::float32, mean_t = dtype::float32, var_t = dtype::float32;
  float epsilon = 1e-5f;
};
status batch_norm(const batch_norm_args& a);

// ---------------------------------------------------------------------------
// Pooling (pool.cu)

enum class pool_fn : std::uint8_t { max, average };

/// Y[q, p] = the max or mean over the taps of window p inside plane q of X,
/// for `planes` planes. Padding never counts for max (a window with no tap
/// inside gives -inf; NaN never wins, as the CPU's 2-D path); average divides
/// by the taps inside X, or with `count_include_pad` by the taps inside the
/// padded extent [-pad_begin, in + pad_end).
status pool(pool_fn f, dtype t, const void* x, void* y, std::int64_t planes, const spatial_window& w,
            bool count_include_pad);

/// y[q] = the max or mean of the `size` elements of plane q, for `planes` planes.
status global_pool(pool_fn f, dtype t, const void* x, void* y, std::int64_t planes, std::int64_t size);

}  // namespace onyx::kernels::cuda
