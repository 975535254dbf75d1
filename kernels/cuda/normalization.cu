// kernels/cuda/normalization.cu: Softmax, LogSoftmax and the layer
// normalizations (transformer_launch.hpp).
//
// Rows along the last axis get one block each (row_threads: one element per
// thread up to 512), which reduces with warp shuffles (block_reduce.cuh) and
// reads the row again for each pass instead of holding it: rows are short
// (a hidden size, a sequence length), so the re-reads hit L1/L2. Softmax
// along an inner axis (inner > 1) gives each thread one column instead, so
// neighbouring threads read neighbouring elements.
#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/transformer_launch.hpp"

namespace onyx::kernels::cuda {

namespace {

/// Softmax or log-softmax of contiguous rows of `len`, one block per row.
template <class T, softmax_kind K>
__global__ void softmax_rows(const T* x, T* y, std::int64_t rows, std::int64_t len) {
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* xr = x + r * len;
    T* yr = y + r * len;
    float m = -INFINITY;
    for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) m = fmaxf(m, load(xr, j));
    m = block_max(m);
    float s = 0.0f;
    for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) s += expf(load(xr, j) - m);
    s = block_sum(s);
    // Each thread reads x[j] before writing y[j] for its own j only, so y may be x.
    if constexpr (K == softmax_kind::softmax) {
      const float inv = 1.0f / s;
      for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) store(yr, j, expf(load(xr, j) - m) * inv);
    } else {
      const float shift = m + logf(s);
      for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) store(yr, j, load(xr, j) - shift);
    }
  }
}

/// The same along a middle axis: one thread per (outer, inner) column.
template <class T, softmax_kind K>
__global__ void softmax_columns(const T* x, T* y, std::int64_t outer, std::int64_t len, std::int64_t inner) {
  ONYX_CUDA_FOR(q, outer * inner) {
    const std::int64_t base = (q / inner) * len * inner + q % inner;
    float m = -INFINITY;
    for (std::int64_t j = 0; j < len; ++j) m = fmaxf(m, load(x, base + j * inner));
    float s = 0.0f;
    for (std::int64_t j = 0; j < len; ++j) s += expf(load(x, base + j * inner) - m);
    if constexpr (K == softmax_kind::softmax) {
      const float inv = 1.0f / s;
      for (std::int64_t j = 0; j < len; ++j) store(y, base + j * inner, expf(load(x, base + j * inner) - m) * inv);
    } else {
      const float shift = m + logf(s);
      for (std::int64_t j = 0; j < len; ++j) store(y, base + j * inner, load(x, base + j * inner) - shift);
    }
  }
}

template <class T>
__device__ __forceinline__ float param(const row_param& p, std::int64_t j) {
  return load(static_cast<const T*>(p.p), (j / p.div) % p.period);
}

/// Three passes per row: the sum (writing s where asked), the sum of squared
/// deviations (two passes rather than E[x^2] - E[x]^2, which cancels badly),
/// then the normalized output.
template <class T>
__global__ void layer_norm_rows(layer_norm_args a) {
  const std::int64_t rows = a.outer * a.inner, len = a.len;
  const T* x = static_cast<const T*>(a.x);
  const T* skip = static_cast<const T*>(a.skip);
  const T* add = static_cast<const T*>(a.add);
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const std::int64_t o = r / a.inner, i = r % a.inner;
    const T* xr = x + o * a.x_stride[0] + i * a.x_stride[1];
    const T* kr = skip ? skip + o * a.skip_stride[0] + i * a.skip_stride[1] : nullptr;
    T* yr = static_cast<T*>(a.y) + r * len;
    T* sr = a.sum ? static_cast<T*>(a.sum) + r * len : nullptr;
    auto value = [&](std::int64_t j) {
      float v = load(xr, j);
      if (kr) v += load(kr, j);
      if (add) v += load(add, j);
      return v;
    };
    float s = 0.0f;
    for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) {
      const float v = value(j);
      if (sr) store(sr, j, v);
      s += v;
    }
    s = block_sum(s);
    const float mean = a.rms ? 0.0f : s / static_cast<float>(len);
    float q = 0.0f;
    for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) {
      const float d = value(j) - mean;
      q += d * d;
    }
    q = block_sum(q);
    const float inv = 1.0f / sqrtf(q / static_cast<float>(len) + a.epsilon);
    // As in softmax_rows, y[j] is written after x[j] was read, by the same thread.
    for (std::int64_t j = threadIdx.x; j < len; j += blockDim.x) {
      float v = (value(j) - mean) * inv;
      if (a.scale.p) v *= param<T>(a.scale, j);
      if (a.shift.p) v += param<T>(a.shift, j);
      store(yr, j, v);
    }
    if (threadIdx.x == 0) {
      if (a.mean) a.mean[r] = mean;
      if (a.inv_std) a.inv_std[r] = inv;
    }
  }
}

template <class T, softmax_kind K>
status softmax_as(const void* x, void* y, std::int64_t outer, std::int64_t len, std::int64_t inner) {
  const T* xs = static_cast<const T*>(x);
  T* ys = static_cast<T*>(y);
  if (inner == 1)
    softmax_rows<T, K><<<row_blocks(outer), row_threads(len), 0, stream()>>>(xs, ys, outer, len);
  else
    softmax_columns<T, K><<<grid_for(outer * inner), block_threads, 0, stream()>>>(xs, ys, outer, len, inner);
  return launched(K == softmax_kind::softmax ? "Softmax" : "LogSoftmax");
}

}  // namespace

status softmax(softmax_kind k, dtype t, const void* x, void* y, std::int64_t outer, std::int64_t len,
               std::int64_t inner) {
  if (outer * len * inner == 0) return ok();
  return dispatch_float(t, "Softmax", [&]<class T>() {
    return k == softmax_kind::softmax ? softmax_as<T, softmax_kind::softmax>(x, y, outer, len, inner)
                                      : softmax_as<T, softmax_kind::log_softmax>(x, y, outer, len, inner);
  });
}

status layer_norm(const layer_norm_args& a) {
  const std::int64_t rows = a.outer * a.inner;
  if (rows == 0 || a.len == 0) return ok();
  for (const row_param* p : {&a.scale, &a.shift})
    if (p->p && (p->div < 1 || p->period < 1))
      return status(errc::internal, "layer normalization: a parameter with a broadcast of zero elements");
  return dispatch_float(a.t, "layer normalization", [&]<class T>() {
    layer_norm_rows<T><<<row_blocks(rows), row_threads(a.len), 0, stream()>>>(a);
    return launched("layer normalization");
  });
}

}  // namespace onyx::kernels::cuda
