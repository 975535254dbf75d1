// kernels/cuda/conv.cu: im2col for the convolution GEMMs, the direct
// depthwise convolution, and BatchNormalization's inference form
// (conv_launch.hpp).
//
// Every kernel here is one thread per element of its output with a
// grid-stride loop; windows always have three spatial axes (conv_launch.hpp's
// spatial_window pads fewer with unit axes), and indices are 32-bit where
// they fit (index_fits_int32), since the per-element unravelling divides.
#include <cuda_bf16.h>

#include <algorithm>

#include "kernels/cuda/common.cuh"
#include "kernels/cuda/conv_launch.hpp"

namespace onyx::kernels::cuda {

namespace {

/// im2col moves elements without arithmetic: W is an unsigned integer of the
/// element's width, and 0 bits are +0.0 in float32 and float16 alike.
template <class W, class I>
__global__ void im2col_kernel(const W* __restrict__ x, W* __restrict__ col, window_as<I> w, I total, I taps, I P,
                              I in_size) {
  ONYX_CUDA_FOR(i64, total) {
    const I i = static_cast<I>(i64);
    const I p = i % P, r = i / P;
    const I t = r % taps, q = r / taps;  // kernel tap, input plane
    const I o2 = p % w.out[2], p1 = p / w.out[2];
    const I o1 = p1 % w.out[1], o0 = p1 / w.out[1];
    const I k2 = t % w.kernel[2], t1 = t / w.kernel[2];
    const I k1 = t1 % w.kernel[1], k0 = t1 / w.kernel[1];
    const I i0 = o0 * w.stride[0] - w.pad_begin[0] + k0 * w.dilation[0];
    const I i1 = o1 * w.stride[1] - w.pad_begin[1] + k1 * w.dilation[1];
    const I i2 = o2 * w.stride[2] - w.pad_begin[2] + k2 * w.dilation[2];
    W v = 0;
    if (i0 >= 0 && i0 < w.in[0] && i1 >= 0 && i1 < w.in[1] && i2 >= 0 && i2 < w.in[2])
      v = x[q * in_size + (i0 * w.in[1] + i1) * w.in[2] + i2];
    col[i] = v;
  }
}

/// One output element per thread: its taps walked in three loops, those in
/// the padding skipped, then bias, residual and activation.
template <class T, class I>
__global__ void depthwise_kernel(const T* __restrict__ x, const T* __restrict__ wt, const T* __restrict__ bias,
                                 const T* residual, T* y, window_as<I> w, I total, I C, I M, I per_group, I P,
                                 I in_size, I taps, activation act, float lo, float hi) {
  ONYX_CUDA_FOR(i64, total) {
    const I i = static_cast<I>(i64);
    const I p = i % P, nm = i / P;
    const I m = nm % M, n = nm / M;
    const I o2 = p % w.out[2], p1 = p / w.out[2];
    const I o1 = p1 % w.out[1], o0 = p1 / w.out[1];
    const I b0 = o0 * w.stride[0] - w.pad_begin[0];
    const I b1 = o1 * w.stride[1] - w.pad_begin[1];
    const I b2 = o2 * w.stride[2] - w.pad_begin[2];
    const T* xs = x + (n * C + m / per_group) * in_size;
    const T* ws = wt + m * taps;
    float acc = 0.0f;
    for (I k0 = 0; k0 < w.kernel[0]; ++k0) {
      const I i0 = b0 + k0 * w.dilation[0];
      if (i0 < 0 || i0 >= w.in[0]) continue;
      for (I k1 = 0; k1 < w.kernel[1]; ++k1) {
        const I i1 = b1 + k1 * w.dilation[1];
        if (i1 < 0 || i1 >= w.in[1]) continue;
        const I row = (i0 * w.in[1] + i1) * w.in[2];
        const I wrow = (k0 * w.kernel[1] + k1) * w.kernel[2];
        for (I k2 = 0; k2 < w.kernel[2]; ++k2) {
          const I i2 = b2 + k2 * w.dilation[2];
          if (i2 < 0 || i2 >= w.in[2]) continue;
          acc += load(ws, wrow + k2) * load(xs, row + i2);
        }
      }
    }
    if (bias) acc += load(bias, m);
    if (residual) acc += load(residual, i);
    store(y, i, activate(act, acc, lo, hi));
  }
}

/// A parameter vector's element in float, whatever its float type.
__device__ __forceinline__ float load_param(const void* p, dtype t, std::int64_t i) {
  switch (t) {
    case dtype::float16:
      return __half2float(static_cast<const __half*>(p)[i]);
    case dtype::bfloat16:
      return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case dtype::float64:
      return static_cast<float>(static_cast<const double*>(p)[i]);
    default:
      return static_cast<const float*>(p)[i];
  }
}

template <class T, class I>
__global__ void batch_norm_kernel(const T* x, T* y, batch_norm_args a, I total, I C, I plane) {
  ONYX_CUDA_FOR(i64, total) {
    const I i = static_cast<I>(i64);
    const I c = (i / plane) % C;
    const float scale = load_param(a.scale, a.scale_t, c) / sqrtf(load_param(a.var, a.var_t, c) + a.epsilon);
    const float shift = load_param(a.bias, a.bias_t, c) - load_param(a.mean, a.mean_t, c) * scale;
    store(y, i, fmaf(load(x, i), scale, shift));
  }
}

/// Calls f.template operator()<I>() with I = std::int32_t when `fits`, else std::int64_t.
template <class F>
status dispatch_index(bool fits, F&& f) {
  if (fits) return f.template operator()<std::int32_t>();
  return f.template operator()<std::int64_t>();
}

bool float_param(dtype t) {
  return t == dtype::float32 || t == dtype::float16 || t == dtype::bfloat16 || t == dtype::float64;
}

}  // namespace

status im2col(int width, const void* x, void* col, std::int64_t planes, const spatial_window& w) {
  const std::int64_t taps = spatial_size(w.kernel), P = spatial_size(w.out), in_size = spatial_size(w.in);
  const std::int64_t total = planes * taps * P;
  if (total == 0) return ok();
  const bool fits = index_fits_int32(w, std::max(total, planes * in_size));
  auto launch = [&]<class W>() {
    return dispatch_index(fits, [&]<class I>() {
      im2col_kernel<W, I><<<grid_for(total), block_threads, 0, stream()>>>(
          static_cast<const W*>(x), static_cast<W*>(col), window_as<I>(w), static_cast<I>(total), static_cast<I>(taps),
          static_cast<I>(P), static_cast<I>(in_size));
      return launched("im2col");
    });
  };
  if (width == 2) return launch.template operator()<std::uint16_t>();
  if (width == 4) return launch.template operator()<std::uint32_t>();
  return status(errc::unsupported, "im2col: elements of " + std::to_string(width) + " bytes");
}

status depthwise_conv(const depthwise_args& a) {
  const std::int64_t taps = spatial_size(a.win.kernel), P = spatial_size(a.win.out), in_size = spatial_size(a.win.in);
  const std::int64_t total = a.n * a.m * P;
  if (total == 0) return ok();
  if (a.c < 1 || a.m % a.c != 0)
    return status(errc::internal, "depthwise convolution: " + std::to_string(a.m) + " output channels over " +
                                      std::to_string(a.c) + " groups");
  const bool fits = index_fits_int32(a.win, std::max({total, a.n * a.c * in_size, a.m * taps}));
  return dispatch_float(a.t, "Conv", [&]<class T>() {
    return dispatch_index(fits, [&]<class I>() {
      depthwise_kernel<T, I><<<grid_for(total), block_threads, 0, stream()>>>(
          static_cast<const T*>(a.x), static_cast<const T*>(a.w), static_cast<const T*>(a.bias),
          static_cast<const T*>(a.residual), static_cast<T*>(a.y), window_as<I>(a.win), static_cast<I>(total),
          static_cast<I>(a.c), static_cast<I>(a.m), static_cast<I>(a.m / a.c), static_cast<I>(P),
          static_cast<I>(in_size), static_cast<I>(taps), a.act, a.lo, a.hi);
      return launched("depthwise convolution");
    });
  });
}

status batch_norm(const batch_norm_args& a) {
  if (a.n == 0) return ok();
  if (a.channels < 1 || a.plane < 1)
    return status(errc::internal, "BatchNormalization: " + std::to_string(a.n) + " elements in " +
                                      std::to_string(a.channels) + " channels of " + std::to_string(a.plane));
  for (dtype p : {a.scale_t, a.bias_t, a.mean_t, a.var_t})
    if (!float_param(p))
      return status(errc::unsupported,
                    "BatchNormalization: no CUDA kernel for parameters of type " + std::string(name(p)));
  const bool fits = a.n < 2147483647;
  return dispatch_float(a.t, "BatchNormalization", [&]<class T>() {
    return dispatch_index(fits, [&]<class I>() {
      batch_norm_kernel<T, I><<<grid_for(a.n), block_threads, 0, stream()>>>(
          static_cast<const T*>(a.x), static_cast<T*>(a.y), a, static_cast<I>(a.n), static_cast<I>(a.channels),
          static_cast<I>(a.plane));
      return launched("BatchNormalization");
    });
  });
}

}  // namespace onyx::kernels::cuda
