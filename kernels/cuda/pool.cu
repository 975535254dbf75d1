// kernels/cuda/pool.cu: windowed and global max and average pooling
// (conv_launch.hpp).
//
// Windowed: one thread per output element; per axis it works out the taps
// inside X ([j0, j1)) and, for count_include_pad, inside the padded extent,
// as the CPU kernel's plan does (kernels/cpu/pool.hpp), then walks them in
// three loops (spatial_window pads fewer axes with unit ones), so padding is
// never read. Indices are 32-bit where they fit (index_fits_int32).
// Global: one block per plane, each thread a strided partial, then a warp
// shuffle and a shared-memory step across the block's warps.
#include <algorithm>
#include <cmath>

#include "kernels/cuda/common.cuh"
#include "kernels/cuda/conv_launch.hpp"

namespace onyx::kernels::cuda {

namespace {

/// Max skips NaN (a NaN never compares greater), as the CPU kernel's 2-D path.
template <pool_fn F>
__device__ __forceinline__ float combine(float acc, float v) {
  if constexpr (F == pool_fn::max)
    return v > acc ? v : acc;
  else
    return acc + v;
}

template <pool_fn F>
__device__ __forceinline__ float identity() {
  if constexpr (F == pool_fn::max)
    return -INFINITY;
  else
    return 0.0f;
}

/// The taps of output index o along axis d: [j0, j1) inside X, and `counted`
/// inside [-pad_begin, in + pad_end) (every tap from the first, since a
/// window never starts before -pad_begin).
template <class I>
struct axis_taps {
  I base, j0, j1, counted;
};

template <class I>
__device__ __forceinline__ axis_taps<I> taps_of(const window_as<I>& w, int d, I o) {
  axis_taps<I> t;
  const I k = w.kernel[d], s = w.dilation[d], in = w.in[d];
  t.base = o * w.stride[d] - w.pad_begin[d];
  t.j0 = t.base >= 0 ? I(0) : (-t.base + s - 1) / s;
  if (t.j0 > k) t.j0 = k;
  if (t.base > in - 1) {
    t.j1 = t.j0;  // the window starts past X (ceil_mode): no tap inside
  } else {
    const I j1 = (in - 1 - t.base) / s + 1;
    t.j1 = j1 < t.j0 ? t.j0 : j1 > k ? k : j1;
  }
  const I room = in + w.pad_end[d] - 1 - t.base;
  t.counted = room < 0 ? I(0) : room / s + 1 > k ? k : room / s + 1;
  return t;
}

template <class T, class I, pool_fn F>
__global__ void pool_kernel(const T* __restrict__ x, T* __restrict__ y, window_as<I> w, I total, I out_size, I in_size,
                            bool include_pad) {
  ONYX_CUDA_FOR(i64, total) {
    const I i = static_cast<I>(i64);
    const I p = i % out_size, q = i / out_size;
    const I o2 = p % w.out[2], p1 = p / w.out[2];
    const I o1 = p1 % w.out[1], o0 = p1 / w.out[1];
    const axis_taps<I> a0 = taps_of(w, 0, o0), a1 = taps_of(w, 1, o1), a2 = taps_of(w, 2, o2);
    const T* xs = x + q * in_size;
    float acc = identity<F>();
    for (I j0 = a0.j0; j0 < a0.j1; ++j0) {
      const I i0 = a0.base + j0 * w.dilation[0];
      for (I j1 = a1.j0; j1 < a1.j1; ++j1) {
        const I row = (i0 * w.in[1] + a1.base + j1 * w.dilation[1]) * w.in[2] + a2.base;
        for (I j2 = a2.j0; j2 < a2.j1; ++j2) acc = combine<F>(acc, load(xs, row + j2 * w.dilation[2]));
      }
    }
    if constexpr (F == pool_fn::average) {
      const I div =
          include_pad ? a0.counted * a1.counted * a2.counted : (a0.j1 - a0.j0) * (a1.j1 - a1.j0) * (a2.j1 - a2.j0);
      acc = div > 0 ? acc / static_cast<float>(div) : 0.0f;
    }
    store(y, i, acc);
  }
}

template <class T, pool_fn F>
__global__ void global_pool_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t planes, std::int64_t size) {
  __shared__ float partial[block_threads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  for (std::int64_t q = blockIdx.x; q < planes; q += gridDim.x) {  // uniform over the block
    const T* xs = x + q * size;
    float acc = identity<F>();
    for (std::int64_t j = threadIdx.x; j < size; j += blockDim.x) acc = combine<F>(acc, load(xs, j));
    for (int off = 16; off > 0; off /= 2) acc = combine<F>(acc, __shfl_down_sync(0xffffffffu, acc, off));
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = lane < warps ? partial[lane] : identity<F>();
      for (int off = 16; off > 0; off /= 2) acc = combine<F>(acc, __shfl_down_sync(0xffffffffu, acc, off));
      if (lane == 0) {
        if constexpr (F == pool_fn::average) acc = size > 0 ? acc / static_cast<float>(size) : 0.0f;
        store(y, q, acc);
      }
    }
    __syncthreads();  // partial is written again for the next plane
  }
}

}  // namespace

status pool(pool_fn f, dtype t, const void* x, void* y, std::int64_t planes, const spatial_window& w,
            bool count_include_pad) {
  const std::int64_t out_size = spatial_size(w.out), in_size = spatial_size(w.in);
  const std::int64_t total = planes * out_size;
  if (total == 0) return ok();
  const bool fits = index_fits_int32(w, std::max(total, planes * in_size));
  return dispatch_float(t, f == pool_fn::max ? "MaxPool" : "AveragePool", [&]<class T>() {
    auto launch = [&]<class I, pool_fn F>() {
      pool_kernel<T, I, F><<<grid_for(total), block_threads, 0, stream()>>>(
          static_cast<const T*>(x), static_cast<T*>(y), window_as<I>(w), static_cast<I>(total),
          static_cast<I>(out_size), static_cast<I>(in_size), count_include_pad);
      return launched("pooling");
    };
    if (fits)
      return f == pool_fn::max ? launch.template operator()<std::int32_t, pool_fn::max>()
                               : launch.template operator()<std::int32_t, pool_fn::average>();
    return f == pool_fn::max ? launch.template operator()<std::int64_t, pool_fn::max>()
                             : launch.template operator()<std::int64_t, pool_fn::average>();
  });
}

status global_pool(pool_fn f, dtype t, const void* x, void* y, std::int64_t planes, std::int64_t size) {
  if (planes == 0) return ok();
  // Small planes (ResNet's 7x7 before the classifier) with a block of two
  // warps, so most threads are not idle; larger ones with the full block.
  const int threads = size <= 64 ? 64 : block_threads;
  const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>(planes, 0x7fffffff));
  return dispatch_float(t, f == pool_fn::max ? "GlobalMaxPool" : "GlobalAveragePool", [&]<class T>() {
    if (f == pool_fn::max)
      global_pool_kernel<T, pool_fn::max>
          <<<blocks, threads, 0, stream()>>>(static_cast<const T*>(x), static_cast<T*>(y), planes, size);
    else
      global_pool_kernel<T, pool_fn::average>
          <<<blocks, threads, 0, stream()>>>(static_cast<const T*>(x), static_cast<T*>(y), planes, size);
    return launched("global pooling");
  });
}

}  // namespace onyx::kernels::cuda
